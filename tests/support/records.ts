import type { Conversation } from '../../openapi/types.ts';

/** A conversation as the API answers it, for browser-side tests: a running, untitled one unless told otherwise. */
export function conversationRecord(fields: Partial<Conversation> = {}): Conversation {
  return {
    conversation_id: 'c1',
    title: 'Test',
    status: 'RUNNING',
    runtime_status: null,
    url: null,
    session_api_key: null,
    selected_repository: null,
    selected_branch: null,
    git_provider: null,
    trigger: null,
    created_at: '2026-01-01T00:00:00Z',
    last_updated_at: '2026-01-01T00:00:00Z',
    ...fields,
  };
}
