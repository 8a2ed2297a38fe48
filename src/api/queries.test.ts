import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from './queries.ts';

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
