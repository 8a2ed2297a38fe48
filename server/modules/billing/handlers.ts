import { requireUser, type Handlers } from '../../shared/operations.ts';
import type { PaymentsService } from './service.ts';

/** The Idempotency-Key header (its shape checked by the contract). */
const idempotencyKeyOf = (headers: Record<string, string | string[] | undefined>) => {
  const key = headers['idempotency-key'];
  return typeof key === 'string' ? key : undefined;
};

export function paymentsHandlers(payments: PaymentsService): Handlers {
  return {
    purchaseCredits: async (ctx) =>
      payments.purchase(requireUser(ctx).id, ctx.body.amount, idempotencyKeyOf(ctx.headers)),
    createCheckoutSession: async (ctx) =>
      payments.checkout(requireUser(ctx).id, ctx.body.amount, idempotencyKeyOf(ctx.headers)),
    createCustomerSetupSession: async (ctx) => payments.setup(requireUser(ctx).id, ctx.body?.return_to ?? 'profile'),
    receivePaymentWebhook: async (ctx) => {
      const signature = ctx.headers['stripe-signature'];
      return payments.notification(ctx.rawBody, typeof signature === 'string' ? signature : undefined);
    },
  };
}
