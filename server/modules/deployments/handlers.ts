import { requireUser, type Handlers } from '../../shared/operations.ts';
import type { DeploymentsService } from './service.ts';

export function deploymentsHandlers(deployments: DeploymentsService): Handlers {
  return {
    listDeployments: async (ctx) => deployments.list(requireUser(ctx).id, ctx.params.conversation_id),
    deleteDeployment: async (ctx) => {
      await deployments.destroy(requireUser(ctx).id, ctx.params.conversation_id, ctx.params.droplet_name);
      return { success: true };
    },
  };
}
