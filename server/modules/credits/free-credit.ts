import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { creditLedger } from '../../db/schema.ts';
import { grantCredit, grantExpiry } from './ledger.ts';
import { MICROS_PER_DOLLAR } from './money.ts';

/**
 * The free credit of spec §1 and §9, each granted once per account (its idempotency key) and
 * valid 90 days. The agreement's $100 and the claim page's trial $100 are one grant ("$100
 * (signed agreement; also the trial)"): whichever comes first.
 */
export const FREE_CREDIT = {
  paymentDetails: { key: 'free-credit:payment-details', micros: 50n * MICROS_PER_DOLLAR },
  agreementOrTrial: { key: 'free-credit:agreement-or-trial', micros: 100n * MICROS_PER_DOLLAR },
} as const;

/** Grants one of the free credits; false when the account had it already. */
export function grantFreeCredit(
  db: Db,
  grant: { userId: string; credit: keyof typeof FREE_CREDIT; description: string; at?: Date },
): Promise<boolean> {
  const { key, micros } = FREE_CREDIT[grant.credit];
  return grantCredit(db, {
    userId: grant.userId,
    amountMicros: micros,
    type: 'credit',
    kind: 'promotional',
    description: grant.description,
    idempotencyKey: key,
    expiresAt: grantExpiry(grant.at),
  });
}

/** Whether the account has had one of the free credits (granting it again would give nothing). */
export async function hasFreeCredit(db: Db, userId: string, credit: keyof typeof FREE_CREDIT): Promise<boolean> {
  const [row] = await db
    .select({ id: creditLedger.id })
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), eq(creditLedger.idempotencyKey, FREE_CREDIT[credit].key)))
    .limit(1);
  return row !== undefined;
}
