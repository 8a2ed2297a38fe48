import type { components } from '../../../openapi/schema.d.ts';
import type { Config } from '../../config.ts';
import { microsToDollars, parseDollars } from '../credits/index.ts';
import { configuredModelId, DEFAULT_MODEL } from './llm.ts';
import { GIT_PROVIDERS, type GitProvider, type SettingsRow } from './store.ts';

export type Settings = components['schemas']['Settings'];
export type SettingsUpdate = components['schemas']['SettingsUpdate'];
type McpConfig = components['schemas']['McpConfig'];

/** Atelier's git identity for commits the agent makes when the user has not set one. */
export const DEFAULT_GIT_USER = { name: 'atelier', email: 'atelier@localhost.localdomain' } as const;
export const EMPTY_MCP_CONFIG: McpConfig = { sse_servers: [], stdio_servers: [] };

/** The settings as the API shows them: stored values over the defaults, keys reduced to `*_set`. */
export function toSettings(
  row: SettingsRow,
  context: { config: Config; account: { email: string; emailVerified: boolean }; tokens: Set<GitProvider> },
): Settings {
  const { config, account, tokens } = context;
  return {
    llm_model: row.llmModel ?? configuredModelId(config.llm) ?? DEFAULT_MODEL,
    llm_base_url: row.llmBaseUrl ?? config.llm.baseUrl ?? null,
    agent: row.agent,
    language: row.language,
    confirmation_mode: row.confirmationMode,
    security_analyzer: row.securityAnalyzer,
    llm_api_key_set: row.llmApiKey !== null,
    search_api_key_set: row.searchApiKey !== null,
    search_api_key: null,
    remote_runtime_resource_factor: (row.remoteRuntimeResourceFactor ??
      null) as Settings['remote_runtime_resource_factor'],
    provider_tokens_set: Object.fromEntries(
      GIT_PROVIDERS.map((p) => [p, tokens.has(p)]),
    ) as Settings['provider_tokens_set'],
    enable_default_condenser: row.enableDefaultCondenser,
    enable_sound_notifications: row.enableSoundNotifications,
    enable_proactive_conversation_starters: row.enableProactiveConversationStarters,
    user_consents_to_analytics: row.userConsentsToAnalytics,
    max_budget_per_task: row.maxBudgetPerTaskMicros === null ? null : microsToDollars(row.maxBudgetPerTaskMicros),
    email: row.email ?? account.email,
    email_verified: account.emailVerified,
    is_new_user: row.isNewUser,
    mcp_config: (row.mcpConfig as McpConfig | null) ?? EMPTY_MCP_CONFIG,
    git_user_name: row.gitUserName ?? DEFAULT_GIT_USER.name,
    git_user_email: row.gitUserEmail ?? DEFAULT_GIT_USER.email,
  };
}

/** A write-only key as sent: an empty string (or only spaces) clears it; anything else is stored encrypted. */
const key = (value: string, encrypt: (plain: string) => string) => (value.trim() ? encrypt(value.trim()) : null);

/** The columns a partial update changes (absent fields stay as they are). */
export function toColumns(update: SettingsUpdate, encrypt: (plain: string) => string): Partial<SettingsRow> {
  const columns: Partial<SettingsRow> = {};
  const set = <K extends keyof SettingsRow>(name: K, value: SettingsRow[K] | undefined) => {
    if (value !== undefined) columns[name] = value;
  };
  set('llmModel', update.llm_model === undefined ? undefined : update.llm_model?.trim() || null);
  set('llmBaseUrl', update.llm_base_url === undefined ? undefined : update.llm_base_url?.trim() || null);
  // Null leaves a saved key as it is (spec §5: the form sends null for an empty field).
  if (typeof update.llm_api_key === 'string') columns.llmApiKey = key(update.llm_api_key, encrypt);
  if (typeof update.search_api_key === 'string') columns.searchApiKey = key(update.search_api_key, encrypt);
  set('agent', update.agent);
  set('language', update.language);
  set('confirmationMode', update.confirmation_mode);
  set('securityAnalyzer', update.security_analyzer);
  set('remoteRuntimeResourceFactor', update.remote_runtime_resource_factor);
  set('enableDefaultCondenser', update.enable_default_condenser);
  set('enableSoundNotifications', update.enable_sound_notifications);
  set('enableProactiveConversationStarters', update.enable_proactive_conversation_starters);
  set('userConsentsToAnalytics', update.user_consents_to_analytics);
  if (update.max_budget_per_task !== undefined)
    columns.maxBudgetPerTaskMicros =
      update.max_budget_per_task === null ? null : parseDollars(update.max_budget_per_task.toFixed(6));
  set('email', update.email);
  set('isNewUser', update.is_new_user);
  if (update.mcp_config !== undefined) columns.mcpConfig = update.mcp_config;
  set('gitUserName', update.git_user_name);
  set('gitUserEmail', update.git_user_email);
  return columns;
}
