import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import type { Handlers } from '../shared/operations.ts';
import { authHandlers, createAuthService } from './auth/index.ts';
import { optionsHandlers } from './options/index.ts';
import { systemHandlers } from './system/index.ts';

/** Builds every module once; the http layer binds their handlers to the contract's operations. */
export function createModules(config: Config, database: Database) {
  const auth = createAuthService(database.db, { rateLimit: config.authRateLimit });
  const handlers: Handlers = {
    ...systemHandlers(database),
    ...authHandlers(auth),
    ...optionsHandlers(config),
  };
  return { auth, handlers };
}

export type Modules = ReturnType<typeof createModules>;
