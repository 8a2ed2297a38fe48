import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../openapi/schema.d.ts';
import { dataOf, type SettingsUpdate } from '../../api/client.ts';
import type { GitProvider } from '../../api/git-providers.ts';
import { queryKeys } from '../../api/queries.ts';
import { apiClient, requests } from '../../app/services.ts';

// The settings screens' own calls (openapi/atelier.yaml); the settings themselves are read and
// saved through the application's requests (src/api), which the language hook shares.

export type CustomSecret = components['schemas']['CustomSecret'];
export type SecretCreateRequest = components['schemas']['SecretCreateRequest'];
export type SecretUpdateRequest = components['schemas']['SecretUpdateRequest'];
export type ApiKey = components['schemas']['ApiKey'];
export type CreatedApiKey = components['schemas']['CreatedApiKey'];

const secretPath = (name: string) => ({ params: { path: { name } } });

export type ModelConnectionTest = components['schemas']['ModelConnectionTest'];

export const settingsQueryKeys = {
  /** The account a saved token belongs to on its provider. */
  gitUser: (provider: GitProvider) => ['user', 'git-user', provider] as const,
  options: (list: 'models' | 'agents' | 'security-analyzers') => ['options', list] as const,
  secrets: ['user', 'secrets'] as const,
  apiKeys: ['user', 'api-keys'] as const,
  /** The check of one saved MCP configuration (its JSON): a new configuration is checked anew. */
  mcpCheck: (savedConfig: string) => ['user', 'mcp-check', savedConfig] as const,
};

/**
 * Saves settings; once `onSaved` has run, the settings are read again everywhere. A saved git
 * token may stand for another account on its provider, whose account is then asked anew.
 */
export function useSaveSettings(onSaved?: (update: SettingsUpdate) => unknown) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: SettingsUpdate) => requests.saveSettings(update),
    onSuccess: async (_saved, update) => {
      await onSaved?.(update);
      for (const provider of Object.keys(update.provider_tokens ?? {}) as GitProvider[])
        queryClient.removeQueries({ queryKey: settingsQueryKeys.gitUser(provider) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.settings });
    },
    meta: { disableToast: true },
  });
}

export const secretRequests = {
  list: async (signal?: AbortSignal) => (await dataOf(apiClient.GET('/api/secrets', { signal }))).custom_secrets,
  create: (body: SecretCreateRequest) => dataOf(apiClient.POST('/api/secrets', { body })),
  update: (name: string, body: SecretUpdateRequest) =>
    dataOf(apiClient.PUT('/api/secrets/{name}', { ...secretPath(name), body })),
  remove: (name: string) => dataOf(apiClient.DELETE('/api/secrets/{name}', secretPath(name))),
};

export const gitRequests = {
  user: (provider: GitProvider, signal?: AbortSignal) =>
    dataOf(apiClient.GET('/api/user/info', { params: { query: { selected_provider: provider } }, signal })),
};

export const apiKeyRequests = {
  list: async (signal?: AbortSignal) => (await dataOf(apiClient.GET('/api/keys', { signal }))).api_keys,
  create: (name: string) => dataOf(apiClient.POST('/api/keys', { body: { name } })),
  revoke: (keyId: string) => dataOf(apiClient.DELETE('/api/keys/{key_id}', { params: { path: { key_id: keyId } } })),
};

export const optionRequests = {
  models: (signal?: AbortSignal) => dataOf(apiClient.GET('/api/options/models', { signal })),
  agents: (signal?: AbortSignal) => dataOf(apiClient.GET('/api/options/agents', { signal })),
  securityAnalyzers: (signal?: AbortSignal) => dataOf(apiClient.GET('/api/options/security-analyzers', { signal })),
  testConnection: (body: ModelConnectionTest) => dataOf(apiClient.POST('/api/settings/test-connection', { body })),
};

export type McpServerStatus = components['schemas']['McpServerStatus'];

/** Connects to the saved MCP servers through the server, as the agent would. */
export const checkMcpServers = async (signal?: AbortSignal) =>
  (await dataOf(apiClient.POST('/api/settings/mcp-check', { signal }))).servers;
