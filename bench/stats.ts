/** The q-quantile (0..1) of unsorted samples, by nearest rank. */
export function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));
