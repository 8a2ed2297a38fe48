import type { QueryClient } from '@tanstack/react-query';
import { assertEvent, assign, raise, setup, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import type { Credentials, ObtainedToken } from './credentials.ts';
import { notProvidedAction, notProvidedCallback, notProvidedPromise } from './not-provided.ts';
import { isServerRejection, messageNotice, serverNotice, type Notice } from './notice.ts';

// Who is using the application, and the sign-in / sign-up dialog.
//
// account: the configuration decides the mode; in oss mode there is no sign-in and the local
//   user is loaded straight away. In saas mode a token stored from an earlier visit loads the
//   user, else the visitor is signed out. Signing in stores the token (localStorage or
//   sessionStorage, see `storeToken`) and loads the user; a failed load clears the token.
//   Signing in as someone else while signed in keeps the current user when it fails.
//   Logging out asks the server to end the session, then always forgets everything local and
//   reloads the page at /dashboard.
//   The user itself lives in the query cache (the `queryClient` of the input), which the actors
//   read and the views select from; this machine only decides whether one is signed in.
// dialog: which form the auth dialog shows, if any; sign-in and sign-up are saas only. The sign-in
//   form also leaves for a git host's authorization page; the return is /oauth/$identity/callback,
//   which hands the token over with SIGNED_IN.

export type User = components['schemas']['User'];
export type ClientConfig = components['schemas']['ClientConfig'];
export type SignInProvider = components['schemas']['SignInProvider'];
export type AppMode = ClientConfig['APP_MODE'];

export type LoginMessage = 'loginFailed' | 'loginFailedCheckCredentials' | 'loginError';
export type LoginFailure = Notice<LoginMessage>;

/** The server's explanation; without one a refused login asks to check the credentials; an exception is not the user's fault. */
export function loginFailure(error: unknown): LoginFailure {
  if (!isServerRejection(error)) return messageNotice('loginError');
  if (error.message !== '') return serverNotice(error.message);
  return messageNotice(error.status === 401 ? 'loginFailedCheckCredentials' : 'loginFailed');
}

const errorOf = ({ event }: { event: ErrorActorEvent }) => event.error;

interface SessionContext extends SessionInput {
  mode: AppMode | null;
  loginFailure: LoginFailure | null;
}

export interface SessionInput {
  /** A token was kept from an earlier visit. */
  startedWithToken: boolean;
  /** The owner of the current user and the configuration; the actors read through it. */
  queryClient: QueryClient;
}

export type SessionEvent =
  | { type: 'RETRY' }
  | { type: 'LOG_IN'; credentials: Credentials }
  /** A token obtained elsewhere (automatic sign-in after registration). */
  | { type: 'SIGNED_IN'; obtained: ObtainedToken }
  | { type: 'USER_LOADED' }
  | { type: 'USER_FAILED'; unauthorized: boolean }
  | { type: 'LOG_OUT' }
  /** Sign in through a git host: its authorization page replaces this one. */
  | { type: 'SIGN_IN_WITH'; provider: SignInProvider }
  | { type: 'OPEN_SIGN_IN' }
  | { type: 'OPEN_SIGN_UP' }
  | { type: 'CLOSE_DIALOG' };

export const sessionMachine = setup({
  types: { context: {} as SessionContext, events: {} as SessionEvent, input: {} as SessionInput },
  actors: {
    loadConfig: notProvidedPromise<ClientConfig, QueryClient>('loadConfig'),
    /** Follows the cached current user (GET /api/auth/me/extended) and sends USER_LOADED / USER_FAILED. */
    observeUser: notProvidedCallback<SessionEvent, QueryClient>('observeUser'),
    logIn: notProvidedPromise<ObtainedToken, Credentials>('logIn'),
    /** Ends the session on the server when a token is stored. */
    logOut: notProvidedPromise<void>('logOut'),
  },
  actions: {
    storeToken: notProvidedAction<ObtainedToken>('storeToken'),
    clearToken: notProvidedAction('clearToken'),
    /** Clears tokens, stored preferences, saved layouts and the account's cached queries. */
    forgetSession: notProvidedAction('forgetSession'),
    reloadAtDashboard: notProvidedAction('reloadAtDashboard'),
    /** Keeps a fresh `state` for the return and opens the provider's authorization page. */
    goToIdentityProvider: notProvidedAction<SignInProvider>('goToIdentityProvider'),
    /** Signed in through the dialog: back to the page the person was on (the landing page goes on to /dashboard). */
    continueAfterSignIn: notProvidedAction('continueAfterSignIn'),
    announceUserLoadFailure: notProvidedAction('announceUserLoadFailure'),
    rememberMode: assign((_, config: ClientConfig) => ({ mode: config.APP_MODE })),
    rememberLoginFailure: assign((_, error: unknown) => ({ loginFailure: loginFailure(error) })),
    forgetLoginFailure: assign({ loginFailure: null }),
  },
  guards: {
    isOssConfig: (_, config: ClientConfig) => config.APP_MODE === 'oss',
    isOssMode: ({ context }) => context.mode === 'oss',
    isSaasMode: ({ context }) => context.mode === 'saas',
    startedWithToken: ({ context }) => context.startedWithToken,
    isUnauthorized: (_, failure: { unauthorized: boolean }) => failure.unauthorized,
  },
}).createMachine({
  id: 'session',
  type: 'parallel',
  context: ({ input }) => ({ ...input, mode: null, loginFailure: null }),
  states: {
    account: {
      initial: 'loadingConfig',
      states: {
        loadingConfig: {
          invoke: {
            id: 'loadConfig',
            src: 'loadConfig',
            input: ({ context }) => context.queryClient,
            onDone: [
              {
                guard: { type: 'isOssConfig', params: ({ event }) => event.output },
                target: 'authenticated',
                actions: { type: 'rememberMode', params: ({ event }) => event.output },
              },
              {
                guard: 'startedWithToken',
                target: 'authenticated',
                actions: { type: 'rememberMode', params: ({ event }) => event.output },
              },
              { target: 'signedOut', actions: { type: 'rememberMode', params: ({ event }) => event.output } },
            ],
            onError: { target: 'unavailable' },
          },
        },
        unavailable: {
          on: { RETRY: { target: 'loadingConfig' } },
        },
        signedOut: {
          on: {
            LOG_IN: { target: 'signingIn' },
            SIGNED_IN: {
              target: 'authenticated',
              actions: { type: 'storeToken', params: ({ event }) => event.obtained },
            },
          },
        },
        signingIn: {
          entry: 'forgetLoginFailure',
          invoke: {
            id: 'logIn',
            src: 'logIn',
            input: ({ event }) => {
              assertEvent(event, 'LOG_IN');
              return event.credentials;
            },
            onDone: {
              target: 'authenticated',
              actions: [
                { type: 'storeToken', params: ({ event }) => event.output },
                raise({ type: 'CLOSE_DIALOG' }),
                'continueAfterSignIn',
              ],
            },
            onError: { target: 'signedOut', actions: { type: 'rememberLoginFailure', params: errorOf } },
          },
        },
        authenticated: {
          invoke: { id: 'observeUser', src: 'observeUser', input: ({ context }) => context.queryClient },
          initial: 'loadingUser',
          on: {
            SIGNED_IN: {
              guard: 'isSaasMode',
              target: 'authenticated',
              reenter: true,
              actions: { type: 'storeToken', params: ({ event }) => event.obtained },
            },
          },
          states: {
            loadingUser: {
              on: {
                USER_LOADED: { target: 'ready' },
                USER_FAILED: [
                  { guard: 'isOssMode', target: '#session.account.unavailable' },
                  { target: '#session.account.signedOut', actions: ['clearToken', 'announceUserLoadFailure'] },
                ],
              },
            },
            ready: {
              on: {
                // Later failures sign out only when the server no longer accepts the token.
                USER_FAILED: {
                  guard: { type: 'isUnauthorized', params: ({ event }) => event },
                  target: '#session.account.signedOut',
                  actions: ['clearToken', 'announceUserLoadFailure'],
                },
                LOG_IN: { guard: 'isSaasMode', target: 'switchingAccount' },
                LOG_OUT: { guard: 'isSaasMode', target: '#session.account.signingOut' },
              },
            },
            switchingAccount: {
              entry: 'forgetLoginFailure',
              invoke: {
                id: 'logIn',
                src: 'logIn',
                input: ({ event }) => {
                  assertEvent(event, 'LOG_IN');
                  return event.credentials;
                },
                onDone: {
                  target: '#session.account.authenticated',
                  reenter: true,
                  actions: [
                    { type: 'storeToken', params: ({ event }) => event.output },
                    raise({ type: 'CLOSE_DIALOG' }),
                    'continueAfterSignIn',
                  ],
                },
                // The current user stays signed in.
                onError: { target: 'ready', actions: { type: 'rememberLoginFailure', params: errorOf } },
              },
            },
          },
        },
        signingOut: {
          invoke: {
            id: 'logOut',
            src: 'logOut',
            onDone: { target: 'signedOut', actions: ['forgetSession', 'reloadAtDashboard'] },
            onError: { target: 'signedOut', actions: ['forgetSession', 'reloadAtDashboard'] },
          },
        },
      },
    },
    dialog: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            OPEN_SIGN_IN: { guard: 'isSaasMode', target: 'signIn' },
            OPEN_SIGN_UP: { guard: 'isSaasMode', target: 'signUp' },
          },
        },
        signIn: {
          entry: 'forgetLoginFailure',
          on: {
            OPEN_SIGN_UP: { target: 'signUp' },
            CLOSE_DIALOG: { target: 'closed' },
            SIGN_IN_WITH: { actions: { type: 'goToIdentityProvider', params: ({ event }) => event.provider } },
          },
        },
        signUp: {
          on: { OPEN_SIGN_IN: { target: 'signIn' }, CLOSE_DIALOG: { target: 'closed' } },
        },
      },
    },
  },
});

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;
export type AuthDialog = 'closed' | 'signIn' | 'signUp';

export const selectSignInAvailable = (snapshot: SessionSnapshot) => snapshot.context.mode === 'saas';
/** The configuration or the current user is still loading: nothing can be shown yet. */
export const selectIsLoading = (snapshot: SessionSnapshot) =>
  snapshot.matches({ account: 'loadingConfig' }) || snapshot.matches({ account: { authenticated: 'loadingUser' } });
export const selectIsUnavailable = (snapshot: SessionSnapshot) => snapshot.matches({ account: 'unavailable' });
export const selectIsSigningIn = (snapshot: SessionSnapshot) =>
  snapshot.matches({ account: 'signingIn' }) || snapshot.matches({ account: { authenticated: 'switchingAccount' } });
export const selectIsSigningOut = (snapshot: SessionSnapshot) => snapshot.matches({ account: 'signingOut' });
export const selectLoginFailure = (snapshot: SessionSnapshot) => snapshot.context.loginFailure;
export const selectAuthDialog = (snapshot: SessionSnapshot): AuthDialog => {
  if (snapshot.matches({ dialog: 'signIn' })) return 'signIn';
  if (snapshot.matches({ dialog: 'signUp' })) return 'signUp';
  return 'closed';
};
