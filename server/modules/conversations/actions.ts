import type { NewEvent } from './events.ts';
import type { ClientAction } from '../../../openapi/types.ts';

/**
 * What becomes of each client action (spec §7, real-time socket), on the node that runs the
 * conversation:
 * - message: handed to the agent, which records it as the user's `message` event (so what it
 *   does next is linked to that id); without an agent it is recorded here;
 * - files_uploaded: a message naming the uploaded and skipped files, so the agent looks at them;
 * - change_agent_state: handed to the agent, which records the state change it makes;
 * - run: a user `run` event, executed in the conversation's shell, then its `run` observation;
 * and on any node, without the conversation having to run:
 * - generic_rewind: an info status update carrying the reason (no onboarding agent here keeps
 *   a script to rewind, so acknowledging is all there is to do);
 * - user_authenticated: nothing — it concerns the chat-only onboarding agent, which this
 *   server does not have.
 */
type Disposition =
  { kind: 'ignore' } | { kind: 'record'; event: NewEvent } | { kind: 'dispatch'; action: ClientAction };

export function disposition(action: ClientAction): Disposition {
  switch (action.action) {
    case 'user_authenticated':
      return { kind: 'ignore' };
    case 'generic_rewind':
      return {
        kind: 'record',
        event: {
          source: 'environment',
          status_update: true,
          type: 'info',
          status_id: 'STATUS$REWIND_SUCCESS',
          message: action.args.reason,
        },
      };
    case 'files_uploaded': {
      const { uploaded_files: uploaded, skipped_files: skipped } = action.args;
      const lines = [
        uploaded.length ? `I uploaded these files to the workspace: ${uploaded.join(', ')}.` : 'No file was uploaded.',
        ...skipped.map((s) => `Skipped ${s.name}: ${s.reason}`),
      ];
      return {
        kind: 'dispatch',
        action: { action: 'message', args: { content: lines.join('\n'), file_urls: uploaded } },
      };
    }
    default:
      return { kind: 'dispatch', action };
  }
}

/** The user's message as an event, for a conversation without an agent. */
export function messageEvent(args: { content: string; image_urls?: string[]; file_urls?: string[] }): NewEvent {
  return {
    source: 'user',
    action: 'message',
    message: args.content,
    args: { content: args.content, image_urls: args.image_urls ?? [], file_urls: args.file_urls ?? [] },
  };
}

/** The terminal tab's command as the user's `run` event. */
export function runEvent(args: { command: string; hidden?: boolean }): NewEvent {
  return {
    source: 'user',
    action: 'run',
    message: `Running command: ${args.command}`,
    args: { command: args.command, hidden: args.hidden ?? false, is_input: false, blocking: false },
  };
}
