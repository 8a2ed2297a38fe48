import { assign, enqueueActions, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { agentMachine, agentStateOf, sendDisabled, type AgentState, type ConversationStatus } from './agent.ts';
import { chatInputMachine, isEchoOf, type PendingMessage } from './chat-input.ts';
import type { ConnectionStatus } from './connection.ts';
import { forkMachine } from './fork.ts';
import { notProvidedAction, notProvidedCallback } from './not-provided.ts';
import { uploadMachine } from './upload.ts';
import type { Event } from '../openapi/types.ts';

// One open conversation's chat as one actor tree: the agent, the message box (chat-input), the
// upload and the fork are invoked children, and the facts one of them needs from another or from the
// outside travel as events through this parent, never through the views.
//
// - Every event the stream adds goes to the agent and the message box, in id order. The first
//   batch is the history the chat opened with: the agent hears it as not live (an old error is
//   not announced again); every later batch is live.
// - Credits go to all three children; the socket's status and the conversation's status to the
//   agent.
// - The agent being busy (selectSendDisabled) blocks the message box; an upload running and a
//   message waiting for its echo (optimistic) are told to the agent.
// - The messages waiting for their echo are kept in the browser (keepUnsent) whenever they
//   change. Those a previous visit left (`unsent`, read when the chat opens) that the history
//   never echoed come back into the message box, before the draft, once the socket is first
//   connected (the history is in by then); what that visit kept is then replaced.
// - When the agent goes from RUNNING to FINISHED or AWAITING_USER_INPUT the finish is announced
//   (the sound), with the time of the newest event (an old finish replayed is not announced).

/** The agent finished its work: it was running and now is done or waits for the user. */
export const agentFinished = (previous: AgentState | null, next: AgentState | null) =>
  previous === 'RUNNING' && (next === 'FINISHED' || next === 'AWAITING_USER_INPUT');

/** The text to put back in the box: the unsent messages, then the draft. */
export const restoredText = (unsent: readonly PendingMessage[], draft: string) =>
  [...unsent.map((message) => message.content), draft].filter(Boolean).join('\n\n');

export interface OpenConversationInput {
  /** Unique per page load, so message ids do not repeat across visits. */
  idPrefix: string;
  /** The message box's draft kept from an earlier visit. */
  draft?: string;
  /** The messages an earlier visit sent that were not echoed then. */
  unsent?: readonly PendingMessage[];
}

export interface OpenConversationContext {
  input: Required<OpenConversationInput>;
  /** What was last told of the children, so each change is told once. */
  busy: boolean;
  uploading: boolean;
  pending: readonly PendingMessage[];
  agentState: AgentState;
  /** The unsent messages of an earlier visit that no event echoed so far. */
  unsent: readonly PendingMessage[];
  /** The newest event's time. */
  newestEventAt: string | null;
}

/** What the stream watcher reports: new events (ascending ids, none seen before) and the socket's status when it changes. */
export type StreamReport =
  { type: 'EVENTS_RECEIVED'; events: readonly Event[] } | { type: 'CONNECTION_CHANGED'; connection: ConnectionStatus };

export type OpenConversationEvent =
  | StreamReport
  | { type: 'CREDITS_CHANGED'; balance: number | null }
  | { type: 'CONVERSATION_STATUS_CHANGED'; status: ConversationStatus | null };

type AgentSnapshot = SnapshotFrom<typeof agentMachine>;
type ChatInputSnapshot = SnapshotFrom<typeof chatInputMachine>;
type UploadSnapshot = SnapshotFrom<typeof uploadMachine>;

const eventsOf = (event: OpenConversationEvent) => (event.type === 'EVENTS_RECEIVED' ? event.events : []);
const credits = ({ event }: { event: OpenConversationEvent }) => ({
  type: 'CREDITS_CHANGED' as const,
  balance: event.type === 'CREDITS_CHANGED' ? event.balance : null,
});

/** Each event to the agent (live or history) and to the message box. */
const forwardEvents = (live: boolean) =>
  enqueueActions<
    OpenConversationContext,
    OpenConversationEvent,
    undefined,
    OpenConversationEvent,
    never,
    never,
    never,
    never,
    never
  >(({ event, enqueue }) => {
    for (const received of eventsOf(event)) {
      enqueue.sendTo('agent', { type: 'EVENT_RECEIVED', event: received, live });
      enqueue.sendTo('chatInput', { type: 'EVENT_RECEIVED', event: received });
    }
  });

const tellConnection = {
  type: 'tellConnection' as const,
  params: ({ event }: { event: OpenConversationEvent }) =>
    event.type === 'CONNECTION_CHANGED' ? event.connection : ('DISCONNECTED' as const),
};

export const openConversationMachine = setup({
  types: {
    context: {} as OpenConversationContext,
    events: {} as OpenConversationEvent,
    input: {} as OpenConversationInput,
    children: {} as {
      agent: 'agent';
      chatInput: 'chatInput';
      upload: 'upload';
      fork: 'fork';
      watchStream: 'watchStream';
      watchBalance: 'watchBalance';
    },
  },
  actors: {
    agent: agentMachine,
    chatInput: chatInputMachine,
    upload: uploadMachine,
    fork: forkMachine,
    /** Reports the stream: its events so far at once (the history), then each new tail, and the socket's status when it changes. */
    watchStream: notProvidedCallback<StreamReport>('watchStream'),
    /** Reports the credits balance in dollars (null in oss mode) at once and whenever it changes. */
    watchBalance: notProvidedCallback<{ type: 'CREDITS_CHANGED'; balance: number | null }>('watchBalance'),
  },
  actions: {
    /** Keeps the messages not echoed yet where the next visit finds them (none: the entry goes). */
    keepUnsent: notProvidedAction<readonly PendingMessage[]>('keepUnsent'),
    /** The finish sound, when the user turned it on and `at` (the newest event's time) is now. */
    announceFinish: notProvidedAction<{ at: string | null }>('announceFinish'),
    followEvents: assign(({ context }, events: readonly Event[]) => ({
      unsent: context.unsent.filter((message) => !events.some((event) => isEchoOf(event, message))),
      newestEventAt: events.at(-1)?.timestamp ?? context.newestEventAt,
    })),
    /** The agent follows the socket's status. */
    tellConnection: sendTo('agent', (_, connection: ConnectionStatus) => ({
      type: 'CONNECTION_CHANGED' as const,
      connection,
    })),
  },
  guards: {
    isConnected: (_, connection: ConnectionStatus) => connection === 'CONNECTED',
    agentChanged: ({ context }, snapshot: AgentSnapshot) =>
      agentStateOf(snapshot) !== context.agentState ||
      sendDisabled(agentStateOf(snapshot), snapshot.context) !== context.busy,
    uploadingChanged: ({ context }, snapshot: UploadSnapshot) => snapshot.matches('uploading') !== context.uploading,
    pendingChanged: ({ context }, snapshot: ChatInputSnapshot) => snapshot.context.pending !== context.pending,
  },
}).createMachine({
  id: 'openConversation',
  context: ({ input }) => ({
    input: { draft: '', unsent: [], ...input },
    busy: false,
    uploading: false,
    pending: [],
    agentState: 'LOADING',
    unsent: input.unsent ?? [],
    newestEventAt: null,
  }),
  invoke: [
    {
      id: 'agent',
      systemId: 'agent',
      src: 'agent',
      onSnapshot: {
        guard: { type: 'agentChanged', params: ({ event }) => event.snapshot },
        actions: enqueueActions(({ context, event, enqueue }) => {
          const state = agentStateOf(event.snapshot);
          const busy = sendDisabled(state, event.snapshot.context);
          if (busy !== context.busy) enqueue.sendTo('chatInput', { type: 'BUSY_CHANGED', busy });
          if (agentFinished(context.agentState, state))
            enqueue({ type: 'announceFinish', params: { at: context.newestEventAt } });
          enqueue.assign({ busy, agentState: state });
        }),
      },
    },
    {
      id: 'chatInput',
      systemId: 'chatInput',
      src: 'chatInput',
      input: ({ context }) => ({ idPrefix: context.input.idPrefix, draft: context.input.draft }),
      onSnapshot: {
        guard: { type: 'pendingChanged', params: ({ event }) => event.snapshot },
        actions: enqueueActions(({ event, enqueue }) => {
          const { pending } = event.snapshot.context;
          enqueue.assign({ pending });
          enqueue({ type: 'keepUnsent', params: pending });
          enqueue.sendTo('agent', { type: 'OPTIMISTIC_CHANGED', pending: pending.length > 0 });
        }),
      },
    },
    {
      id: 'upload',
      systemId: 'upload',
      src: 'upload',
      onSnapshot: {
        guard: { type: 'uploadingChanged', params: ({ event }) => event.snapshot },
        actions: enqueueActions(({ event, enqueue }) => {
          const uploading = event.snapshot.matches('uploading');
          enqueue.assign({ uploading });
          enqueue.sendTo('agent', { type: 'UPLOADING_CHANGED', uploading });
        }),
      },
    },
    { id: 'fork', systemId: 'fork', src: 'fork' },
    { id: 'watchBalance', src: 'watchBalance' },
    { id: 'watchStream', src: 'watchStream' },
  ],
  on: {
    CREDITS_CHANGED: {
      actions: [sendTo('agent', credits), sendTo('chatInput', credits), sendTo('upload', credits)],
    },
    CONVERSATION_STATUS_CHANGED: {
      actions: sendTo('agent', ({ event }) => ({ type: 'CONVERSATION_STATUS_CHANGED', status: event.status })),
    },
  },
  type: 'parallel',
  states: {
    /** The first batch is the history the chat opened with; every later one is live. */
    events: {
      initial: 'history',
      states: {
        history: {
          on: {
            EVENTS_RECEIVED: {
              target: 'live',
              actions: [forwardEvents(false), { type: 'followEvents', params: ({ event }) => event.events }],
            },
          },
        },
        live: {
          on: {
            EVENTS_RECEIVED: {
              actions: [forwardEvents(true), { type: 'followEvents', params: ({ event }) => event.events }],
            },
          },
        },
      },
    },
    /** An earlier visit's unsent messages come back once the socket is first connected (the history is in). */
    unsent: {
      initial: 'waiting',
      states: {
        waiting: {
          on: {
            CONNECTION_CHANGED: [
              {
                guard: { type: 'isConnected', params: ({ event }) => event.connection },
                target: 'restored',
                actions: [
                  tellConnection,
                  enqueueActions(({ context, enqueue, system }) => {
                    // What an earlier visit kept is taken: from now on only this visit's messages are kept.
                    enqueue({ type: 'keepUnsent', params: context.pending });
                    if (context.unsent.length === 0) return;
                    const chatInput = system.get('chatInput') as ActorRefFrom<typeof chatInputMachine>;
                    const text = restoredText(context.unsent, chatInput.getSnapshot().context.text);
                    enqueue.sendTo('chatInput', { type: 'TEXT_CHANGED', text });
                    enqueue.assign({ unsent: [] });
                  }),
                ],
              },
              { actions: tellConnection },
            ],
          },
        },
        restored: { on: { CONNECTION_CHANGED: { actions: tellConnection } } },
      },
    },
  },
});

export type OpenConversationActor = ActorRefFrom<typeof openConversationMachine>;
type OpenConversationSnapshot = SnapshotFrom<typeof openConversationMachine>;

// The children are invoked at the root: they live as long as the tree.
export const selectAgent = (snapshot: OpenConversationSnapshot) =>
  snapshot.children.agent as ActorRefFrom<typeof agentMachine>;
export const selectChatInput = (snapshot: OpenConversationSnapshot) =>
  snapshot.children.chatInput as ActorRefFrom<typeof chatInputMachine>;
export const selectUpload = (snapshot: OpenConversationSnapshot) =>
  snapshot.children.upload as ActorRefFrom<typeof uploadMachine>;
export const selectFork = (snapshot: OpenConversationSnapshot) =>
  snapshot.children.fork as ActorRefFrom<typeof forkMachine>;
