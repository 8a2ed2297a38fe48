import type { SecretBox } from '../../shared/secret-box.ts';
import type { ShownConversation } from './store.ts';
import type { Conversation } from '../../../openapi/types.ts';

/**
 * A conversation as the API shows it. While it runs, `url` is the base of its per-conversation
 * calls on this server and `session_api_key` authorises them (and the socket) on its own.
 */
export function toConversation(row: ShownConversation, publicUrl: string, box: SecretBox): Conversation {
  const live = row.status !== 'STOPPED';
  return {
    conversation_id: row.id,
    title: row.title,
    status: row.status as Conversation['status'],
    runtime_status: row.runtimeStatus,
    url: live ? `${publicUrl}/api/conversations/${row.id}` : null,
    session_api_key: live && row.sessionApiKey ? box.decrypt(row.sessionApiKey) : null,
    selected_repository: row.selectedRepository,
    selected_branch: row.selectedBranch,
    git_provider: row.gitProvider as Conversation['git_provider'],
    trigger: row.trigger as Conversation['trigger'],
    forked_from:
      row.forkedFromId === null || row.forkedAtEventId === null
        ? null
        : { conversation_id: row.forkedFromId, event_id: row.forkedAtEventId, title: row.forkedFromTitle ?? '' },
    created_at: row.createdAt.toISOString(),
    last_updated_at: row.lastUpdatedAt.toISOString(),
  };
}
