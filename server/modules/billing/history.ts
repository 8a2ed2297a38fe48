import type { Db } from '../../db/index.ts';
import { requireUser, type Handlers } from '../../shared/operations.ts';
import {
  balanceMicros,
  listCategoryTransactions,
  listConversationGroups,
  listOtherTransactions,
  microsToDollars,
} from '../credits/index.ts';

/** The billing history's lists and the billing view's balance. */
export function billingHistoryHandlers(db: Db): Handlers {
  return {
    getBillingCredits: async (ctx) => ({ credits: microsToDollars(await balanceMicros(db, requireUser(ctx).id)) }),
    listOtherTransactions: async (ctx) =>
      listOtherTransactions(db, requireUser(ctx).id, ctx.query.page ?? 1, ctx.query.per_page ?? 5),
    listConversationGroupTransactions: async (ctx) =>
      listConversationGroups(db, requireUser(ctx).id, ctx.query.page ?? 1, ctx.query.per_page ?? 10),
    listCategoryTransactions: async (ctx) =>
      listCategoryTransactions(db, requireUser(ctx).id, ctx.params.conversation_id, {
        category: ctx.query.category,
        ...(ctx.query.subcategory && { subcategory: ctx.query.subcategory }),
        page: ctx.query.page ?? 1,
        perPage: ctx.query.per_page ?? 10,
      }),
  };
}
