import type { QueryClient } from '@tanstack/react-query';
import { dataOf } from '../../api/client.ts';
import type { GitProvider } from '../../api/git-providers.ts';
import { apiClient } from '../../app/services.ts';

// The microagent-management page's calls (openapi/atelier.yaml, the /api/user git calls).

const ownerAndRepo = (repository: string) => {
  const slash = repository.indexOf('/');
  return { owner: repository.slice(0, slash), repo: repository.slice(slash + 1) };
};

export const microagentQueryKeys = {
  all: ['user', 'microagents'] as const,
  /** The page's repository list (a full name always has a slash: no repository's key is this). */
  repositories: (provider: GitProvider) => ['user', 'microagents', provider, 'repositories'] as const,
  list: (provider: GitProvider, repository: string) => ['user', 'microagents', provider, repository] as const,
  content: (provider: GitProvider, repository: string, path: string) =>
    ['user', 'microagents', provider, repository, path] as const,
};

/** Refresh: every repository list and microagent is read again. */
export function refreshMicroagents(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: microagentQueryKeys.all });
}

export const microagentRequests = {
  list: (provider: GitProvider, repository: string) =>
    dataOf(
      apiClient.GET('/api/user/repository/{owner}/{repo}/microagents', {
        params: { path: ownerAndRepo(repository), query: { selected_provider: provider } },
      }),
    ),
  content: (provider: GitProvider, repository: string, filePath: string) =>
    dataOf(
      apiClient.GET('/api/user/repository/{owner}/{repo}/microagents/content', {
        params: { path: ownerAndRepo(repository), query: { file_path: filePath, selected_provider: provider } },
      }),
    ),
};
