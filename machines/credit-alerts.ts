import { setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction } from './not-provided.ts';

// The balance notices of spec §4: below $1 a 'Low Credit Balance' notice, once, until the
// balance is back at $5 or more; below $0.10 an 'Insufficient Credits' notice that running
// conversations will be stopped, once, until the balance is back at $0.10 or more.

/** Dollars: below it the balance is low (and the indicator yellow). */
export const LOW_BALANCE = 1;
/** Dollars: at or above it a low balance counts as recovered (the low notice may come again). */
export const RECOVERED_BALANCE = 5;
/** Dollars: below it the agent stops (and the indicator is red). */
export const INSUFFICIENT_BALANCE = 0.1;

export type CreditAlertEvent = { type: 'BALANCE'; dollars: number };

const below =
  (limit: number) =>
  (_: unknown, dollars: number): boolean =>
    dollars < limit;
const atLeast =
  (limit: number) =>
  (_: unknown, dollars: number): boolean =>
    dollars >= limit;
const balanceOf = ({ event }: { event: CreditAlertEvent }) => event.dollars;

export const creditAlertsMachine = setup({
  types: { events: {} as CreditAlertEvent },
  actions: {
    notifyLow: notProvidedAction<number>('notifyLow'),
    notifyInsufficient: notProvidedAction<number>('notifyInsufficient'),
  },
  guards: {
    insufficient: below(INSUFFICIENT_BALANCE),
    low: below(LOW_BALANCE),
    recovered: atLeast(RECOVERED_BALANCE),
    sufficient: atLeast(INSUFFICIENT_BALANCE),
  },
}).createMachine({
  id: 'creditAlerts',
  initial: 'enough',
  states: {
    enough: {
      on: {
        BALANCE: [
          {
            guard: { type: 'insufficient', params: balanceOf },
            target: 'insufficient',
            actions: { type: 'notifyInsufficient', params: balanceOf },
          },
          {
            guard: { type: 'low', params: balanceOf },
            target: 'low',
            actions: { type: 'notifyLow', params: balanceOf },
          },
        ],
      },
    },
    /** Told once; quiet until the balance recovers to $5 or falls below $0.10. */
    low: {
      on: {
        BALANCE: [
          {
            guard: { type: 'insufficient', params: balanceOf },
            target: 'insufficient',
            actions: { type: 'notifyInsufficient', params: balanceOf },
          },
          { guard: { type: 'recovered', params: balanceOf }, target: 'enough' },
        ],
      },
    },
    insufficient: {
      on: {
        BALANCE: [
          { guard: { type: 'recovered', params: balanceOf }, target: 'enough' },
          // Low was told on the way down (or is implied by this notice): no second low notice.
          { guard: { type: 'sufficient', params: balanceOf }, target: 'low' },
        ],
      },
    },
  },
});

export type CreditAlertsSnapshot = SnapshotFrom<typeof creditAlertsMachine>;

/** The indicator's colour (spec §4): red below $0.10, yellow below $1, green otherwise. */
export function balanceTone(dollars: number): 'danger' | 'warning' | 'success' {
  if (dollars < INSUFFICIENT_BALANCE) return 'danger';
  if (dollars < LOW_BALANCE) return 'warning';
  return 'success';
}
