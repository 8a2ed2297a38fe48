import type { AgentSettings, GitHostFacts } from '../../agent/types.ts';
import { gitApiUrl, hostOrigin } from '../../shared/git-api.ts';
import type { RepositorySource } from '../../runtime/types.ts';
import type { SecretsService } from '../secrets/index.ts';
import type { GitProvider, SettingsService } from '../settings/index.ts';
import type { ConversationRow } from './store.ts';

/** Iterations of the agent loop per task before it pauses and asks the user to continue. */
const MAX_ITERATIONS = 100;

const TOKEN_VARIABLES: Record<GitProvider, string> = {
  github: 'GITHUB_TOKEN',
  gitlab: 'GITLAB_TOKEN',
  bitbucket: 'BITBUCKET_TOKEN',
};
const DEFAULT_HOSTS: Record<GitProvider, string> = {
  github: 'https://github.com',
  gitlab: 'https://gitlab.com',
  bitbucket: 'https://bitbucket.org',
};
/** The user name each provider expects beside a token over HTTPS. */
const TOKEN_USERS: Record<GitProvider, string> = {
  github: 'x-access-token',
  gitlab: 'oauth2',
  bitbucket: 'x-token-auth',
};

/** Where the repository lives: its provider and the user's token (with its host) there, if any. */
interface RepositoryHost {
  provider: GitProvider;
  token: { host: string | null } | null;
}

function repositoryHost(
  row: ConversationRow,
  tokens: readonly { provider: GitProvider; host: string | null }[],
): RepositoryHost {
  // A conversation created without a provider names a GitHub repository, as the spec's home page does.
  const provider = (row.gitProvider ?? 'github') as GitProvider;
  return { provider, token: tokens.find((t) => t.provider === provider) ?? null };
}

/**
 * Where the conversation's repository is cloned from: the provider's host, or the host saved
 * with the token (self-hosted; a full URL such as http://git.internal or file:///srv/git is
 * taken as it is). With a token, git asks a helper that reads it from the environment.
 */
function repositorySource(name: string, branch: string | null, { provider, token }: RepositoryHost): RepositorySource {
  const host = token?.host ? hostOrigin(token.host) : DEFAULT_HOSTS[provider];
  return {
    url: `${host}/${name}.git`,
    branch,
    credentialHelper: token
      ? `!f() { test "$1" = get && echo username=${TOKEN_USERS[provider]} && echo "password=$${TOKEN_VARIABLES[provider]}"; }; f`
      : null,
  };
}

/** The API of the repository's host, when the user's token for it is in the runtime's environment. */
function gitHostFacts({ provider, token }: RepositoryHost): GitHostFacts | null {
  if (!token) return null;
  return { provider, apiUrl: gitApiUrl(provider, token.host), tokenVariable: TOKEN_VARIABLES[provider] };
}

const tokenVariables = (tokens: readonly { provider: GitProvider; token: string }[]) =>
  Object.fromEntries(tokens.map((t) => [TOKEN_VARIABLES[t.provider], t.token]));

/** The runtime's variables of the user's tokens of the providers asked for (all when none are named). */
export async function gitTokenVariables(
  userId: string,
  providers: string[] | undefined,
  settings: SettingsService,
): Promise<Record<string, string>> {
  return tokenVariables(await settings.providerTokens(userId, providers as GitProvider[] | undefined));
}

/**
 * What a start of the conversation runs with: the agent's settings, and the runtime's
 * environment — the user's secrets, git identity and the tokens of the providers asked for.
 * Settings are read once per start; a save changes the model settings of a running agent from
 * its next step (AgentHost.refreshSettings), and the git tokens of its runtime within a lease
 * renewal (ConversationManager.renewGitTokens); everything else on the next start.
 */
export async function prepareStart(
  row: ConversationRow,
  providers: string[] | undefined,
  deps: { settings: SettingsService; secrets: SecretsService },
): Promise<{
  env: Record<string, string>;
  gitTokens: Record<string, string>;
  settings: AgentSettings;
  repository: RepositorySource | null;
}> {
  const preferences = await deps.settings.forAgent(row.userId);
  const tokens = await deps.settings.providerTokens(row.userId, providers as GitProvider[] | undefined);
  const gitTokens = tokenVariables(tokens);
  const env: Record<string, string> = {
    ...(await deps.secrets.values(row.userId)),
    ...gitTokens,
    // Environment beats the repository's git config: commits carry the user's chosen identity.
    GIT_AUTHOR_NAME: preferences.gitUser.name,
    GIT_AUTHOR_EMAIL: preferences.gitUser.email,
    GIT_COMMITTER_NAME: preferences.gitUser.name,
    GIT_COMMITTER_EMAIL: preferences.gitUser.email,
  };
  const host = repositoryHost(row, tokens);
  return {
    env,
    gitTokens,
    repository: row.selectedRepository ? repositorySource(row.selectedRepository, row.selectedBranch, host) : null,
    settings: {
      llm: preferences.llm,
      agent: preferences.agent,
      confirmationMode: preferences.confirmationMode,
      securityAnalyzer: preferences.securityAnalyzer,
      maxIterations: MAX_ITERATIONS,
      maxBudgetPerTask: preferences.maxBudgetPerTask,
      enableDefaultCondenser: preferences.enableDefaultCondenser,
      mcpConfig: preferences.mcpConfig ?? { sse_servers: [], stdio_servers: [] },
      conversationInstructions: row.instructions,
      customSecretsDescriptions: await deps.secrets.descriptions(row.userId),
      // The workspace itself is the checkout (the manager clears this when the checkout fails).
      repository: row.selectedRepository
        ? { name: row.selectedRepository, directory: '.', gitHost: gitHostFacts(host) }
        : null,
    },
  };
}
