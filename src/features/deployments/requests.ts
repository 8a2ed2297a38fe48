import type { components } from '../../../openapi/schema.d.ts';
import { dataOf } from '../../api/client.ts';
import { apiClient } from '../../app/services.ts';

export type Deployment = components['schemas']['Deployment'];

export const deploymentsQueryKey = (conversationId: string) => ['conversation', conversationId, 'deployments'] as const;

export const deploymentRequests = {
  list: (conversationId: string, signal?: AbortSignal) =>
    dataOf(
      apiClient.GET('/api/deployments/{conversation_id}', {
        params: { path: { conversation_id: conversationId } },
        signal,
      }),
    ),
  remove: (conversationId: string, dropletName: string) =>
    dataOf(
      apiClient.DELETE('/api/deployments/{conversation_id}/{droplet_name}', {
        params: { path: { conversation_id: conversationId, droplet_name: dropletName } },
      }),
    ),
};
