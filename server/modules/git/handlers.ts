import { NotFound } from '../../shared/domain-errors.ts';
import { RawResponse, requireUser, type Handlers } from '../../shared/operations.ts';
import type { GitService } from './service.ts';
import type { RepositorySort } from './types.ts';

export function gitHandlers(git: GitService): Handlers {
  return {
    getGitUser: async (ctx) => (await git.hostFor(requireUser(ctx).id, ctx.query.selected_provider)).user(),
    listRepositories: async (ctx) => {
      const { selected_provider, sort, page, per_page, installation_id } = ctx.query;
      const host = await git.hostFor(requireUser(ctx).id, selected_provider);
      const current = page ?? 1;
      const perPage = per_page ?? 30;
      const { repositories, nextPage } = await host.repositories({
        sort: (sort ?? 'pushed') as RepositorySort,
        page: current,
        perPage,
        installationId: installation_id,
      });
      if (nextPage === null) return repositories;
      const next = new URLSearchParams({
        selected_provider: host.provider,
        sort: sort ?? 'pushed',
        page: String(nextPage),
        per_page: String(perPage),
        ...(installation_id && { installation_id }),
      });
      return new RawResponse(200, repositories, { link: `</api/user/repositories?${next}>; rel="next"` });
    },
    searchRepositories: async (ctx) =>
      (await git.hostFor(requireUser(ctx).id, ctx.query.selected_provider)).search(
        ctx.query.query,
        ctx.query.per_page ?? 5,
      ),
    listBranches: async (ctx) =>
      (await git.hostFor(requireUser(ctx).id, ctx.query.selected_provider)).branches(ctx.query.repository),
    listInstallations: async (ctx) => {
      try {
        return await (await git.hostFor(requireUser(ctx).id, ctx.query.provider)).installations();
      } catch (error) {
        // Not connected to that provider: it reaches no installation.
        if (error instanceof NotFound) return [];
        throw error;
      }
    },
    listRepositoryMicroagents: async (ctx) =>
      git.microagents(requireUser(ctx).id, `${ctx.params.owner}/${ctx.params.repo}`, ctx.query.selected_provider),
    getRepositoryMicroagentContent: async (ctx) =>
      git.microagentContent(
        requireUser(ctx).id,
        `${ctx.params.owner}/${ctx.params.repo}`,
        ctx.query.file_path,
        ctx.query.selected_provider,
      ),
  };
}
