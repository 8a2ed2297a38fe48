import type { components } from '../../../openapi/schema.d.ts';
import { dataOf } from '../../api/client.ts';
import { apiClient } from '../../app/services.ts';

// The per-conversation calls of the chat (openapi/atelier.yaml): trajectory export, feedback and forks.

type Feedback = components['schemas']['Feedback'];
type ForkRequest = components['schemas']['ConversationForkRequest'];

export const chatRequests = {
  trajectory: (conversationId: string) =>
    dataOf(
      apiClient.GET('/api/conversations/{conversation_id}/trajectory', {
        params: { path: { conversation_id: conversationId } },
      }),
    ),
  eventFeedback: (conversationId: string, eventId: number) =>
    dataOf(
      apiClient.GET('/feedback/conversation/{conversation_id}/{event_id}', {
        params: { path: { conversation_id: conversationId, event_id: eventId } },
      }),
    ),
  submitFeedback: async (body: Feedback) => {
    await dataOf(apiClient.POST('/feedback/conversation', { body }));
  },
  fork: (conversationId: string, body: ForkRequest) =>
    dataOf(
      apiClient.POST('/api/conversations/{conversation_id}/fork', {
        params: { path: { conversation_id: conversationId } },
        body,
      }),
    ),
};

/** Saves the conversation's trajectory as trajectory-{id}.json. */
export async function downloadTrajectory(conversationId: string): Promise<void> {
  const data = await chatRequests.trajectory(conversationId);
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `trajectory-${conversationId}.json`;
  link.click();
  URL.revokeObjectURL(url);
}
