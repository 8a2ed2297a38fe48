import type { Db } from '../../db/index.ts';
import { billingHistoryHandlers } from './history.ts';
import { paymentsHandlers } from './handlers.ts';
import { createPaymentsService, type PaymentsDeps } from './service.ts';

export { listPurchases, recordRefund, RefundTooLarge } from './refunds.ts';
export { createStripeProvider, type StripeConfig } from './stripe-provider.ts';
export { TEST_PAYMENT_PREFIX, testPaymentProvider } from './test-provider.ts';
export type { CardInput, CardSetup, PaymentProvider } from './provider.ts';

export function createBillingModule({ db, ...deps }: PaymentsDeps & { db: Db }) {
  const service = createPaymentsService(db, deps);
  return { service, handlers: { ...paymentsHandlers(service), ...billingHistoryHandlers(db) } };
}
