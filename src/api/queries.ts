import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { components } from '../../openapi/schema.d.ts';
import type { Requests } from './client.ts';

type User = components['schemas']['User'];

const FIVE_MINUTES = 5 * 60 * 1000;
const FIFTEEN_MINUTES = 15 * 60 * 1000;
const USER_RETRY_DELAY_MS = 500;

// The one key scheme of the app's queries: the account under ['user'], conversations under
// ['conversations'] (the list, and each conversation's data under its id).
export const queryKeys = {
  currentUser: ['user', 'me'] as const,
  config: ['config'] as const,
  settings: ['user', 'settings'] as const,
  conversationList: ['conversations', 'list'] as const,
  /** One conversation's data: ['conversations', id, ...what]. */
  conversation: (conversationId: string, ...what: readonly string[]) =>
    ['conversations', conversationId, ...what] as const,
  /** Everything that belongs to the signed-in account and must go when it changes. */
  accountScoped: [['user'], ['conversations']] as const,
};

/** The signed-in user. Failures are handled by the session, so they raise no toast. */
export function currentUserQuery(requests: Requests) {
  return queryOptions({
    queryKey: queryKeys.currentUser,
    queryFn: ({ signal }) => requests.currentUser(signal),
    staleTime: FIVE_MINUTES,
    gcTime: FIFTEEN_MINUTES,
    // A failed fetch signs the visitor out (the spec's 'token cleared'): network and server
    // failures are first retried like any query's (a refused token is not), so a moment's
    // outage while the page starts does not end the session.
    retryDelay: USER_RETRY_DELAY_MS,
    meta: { disableToast: true },
  });
}

/** The account changed on the server (verified, signed, granted, renamed): it is read again everywhere. */
export function refreshCurrentUser(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
}

/** The server pushed the user's new balance (after a charge): the cached user shows it, unread. */
export function setCurrentUserBalance(queryClient: QueryClient, balance: number) {
  queryClient.setQueryData<User>(
    queryKeys.currentUser,
    (user) => user && { ...user, credits: { ...user.credits, balance } },
  );
}

export function configQuery(requests: Requests) {
  return queryOptions({
    queryKey: queryKeys.config,
    queryFn: ({ signal }) => requests.config(signal),
    staleTime: FIVE_MINUTES,
    gcTime: FIFTEEN_MINUTES,
  });
}

/**
 * The user's settings (null: never saved, the defaults apply). A failure is shown by the page
 * that needs them, in the spec's words, so it raises no toast.
 */
export function settingsQuery(requests: Requests) {
  return queryOptions({
    queryKey: queryKeys.settings,
    queryFn: ({ signal }) => requests.settings(signal),
    // Never saved (404): asked again only when this client saves them (which updates the cache), not on every page.
    staleTime: (query) => (query.state.data === null ? Infinity : FIVE_MINUTES),
    gcTime: FIFTEEN_MINUTES,
    meta: { disableToast: true },
  });
}

/** A conversation's live deployments; their runtime and cost grow, so they are read again each minute. */
export function deploymentsQuery(requests: Requests, conversationId: string) {
  return queryOptions({
    queryKey: queryKeys.conversation(conversationId, 'deployments'),
    queryFn: ({ signal }) => requests.deployments(conversationId, signal),
    refetchInterval: 60_000,
  });
}
