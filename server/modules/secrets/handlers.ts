import { requireUser, type Handlers } from '../../shared/operations.ts';
import type { SecretsService } from './service.ts';

export function secretsHandlers(secrets: SecretsService): Handlers {
  return {
    listSecrets: async (ctx) => ({ custom_secrets: await secrets.list(requireUser(ctx).id) }),
    createSecret: async (ctx) => {
      await secrets.create(requireUser(ctx).id, ctx.body);
      return { success: true };
    },
    updateSecret: async (ctx) => {
      await secrets.update(requireUser(ctx).id, ctx.params.name, ctx.body);
      return { success: true };
    },
    deleteSecret: async (ctx) => {
      await secrets.remove(requireUser(ctx).id, ctx.params.name);
      return { success: true };
    },
  };
}
