import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { purchaseRefunds } from '../../db/schema.ts';
import { reversePurchaseCommissions } from '../affiliate/index.ts';
import {
  balanceMicros,
  completedPurchasesOf,
  dollarsText,
  lockCompletedPurchase,
  takeBackCredit,
} from '../credits/index.ts';

/** The ledger key of a purchase by its provider reference (billing/index.ts credits it under it). */
export const purchaseKey = (reference: string) => `purchase:${reference}`;

/** What a refund came to (recorded now, or before: the same refund again). */
export type RefundOutcome = {
  userId: string;
  purchaseMicros: bigint;
  /** All refunds of the purchase so far, this one included. */
  refundedMicros: bigint;
  balanceMicros: bigint;
};

/**
 * Records a refund of a completed purchase, once per refund id however often it arrives: the
 * refunded credit is taken back (what the customer already spent stays spent) and the
 * affiliates' commissions on the purchase are reversed in proportion. Several partial refunds
 * may follow each other, together never more than the purchase (RefundTooLarge says what is
 * left). `amountMicros` defaults to what is left; null when no completed purchase has the
 * reference. The payment provider refunds the money (Stripe: its dashboard or API, reported by
 * webhook).
 */
export async function recordRefund(
  db: Db,
  refund: { reference: string; refundId: string; amountMicros?: bigint; at?: Date },
): Promise<RefundOutcome | null> {
  const key = purchaseKey(refund.reference);
  const refundKey = `refund:${refund.refundId}`;
  const at = refund.at ?? new Date();
  // One transaction, so the credit taken back and the commissions reversed happen together or not at all.
  return db.transaction(async (tx) => {
    // The purchase's row, locked: refunds of one purchase are told apart one at a time.
    const purchase = await lockCompletedPurchase(tx, key);
    // Not a purchase of Atelier's (or not one that completed): nothing to take back.
    if (!purchase) return null;
    const refunds = await tx
      .select({ refundKey: purchaseRefunds.refundKey, amountMicros: purchaseRefunds.amountMicros })
      .from(purchaseRefunds)
      .where(eq(purchaseRefunds.purchaseKey, key));
    const refundedMicros = refunds.reduce((sum, row) => sum + row.amountMicros, 0n);
    const answer = (refunded: bigint, balanceMicros: bigint) => ({
      userId: purchase.userId,
      purchaseMicros: purchase.amountMicros,
      refundedMicros: refunded,
      balanceMicros,
    });
    if (refunds.some((row) => row.refundKey === refundKey))
      return answer(refundedMicros, await balanceMicros(tx, purchase.userId));
    const leftMicros = purchase.amountMicros - refundedMicros;
    const amountMicros = refund.amountMicros ?? leftMicros;
    if (amountMicros <= 0n || amountMicros > leftMicros)
      throw new RefundTooLarge(purchase.amountMicros, refundedMicros, amountMicros);
    await tx
      .insert(purchaseRefunds)
      .values({ refundKey, purchaseKey: key, userId: purchase.userId, amountMicros, createdAt: at });
    const balance = await takeBackCredit(tx, {
      userId: purchase.userId,
      amountMicros,
      description: `Refund of ${dollarsText(amountMicros)} (purchase ${refund.reference})`,
      idempotencyKey: refundKey,
      at,
    });
    await reversePurchaseCommissions(tx, { purchaseKey: key, refundKey, refundedMicros: amountMicros, at });
    return answer(refundedMicros + amountMicros, balance);
  });
}

/** A refund beyond what is left of the purchase (or of nothing): its message says how much is left. */
export class RefundTooLarge extends Error {
  constructor(purchaseMicros: bigint, refundedMicros: bigint, askedMicros: bigint) {
    const left = purchaseMicros - refundedMicros;
    super(
      left <= 0n
        ? `The purchase of ${dollarsText(purchaseMicros)} is already refunded in full: nothing was recorded.`
        : askedMicros <= 0n
          ? 'A refund must be more than $0.00: nothing was recorded.'
          : `Only ${dollarsText(left)} of the purchase of ${dollarsText(purchaseMicros)} is left to refund (${dollarsText(refundedMicros)} refunded before): nothing was recorded.`,
    );
  }
}

/** A user's completed purchases, newest first, by the reference a refund names. */
export async function listPurchases(db: Db, userId: string) {
  const rows = await completedPurchasesOf(db, userId);
  return rows.map((row) => ({ ...row, reference: row.key.slice(purchaseKey('').length) }));
}
