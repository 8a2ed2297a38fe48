import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { NotFound, ValidationFailure } from '../../shared/domain-errors.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { findUser } from '../auth/index.ts';
import { microsToDollars } from '../credits/index.ts';
import { checkMcpServers, testModelConnection } from '../../agent/index.ts';
import { hostOrigin, InvalidGitHost } from '../../shared/git-api.ts';
import { outboundFetch } from '../../shared/outbound.ts';
import { configuredModelId, DEFAULT_MODEL, parseModelId, type LlmChoice } from './llm.ts';
import { createSettingsStore, GIT_PROVIDERS, type GitProvider, type TokenGrant } from './store.ts';
import { createTokenRefresh, type RefreshToken } from './token-refresh.ts';
import { DEFAULT_GIT_USER, EMPTY_MCP_CONFIG, toColumns, toSettings, type Settings } from './view.ts';

/** How long the settings' MCP check waits for each server (a conversation waits 30 s). */
const MCP_CHECK_TIMEOUT_MS = 10_000;
const MCP_STDIO_IN_SANDBOX =
  'stdio servers run inside each conversation’s sandbox: this one is started and checked when a conversation starts';

/** The bus topic of saved settings; the message is the user's id. */
export const SETTINGS_CHANGED = 'settings';
/** How long a user's agent settings are used without reading them again, should a notice be lost. */
export const AGENT_SETTINGS_TTL_MS = 10_000;
const MAX_CACHED_USERS = 10_000;

/** A token's host as saved: its origin, or a 422 naming the field when it is more than a host. */
function savedHost(provider: GitProvider, host: string | null | undefined): string | null {
  if (!host?.trim()) return null;
  try {
    return hostOrigin(host);
  } catch (error) {
    if (!(error instanceof InvalidGitHost)) throw error;
    throw new ValidationFailure([
      { loc: ['body', 'provider_tokens', provider, 'host'], msg: error.message, type: 'value_error' },
    ]);
  }
}

/** A 422 naming the second stdio MCP server of a name already used: the check and the agent tell servers apart by it. */
function refuseDuplicateMcpNames(mcp: Settings['mcp_config'] | undefined): void {
  const seen = new Set<string>();
  mcp?.stdio_servers.forEach((server, index) => {
    const name = server.name.trim();
    if (seen.has(name))
      throw new ValidationFailure([
        {
          loc: ['body', 'mcp_config', 'stdio_servers', index, 'name'],
          msg: `Two MCP servers are named ${name}: give each its own name.`,
          type: 'value_error',
        },
      ]);
    seen.add(name);
  });
}

export function createSettingsService(
  db: Db,
  config: Config,
  box: SecretBox,
  bus: Pick<EventBus, 'announce' | 'onAnnouncement' | 'onReconnect'>,
  /** Trades a sign-in's refresh token (saas, where the sign-in apps are); null: tokens are used as saved. */
  refreshToken: RefreshToken | null = null,
) {
  const store = createSettingsStore(db, box);
  const refresh = createTokenRefresh(store, refreshToken);
  // The MCP check calls the URLs a user saved: guarded as every request on a user's behalf.
  const outbound = outboundFetch(config.outbound);
  // What agents run with, read before every step: kept per user until a save on any node (the bus
  // carries the notice), or for AGENT_SETTINGS_TTL_MS should a notice be lost.
  const forAgentCache = new Map<string, { settings: Promise<AgentPreferences>; until: number }>();
  bus.onAnnouncement(SETTINGS_CHANGED, (userId) => forAgentCache.delete(userId));
  // Notices sent while the connection was down are lost: trust nothing cached before it.
  bus.onReconnect(() => forAgentCache.clear());
  /** After every write of a user's settings: this node and then every other reads them again. */
  async function saved(userId: string) {
    forAgentCache.delete(userId);
    await bus.announce(SETTINGS_CHANGED, userId);
  }

  /** The operator's LLM_* model with its key and base URL; null when none is configured. */
  function operatorModel(): LlmChoice | null {
    const llm = config.llm;
    const id = configuredModelId(llm);
    const parsed = id && parseModelId(id, llm.baseUrl);
    if (!parsed) return null;
    return { ...parsed, ...(llm.apiKey && { apiKey: llm.apiKey }), ...(llm.baseUrl && { baseUrl: llm.baseUrl }) };
  }

  /** What forAgent answers, read from the database. */
  async function readForAgent(userId: string) {
    const row = await store.find(userId);
    const llm = config.llm;
    let choice: LlmChoice | null = null;
    if (config.appMode === 'saas' || !row) {
      choice = operatorModel();
    } else {
      const operatorModel = configuredModelId(llm);
      const id = row.llmModel ?? operatorModel ?? DEFAULT_MODEL;
      const operators = id === operatorModel;
      const baseUrl = row.llmBaseUrl ?? (operators ? llm.baseUrl : undefined);
      const apiKey = row.llmApiKey ? box.decrypt(row.llmApiKey) : operators ? llm.apiKey : undefined;
      const parsed = parseModelId(id, baseUrl);
      if (parsed) choice = { ...parsed, ...(apiKey && { apiKey }), ...(baseUrl && { baseUrl }) };
    }
    const confirmationMode = row?.confirmationMode ?? false;
    return {
      llm: choice,
      agent: row?.agent ?? 'CodeActAgent',
      confirmationMode,
      // The analyzer only gates actions in confirmation mode (spec §5, settings).
      securityAnalyzer: confirmationMode ? (row?.securityAnalyzer ?? null) : null,
      maxBudgetPerTask: row?.maxBudgetPerTaskMicros == null ? null : microsToDollars(row.maxBudgetPerTaskMicros),
      enableDefaultCondenser: row?.enableDefaultCondenser ?? true,
      mcpConfig: (row?.mcpConfig as Settings['mcp_config']) ?? EMPTY_MCP_CONFIG,
      gitUser: {
        name: row?.gitUserName ?? DEFAULT_GIT_USER.name,
        email: row?.gitUserEmail ?? DEFAULT_GIT_USER.email,
      },
    };
  }
  type AgentPreferences = Awaited<ReturnType<typeof readForAgent>>;

  return {
    /** Null when the user never saved settings (the API answers 404; the client uses its defaults). */
    async read(userId: string): Promise<Settings | null> {
      const row = await store.find(userId);
      const account = await findUser(db, userId);
      if (!row || !account) return null;
      const tokens = new Set((await store.tokens(userId)).map((t) => t.provider));
      return toSettings(row, { config, account, tokens });
    },

    async save(userId: string, update: Parameters<typeof toColumns>[0]) {
      refuseDuplicateMcpNames(update.mcp_config);
      await store.save(
        userId,
        toColumns(update, (plain) => box.encrypt(plain)),
      );
      // Every host is parsed before anything is saved: a refusal loses nothing already there.
      const hosts = new Map(
        GIT_PROVIDERS.map((provider) => [provider, savedHost(provider, update.provider_tokens?.[provider]?.host)]),
      );
      for (const provider of GIT_PROVIDERS) {
        const input = update.provider_tokens?.[provider];
        if (!input) continue;
        if (input.token?.trim())
          await store.setToken(userId, provider, input.token.trim(), hosts.get(provider) ?? null);
        else await store.removeToken(userId, provider);
      }
      await saved(userId);
    },

    unsetProviderTokens: (userId: string) => store.removeToken(userId),

    /**
     * A provider token obtained for the user (sign-in through that provider), replacing the saved
     * one; the settings' row is made when there is none, so the settings show the token.
     */
    async saveProviderToken(
      userId: string,
      provider: GitProvider,
      token: string,
      host: string | null,
      grant?: TokenGrant,
    ) {
      if (!(await store.find(userId))) {
        await store.save(userId, {});
        await saved(userId);
      }
      await store.setToken(userId, provider, token, host, grant);
    },

    operatorModel,

    /**
     * What an agent session of this user runs with. saas: the operator's LLM_* model, always.
     * oss: the user's model (LLM_* as the default); the operator's base URL and key go with
     * the operator's model only, never to a model the user picked elsewhere. Null `llm` when
     * no reachable model results (the agent then says so). Kept per user until the settings are
     * saved: callers share the answer and never change it.
     */
    forAgent(userId: string): Promise<AgentPreferences> {
      const cached = forAgentCache.get(userId);
      if (cached && cached.until > Date.now()) return cached.settings;
      const settings = readForAgent(userId);
      // Maps iterate in insertion order: the first key is the oldest entry.
      if (!cached && forAgentCache.size >= MAX_CACHED_USERS)
        forAgentCache.delete(forAgentCache.keys().next().value as string);
      const entry = { settings, until: Date.now() + AGENT_SETTINGS_TTL_MS };
      forAgentCache.set(userId, entry);
      settings.catch(() => {
        if (forAgentCache.get(userId) === entry) forAgentCache.delete(userId);
      });
      return settings;
    },

    /**
     * Asks the model for one word with these settings (oss mode only: on the hosted service the
     * operator's model runs, and users must not make the server call arbitrary addresses). With
     * no key given, the saved one — or the operator's, for the operator's own model — is used.
     */
    async testConnection(
      userId: string,
      input: { llm_model: string; llm_base_url?: string | null; llm_api_key?: string | null },
    ) {
      if (config.appMode !== 'oss') throw new NotFound('Testing a model is for self-hosted installations');
      const row = await store.find(userId);
      const id = input.llm_model.trim();
      const baseUrl = input.llm_base_url?.trim() || null;
      const operators = id === configuredModelId(config.llm);
      const apiKey =
        input.llm_api_key?.trim() ||
        (row?.llmApiKey ? box.decrypt(row.llmApiKey) : operators ? config.llm.apiKey : undefined);
      const parsed = parseModelId(id, baseUrl);
      if (!parsed)
        return {
          ok: false,
          error: `${id} is not a model Atelier can call directly: give the base URL of its OpenAI-compatible server.`,
        };
      return testModelConnection({ ...parsed, ...(apiKey && { apiKey }), ...(baseUrl && { baseUrl }) });
    },

    /**
     * Connects to each saved MCP server as a conversation's agent would and lists its tools.
     * oss: stdio servers start on the host, in a scratch directory removed afterwards; saas:
     * they run only inside a conversation's sandbox, so they are checked when one starts.
     */
    async checkMcp(userId: string) {
      const row = await store.find(userId);
      const mcpConfig = (row?.mcpConfig as Settings['mcp_config'] | null) ?? EMPTY_MCP_CONFIG;
      const scratch = await mkdtemp(path.join(os.tmpdir(), 'atelier-mcp-check-'));
      try {
        const servers = await checkMcpServers(mcpConfig, {
          cwd: scratch,
          stdio: config.appMode === 'oss' ? { kind: 'host' } : null,
          stdioNotChecked: MCP_STDIO_IN_SANDBOX,
          timeoutMs: MCP_CHECK_TIMEOUT_MS,
          fetch: outbound,
        });
        return { servers };
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },

    /**
     * Git provider tokens, for git calls and the runtime's environment (only the providers asked
     * for, when given); a sign-in's token that expires soon is refreshed first.
     */
    async providerTokens(userId: string, only?: readonly GitProvider[]) {
      const tokens = await store.tokens(userId);
      return refresh.usable(
        userId,
        tokens.filter((t) => !only || only.includes(t.provider)),
      );
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
