import { QueryObserver, type QueryClient, type QueryObserverResult } from '@tanstack/react-query';
import { createActorContext } from '@xstate/react';
import i18next from 'i18next';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import type { Credentials, ObtainedToken } from '../../machines/credentials.ts';
import { sessionMachine, type SessionEvent, type SessionInput, type User } from '../../machines/session.ts';
import { isUnauthorized } from '../api/errors.ts';
import { configQuery, currentUserQuery } from '../api/queries.ts';
import { forgetPreferencesAndLayouts, keepOAuthState } from './local-data.ts';
import { forgetAccountQueries, queryClient, requests, showErrorToast, tokenStore } from './services.ts';

// The side effects of the auth machines, bound to the real API, storage, cache and router.

/** The session of this page; views select from it and send it events. */
export const SessionContext = createActorContext(sessionMachine);
export type SessionActor = ReturnType<typeof SessionContext.useActorRef>;

export interface Navigation {
  continueAfterSignIn(): void;
}

/** Signs in with credentials through the API: the session's, and the registration's after it registered. */
export const logIn = fromPromise<ObtainedToken, Credentials>(async ({ input }) => {
  const result = await requests.logIn({ email: input.email, password: input.password, remember_me: input.rememberMe });
  return { token: result.access_token, rememberMe: input.rememberMe };
});

function storeToken(_: unknown, { token, rememberMe }: ObtainedToken) {
  tokenStore.save(token, rememberMe);
  forgetAccountQueries();
}

/** Forwards the cached current-user query to the session: loaded, or failed (and whether the token was refused). */
const observeUser = fromCallback<EventObject, QueryClient, SessionEvent>(({ sendBack, input }) => {
  const observer = new QueryObserver(input, currentUserQuery(requests));
  const forward = (result: QueryObserverResult<User>) => {
    if (result.status === 'success') sendBack({ type: 'USER_LOADED' });
    if (result.status === 'error') sendBack({ type: 'USER_FAILED', unauthorized: isUnauthorized(result.error) });
  };
  const stopObserving = observer.subscribe(forward);
  forward(observer.getCurrentResult());
  return stopObserving;
});

export function createSessionLogic(navigation: Navigation) {
  return sessionMachine.provide({
    actors: {
      loadConfig: fromPromise(({ input }) => input.fetchQuery(configQuery(requests))),
      observeUser,
      logIn,
      logOut: fromPromise(async () => {
        if (tokenStore.read() !== null) await requests.logOut();
      }),
    },
    actions: {
      storeToken,
      clearToken: () => {
        tokenStore.clear();
        forgetAccountQueries();
      },
      forgetSession: () => {
        tokenStore.clear();
        forgetPreferencesAndLayouts();
        forgetAccountQueries();
      },
      // Loading /dashboard anew is both the navigation and the reload.
      reloadAtDashboard: () => window.location.assign('/dashboard'),
      goToIdentityProvider: (_, provider) => {
        const url = new URL(provider.authorize_url);
        const { pathname, search, hash } = window.location;
        url.searchParams.set('state', keepOAuthState(provider.identity, pathname + search + hash));
        window.location.assign(url.href);
      },
      continueAfterSignIn: () => navigation.continueAfterSignIn(),
      announceUserLoadFailure: () => showErrorToast(i18next.t('common:errors.userFetchFailed')),
    },
  });
}

export function sessionInput(): SessionInput {
  return { startedWithToken: tokenStore.read() !== null, queryClient };
}
