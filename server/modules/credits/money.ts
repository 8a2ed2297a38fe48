export const MICROS_PER_DOLLAR = 1_000_000n;

/** Dollars for the API, from integer micro-dollars (exact to the micro-dollar). */
export const microsToDollars = (micros: bigint): number => Number(micros) / Number(MICROS_PER_DOLLAR);

/** Dollars with cents for texts the server writes (ledger descriptions, the operator's command): $12.50. */
export const dollarsText = (micros: bigint): string => `$${microsToDollars(micros).toFixed(2)}`;
