import { Forbidden } from '../../shared/domain-errors.ts';
import { encodePath, restClient } from './rest.ts';
import { nextLink, pageOf } from './link-header.ts';
import type { Branch, GitHost, Repository } from './types.ts';
import { gitApiUrl } from '../../shared/git-api.ts';

// GitHub's REST API (v3): github.com through api.github.com, GitHub Enterprise Server through
// https://<host>/api/v3 (the host saved with the token).

interface GitHubRepository {
  id: number;
  full_name: string;
  private: boolean;
  stargazers_count?: number;
  pushed_at?: string | null;
  default_branch?: string;
}

const repository = (repo: GitHubRepository): Repository => ({
  id: String(repo.id),
  full_name: repo.full_name,
  git_provider: 'github',
  is_public: !repo.private,
  stargazers_count: repo.stargazers_count ?? null,
  pushed_at: repo.pushed_at ?? null,
  main_branch: repo.default_branch ?? null,
});

export function gitHubHost(token: string, host: string | null, fetchImpl: typeof fetch = fetch): GitHost {
  const base = gitApiUrl('github', host);

  const { call, bodyOf, json, orWhenMissing } = restClient(
    'github',
    base,
    {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${token}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'Atelier',
    },
    fetchImpl,
  );

  return {
    provider: 'github',

    async user() {
      const user = await json<{
        id: number;
        login: string;
        avatar_url: string;
        company: string | null;
        name: string | null;
        email: string | null;
      }>('/user', 'user for this token');
      return {
        id: String(user.id),
        login: user.login,
        avatar_url: user.avatar_url,
        company: user.company ?? null,
        name: user.name ?? null,
        email: user.email ?? null,
      };
    },

    async verifiedEmail() {
      // Needs the user:email scope (the sign-in app asks for it); a token without it has none to give.
      const emails = await json<{ email: string; primary: boolean; verified: boolean }[]>(
        '/user/emails',
        'email addresses for this token',
      );
      return (emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified))?.email ?? null;
    },

    async repositories({ sort, page, perPage, installationId }) {
      const query = `page=${page}&per_page=${perPage}`;
      if (installationId) {
        const response = await call(
          `/user/installations/${encodeURIComponent(installationId)}/repositories?${query}`,
          `installation ${installationId}`,
        );
        const body = await bodyOf<{ repositories: GitHubRepository[] }>(response, `installation ${installationId}`);
        return {
          repositories: body.repositories.map(repository),
          nextPage: pageOf(nextLink(response.headers.get('link'))),
        };
      }
      const response = await call(`/user/repos?sort=${sort}&${query}`, 'repositories for this token');
      const body = await bodyOf<GitHubRepository[]>(response, 'repositories for this token');
      return { repositories: body.map(repository), nextPage: pageOf(nextLink(response.headers.get('link'))) };
    },

    async search(query, perPage) {
      const q = encodeURIComponent(`${query} in:name`);
      const body = await json<{ items: GitHubRepository[] }>(
        `/search/repositories?q=${q}&per_page=${perPage}`,
        `repositories matching "${query}"`,
      );
      return body.items.map(repository);
    },

    async branches(fullName) {
      const branches = await json<{ name: string; commit: { sha: string }; protected: boolean }[]>(
        `/repos/${encodePath(fullName)}/branches?per_page=100`,
        `repository ${fullName}`,
      );
      return branches.map((b): Branch => ({
        name: b.name,
        commit_sha: b.commit.sha,
        protected: b.protected,
        last_push_date: null,
      }));
    },

    async installations() {
      try {
        const body = await json<{ installations: { id: number }[] }>('/user/installations', 'installations');
        return body.installations.map((i) => String(i.id));
      } catch (error) {
        // A personal access token is not a GitHub App's: it reaches no installation.
        if (error instanceof Forbidden) return [];
        throw error;
      }
    },

    async listDirectory(fullName, directory) {
      const entries = await orWhenMissing(
        json<{ type: string; name: string; path: string }[] | { type: string }>(
          `/repos/${encodePath(fullName)}/contents/${encodePath(directory)}`,
          `directory ${directory} in ${fullName}`,
        ),
        [],
      );
      return Array.isArray(entries)
        ? entries.filter((e) => e.type === 'file').map((e) => ({ name: e.name, path: e.path }))
        : [];
    },

    async readFile(fullName, path) {
      const file = await json<{ content?: string; encoding?: string }>(
        `/repos/${encodePath(fullName)}/contents/${encodePath(path)}`,
        `file ${path} in ${fullName}`,
      );
      return file.encoding === 'base64'
        ? Buffer.from(file.content ?? '', 'base64').toString('utf8')
        : (file.content ?? '');
    },
  };
}
