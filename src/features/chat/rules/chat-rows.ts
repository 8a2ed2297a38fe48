import type { PendingMessage } from '../../../../machines/chat-input.ts';
import { grewAtEnd } from '../../../realtime/merge.ts';
import { isShownInChat } from '../../../rules/event-display.ts';
import type { Event } from '../../../../openapi/types.ts';

// Which rows the chat list shows, built from the stream's events. An observation caused by a
// shown action joins that action's row; the rest of the events either make a row of their own
// or are not shown (state changes, system prompts, info status updates, null observations).
// Rows are cached by their events, so a row keeps its identity until one of its events changes
// and appending an event re-renders only the rows it touches.
// In confirmation mode the agent states an action twice, awaiting the user and then as they
// decided (same tool call): the decision joins the first statement's row, one row per action.
// The agent reports a problem twice, as an error status update (with the id that names it) and
// then as its ERROR state change (with the same text as reason): the chat shows it once.

export type ChatRow =
  | { kind: 'message'; id: number; event: Event }
  | { kind: 'action'; id: number; event: Event; observation: Event | null; decision: Event | null }
  | { kind: 'observation'; id: number; event: Event }
  | { kind: 'agentStateError'; id: number; event: Event }
  | { kind: 'statusError'; id: number; event: Event }
  | { kind: 'pending'; id: string; message: PendingMessage };

/** Actions shown as a step of the agent (with their observation's result, when it came). */
const STEP_ACTIONS = new Set([
  'run',
  'run_ipython',
  'edit',
  'write',
  'read',
  'browse',
  'browse_interactive',
  'call_tool_mcp',
  'think',
  'finish',
  'reject',
  'delegate',
]);
/** Observations shown on their own when no shown action caused them. */
const STANDALONE_OBSERVATIONS = new Set([
  'error',
  'recall',
  'user_rejected',
  'chat',
  'run',
  'run_ipython',
  'read',
  'edit',
  'browse',
  'browse_interactive',
  'mcp',
  'delegate',
]);

export const isMessage = (event: Event) => event.action === 'message';
export const isStepAction = (event: Event) => event.action !== undefined && STEP_ACTIONS.has(event.action);

function standaloneKind(event: Event): Exclude<ChatRow['kind'], 'message' | 'action' | 'pending'> | null {
  if (event.status_update === true) return event.type === 'error' ? 'statusError' : null;
  if (event.observation === 'agent_state_changed')
    return event.extras?.agent_state === 'ERROR' ? 'agentStateError' : null;
  if (event.observation !== undefined && STANDALONE_OBSERVATIONS.has(event.observation)) return 'observation';
  return null;
}

export interface RowCache {
  /** Rows without an observation, by their event. */
  single: WeakMap<Event, ChatRow>;
  /** Action rows with their observation, by action then observation. */
  paired: WeakMap<Event, WeakMap<Event, ChatRow>>;
}

export const createRowCache = (): RowCache => ({ single: new WeakMap(), paired: new WeakMap() });

function singleRow(cache: RowCache, event: Event, build: () => ChatRow): ChatRow {
  const cached = cache.single.get(event);
  if (cached) return cached;
  const row = build();
  cache.single.set(event, row);
  return row;
}

function actionRow(cache: RowCache, action: Event, observation: Event | null, decision: Event | null): ChatRow {
  // A decided action is rare (confirmation mode only): its row is built afresh.
  if (decision !== null) return { kind: 'action', id: action.id, event: action, observation, decision };
  if (observation === null)
    return singleRow(cache, action, () => ({
      kind: 'action',
      id: action.id,
      event: action,
      observation: null,
      decision,
    }));
  let byObservation = cache.paired.get(action);
  if (!byObservation) {
    byObservation = new WeakMap();
    cache.paired.set(action, byObservation);
  }
  const cached = byObservation.get(observation);
  if (cached) return cached;
  const row: ChatRow = { kind: 'action', id: action.id, event: action, observation, decision };
  byObservation.set(observation, row);
  return row;
}

const toolCallOf = (event: Event) => event.args?.tool_call_metadata?.tool_call_id;

const errorText = (text: string | null | undefined) => (text ?? '').trim();

/** An ERROR state change right after the error status update of the same problem: that update's row shows it already. */
const repeatsStatusError = (event: Event, previous: ChatRow | undefined) =>
  previous?.kind === 'statusError' && errorText(previous.event.message) === errorText(event.extras?.reason);

/**
 * Rows being built event by event: the rows so far, where each step action still waiting for its
 * result is, and where each action waiting for the user's decision is (by tool call).
 */
interface RowsBuild {
  rows: ChatRow[];
  awaiting: Map<number, number>;
  undecided: Map<string, number>;
}

type ActionChatRow = Extract<ChatRow, { kind: 'action' }>;

/**
 * Adds the rows of `events` (ascending id, after those already built). An observation joins the
 * row of the shown step action that caused it, the first one only (its cause comes before it).
 */
function addRows(build: RowsBuild, events: readonly Event[], cache: RowCache): void {
  const { rows, awaiting, undecided } = build;
  for (const event of events) {
    if (!isShownInChat(event)) continue;
    const at =
      event.observation !== undefined && typeof event.cause === 'number' ? awaiting.get(event.cause) : undefined;
    const toolCall = isStepAction(event) ? toolCallOf(event) : undefined;
    const decided = toolCall === undefined ? undefined : undecided.get(toolCall);
    if (at !== undefined) {
      awaiting.delete(event.cause as number);
      const row = rows[at] as ActionChatRow;
      rows[at] = actionRow(cache, row.event, event, row.decision);
    } else if (decided !== undefined && event.args?.confirmation_state !== 'awaiting_confirmation') {
      undecided.delete(toolCall as string);
      const row = rows[decided] as ActionChatRow;
      rows[decided] = actionRow(cache, row.event, row.observation, event);
    } else if (isMessage(event)) rows.push(singleRow(cache, event, () => ({ kind: 'message', id: event.id, event })));
    else if (isStepAction(event)) {
      awaiting.set(event.id, rows.length);
      if (event.args?.confirmation_state === 'awaiting_confirmation' && toolCall) undecided.set(toolCall, rows.length);
      rows.push(actionRow(cache, event, null, null));
    } else {
      const kind = standaloneKind(event);
      if (kind === 'agentStateError' && repeatsStatusError(event, rows.at(-1))) continue;
      if (kind !== null) rows.push(singleRow(cache, event, () => ({ kind, id: event.id, event }) as ChatRow));
    }
  }
}

/** The rows of the chat for `events` (ascending id), reusing the cached row objects. */
export function chatRows(events: readonly Event[], cache: RowCache): ChatRow[] {
  const build: RowsBuild = { rows: [], awaiting: new Map(), undecided: new Map() };
  addRows(build, events, cache);
  return build.rows;
}

/**
 * A selector of the rows for one list: recomputes only when the events array changes, reusing
 * unchanged row objects. A history that only grew at its end adds the rows of what it added: an
 * append costs the same however much of the history is loaded.
 */
export function createRowsSelector(): (snapshot: { events: readonly Event[] }) => ChatRow[] {
  const cache = createRowCache();
  let built: readonly Event[] = [];
  let build: RowsBuild = { rows: [], awaiting: new Map(), undecided: new Map() };
  return (snapshot) => {
    const { events } = snapshot;
    if (events === built) return build.rows;
    const grown = grewAtEnd(built, events);
    // A new array for each change: the list compares rows by identity.
    build = grown
      ? { rows: [...build.rows], awaiting: build.awaiting, undecided: build.undecided }
      : { rows: [], awaiting: new Map(), undecided: new Map() };
    addRows(build, grown ? events.slice(built.length) : events, cache);
    built = events;
    return build.rows;
  };
}

/** The id of the last row written by the agent (where confirm / reject go), if any. */
export function lastAgentRowId(rows: readonly ChatRow[]): number | null {
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index] as ChatRow;
    if (row.kind !== 'pending' && row.event.source === 'agent') return row.id;
  }
  return null;
}

/** A row's key in the list: event ids and pending message ids never clash. */
export const rowKey = (row: ChatRow) => (row.kind === 'pending' ? `pending:${row.id}` : `event:${row.id}`);

/** A row the user wrote: a message on its way, or one the server has (typed, or the message an upload becomes). */
export function isUserRow(row: ChatRow | undefined): boolean {
  return row !== undefined && (row.kind === 'pending' || (row.kind === 'message' && row.event.source === 'user'));
}

/** Whether the scroll position is at the bottom, within the spec's 20 px tolerance. */
export const AUTO_SCROLL_TOLERANCE_PX = 20;
export function isAtBottom(metrics: { scrollTop: number; scrollHeight: number; clientHeight: number }): boolean {
  return metrics.scrollHeight - metrics.clientHeight - metrics.scrollTop <= AUTO_SCROLL_TOLERANCE_PX;
}

/** How long after the reader's input a scroll is still theirs. */
const READER_SCROLL_MS = 1_000;
/**
 * Whether a scroll is the reader's: it follows their wheel, touch, key or press on the scroll bar
 * closely enough (a smooth scroll or a fling runs on after the input). The virtualiser and the
 * browser move the position as well, upward at times while rows are measured.
 */
export const isReaderScroll = (scrollAt: number, readerInputAt: number) =>
  scrollAt >= readerInputAt && scrollAt - readerInputAt <= READER_SCROLL_MS;

/** Below this distance from the top the next older page is requested. */
export const LOAD_OLDER_THRESHOLD_PX = 200;

/**
 * The event a fork from this row is made at: a step's result belongs to it, so a step that has
 * one forks after it; null for rows that are no point of the history (pending, errors).
 */
export function forkPoint(row: ChatRow): number | null {
  if (row.kind === 'action') return row.observation?.id ?? row.id;
  return row.kind === 'message' || row.kind === 'observation' ? row.id : null;
}

/** The text of the user's own message on this row, which edit and retry starts from; null on any other row. */
export function editableText(row: ChatRow): string | null {
  return row.kind === 'message' && row.event.source === 'user' ? (row.event.args?.content ?? '') : null;
}
