import { assign, setup, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import { notProvidedAction } from './not-provided.ts';
import type { ConnectionStatus } from './connection.ts';
import { messageNotice, serverNotice, type Notice } from './notice.ts';
import type { Event } from '../openapi/types.ts';

// The agent as the browser sees it: its state comes only from `agent_state_changed`
// observations (every received event is forwarded with EVENT_RECEIVED); the chat's controls
// follow from that state and from a few facts the workspace reports (credits, an upload in
// progress, an optimistic message waiting for its echo, the socket and the conversation).
//
// - STOP (only while RUNNING) asks for STOPPED; CONFIRM / REJECT (only while
//   AWAITING_USER_CONFIRMATION) ask for USER_CONFIRMED / USER_REJECTED. The state itself changes
//   only when the server's observation arrives.
// - An event saying the agent hit its maximum iterations makes the product ask for PAUSED.
// - ERROR keeps the reason (or 'Unknown error') as the error message and shows it in a toast
//   when it happens live (not for an error in the history the chat opens with).

export type AgentState = components['schemas']['AgentState'];
export type ConversationStatus = components['schemas']['ConversationStatus'];

export const AGENT_STATES: readonly AgentState[] = [
  'LOADING',
  'INIT',
  'RUNNING',
  'AWAITING_USER_INPUT',
  'AWAITING_USER_CONFIRMATION',
  'USER_CONFIRMED',
  'USER_REJECTED',
  'PAUSED',
  'STOPPED',
  'FINISHED',
  'REJECTED',
  'ERROR',
  'RATE_LIMITED',
];

/** Below this balance (dollars) chatting is blocked (spec §9: critical). */
export const CRITICAL_BALANCE = 0.1;

/** The agent state an event reports, if it is an agent_state_changed observation. */
export function reportedAgentState(event: Event): AgentState | null {
  return event.observation === 'agent_state_changed' ? (event.extras?.agent_state ?? null) : null;
}

export const MAX_ITERATIONS_ERROR_ID = 'AGENT_ERROR$MAX_ITERATIONS';
const MAX_ITERATIONS_TEXT = /maximum (number of )?iterations/i;

/**
 * Whether an event says the agent reached its maximum iterations: its error id says so, or its
 * reason or message does (in the words of the server's agent, or of OpenHands-style agents).
 */
export function reportsMaximumIterations(event: Event): boolean {
  // A state change is followed as it is; only other events (errors, status updates) ask for PAUSED.
  if (reportedAgentState(event) !== null) return false;
  if (event.extras?.error_id === MAX_ITERATIONS_ERROR_ID) return true;
  const texts = [
    event.extras?.reason,
    event.observation === 'error' || event.status_update === true ? (event.message ?? event.content) : undefined,
  ];
  return texts.some((text) => typeof text === 'string' && MAX_ITERATIONS_TEXT.test(text));
}

/** Whether the agent has acted: it sent an action (a message, a command, an edit...) of its own. */
export function isAgentAction(event: Event): boolean {
  return (
    event.source === 'agent' &&
    event.action !== undefined &&
    event.action !== 'change_agent_state' &&
    event.action !== 'system'
  );
}

export type AgentMessage = 'unknownError';
export type AgentErrorMessage = Notice<AgentMessage>;

/** The message kept for an ERROR state: its reason, else 'Unknown error'. */
export function agentErrorMessage(event: Event): AgentErrorMessage {
  const reason = event.extras?.reason?.trim() ?? '';
  return reason === '' ? messageNotice('unknownError') : serverNotice(reason);
}

export interface AgentContext {
  errorMessage: AgentErrorMessage | null;
  /** The agent has acted at least once in this conversation. */
  hasActed: boolean;
  /** Credits balance in dollars; null when unknown (oss mode has no credits). */
  balance: number | null;
  uploading: boolean;
  optimisticPending: boolean;
  connection: ConnectionStatus;
  /** The socket has been connected at least once (so a state seen since may be stale now). */
  connectedOnce: boolean;
  conversationStatus: ConversationStatus | null;
}

export type AgentEvent =
  /** `live`: it happened now, not in the history the chat opened with. */
  | { type: 'EVENT_RECEIVED'; event: Event; live: boolean }
  | { type: 'STOP' }
  | { type: 'CONFIRM' }
  | { type: 'REJECT' }
  | { type: 'CREDITS_CHANGED'; balance: number | null }
  | { type: 'UPLOADING_CHANGED'; uploading: boolean }
  | { type: 'OPTIMISTIC_CHANGED'; pending: boolean }
  | { type: 'CONNECTION_CHANGED'; connection: ConnectionStatus }
  | { type: 'CONVERSATION_STATUS_CHANGED'; status: ConversationStatus | null };

const reportsState = (state: AgentState) => ({
  type: 'reports' as const,
  params: ({ event }: { event: { event: Event } }) => ({ event: event.event, state }),
});

const stateTransition = (state: AgentState) => ({
  guard: reportsState(state),
  target: `.${state}`,
  actions: ['forgetError' as const],
});

const rememberError = {
  type: 'rememberError' as const,
  params: ({ event }: { event: { event: Event } }) => event.event,
};
const errorTransitions = [
  {
    guard: {
      type: 'reportsLive' as const,
      params: ({ event }: { event: { event: Event; live: boolean } }) => ({
        event: event.event,
        state: 'ERROR' as const,
        live: event.live,
      }),
    },
    target: '.ERROR',
    actions: [
      rememberError,
      {
        type: 'announceError' as const,
        params: ({ event }: { event: { event: Event } }) => agentErrorMessage(event.event),
      },
    ],
  },
  // An error in the history the chat opens with is shown in the chat, not announced again.
  { guard: reportsState('ERROR'), target: '.ERROR', actions: [rememberError] },
];

export const agentMachine = setup({
  types: { context: {} as AgentContext, events: {} as AgentEvent },
  actions: {
    /** Sends a change_agent_state action over the socket. */
    requestAgentState: notProvidedAction<{ agent_state: AgentState }>('requestAgentState'),
    /** Toast with the reason; without one, 'Unknown error, please try again' (key agent.unknownErrorToast). */
    announceError: notProvidedAction<AgentErrorMessage>('announceError'),
    rememberError: assign((_, event: Event) => ({ errorMessage: agentErrorMessage(event) })),
    forgetError: assign({ errorMessage: null }),
    rememberAction: assign({ hasActed: true }),
    setBalance: assign((_, balance: number | null) => ({ balance })),
    setUploading: assign((_, uploading: boolean) => ({ uploading })),
    setOptimistic: assign((_, optimisticPending: boolean) => ({ optimisticPending })),
    setConnection: assign(({ context }, connection: ConnectionStatus) => ({
      connection,
      connectedOnce: context.connectedOnce || connection === 'CONNECTED',
    })),
    setConversationStatus: assign((_, conversationStatus: ConversationStatus | null) => ({ conversationStatus })),
  },
  guards: {
    reports: (_, { event, state }: { event: Event; state: AgentState }) => reportedAgentState(event) === state,
    reportsLive: (_, { event, state, live }: { event: Event; state: AgentState; live: boolean }) =>
      live && reportedAgentState(event) === state,
    reportsMaximumIterations: (_, event: Event) => reportsMaximumIterations(event),
    isAgentAction: (_, event: Event) => isAgentAction(event),
  },
}).createMachine({
  id: 'agent',
  context: {
    errorMessage: null,
    hasActed: false,
    balance: null,
    uploading: false,
    optimisticPending: false,
    connection: 'DISCONNECTED',
    connectedOnce: false,
    conversationStatus: null,
  },
  initial: 'LOADING',
  on: {
    EVENT_RECEIVED: [
      ...errorTransitions,
      ...AGENT_STATES.filter((state) => state !== 'ERROR').map(stateTransition),
      { guard: { type: 'isAgentAction', params: ({ event }) => event.event }, actions: 'rememberAction' },
    ],
    CREDITS_CHANGED: { actions: { type: 'setBalance', params: ({ event }) => event.balance } },
    UPLOADING_CHANGED: { actions: { type: 'setUploading', params: ({ event }) => event.uploading } },
    OPTIMISTIC_CHANGED: { actions: { type: 'setOptimistic', params: ({ event }) => event.pending } },
    CONNECTION_CHANGED: { actions: { type: 'setConnection', params: ({ event }) => event.connection } },
    CONVERSATION_STATUS_CHANGED: { actions: { type: 'setConversationStatus', params: ({ event }) => event.status } },
  },
  states: {
    LOADING: {},
    INIT: {},
    RUNNING: {
      on: {
        STOP: { actions: { type: 'requestAgentState', params: { agent_state: 'STOPPED' } } },
        EVENT_RECEIVED: {
          guard: { type: 'reportsMaximumIterations', params: ({ event }) => event.event },
          actions: { type: 'requestAgentState', params: { agent_state: 'PAUSED' } },
        },
      },
    },
    AWAITING_USER_INPUT: {},
    AWAITING_USER_CONFIRMATION: {
      on: {
        CONFIRM: { actions: { type: 'requestAgentState', params: { agent_state: 'USER_CONFIRMED' } } },
        REJECT: { actions: { type: 'requestAgentState', params: { agent_state: 'USER_REJECTED' } } },
      },
    },
    USER_CONFIRMED: {},
    USER_REJECTED: {},
    PAUSED: {},
    STOPPED: {},
    FINISHED: {},
    REJECTED: {},
    ERROR: {},
    RATE_LIMITED: {},
  },
});

type AgentSnapshot = SnapshotFrom<typeof agentMachine>;

export const agentStateOf = (snapshot: AgentSnapshot): AgentState => snapshot.value as AgentState;

/** LOADING, INIT and ERROR are treated as a group (spec §3). */
export const isLoadingGroup = (state: AgentState) => state === 'LOADING' || state === 'INIT' || state === 'ERROR';

export const hasInsufficientCredits = (balance: number | null) => balance !== null && balance < CRITICAL_BALANCE;

/** The socket was connected and is lost: the agent state last seen may be long over (a server restarted). */
export const isOffline = (facts: Pick<AgentContext, 'connection' | 'connectedOnce'>) =>
  facts.connectedOnce && facts.connection !== 'CONNECTED';

/**
 * Send is disabled while LOADING, RUNNING or AWAITING_USER_CONFIRMATION, with critical credits, or
 * while uploading. While offline the state is not known: a message waits in the connection's
 * outbox and goes once connected (the server starts a stopped conversation for it).
 */
export function sendDisabled(
  state: AgentState,
  facts: Pick<AgentContext, 'balance' | 'uploading' | 'connection' | 'connectedOnce'>,
): boolean {
  const busy = state === 'LOADING' || state === 'RUNNING' || state === 'AWAITING_USER_CONFIRMATION';
  return (busy && !isOffline(facts)) || hasInsufficientCredits(facts.balance) || facts.uploading;
}

/** Suggestion buttons: only in AWAITING_USER_INPUT or FINISHED, once the agent has acted, with no optimistic message pending. */
export function suggestionsShown(
  state: AgentState,
  facts: Pick<AgentContext, 'hasActed' | 'optimisticPending'>,
): boolean {
  return (state === 'AWAITING_USER_INPUT' || state === 'FINISHED') && facts.hasActed && !facts.optimisticPending;
}

export type DotColour = 'red' | 'yellow' | 'orange' | 'blue' | 'green';

/**
 * The status-bar dot. Red: socket disconnected, conversation or agent stopped. Yellow: starting
 * (conversation STARTING or socket connecting), loading (LOADING, and INIT and ERROR with it),
 * paused, rejected, rate limited. Orange: awaiting confirmation. Blue: awaiting input. Green otherwise.
 */
export function statusDotColour(
  state: AgentState,
  facts: Pick<AgentContext, 'connection' | 'conversationStatus'>,
): DotColour {
  if (facts.connection === 'DISCONNECTED' || facts.conversationStatus === 'STOPPED' || state === 'STOPPED')
    return 'red';
  if (facts.conversationStatus === 'STARTING' || facts.connection === 'CONNECTING') return 'yellow';
  if (isLoadingGroup(state) || state === 'PAUSED' || state === 'REJECTED' || state === 'RATE_LIMITED') return 'yellow';
  if (state === 'AWAITING_USER_CONFIRMATION') return 'orange';
  if (state === 'AWAITING_USER_INPUT') return 'blue';
  return 'green';
}

/** i18n key (chat namespace) of each agent state's status message. */
export const agentStatusKey = (state: AgentState) => `agentStatus.${state}` as const;

export const selectAgentState = agentStateOf;
export const selectSendDisabled = (snapshot: AgentSnapshot) => sendDisabled(agentStateOf(snapshot), snapshot.context);
export const selectInsufficientCredits = (snapshot: AgentSnapshot) => hasInsufficientCredits(snapshot.context.balance);
export const selectShowStop = (snapshot: AgentSnapshot) => snapshot.matches('RUNNING');
export const selectAwaitingConfirmation = (snapshot: AgentSnapshot) => snapshot.matches('AWAITING_USER_CONFIRMATION');
export const selectSuggestionsShown = (snapshot: AgentSnapshot) =>
  suggestionsShown(agentStateOf(snapshot), snapshot.context);
export const selectDotColour = (snapshot: AgentSnapshot) => statusDotColour(agentStateOf(snapshot), snapshot.context);
export const selectTyping = (snapshot: AgentSnapshot) => snapshot.matches('RUNNING');
export const selectErrorMessage = (snapshot: AgentSnapshot) => snapshot.context.errorMessage;
