import { NotFound } from '../../shared/domain-errors.ts';
import { RawResponse, requireUser, type Handlers } from '../../shared/operations.ts';
import { MICROAGENT_DIR, parseMicroagent } from '../../agent/recall/microagents.ts';
import type { SettingsService } from '../settings/index.ts';
import { PROVIDER_NAMES } from './rest.ts';
import { bitbucketHost } from './bitbucket.ts';
import { gitHubHost } from './github.ts';
import { gitLabHost } from './gitlab.ts';
import type { GitHost, GitProvider, RepositorySort } from './types.ts';

export { PROVIDER_NAMES, unreachable } from './rest.ts';
export type { GitHost, GitProvider } from './types.ts';

const PROVIDER_ORDER: readonly GitProvider[] = ['github', 'gitlab', 'bitbucket'];
export const NO_PROVIDER = 'No git provider is connected. Add a token in Settings → Integrations.';

type Hosts = Record<GitProvider, (token: string, host: string | null, fetchImpl?: typeof fetch) => GitHost>;
const HOSTS: Hosts = { github: gitHubHost, gitlab: gitLabHost, bitbucket: bitbucketHost };

/** A provider's REST API as a token sees it, at the saved host (null: the cloud one). */
export const gitHost = (provider: GitProvider, token: string, host: string | null) => HOSTS[provider](token, host);

/**
 * The user's git hosts through their saved tokens (spec §7, the /api/user/* git calls). A
 * token's host is the user's to choose, so its calls go through `outboundFetch`.
 */
export function createGitService(settings: Pick<SettingsService, 'providerTokens'>, outboundFetch: typeof fetch) {
  /** The chosen provider's host, else the first connected one's. */
  async function hostFor(userId: string, selected?: GitProvider): Promise<GitHost> {
    const tokens = await settings.providerTokens(userId, selected ? [selected] : undefined);
    const token = [...tokens].sort(
      (a, b) => PROVIDER_ORDER.indexOf(a.provider) - PROVIDER_ORDER.indexOf(b.provider),
    )[0];
    if (!token)
      throw new NotFound(
        selected ? `No ${PROVIDER_NAMES[selected]} token is saved. Add one in Settings → Integrations.` : NO_PROVIDER,
      );
    return HOSTS[token.provider](token.token, token.host, outboundFetch);
  }

  return {
    hostFor,

    /** A repository's microagents, without their content. */
    async microagents(userId: string, fullName: string, provider?: GitProvider) {
      const host = await hostFor(userId, provider);
      const files = (await host.listDirectory(fullName, MICROAGENT_DIR)).filter(
        (f) => f.name.toLowerCase().endsWith('.md') && f.name.toLowerCase() !== 'readme.md',
      );
      return Promise.all(
        files.map(async (file) => {
          const parsed = parseMicroagent(file.name, await host.readFile(fullName, file.path));
          return { name: parsed.name, path: file.path, type: parsed.type, triggers: parsed.triggers, created_at: null };
        }),
      );
    },

    async microagentContent(userId: string, fullName: string, path: string, provider?: GitProvider) {
      const host = await hostFor(userId, provider);
      const parsed = parseMicroagent(path.split('/').at(-1) ?? path, await host.readFile(fullName, path));
      return { content: parsed.content, path, triggers: parsed.triggers, git_provider: host.provider };
    },
  };
}

export type GitService = ReturnType<typeof createGitService>;

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
