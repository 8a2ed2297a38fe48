import type { Handlers } from '../../shared/operations.ts';
import type { IdentityService } from './service.ts';

export function identityHandlers(identity: IdentityService): Handlers {
  return { identityCallback: async (ctx) => identity.signIn(ctx.params.identity, ctx.body) };
}
