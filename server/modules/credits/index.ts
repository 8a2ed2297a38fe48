import { MICROS_PER_DOLLAR } from './money.ts';

export { dollarsText, MICROS_PER_DOLLAR, microsToDollars } from './money.ts';
export { BALANCE_CHANGED, balanceMicros, userBalanceMicros } from './balance.ts';
export { listCategoryTransactions, listConversationGroups, listOtherTransactions } from './history.ts';
export {
  completedPurchasesOf,
  firstCompletedPurchaseAt,
  firstCompletedPurchaseOf,
  lockCompletedPurchase,
} from './purchases.ts';
export { FREE_CREDIT, grantFreeCredit, hasFreeCredit } from './free-credit.ts';
export {
  chargeUsage,
  grantCredit,
  grantExpiry,
  GRANT_LIFETIME_MS,
  recordFailedPurchase,
  settleExpiredCredit,
  takeBackCredit,
} from './ledger.ts';

/** Parses a dollar amount such as "12.5" into micro-dollars without floating point. */
export function parseDollars(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) throw new RangeError(`"${text}" is not an amount in dollars (up to 6 decimals)`);
  return BigInt(match[1] ?? '0') * MICROS_PER_DOLLAR + BigInt((match[2] ?? '').padEnd(6, '0'));
}
