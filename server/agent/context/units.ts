import type { AssistantContent, ModelMessage, ToolCallPart, ToolResultPart, UserContent } from 'ai';
import { renderRecall } from '../recall/render.ts';
import type { Event } from '../../../openapi/types.ts';

/**
 * The conversation as the model sees it, in units that condensation keeps or drops whole:
 * a user-side message, or an assistant turn together with the results of all its tool
 * calls. A turn is never split, so the model is never sent a tool call without its result or
 * a result without its call.
 */
export type ContextUnit =
  | { kind: 'user'; firstEventId: number; pinned: boolean; message: ModelMessage }
  | { kind: 'turn'; firstEventId: number; pinned: false; messages: ModelMessage[] };

/** What the agent stores in an action's args so the history can be replayed to the model. */
// A type, not an interface: it is stored in an event's open-ended args.
export type ToolCallMetadata = {
  function_name: string;
  tool_call_id: string;
  model_response_id: string | null;
  /** The arguments exactly as the model sent them. */
  arguments: Record<string, unknown>;
};

export function toolCallMetadataOf(event: Event): ToolCallMetadata | null {
  const metadata = event.args?.tool_call_metadata as ToolCallMetadata | undefined;
  return metadata && typeof metadata.tool_call_id === 'string' ? metadata : null;
}

/** What the model reads for an action that never got an observation. */
export function missingResult(toolName: string): string {
  return toolName === 'finish'
    ? 'The task was marked as finished.'
    : 'This action did not run to completion: the agent was stopped or paused before it finished, or it was never confirmed.';
}

export function unitMessages(unit: ContextUnit): ModelMessage[] {
  return unit.kind === 'user' ? [unit.message] : unit.messages;
}

interface OpenTurn {
  firstEventId: number;
  responseId: string | null;
  text: string;
  calls: ToolCallPart[];
  results: Map<string, string>;
  /** Images the calls returned (data URLs), with the tool that returned them. */
  images: { toolName: string; urls: string[] }[];
}

function userContent(event: Event): UserContent {
  const text = event.args?.content ?? '';
  const images = imagesOf(event.args?.image_urls);
  if (images.length === 0) return text;
  return [{ type: 'text', text }, ...images.map((image) => ({ type: 'image' as const, image }))];
}

const imagesOf = (urls: readonly string[] | null | undefined) =>
  (urls ?? []).filter((url) => url.startsWith('data:image/'));

function observationText(event: Event): string {
  if (event.observation === 'user_rejected') return event.content || 'The user rejected this action.';
  return event.content ?? '';
}

export function eventsToUnits(events: readonly Event[]): ContextUnit[] {
  return new ContextUnits().of(events);
}

/** An open turn as a unit: its calls and the results they have so far (a missing one said to be missing). */
function turnUnit(turn: OpenTurn): ContextUnit {
  const content: AssistantContent = [...(turn.text ? [{ type: 'text' as const, text: turn.text }] : []), ...turn.calls];
  const messages: ModelMessage[] = [{ role: 'assistant', content }];
  if (turn.calls.length > 0) {
    const results: ToolResultPart[] = turn.calls.map((call) => ({
      type: 'tool-result',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: 'text', value: turn.results.get(call.toolCallId) ?? missingResult(call.toolName) },
    }));
    messages.push({ role: 'tool', content: results });
  }
  // Tool results are text for every provider: the images they returned follow as the user's part.
  for (const { toolName, urls } of turn.images)
    messages.push({
      role: 'user',
      content: [
        { type: 'text', text: `The image${urls.length > 1 ? 's' : ''} that ${toolName} returned:` },
        ...urls.map((image) => ({ type: 'image' as const, image })),
      ],
    });
  return { kind: 'turn', firstEventId: turn.firstEventId, pinned: false, messages };
}

/**
 * The units of a conversation whose events are only ever appended, kept from one model call to
 * the next: each call reads only the events after the last it read (a long conversation was read
 * whole before every step, about 2 µs an event). A history that was replaced is read anew.
 */
export class ContextUnits {
  private builder = new UnitBuilder();
  private count = 0;
  private last: Event | undefined;

  of(events: readonly Event[]): ContextUnit[] {
    if (events.length < this.count || (this.count > 0 && events[this.count - 1] !== this.last)) {
      this.builder = new UnitBuilder();
      this.count = 0;
    }
    for (let i = this.count; i < events.length; i++) this.builder.add(events[i] as Event);
    this.count = events.length;
    this.last = events.at(-1);
    return this.builder.units();
  }
}

/** The units of the events added so far; those before the open turn never change again. */
class UnitBuilder {
  private readonly closed: ContextUnit[] = [];
  private readonly byId = new Map<number, Event>();
  private readonly seenCalls = new Set<string>();
  private turn: OpenTurn | null = null;
  // User-side messages wait while a turn still expects tool results: results must follow their calls.
  private deferred: ContextUnit[] = [];
  private firstUserMessagePinned = false;

  units(): ContextUnit[] {
    return [...this.closed, ...(this.turn ? [turnUnit(this.turn)] : []), ...this.deferred];
  }

  private closeTurn() {
    if (this.turn) this.closed.push(turnUnit(this.turn));
    this.turn = null;
    this.closed.push(...this.deferred);
    this.deferred = [];
  }

  private addUserUnit(unit: ContextUnit) {
    if (this.turn && this.turn.calls.length > 0) this.deferred.push(unit);
    else {
      this.closeTurn();
      this.closed.push(unit);
    }
  }

  add(event: Event) {
    this.byId.set(event.id, event);
    if (event.action === 'message' && event.source === 'user') {
      this.addUserUnit({
        kind: 'user',
        firstEventId: event.id,
        pinned: !this.firstUserMessagePinned,
        message: { role: 'user', content: userContent(event) },
      });
      this.firstUserMessagePinned = true;
    } else if (event.observation === 'recall' && event.extras) {
      const text = renderRecall(event.extras);
      if (text)
        this.addUserUnit({
          kind: 'user',
          firstEventId: event.id,
          pinned: event.extras.recall_type === 'workspace_context',
          message: { role: 'user', content: text },
        });
    } else if (event.action === 'message' && event.source === 'agent') {
      this.closeTurn();
      this.turn = {
        firstEventId: event.id,
        responseId: null,
        text: event.args?.content ?? '',
        calls: [],
        results: new Map(),
        images: [],
      };
      this.closeTurn();
    } else if (event.action && event.source === 'agent') {
      const metadata = toolCallMetadataOf(event);
      if (!metadata || this.seenCalls.has(metadata.tool_call_id)) return;
      this.seenCalls.add(metadata.tool_call_id);
      let turn = this.turn;
      if (!turn || turn.responseId === null || turn.responseId !== metadata.model_response_id) {
        this.closeTurn();
        turn = {
          firstEventId: event.id,
          responseId: metadata.model_response_id,
          text: '',
          calls: [],
          results: new Map(),
          images: [],
        };
        this.turn = turn;
      }
      if (event.args?.thought) turn.text = turn.text ? `${turn.text}\n${event.args.thought}` : event.args.thought;
      turn.calls.push({
        type: 'tool-call',
        toolCallId: metadata.tool_call_id,
        toolName: metadata.function_name,
        input: metadata.arguments,
      });
    } else if (event.observation && event.cause !== null && event.cause !== undefined) {
      const action = this.byId.get(event.cause);
      const metadata = action ? toolCallMetadataOf(action) : null;
      if (metadata) {
        const open = this.turn;
        if (
          open &&
          open.calls.some((call) => call.toolCallId === metadata.tool_call_id) &&
          !open.results.has(metadata.tool_call_id)
        ) {
          open.results.set(metadata.tool_call_id, observationText(event));
          const urls = imagesOf(event.extras?.image_urls);
          if (urls.length > 0) open.images.push({ toolName: metadata.function_name, urls });
        }
      } else if (
        action?.source === 'user' &&
        action.action === 'run' &&
        !action.args?.hidden &&
        !event.extras?.hidden
      ) {
        this.addUserUnit({
          kind: 'user',
          firstEventId: event.id,
          pinned: false,
          message: {
            role: 'user',
            content: `I ran \`${action.args?.command ?? ''}\` in the terminal. It printed:\n${event.content ?? ''}`,
          },
        });
      }
    }
  }
}
