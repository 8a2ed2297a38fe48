import type { Handlers } from '../../shared/operations.ts';
import { requireUser } from '../../shared/operations.ts';
import type { AuthService } from './service.ts';

export { createAuthService, LOCAL_USER, type AuthService } from './service.ts';

export function authHandlers(auth: AuthService): Handlers {
  const endSession = async (ctx: { token: string | null }) => {
    if (ctx.token) await auth.logout(ctx.token);
    return { success: true };
  };
  return {
    register: async (ctx) => auth.register(ctx.body, ctx.ip),
    login: async (ctx) => auth.login(ctx.body, ctx.ip),
    logout: endSession,
    logoutSession: endSession,
    authenticate: async () => ({ success: true }),
    getCurrentUser: async (ctx) => auth.currentUser(requireUser(ctx).id),
    getAuthCredits: async (ctx) => auth.credits(requireUser(ctx).id),
  };
}
export { findUserId, listUsers, setUserActive } from './admin.ts';
export { findUser } from './lookup.ts';
