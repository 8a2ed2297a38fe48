import { Forbidden, NotFound } from '../../shared/domain-errors.ts';
import { RawResponse, requireUser, type Handlers } from '../../shared/operations.ts';
import { API_KEY_PREFIX, type ApiKeysService } from './service.ts';

/** In oss mode there are no accounts to make keys for: the operations answer 404. */
export function apiKeysHandlers(keys: ApiKeysService, hosted: boolean): Handlers {
  // Keys do not manage keys: a leaked key could otherwise mint others that outlive its revocation.
  const hostedOnly = (ctx: { token: string | null }) => {
    if (!hosted) throw new NotFound('API keys exist on the hosted service only');
    if (ctx.token?.startsWith(API_KEY_PREFIX))
      throw new Forbidden('API keys cannot list, create or revoke API keys: sign in to manage them.');
  };
  return {
    listApiKeys: async (ctx) => {
      hostedOnly(ctx);
      return { api_keys: await keys.list(requireUser(ctx).id) };
    },
    createApiKey: async (ctx) => {
      hostedOnly(ctx);
      return new RawResponse(201, await keys.create(requireUser(ctx).id, ctx.body.name));
    },
    revokeApiKey: async (ctx) => {
      hostedOnly(ctx);
      await keys.revoke(requireUser(ctx).id, ctx.params.key_id);
      return { success: true };
    },
  };
}
