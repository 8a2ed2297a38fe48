import type { components } from '../../../openapi/schema.d.ts';
import { dataOf } from '../../api/client.ts';
import { apiClient } from '../../app/services.ts';

// The per-conversation calls of the workspace tabs (openapi/atelier.yaml).

export type FileChange = components['schemas']['FileChange'];

const conversation = (conversationId: string) => ({ conversation_id: conversationId });

export const tabRequests = {
  changes: (conversationId: string, signal?: AbortSignal) =>
    dataOf(
      apiClient.GET('/api/conversations/{conversation_id}/git/changes', {
        params: { path: conversation(conversationId) },
        signal,
      }),
    ),
  diff: (conversationId: string, path: string, signal?: AbortSignal) =>
    dataOf(
      apiClient.GET('/api/conversations/{conversation_id}/git/diff', {
        params: { path: conversation(conversationId), query: { path } },
        signal,
      }),
    ),
  webHosts: (conversationId: string, signal?: AbortSignal) =>
    dataOf(
      apiClient.GET('/api/conversations/{conversation_id}/web-hosts', {
        params: { path: conversation(conversationId) },
        signal,
      }),
    ),
  startServedApps: (conversationId: string) =>
    dataOf(
      apiClient.POST('/api/conversations/{conversation_id}/web-hosts/start', {
        params: { path: conversation(conversationId) },
      }),
    ),
  vscodeUrl: async (conversationId: string, signal?: AbortSignal) =>
    (
      await dataOf(
        apiClient.GET('/api/conversations/{conversation_id}/vscode-url', {
          params: { path: conversation(conversationId) },
          signal,
        }),
      )
    ).vscode_url,
  listFiles: (conversationId: string, path: string | undefined, signal?: AbortSignal) =>
    dataOf(
      apiClient.GET('/api/conversations/{conversation_id}/list-files', {
        params: { path: conversation(conversationId), query: path === undefined ? {} : { path } },
        signal,
      }),
    ),
  selectFile: async (conversationId: string, file: string, signal?: AbortSignal) =>
    (
      await dataOf(
        apiClient.GET('/api/conversations/{conversation_id}/select-file', {
          params: { path: conversation(conversationId), query: { file } },
          signal,
        }),
      )
    ).code,
  saveFile: (conversationId: string, path: string, content: string) =>
    dataOf(
      apiClient.POST('/api/conversations/{conversation_id}/save-file', {
        params: { path: conversation(conversationId) },
        body: { path, content },
      }),
    ),
  terminals: async (conversationId: string) =>
    (
      await dataOf(
        apiClient.GET('/api/conversations/{conversation_id}/terminals', {
          params: { path: conversation(conversationId) },
        }),
      )
    ).terminals.map((terminal) => terminal.id),
  openTerminal: async (conversationId: string, size: { cols: number; rows: number }) =>
    (
      await dataOf(
        apiClient.POST('/api/conversations/{conversation_id}/terminals', {
          params: { path: conversation(conversationId) },
          body: size,
        }),
      )
    ).id,
  closeTerminal: (conversationId: string, terminalId: string) =>
    dataOf(
      apiClient.DELETE('/api/conversations/{conversation_id}/terminals/{terminal_id}', {
        params: { path: { ...conversation(conversationId), terminal_id: terminalId } },
      }),
    ),
};
