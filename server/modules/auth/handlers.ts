import { NotFound } from '../../shared/domain-errors.ts';
import { requireUser, type Handlers } from '../../shared/operations.ts';
import type { AuthService } from './service.ts';

export function authHandlers(auth: AuthService, hosted: boolean): Handlers {
  // oss mode has one local user and no accounts: nothing to verify.
  const hostedOnly = () => {
    if (!hosted) throw new NotFound('Not found');
  };
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
    updateCurrentUser: async (ctx) => auth.updateProfile(requireUser(ctx).id, ctx.body.fullname),
    getAuthCredits: async (ctx) => auth.credits(requireUser(ctx).id),
    verifyEmail: async (ctx) => {
      hostedOnly();
      return auth.verifyEmail(ctx.body.token);
    },
    resendEmailVerification: async (ctx) => {
      hostedOnly();
      return auth.resendEmailVerification(requireUser(ctx).id);
    },
    sendUsageAgreement: async (ctx) => {
      hostedOnly();
      return auth.sendUsageAgreement(requireUser(ctx).id);
    },
    signUsageAgreement: async (ctx) => {
      hostedOnly();
      return auth.signUsageAgreement(ctx.body.token);
    },
  };
}
