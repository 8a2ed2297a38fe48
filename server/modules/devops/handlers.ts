import { requireUser, type Handlers } from '../../shared/operations.ts';
import type { DevopsService } from './service.ts';

export function devopsHandlers(devops: DevopsService): Handlers {
  return {
    getDevopsHistory: async (ctx) => devops.history(requireUser(ctx).id, ctx.params.session_id),
    executeDevops: async (ctx) => devops.execute(requireUser(ctx).id, ctx.body),
  };
}
