import type { Db } from '../../db/index.ts';
import { requireUser, type Handlers } from '../../shared/operations.ts';
import {
  balanceMicros,
  listCategoryTransactions,
  listConversationGroups,
  listOtherTransactions,
  microsToDollars,
} from '../credits/index.ts';
import { conversationTitles, isUsersConversation } from '../conversations/index.ts';

/** The billing history's lists and the billing view's balance. */
export function billingHistoryHandlers(db: Db): Handlers {
  return {
    getBillingCredits: async (ctx) => ({ credits: microsToDollars(await balanceMicros(db, requireUser(ctx).id)) }),
    listOtherTransactions: async (ctx) =>
      listOtherTransactions(db, requireUser(ctx).id, ctx.query.page ?? 1, ctx.query.per_page ?? 5),
    listConversationGroupTransactions: async (ctx) => {
      const userId = requireUser(ctx).id;
      return listConversationGroups(db, userId, ctx.query.page ?? 1, ctx.query.per_page ?? 10, (ids) =>
        conversationTitles(db, userId, ids),
      );
    },
    listCategoryTransactions: async (ctx) => {
      const userId = requireUser(ctx).id;
      return listCategoryTransactions(
        db,
        userId,
        ctx.params.conversation_id,
        {
          category: ctx.query.category,
          ...(ctx.query.subcategory && { subcategory: ctx.query.subcategory }),
          page: ctx.query.page ?? 1,
          perPage: ctx.query.per_page ?? 10,
        },
        (conversationId) => isUsersConversation(db, userId, conversationId),
      );
    },
  };
}
