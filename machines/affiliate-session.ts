import { assertEvent, assign, setup, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import type { Credentials } from './credentials.ts';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';

// Who is signed in to the affiliate programme (public-site spec §4, "Affiliate session"), and its
// login dialog. Affiliates are accounts of their own, apart from the application's users.
//
// account: a token kept from an earlier visit (local or session storage) loads the affiliate;
//   when that fails the stored token and id are cleared and 'Failed to fetch affiliate' is
//   announced. Logging in keeps the token (local storage with remember me, else session storage)
//   and the affiliate id, then loads the affiliate. A token obtained by the registration's
//   automatic login is kept the same way. Logging out asks the server, then always clears token
//   and id and goes to /affiliate. A 401 from any affiliate call (UNAUTHORIZED) clears them too.
// loginDialog: open or closed; a successful login closes it, a failed one keeps it open with
//   'Failed to login. Please check your credentials.' (the server's words go to a toast).

export type Affiliate = components['schemas']['Affiliate'];

/** A token and the affiliate it belongs to, and where to keep them. */
export interface AffiliateLogin {
  token: string;
  affiliateId: string;
  rememberMe: boolean;
}

interface AffiliateSessionContext {
  startedWithToken: boolean;
  affiliate: Affiliate | null;
  loginFailed: boolean;
}

export type AffiliateSessionEvent =
  | { type: 'LOG_IN'; credentials: Credentials }
  | { type: 'SIGNED_IN'; login: AffiliateLogin }
  | { type: 'LOG_OUT' }
  | { type: 'UNAUTHORIZED' }
  | { type: 'OPEN_LOGIN' }
  | { type: 'CLOSE_LOGIN' };

export const affiliateSessionMachine = setup({
  types: {
    context: {} as AffiliateSessionContext,
    events: {} as AffiliateSessionEvent,
    input: {} as { startedWithToken: boolean },
  },
  actors: {
    /** GET /api/affiliate/me. */
    loadAffiliate: notProvidedPromise<Affiliate>('loadAffiliate'),
    /** POST /api/affiliate/login. */
    logIn: notProvidedPromise<AffiliateLogin, Credentials>('logIn'),
    /** POST /api/affiliate/logout. */
    logOut: notProvidedPromise<void>('logOut'),
  },
  actions: {
    storeLogin: notProvidedAction<AffiliateLogin>('storeLogin'),
    /** Clears affiliator_token (both storages) and affiliator_id. */
    clearStoredLogin: notProvidedAction('clearStoredLogin'),
    announceFetchFailure: notProvidedAction<unknown>('announceFetchFailure'),
    /** The server's detail or 'Login failed', as a toast. */
    announceLoginFailure: notProvidedAction<unknown>('announceLoginFailure'),
    goToAffiliatePage: notProvidedAction('goToAffiliatePage'),
    rememberAffiliate: assign((_, affiliate: Affiliate) => ({ affiliate })),
    forgetAffiliate: assign({ affiliate: null }),
    rememberLoginFailure: assign({ loginFailed: true }),
    forgetLoginFailure: assign({ loginFailed: false }),
  },
  guards: {
    startedWithToken: ({ context }) => context.startedWithToken,
    hasAffiliate: ({ context }) => context.affiliate !== null,
  },
}).createMachine({
  id: 'affiliateSession',
  type: 'parallel',
  context: ({ input }) => ({ startedWithToken: input.startedWithToken, affiliate: null, loginFailed: false }),
  states: {
    account: {
      initial: 'starting',
      states: {
        starting: {
          always: [{ guard: 'startedWithToken', target: 'loading' }, { target: 'signedOut' }],
        },
        loading: {
          invoke: {
            id: 'loadAffiliate',
            src: 'loadAffiliate',
            onDone: {
              target: 'signedIn',
              actions: { type: 'rememberAffiliate', params: ({ event }) => event.output },
            },
            onError: {
              target: 'signedOut',
              actions: [
                'clearStoredLogin',
                { type: 'announceFetchFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
              ],
            },
          },
        },
        signedOut: {
          on: {
            LOG_IN: 'loggingIn',
            SIGNED_IN: {
              target: 'loading',
              actions: { type: 'storeLogin', params: ({ event }) => event.login },
            },
          },
        },
        loggingIn: {
          entry: 'forgetLoginFailure',
          invoke: {
            id: 'logIn',
            src: 'logIn',
            input: ({ event }) => {
              assertEvent(event, 'LOG_IN');
              return event.credentials;
            },
            onDone: {
              target: 'loading',
              actions: { type: 'storeLogin', params: ({ event }) => event.output },
            },
            onError: {
              target: 'signedOut',
              actions: [
                'rememberLoginFailure',
                { type: 'announceLoginFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
              ],
            },
          },
        },
        signedIn: {
          on: {
            LOG_OUT: 'loggingOut',
            UNAUTHORIZED: { target: 'signedOut', actions: ['clearStoredLogin', 'forgetAffiliate'] },
          },
        },
        loggingOut: {
          invoke: {
            id: 'logOut',
            src: 'logOut',
            onDone: { target: 'signedOut', actions: ['clearStoredLogin', 'forgetAffiliate', 'goToAffiliatePage'] },
            // The server may already have ended the session: this browser forgets it all the same.
            onError: { target: 'signedOut', actions: ['clearStoredLogin', 'forgetAffiliate', 'goToAffiliatePage'] },
          },
        },
      },
    },
    loginDialog: {
      initial: 'closed',
      states: {
        closed: { on: { OPEN_LOGIN: { target: 'open', actions: 'forgetLoginFailure' } } },
        open: {
          on: { CLOSE_LOGIN: 'closed' },
          // Signed in: the dialog has done its work.
          always: { guard: 'hasAffiliate', target: 'closed' },
        },
      },
    },
  },
});

export type AffiliateSessionSnapshot = SnapshotFrom<typeof affiliateSessionMachine>;

export const selectAffiliate = (snapshot: AffiliateSessionSnapshot) => snapshot.context.affiliate;
export const selectSignedIn = (snapshot: AffiliateSessionSnapshot) => snapshot.matches({ account: 'signedIn' });
/** Before the first answer: a stored token is being checked. */
export const selectChecking = (snapshot: AffiliateSessionSnapshot) =>
  snapshot.matches({ account: 'starting' }) || snapshot.matches({ account: 'loading' });
export const selectLoggingIn = (snapshot: AffiliateSessionSnapshot) => snapshot.matches({ account: 'loggingIn' });
export const selectLoginOpen = (snapshot: AffiliateSessionSnapshot) => snapshot.matches({ loginDialog: 'open' });
export const selectLoginFailed = (snapshot: AffiliateSessionSnapshot) => snapshot.context.loginFailed;
