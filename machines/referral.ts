import { setup } from 'xstate';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';

// The referral link route /{affiliateCode} (public-site spec §4): the code is kept in the
// browser (`affiliate_code`) for the registration that may follow, the click is reported with
// `unique` true when the code differs from the one kept before, then the visitor goes to / in
// place of this page. A failed report is only logged: the visitor goes on all the same.

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
}).createMachine({
  id: 'referral',
  context: ({ input }) => input,
  initial: 'reporting',
  entry: { type: 'keepCode', params: ({ context }) => context.code },
  states: {
    reporting: {
      invoke: {
        id: 'reportClick',
        src: 'reportClick',
        input: ({ context }) => ({ code: context.code, unique: context.code !== context.previous }),
        onDone: 'redirected',
        onError: {
          target: 'redirected',
          actions: { type: 'logFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      },
    },
    redirected: { type: 'final', entry: 'goHome' },
  },
});
