import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Requests } from './client.ts';
import { ApiError } from './errors.ts';
import { currentUserQuery, queryKeys, setCurrentUserBalance, settingsQuery } from './queries.ts';
import { createQueryClient } from './query-client.ts';

describe('query keys', () => {
  it('put everything of the signed-in account under the prefixes removed when it changes', () => {
    const client = new QueryClient();
    const accountKeys = [
      queryKeys.currentUser,
      queryKeys.conversationList,
      queryKeys.conversation('c1', 'web-hosts'),
      queryKeys.conversation('c1', 'git', 'diff', 'a.ts'),
    ];
    for (const key of accountKeys) client.setQueryData(key, 'data');
    client.setQueryData(queryKeys.config, 'config');
    for (const queryKey of queryKeys.accountScoped) client.removeQueries({ queryKey });
    expect(accountKeys.map((key) => client.getQueryData(key))).toEqual(accountKeys.map(() => undefined));
    // The server's configuration is nobody's account.
    expect(client.getQueryData(queryKeys.config)).toBe('config');
  });
});

describe('the current user', () => {
  const client = () => createQueryClient({ showError: vi.fn(), currentPath: () => '/', reloadPage: vi.fn() });
  const user = { id: 'u1' };

  it('is fetched again after a server or network failure, before the session gives up', async () => {
    const currentUser = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(503, { detail: 'Unavailable' }))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(user);
    const requests = { currentUser } as unknown as Requests;
    await expect(client().fetchQuery(currentUserQuery(requests))).resolves.toBe(user);
    expect(currentUser).toHaveBeenCalledTimes(3);
  });

  it('takes a pushed balance without being read again, and stays unloaded when it was', () => {
    const cache = new QueryClient();
    setCurrentUserBalance(cache, 4.5);
    expect(cache.getQueryData(queryKeys.currentUser)).toBeUndefined();
    cache.setQueryData(queryKeys.currentUser, { id: 'u1', credits: { balance: 5 } });
    setCurrentUserBalance(cache, 4.5);
    expect(cache.getQueryData(queryKeys.currentUser)).toEqual({ id: 'u1', credits: { balance: 4.5 } });
  });

  it('is not fetched again when the server refuses the token', async () => {
    const currentUser = vi.fn().mockRejectedValue(new ApiError(401, { detail: 'Not authenticated' }));
    const requests = { currentUser } as unknown as Requests;
    await expect(client().fetchQuery(currentUserQuery(requests))).rejects.toThrow();
    expect(currentUser).toHaveBeenCalledTimes(1);
  });
});

describe('the settings', () => {
  it('never saved (404, null), are asked once, not again on every page that needs them', async () => {
    const settings = vi.fn().mockResolvedValue(null);
    const requests = { settings } as unknown as Requests;
    const client = new QueryClient();
    const now = vi.spyOn(Date, 'now');
    now.mockReturnValue(1_000);
    await client.ensureQueryData(settingsQuery(requests));
    // An hour later, another page asks.
    now.mockReturnValue(3_600_000);
    await client.fetchQuery(settingsQuery(requests));
    expect(settings).toHaveBeenCalledTimes(1);
    now.mockRestore();
  });
});
