import i18next from 'i18next';
import { createApiClient, createRequests } from '../api/client.ts';
import { withoutRepeats } from '../api/error-toasts.ts';
import { queryKeys } from '../api/queries.ts';
import { createQueryClient } from '../api/query-client.ts';
import { toastDuration } from '../api/toast-duration.ts';
import { createTokenStore } from '../api/token-store.ts';
import { toast } from '../ui/index.ts';

// The one instance of each service the browser application uses.

export const tokenStore = createTokenStore(window.localStorage, window.sessionStorage);

/** The signed-in user's token for a socket's query (none in oss mode, where the local user needs none). */
export function socketCredentials(): Record<string, string> {
  const token = tokenStore.read();
  return token === null ? {} : { auth_token: token };
}

/** The typed client of openapi/atelier.yaml, for the calls a feature makes on its own. */
export const apiClient = createApiClient({ baseUrl: window.location.origin, readToken: tokenStore.read });

export const requests = createRequests(apiClient);

/** An error toast; the same text is not shown twice within 3 seconds. */
export const showErrorToast = withoutRepeats((text) => {
  toast.error(text, { duration: toastDuration(text, 'error') });
});

export const queryClient = createQueryClient({
  showError: (text) => showErrorToast(text || i18next.t('common:errors.unknown')),
  currentPath: () => window.location.pathname,
  reloadPage: () => window.location.reload(),
});

/** Drops the cached data of the signed-in account (the user and their conversations). */
export function forgetAccountQueries(): void {
  for (const queryKey of queryKeys.accountScoped) queryClient.removeQueries({ queryKey });
}
