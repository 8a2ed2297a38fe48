import { setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';

// The referral link route /{affiliateCode} (public-site spec §4): the code is kept in the
// browser (`affiliate_code`) for the registration that may follow, the click is reported with
// `unique` true when the code differs from the one kept before, then the visitor goes to / in
// place of this page. A failed report is only logged: the visitor goes on all the same. A code
// no link has (the server's 404) is no referral link but a page that does not exist: nothing is
// kept, and the page says it was not found.

export interface ReferralInput {
  code: string;
  /** The code this browser kept from an earlier referral link, if any. */
  previous: string | null;
}

export interface ClickReport {
  code: string;
  unique: boolean;
}

export const referralMachine = setup({
  types: { input: {} as ReferralInput, context: {} as ReferralInput },
  actors: {
    /** POST /api/affiliate/click. */
    reportClick: notProvidedPromise<unknown, ClickReport>('reportClick'),
  },
  actions: {
    keepCode: notProvidedAction<string>('keepCode'),
    logFailure: notProvidedAction<unknown>('logFailure'),
    /** To / in place of this page (history replaced). */
    goHome: notProvidedAction('goHome'),
  },
  guards: {
    /** The server knows no link with this code (a 404 answer). */
    unknownCode: ({ event }) => (event as { error?: { status?: unknown } }).error?.status === 404,
  },
}).createMachine({
  id: 'referral',
  context: ({ input }) => input,
  initial: 'reporting',
  states: {
    reporting: {
      invoke: {
        id: 'reportClick',
        src: 'reportClick',
        input: ({ context }) => ({ code: context.code, unique: context.code !== context.previous }),
        onDone: 'redirected',
        onError: [
          { guard: 'unknownCode', target: 'unknown' },
          {
            target: 'redirected',
            actions: { type: 'logFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
          },
        ],
      },
    },
    redirected: {
      type: 'final',
      entry: [{ type: 'keepCode', params: ({ context }) => context.code }, 'goHome'],
    },
    unknown: { type: 'final' },
  },
});

export const selectUnknownCode = (snapshot: SnapshotFrom<typeof referralMachine>) => snapshot.matches('unknown');
