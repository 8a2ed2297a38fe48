import { queryOptions } from '@tanstack/react-query';
import type { Requests } from './client.ts';

const FIVE_MINUTES = 5 * 60 * 1000;
const FIFTEEN_MINUTES = 15 * 60 * 1000;

export const queryKeys = {
  currentUser: ['user', 'me'],
  config: ['config'],
  /** Everything that belongs to the signed-in account and must go when it changes. */
  accountScoped: [['user'], ['settings'], ['tasks'], ['secrets']],
} as const;

/** The signed-in user. Failures are handled by the session, so they raise no toast. */
export function currentUserQuery(requests: Requests) {
  return queryOptions({
    queryKey: queryKeys.currentUser,
    queryFn: ({ signal }) => requests.currentUser(signal),
    staleTime: FIVE_MINUTES,
    gcTime: FIFTEEN_MINUTES,
    retry: false,
    meta: { disableToast: true },
  });
}

export function configQuery(requests: Requests) {
  return queryOptions({
    queryKey: queryKeys.config,
    queryFn: ({ signal }) => requests.config(signal),
    staleTime: FIVE_MINUTES,
    gcTime: FIFTEEN_MINUTES,
  });
}
