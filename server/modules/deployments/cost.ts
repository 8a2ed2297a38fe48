// What a deployment costs: it accrues per second at its hourly price, in integer micro-dollars
// (rounded down, so the charges never exceed the price), and is charged hour by hour.

const HOUR_MS = 3_600_000;

export interface Accruing {
  id: string;
  hourlyCostMicros: bigint;
  createdAt: Date;
  deletedAt: Date | null;
  chargedHours: number;
}

/** Milliseconds alive until `now`, or until its deletion. */
export const aliveMs = (d: Pick<Accruing, 'createdAt' | 'deletedAt'>, now: Date) =>
  Math.max(0, (d.deletedAt ?? now).getTime() - d.createdAt.getTime());

/** The cost accrued over `ms` at `hourlyMicros`. */
export const accruedMicros = (hourlyMicros: bigint, ms: number) =>
  (hourlyMicros * BigInt(Math.floor(ms))) / BigInt(HOUR_MS);

export interface DueCharge {
  idempotencyKey: string;
  amountMicros: bigint;
  /** Whole hours charged once this one is. */
  chargedHours: number;
  description: string;
}

/**
 * The charges due up to `now`: each whole hour not charged yet (exactly the hourly price), and once
 * deleted the part of the last hour. Keys name the hour, so charging twice charges once.
 */
export function dueCharges(d: Accruing, now: Date, name: string): DueCharge[] {
  // A free deployment (the local provider) leaves no rows in the ledger.
  if (d.hourlyCostMicros === 0n) return [];
  const ms = aliveMs(d, now);
  const wholeHours = Math.floor(ms / HOUR_MS);
  const charges: DueCharge[] = [];
  for (let hour = d.chargedHours + 1; hour <= wholeHours; hour++)
    charges.push({
      idempotencyKey: `deployment:${d.id}:hour:${hour}`,
      amountMicros: d.hourlyCostMicros,
      chargedHours: hour,
      description: `${name}: hour ${hour}`,
    });
  if (d.deletedAt) {
    const rest = accruedMicros(d.hourlyCostMicros, ms) - d.hourlyCostMicros * BigInt(wholeHours);
    if (rest > 0n)
      charges.push({
        idempotencyKey: `deployment:${d.id}:final`,
        amountMicros: rest,
        chargedHours: wholeHours,
        description: `${name}: last ${Math.ceil((ms - wholeHours * HOUR_MS) / 60_000)} min`,
      });
  }
  return charges;
}
