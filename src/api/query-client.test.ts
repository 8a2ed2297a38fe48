import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors.ts';
import { queryKeys } from './queries.ts';
import { createQueryClient } from './query-client.ts';

function setup(path = '/dashboard') {
  const effects = { showError: vi.fn(), currentPath: () => path, reloadPage: vi.fn() };
  const queryClient = createQueryClient(effects);
  return { effects, queryClient };
}

const failWith = (error: Error) => () => Promise.reject(error);

describe('query client error handling', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the error text of a failed query', async () => {
    const { effects, queryClient } = setup();
    await queryClient
      .fetchQuery({ queryKey: ['settings'], queryFn: failWith(new ApiError(404, { detail: 'No settings' })) })
      .catch(() => {});
    expect(effects.showError).toHaveBeenCalledWith('No settings');
  });

  it('shows no toast for a query flagged disableToast', async () => {
    const { effects, queryClient } = setup();
    await queryClient
      .fetchQuery({
        queryKey: ['quiet'],
        queryFn: failWith(new ApiError(400, { detail: 'quiet failure' })),
        meta: { disableToast: true },
      })
      .catch(() => {});
    expect(effects.showError).not.toHaveBeenCalled();
  });

  it('shows the error text of a failed mutation', async () => {
    const { effects, queryClient } = setup();
    await queryClient
      .getMutationCache()
      .build(queryClient, { mutationFn: failWith(new ApiError(409, { detail: 'Taken' })) })
      .execute(undefined)
      .catch(() => {});
    expect(effects.showError).toHaveBeenCalledWith('Taken');
  });

  it('invalidates the current user when another query answers 401', async () => {
    const { queryClient } = setup();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await queryClient
      .fetchQuery({ queryKey: ['settings'], queryFn: failWith(new ApiError(401, { detail: 'Not authenticated' })) })
      .catch(() => {});
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.currentUser, exact: true });
  });

  it('does not invalidate the current user because of its own 401', async () => {
    const { queryClient } = setup();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await queryClient
      .fetchQuery({
        queryKey: queryKeys.currentUser,
        queryFn: failWith(new ApiError(401, { detail: 'Not authenticated' })),
      })
      .catch(() => {});
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('retries network failures but not answers the server refused on purpose', async () => {
    const { queryClient } = setup();
    const retry = queryClient.getDefaultOptions().queries?.retry;
    const refused = vi.fn(failWith(new ApiError(403, { detail: 'Forbidden' })));
    const unreachable = vi.fn(failWith(new TypeError('Failed to fetch')));
    await queryClient.fetchQuery({ queryKey: ['refused'], queryFn: refused, retry, retryDelay: 0 }).catch(() => {});
    await queryClient
      .fetchQuery({ queryKey: ['unreachable'], queryFn: unreachable, retry, retryDelay: 0 })
      .catch(() => {});
    expect(refused).toHaveBeenCalledTimes(1);
    expect(unreachable).toHaveBeenCalledTimes(3);
  });

  it('reloads the page on an email-not-verified 403', async () => {
    const { effects, queryClient } = setup('/dashboard');
    await queryClient
      .fetchQuery({ queryKey: ['tasks'], queryFn: failWith(new ApiError(403, { detail: 'Email not verified' })) })
      .catch(() => {});
    expect(effects.reloadPage).toHaveBeenCalledTimes(1);
  });

  it('does not reload on /settings/user', async () => {
    const { effects, queryClient } = setup('/settings/user');
    await queryClient
      .fetchQuery({ queryKey: ['tasks'], queryFn: failWith(new ApiError(403, { detail: 'Email not verified' })) })
      .catch(() => {});
    expect(effects.reloadPage).not.toHaveBeenCalled();
  });
});
