import { restClient } from './rest.ts';
import { nextLink, pageOf } from './link-header.ts';
import type { GitHost, Repository, RepositorySort } from './types.ts';
import { gitApiUrl } from '../../shared/git-api.ts';

// GitLab's REST API (v4): gitlab.com, or a self-managed instance at the host saved with the token.

interface GitLabProject {
  id: number;
  path_with_namespace: string;
  visibility?: string;
  star_count?: number;
  last_activity_at?: string | null;
  default_branch?: string | null;
}

const repository = (project: GitLabProject): Repository => ({
  id: String(project.id),
  full_name: project.path_with_namespace,
  git_provider: 'gitlab',
  is_public: project.visibility === 'public',
  stargazers_count: project.star_count ?? null,
  pushed_at: project.last_activity_at ?? null,
  main_branch: project.default_branch ?? null,
});

const ORDER: Record<RepositorySort, string> = {
  pushed: 'order_by=last_activity_at&sort=desc',
  updated: 'order_by=updated_at&sort=desc',
  created: 'order_by=created_at&sort=desc',
  full_name: 'order_by=path&sort=asc',
};

/** A project's id in a path: its full path, URL-encoded as one segment. */
const project = (fullName: string) => encodeURIComponent(fullName);

export function gitLabHost(token: string, host: string | null, fetchImpl: typeof fetch = fetch): GitHost {
  const base = gitApiUrl('gitlab', host);

  const { call, bodyOf, json, orWhenMissing } = restClient(
    'gitlab',
    base,
    { authorization: `Bearer ${token}`, accept: 'application/json' },
    fetchImpl,
  );
  const nextPageOf = (response: Response) => {
    const header = Number(response.headers.get('x-next-page'));
    return Number.isInteger(header) && header > 0 ? header : pageOf(nextLink(response.headers.get('link')));
  };

  return {
    provider: 'gitlab',

    async user() {
      const user = await json<{
        id: number;
        username: string;
        avatar_url?: string | null;
        name?: string | null;
        public_email?: string | null;
        email?: string | null;
        organization?: string | null;
      }>('/user', 'user for this token');
      return {
        id: String(user.id),
        login: user.username,
        avatar_url: user.avatar_url ?? '',
        company: user.organization || null,
        name: user.name ?? null,
        email: user.email || user.public_email || null,
      };
    },

    async verifiedEmail() {
      // The token's own user carries its primary email and when that was confirmed.
      const user = await json<{ email?: string | null; confirmed_at?: string | null }>('/user', 'user for this token');
      return user.email && user.confirmed_at ? user.email : null;
    },

    async repositories({ sort, page, perPage, installationId }) {
      // A group plays the part of an installation.
      const path = installationId
        ? `/groups/${encodeURIComponent(installationId)}/projects?include_subgroups=true&`
        : '/projects?membership=true&';
      const response = await call(`${path}${ORDER[sort]}&page=${page}&per_page=${perPage}`, 'projects for this token');
      const projects = await bodyOf<GitLabProject[]>(response, 'projects for this token');
      return { repositories: projects.map(repository), nextPage: nextPageOf(response) };
    },

    async search(query, perPage) {
      const projects = await json<GitLabProject[]>(
        `/projects?membership=true&search=${encodeURIComponent(query)}&${ORDER.pushed}&per_page=${perPage}`,
        `projects matching "${query}"`,
      );
      return projects.map(repository);
    },

    async branches(fullName) {
      const branches = await json<
        { name: string; protected: boolean; commit: { id: string; committed_date?: string | null } }[]
      >(`/projects/${project(fullName)}/repository/branches?per_page=100`, `project ${fullName}`);
      return branches.map((b) => ({
        name: b.name,
        commit_sha: b.commit.id,
        protected: b.protected,
        last_push_date: b.commit.committed_date ?? null,
      }));
    },

    async installations() {
      const groups = await json<{ full_path: string }[]>('/groups?min_access_level=10&per_page=100', 'groups');
      return groups.map((g) => g.full_path);
    },

    async listDirectory(fullName, directory) {
      const entries = await orWhenMissing(
        json<{ type: string; name: string; path: string }[]>(
          `/projects/${project(fullName)}/repository/tree?path=${encodeURIComponent(directory)}&per_page=100`,
          `directory ${directory} in ${fullName}`,
        ),
        [],
      );
      return entries.filter((e) => e.type === 'blob').map((e) => ({ name: e.name, path: e.path }));
    },

    async readFile(fullName, path) {
      const response = await call(
        `/projects/${project(fullName)}/repository/files/${encodeURIComponent(path)}/raw?ref=HEAD`,
        `file ${path} in ${fullName}`,
      );
      return response.text();
    },
  };
}
