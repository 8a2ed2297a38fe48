import { dataOf } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import type { GitProvider } from '../../api/git-providers.ts';
import { apiClient } from '../../app/services.ts';
import type { RepositoryPage } from '../../../machines/repository-picker.ts';

/** The page number of a Link header's rel="next" URL, as the server writes it. */
export function nextPageOf(link: string | null): number | null {
  const next = link?.split(',').find((part) => /rel="?next"?/.test(part));
  const url = next && /<([^>]+)>/.exec(next)?.[1];
  if (!url) return null;
  const page = Number(new URL(url, 'http://atelier.invalid').searchParams.get('page'));
  return Number.isInteger(page) && page > 0 ? page : null;
}

/** The home page's git calls on one provider. */
export function repositoryRequests(provider: GitProvider) {
  return {
    async page(page: number): Promise<RepositoryPage> {
      const { data, error, response } = await apiClient.GET('/api/user/repositories', {
        params: { query: { selected_provider: provider, page, per_page: 30 } },
      });
      if (!response.ok || !data) throw new ApiError(response.status, error);
      return { repositories: data, nextPage: nextPageOf(response.headers.get('link')) };
    },
    search: (query: string) =>
      dataOf(
        apiClient.GET('/api/user/search/repositories', { params: { query: { query, selected_provider: provider } } }),
      ),
    branches: (repository: string) =>
      dataOf(
        apiClient.GET('/api/user/repository/branches', {
          params: { query: { repository, selected_provider: provider } },
        }),
      ),
  };
}
