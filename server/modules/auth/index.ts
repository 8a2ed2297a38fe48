import type { Db } from '../../db/index.ts';
import { authHandlers } from './handlers.ts';
import { createAuthService, type AuthOptions } from './service.ts';

export { LOCAL_USER, USER_CHANGED, type AuthService } from './service.ts';
export { findUserId, listUsers, setUserActive } from './admin.ts';
export { accountsWithReferral, activateUser, findUser, lockUser } from './lookup.ts';
export { SESSION_CACHE_TTL_MS } from './session-cache.ts';
export { checkPassword, hashPassword } from './passwords.ts';
export { hashToken, newToken, TOKEN_LIFETIME_MS } from './tokens.ts';

export function createAuthModule({ db, hosted, ...options }: AuthOptions & { db: Db; hosted: boolean }) {
  const service = createAuthService(db, options);
  return { service, handlers: authHandlers(service, hosted) };
}
