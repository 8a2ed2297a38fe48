import { usd } from '../../rules/usd.ts';

// The Infrastructure Deployments dialog's numbers as the spec writes them (§9): costs with 2 to 4
// decimals in dollars; runtime in minutes under an hour, hours with one decimal under a day, then
// days and hours.

/** A runtime's unit and numbers, for the translated text. */
export type Runtime =
  | { unit: 'minutes'; minutes: number }
  | { unit: 'hours'; hours: string }
  | { unit: 'daysHours'; days: number; hours: number };

export function runtimeOf(hoursAlive: number): Runtime {
  if (hoursAlive < 1) return { unit: 'minutes', minutes: Math.floor(hoursAlive * 60) };
  if (hoursAlive < 24) return { unit: 'hours', hours: (Math.floor(hoursAlive * 10) / 10).toFixed(1) };
  const whole = Math.floor(hoursAlive);
  return { unit: 'daysHours', days: Math.floor(whole / 24), hours: whole % 24 };
}

/** Dollars with at least 2 and at most 4 decimals: $0.0134, $1.50. */
export const formatCost = (dollars: number, language: string) => usd(dollars, language, 2, 4);
