import type { QueryClient } from '@tanstack/react-query';
import type { Middleware } from 'openapi-fetch';
import type { components } from '../../../openapi/schema.d.ts';
import type { AffiliateRegistrationRequest } from '../../../machines/affiliate-registration.ts';
import { createApiClient, dataOf } from '../../api/client.ts';
import { createTokenStore } from '../../api/token-store.ts';
import { AFFILIATOR_ID_KEY, AFFILIATOR_TOKEN_KEY } from '../../app/local-data.ts';

export type AffiliateLink = components['schemas']['AffiliateLink'];
export type ReferredUser = components['schemas']['ReferredUser'];
export type EarningsSummary = components['schemas']['EarningsSummary'];

/** The affiliate's token (its own, never the application's) and id, kept in this browser. */
export const affiliateLogin = {
  tokens: createTokenStore(window.localStorage, window.sessionStorage, AFFILIATOR_TOKEN_KEY),
  affiliateId: () => window.localStorage.getItem(AFFILIATOR_ID_KEY),
  keepAffiliateId: (id: string) => window.localStorage.setItem(AFFILIATOR_ID_KEY, id),
  clear() {
    this.tokens.clear();
    window.localStorage.removeItem(AFFILIATOR_ID_KEY);
  },
};

/** Spec §4: a 401 from the affiliate API clears the stored token and id, and tells the listeners. */
function onUnauthorized(listeners: Set<() => void>): Middleware {
  return {
    onResponse({ response }) {
      if (response.status === 401) {
        affiliateLogin.clear();
        for (const listener of listeners) listener();
      }
      return response;
    },
  };
}

/**
 * The affiliate calls of spec §7, on the affiliate API's host (the configuration's
 * AFFILIATE_API_URL, else this site), each with the affiliate's bearer token.
 */
export function createAffiliateRequests(apiUrl: string) {
  const client = createApiClient({
    baseUrl: apiUrl ? apiUrl.replace(/\/$/, '') : window.location.origin,
    readToken: affiliateLogin.tokens.read,
  });
  const unauthorizedListeners = new Set<() => void>();
  client.use(onUnauthorized(unauthorizedListeners));
  const link = (id: string) => ({ params: { path: { id } } });
  return {
    /** Calls `listener` after each 401; returns what stops it. */
    whenUnauthorized(listener: () => void) {
      unauthorizedListeners.add(listener);
      return () => void unauthorizedListeners.delete(listener);
    },
    logIn: (body: { email: string; password: string; remember_me: boolean }) =>
      dataOf(client.POST('/api/affiliate/login', { body })),
    me: () => dataOf(client.GET('/api/affiliate/me')),
    logOut: () => dataOf(client.POST('/api/affiliate/logout')),
    register: (body: AffiliateRegistrationRequest) => dataOf(client.POST('/api/affiliate/register', { body })),
    links: () => dataOf(client.GET('/api/affiliate/links')),
    createLink: (body: { name: string; code: string }) => dataOf(client.POST('/api/affiliate/links', { body })),
    renameLink: (id: string, name: string) =>
      dataOf(client.PUT('/api/affiliate/links/{id}', { ...link(id), body: { name } })),
    archiveLink: (id: string) => dataOf(client.DELETE('/api/affiliate/links/{id}', link(id))),
    users: (id: string) => dataOf(client.GET('/api/affiliate/links/{id}/users', link(id))),
    affiliators: (id: string) => dataOf(client.GET('/api/affiliate/links/{id}/affiliators', link(id))),
    earnings: () => dataOf(client.GET('/api/affiliate/earnings')),
  };
}

export type AffiliateRequests = ReturnType<typeof createAffiliateRequests>;

/** Cache keys of the affiliate's data; all of it is dropped when they log out. */
export const affiliateKeys = {
  all: ['affiliate'] as const,
  links: ['affiliate', 'links'] as const,
  earnings: ['affiliate', 'earnings'] as const,
  linkPeople: (id: string, kind: 'users' | 'affiliators') => ['affiliate', 'links', id, kind] as const,
};

/** A link was created, renamed or archived: the earnings count conversions too, so all of the affiliate's data is read again. */
export function refreshAffiliate(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: affiliateKeys.all });
}
