import type { Db } from '../../db/index.ts';
import { requireUser, type Handlers } from '../../shared/operations.ts';
import { createLayouts } from './layouts.ts';

export function userHandlers(db: Db): Handlers {
  const layouts = createLayouts(db);
  return {
    listLayouts: async (ctx) => ({ layouts: await layouts.list(requireUser(ctx).id) }),
    saveLayout: async (ctx) => layouts.save(requireUser(ctx).id, ctx.params.name, ctx.body.layout),
    deleteLayout: async (ctx) => {
      await layouts.remove(requireUser(ctx).id, ctx.params.name);
      return { success: true };
    },
  };
}
