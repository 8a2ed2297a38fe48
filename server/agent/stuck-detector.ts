/**
 * Recognises an agent going round in circles, so the loop stops instead of spending the
 * budget: the same action with the same result four times in a row, or the same error three
 * times in a row (whatever the action: a model retrying variations of a broken call gets the
 * same error back).
 */

/** One executed action, reduced to what repetition is judged on. */
export interface StepSignature {
  /** The tool and its arguments. */
  action: string;
  /** What the action produced. */
  observation: string;
  error: boolean;
}

export const REPEATED_ACTION_LIMIT = 4;
export const REPEATED_ERROR_LIMIT = 3;
/** How many recent steps the detector needs to see. */
export const STEPS_TO_KEEP = Math.max(REPEATED_ACTION_LIMIT, REPEATED_ERROR_LIMIT);

function lastAllSame<T>(items: readonly T[], count: number, same: (a: T, b: T) => boolean): boolean {
  if (items.length < count) return false;
  const tail = items.slice(-count);
  const first = tail[0] as T;
  return tail.every((item) => same(item, first));
}

/** Why the agent is stuck, or null when it is not. */
export function stuckReason(steps: readonly StepSignature[]): string | null {
  if (lastAllSame(steps, REPEATED_ERROR_LIMIT, (a, b) => a.error && b.error && a.observation === b.observation)) {
    return `The agent is stuck in a loop: the same error came back ${REPEATED_ERROR_LIMIT} times in a row. Send a message to guide it.`;
  }
  if (lastAllSame(steps, REPEATED_ACTION_LIMIT, (a, b) => a.action === b.action && a.observation === b.observation)) {
    return `The agent is stuck in a loop: it repeated the same action with the same result ${REPEATED_ACTION_LIMIT} times. Send a message to guide it.`;
  }
  return null;
}
