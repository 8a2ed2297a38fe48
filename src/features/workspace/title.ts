import { grewAtEnd } from '../../realtime/merge.ts';
import type { Conversation, Event } from '../../../openapi/types.ts';

// What the stream says about the conversation before its record is read again: the title the
// agent gave it and the runtime's status. The record is polled slowly while it runs, so the
// workspace shows the newer of the two.

/** Status updates that report the runtime (the others, like a title update, do not change it). */
const RUNTIME_STATUSES = [
  'STATUS$STARTING_RUNTIME',
  'STATUS$RUNTIME_STARTED',
  'STATUS$REPLAYING_TRAJECTORY',
  'STATUS$READY',
  'STATUS$STOPPED',
  'STATUS$ERROR',
];

/**
 * The newest event that `matches`, asked for after every streamed event: a history that only grew
 * at its end is searched only in what it added, so an append costs the same at 100 loaded events
 * as at 10,000.
 */
function newestOf(matches: (event: Event) => boolean): (events: readonly Event[]) => Event | null {
  let searched: readonly Event[] = [];
  let found: Event | null = null;
  return (events) => {
    if (events === searched) return found;
    const grown = grewAtEnd(searched, events);
    if (!grown) found = null;
    for (let index = events.length - 1; index >= (grown ? searched.length : 0); index -= 1) {
      const event = events[index] as Event;
      if (matches(event)) {
        found = event;
        break;
      }
    }
    searched = events;
    return found;
  };
}

/** The newest title the agent gave the conversation over the stream, if any. */
export const streamedTitle = newestOf((event) => Boolean(event.conversation_title));

/** The newest runtime status update, if any. */
export const streamedRuntimeStatus = newestOf(
  (event) => event.status_update === true && RUNTIME_STATUSES.includes(event.status_id ?? ''),
);

/** The conversation status a runtime status implies (the server sets both together). */
const STATUS_OF_RUNTIME: Record<string, Conversation['status']> = {
  STATUS$READY: 'RUNNING',
  STATUS$STOPPED: 'STOPPED',
};

/** An event newer than the record says more than the record (a rename by the user updates the record, so it wins over an older title). */
const isNewer = (event: Event | null, conversation: Conversation): event is Event =>
  event !== null && Date.parse(event.timestamp) >= Date.parse(conversation.last_updated_at);

/** The record with what newer events say: the agent's title, the runtime status and the status it implies. */
export function liveConversation(
  conversation: Conversation,
  titleEvent: Event | null,
  runtimeEvent: Event | null,
): Conversation {
  const title = isNewer(titleEvent, conversation) ? titleEvent.conversation_title : undefined;
  const runtimeStatus = isNewer(runtimeEvent, conversation) ? runtimeEvent.status_id : undefined;
  if (title === undefined && runtimeStatus === undefined) return conversation;
  const status = runtimeStatus === undefined ? undefined : STATUS_OF_RUNTIME[runtimeStatus];
  return {
    ...conversation,
    ...(title === undefined ? {} : { title }),
    ...(runtimeStatus === undefined ? {} : { runtime_status: runtimeStatus }),
    ...(status === undefined ? {} : { status }),
  };
}
