import type { components } from '../../../../openapi/schema.d.ts';
import { dataOf } from '../../../api/client.ts';
import { apiClient } from '../../../app/services.ts';

/** The client waits this long for the DevOps agent (spec §9). */
const DEVOPS_TIMEOUT_MS = 600_000;

type UploadFilesBody = components['schemas']['UploadFilesRequest'];

export const devopsRequests = {
  history: (sessionId: string) =>
    dataOf(
      apiClient.GET('/api/devops-agent/session/{session_id}/history', {
        params: { path: { session_id: sessionId } },
        signal: AbortSignal.timeout(DEVOPS_TIMEOUT_MS),
      }),
    ),
  execute: (sessionId: string, message: string) =>
    dataOf(
      apiClient.POST('/api/devops-agent/execute', {
        body: { session_id: sessionId, user_message: message },
        signal: AbortSignal.timeout(DEVOPS_TIMEOUT_MS),
      }),
    ),
  /** The files into the conversation's workspace (multipart, without a chat message). */
  upload: (conversationId: string, files: readonly File[]) => {
    const form = new FormData();
    for (const file of files) form.append('files', file);
    return dataOf(
      apiClient.POST('/api/conversations/{conversation_id}/upload-files', {
        params: { path: { conversation_id: conversationId } },
        body: {} as UploadFilesBody,
        bodySerializer: () => form,
      }),
    );
  },
};
