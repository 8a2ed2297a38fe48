import { MutationCache, QueryCache, QueryClient, matchQuery } from '@tanstack/react-query';
import { ApiError, errorText, isEmailNotVerified, isUnauthorized } from './errors.ts';
import { queryKeys } from './queries.ts';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: Error;
    queryMeta: AtelierQueryMeta;
    mutationMeta: { disableToast?: boolean };
  }
}

interface AtelierQueryMeta {
  disableToast?: boolean;
  /** The toast's text when the error has none of its own (e.g. 'Failed to load affiliate links'). */
  errorFallback?: string;
  /** The affiliate programme's queries: their 401 is the affiliate's, not the application user's. */
  affiliate?: boolean;
}

export interface QueryErrorEffects {
  /** Shows an error toast with the error's text (the caller de-duplicates and picks a fallback for empty text). */
  showError(text: string): void;
  currentPath(): string;
  reloadPage(): void;
}

/** Where an email-not-verified answer is expected and must not reload the page. */
const USER_SETTINGS_PATH = '/settings/user';
const MAX_RETRIES = 2;

/** Retries network and server failures, never answers the server gave on purpose (4xx). */
function retryTransientFailures(failureCount: number, error: Error): boolean {
  const refused = error instanceof ApiError && error.status < 500;
  return !refused && failureCount < MAX_RETRIES;
}

export function createQueryClient(effects: QueryErrorEffects): QueryClient {
  const reloadWhenEmailNotVerified = (error: Error) => {
    if (isEmailNotVerified(error) && effects.currentPath() !== USER_SETTINGS_PATH) effects.reloadPage();
  };

  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError(error, query) {
        const isCurrentUserQuery = matchQuery({ queryKey: queryKeys.currentUser, exact: true }, query);
        if (isUnauthorized(error) && !isCurrentUserQuery && query.meta?.affiliate !== true) {
          void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser, exact: true });
        }
        reloadWhenEmailNotVerified(error);
        if (query.meta?.disableToast !== true)
          effects.showError(errorText(error) || String(query.meta?.errorFallback ?? ''));
      },
    }),
    mutationCache: new MutationCache({
      onError(error, _variables, _context, mutation) {
        reloadWhenEmailNotVerified(error);
        if (mutation.meta?.disableToast !== true) effects.showError(errorText(error));
      },
    }),
    defaultOptions: { queries: { retry: retryTransientFailures } },
  });
  return queryClient;
}
