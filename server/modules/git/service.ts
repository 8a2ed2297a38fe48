import { NotFound } from '../../shared/domain-errors.ts';
import { MICROAGENT_DIR, parseMicroagent } from '../../agent/recall/microagents.ts';
import type { SettingsService } from '../settings/index.ts';
import { PROVIDER_NAMES } from './rest.ts';
import { bitbucketHost } from './bitbucket.ts';
import { gitHubHost } from './github.ts';
import { gitLabHost } from './gitlab.ts';
import type { GitHost, GitProvider } from './types.ts';

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
