import { encodePath, restClient } from './rest.ts';
import { pageOf } from './link-header.ts';
import type { GitHost, Repository, RepositorySort } from './types.ts';
import { gitApiUrl } from '../../shared/git-api.ts';

// Bitbucket Cloud's REST API (2.0). A token is an access token (sent as a bearer token) or
// `username:app-password` (sent as basic authentication), as Bitbucket accepts both.

interface BitbucketRepository {
  uuid: string;
  full_name: string;
  is_private: boolean;
  updated_on?: string | null;
  mainbranch?: { name: string } | null;
}

const repository = (repo: BitbucketRepository): Repository => ({
  id: repo.uuid,
  full_name: repo.full_name,
  git_provider: 'bitbucket',
  is_public: !repo.is_private,
  stargazers_count: null,
  pushed_at: repo.updated_on ?? null,
  main_branch: repo.mainbranch?.name ?? null,
});

const ORDER: Record<RepositorySort, string> = {
  pushed: '-updated_on',
  updated: '-updated_on',
  created: '-created_on',
  full_name: 'full_name',
};

export function bitbucketHost(token: string, host: string | null, fetchImpl: typeof fetch = fetch): GitHost {
  const base = gitApiUrl('bitbucket', host);
  const authorization = token.includes(':') ? `Basic ${Buffer.from(token).toString('base64')}` : `Bearer ${token}`;

  const { call, json, orWhenMissing } = restClient(
    'bitbucket',
    base,
    { authorization, accept: 'application/json' },
    fetchImpl,
  );

  return {
    provider: 'bitbucket',

    async user() {
      const user = await json<{
        uuid: string;
        username?: string;
        nickname?: string;
        display_name?: string | null;
        links?: { avatar?: { href?: string } };
      }>('/user', 'user for this token');
      return {
        id: user.uuid,
        login: user.username ?? user.nickname ?? user.uuid,
        avatar_url: user.links?.avatar?.href ?? '',
        company: null,
        name: user.display_name ?? null,
        email: null,
      };
    },

    async verifiedEmail() {
      const body = await json<{ values: { email: string; is_primary: boolean; is_confirmed: boolean }[] }>(
        '/user/emails',
        'email addresses for this token',
      );
      const confirmed = body.values.filter((e) => e.is_confirmed);
      return (confirmed.find((e) => e.is_primary) ?? confirmed[0])?.email ?? null;
    },

    async repositories({ sort, page, perPage, installationId }) {
      // A workspace plays the part of an installation.
      const path = installationId
        ? `/repositories/${encodeURIComponent(installationId)}?`
        : '/repositories?role=member&';
      const body = await json<{ values: BitbucketRepository[]; next?: string }>(
        `${path}sort=${ORDER[sort]}&page=${page}&pagelen=${perPage}`,
        'repositories for this token',
      );
      return { repositories: body.values.map(repository), nextPage: pageOf(body.next ?? null) };
    },

    async search(query, perPage) {
      const q = encodeURIComponent(`name ~ "${query.replaceAll('"', '')}"`);
      const body = await json<{ values: BitbucketRepository[] }>(
        `/repositories?role=member&q=${q}&sort=-updated_on&pagelen=${perPage}`,
        `repositories matching "${query}"`,
      );
      return body.values.map(repository);
    },

    async branches(fullName) {
      const body = await json<{ values: { name: string; target: { hash: string; date?: string | null } }[] }>(
        `/repositories/${encodePath(fullName)}/refs/branches?pagelen=100`,
        `repository ${fullName}`,
      );
      return body.values.map((b) => ({
        name: b.name,
        commit_sha: b.target.hash,
        protected: false,
        last_push_date: b.target.date ?? null,
      }));
    },

    async installations() {
      const body = await json<{ values: { slug: string }[] }>('/workspaces?role=member&pagelen=100', 'workspaces');
      return body.values.map((w) => w.slug);
    },

    async listDirectory(fullName, directory) {
      const body = await orWhenMissing(
        json<{ values: { type: string; path: string }[] }>(
          `/repositories/${encodePath(fullName)}/src/HEAD/${encodePath(directory)}/?pagelen=100`,
          `directory ${directory} in ${fullName}`,
        ),
        { values: [] },
      );
      return body.values
        .filter((e) => e.type === 'commit_file')
        .map((e) => ({ name: e.path.split('/').at(-1) ?? e.path, path: e.path }));
    },

    async readFile(fullName, path) {
      const response = await call(
        `/repositories/${encodePath(fullName)}/src/HEAD/${encodePath(path)}`,
        `file ${path} in ${fullName}`,
      );
      return response.text();
    },
  };
}
