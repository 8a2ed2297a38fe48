import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { creditLedger } from '../../db/schema.ts';
import { HttpError } from '../../shared/http-error.ts';
import { reversePurchaseCommissions } from '../affiliates/index.ts';
import { microsToDollars, takeBackCredit } from '../credits/index.ts';

export const REFUND_TOO_LARGE = 'A refund cannot be more than the purchase.';

/** The ledger key of a purchase by its provider reference (payments/index.ts credits it under it). */
export const purchaseKey = (reference: string) => `purchase:${reference}`;

/** Ledger rows of completed purchases, with `more` conditions. */
const completedPurchases = (...more: SQL[]) =>
  and(eq(creditLedger.transactionType, 'purchase'), eq(creditLedger.status, 'completed'), ...more);

/**
 * Records a refund of a completed purchase, once per refund id however often it arrives: the
 * refunded credit is taken back (what the customer already spent stays spent) and the
 * affiliates' commissions on the purchase are reversed in proportion. `amountMicros` defaults
 * to the whole purchase; null when no completed purchase has the reference. The payment provider refunds the money (Stripe: its dashboard or API,
 * reported by webhook) and bounds the total; each refund is at most the purchase.
 */
export async function recordRefund(
  db: Db,
  refund: { reference: string; refundId: string; amountMicros?: bigint; at?: Date },
) {
  const key = purchaseKey(refund.reference);
  const [purchase] = await db
    .select({ userId: creditLedger.userId, amountMicros: creditLedger.amountMicros })
    .from(creditLedger)
    .where(completedPurchases(eq(creditLedger.idempotencyKey, key)));
  // Not a purchase of Atelier's (or not one that completed): nothing to take back.
  if (!purchase) return null;
  const amountMicros = refund.amountMicros ?? purchase.amountMicros;
  if (amountMicros <= 0n || amountMicros > purchase.amountMicros) throw new HttpError(400, REFUND_TOO_LARGE);
  const at = refund.at ?? new Date();
  const refundKey = `refund:${refund.refundId}`;
  // One transaction, so the credit taken back and the commissions reversed happen together or not at all.
  return db.transaction(async (tx) => {
    const balance = await takeBackCredit(tx, {
      userId: purchase.userId,
      amountMicros,
      description: `Refund of $${microsToDollars(amountMicros).toFixed(2)} (purchase ${refund.reference})`,
      idempotencyKey: refundKey,
      at,
    });
    await reversePurchaseCommissions(tx, { purchaseKey: key, refundKey, refundedMicros: amountMicros, at });
    return { userId: purchase.userId, balanceMicros: balance };
  });
}

/** A user's completed purchases, newest first, by the reference a refund names. */
export async function listPurchases(db: Db, userId: string) {
  const rows = await db
    .select({ key: creditLedger.idempotencyKey, amountMicros: creditLedger.amountMicros, at: creditLedger.createdAt })
    .from(creditLedger)
    .where(completedPurchases(eq(creditLedger.userId, userId)))
    .orderBy(desc(creditLedger.createdAt));
  return rows.map((row) => ({ ...row, reference: row.key.slice(purchaseKey('').length) }));
}
