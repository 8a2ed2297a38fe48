import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { identityHandlers } from './handlers.ts';
import { createIdentityService, type IdentityDeps } from './service.ts';

export { signInTokenRefresh, type IdentityService } from './service.ts';

export function createIdentityModule({ db, config, ...deps }: IdentityDeps & { db: Db; config: Config }) {
  const service = createIdentityService(db, config, deps);
  return { service, handlers: identityHandlers(service) };
}
