import type { AgentSettings } from '../../agent/types.ts';
import type { SecretsService } from '../secrets/index.ts';
import type { GitProvider, SettingsService } from '../settings/index.ts';
import type { ConversationRow } from './store.ts';

/** Iterations of the agent loop per task before it pauses and asks the user to continue. */
const MAX_ITERATIONS = 100;

const TOKEN_VARIABLES: Record<GitProvider, string> = { github: 'GITHUB_TOKEN', gitlab: 'GITLAB_TOKEN', bitbucket: 'BITBUCKET_TOKEN' };

/**
 * What a start of the conversation runs with: the agent's settings, and the runtime's
 * environment — the user's secrets, git identity and the tokens of the providers asked for.
 * Settings are read once per start; saving them takes effect on the next start.
 */
export async function prepareStart(
  row: ConversationRow,
  providers: string[] | undefined,
  deps: { settings: SettingsService; secrets: SecretsService },
): Promise<{ env: Record<string, string>; settings: AgentSettings }> {
  const preferences = await deps.settings.forAgent(row.userId);
  const tokens = await deps.settings.providerTokens(row.userId, providers as GitProvider[] | undefined);
  const env: Record<string, string> = {
    ...(await deps.secrets.values(row.userId)),
    ...Object.fromEntries(tokens.map((t) => [TOKEN_VARIABLES[t.provider], t.token])),
    // Environment beats the repository's git config: commits carry the user's chosen identity.
    GIT_AUTHOR_NAME: preferences.gitUser.name,
    GIT_AUTHOR_EMAIL: preferences.gitUser.email,
    GIT_COMMITTER_NAME: preferences.gitUser.name,
    GIT_COMMITTER_EMAIL: preferences.gitUser.email,
  };
  return {
    env,
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
      // Repositories are not cloned into the workspace yet: the agent is not told about one.
      repository: null,
    },
  };
}
