import { assign, setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';

// The Terminal tab's list: the agent's commands (read-only, always first) and the user's own
// terminals, each a shell of its own in the conversation's sandbox. Opening the tab lists the
// terminals the runtime has (they outlive a reload) and starts one when there is none; New
// adds one (up to 5, the server's limit), Close ends one. A failed call is announced and
// changes nothing; a terminal the server no longer has is forgotten.

/** The server's limit (MAX_TERMINALS in server/runtime/user-terminals.ts). */
export const MAX_USER_TERMINALS = 5;
/** The read-only view of the agent's commands. */
export const AGENT_VIEW = 'agent';

export interface TerminalsInput {
  conversationId: string;
}

export interface TerminalsContext extends TerminalsInput {
  terminals: string[];
  /** A terminal's id, or AGENT_VIEW. */
  selected: string;
}

export type TerminalsEvent =
  | { type: 'NEW' }
  | { type: 'CLOSE'; terminalId: string }
  | { type: 'SELECT'; view: string }
  | { type: 'FORGET'; terminalId: string }
  | { type: 'RETRY' };

const without = (context: TerminalsContext, terminalId: string): Partial<TerminalsContext> => {
  const terminals = context.terminals.filter((id) => id !== terminalId);
  return { terminals, selected: context.selected === terminalId ? (terminals.at(-1) ?? AGENT_VIEW) : context.selected };
};

export const terminalsMachine = setup({
  types: { context: {} as TerminalsContext, events: {} as TerminalsEvent, input: {} as TerminalsInput },
  actors: {
    /** GET /api/conversations/{id}/terminals: the ids, oldest first. */
    listTerminals: notProvidedPromise<string[], TerminalsInput>('listTerminals'),
    /** POST /api/conversations/{id}/terminals: the new terminal's id. */
    openTerminal: notProvidedPromise<string, TerminalsInput>('openTerminal'),
    /** DELETE /api/conversations/{id}/terminals/{terminalId}: answers the id closed. */
    closeTerminal: notProvidedPromise<string, TerminalsInput & { terminalId: string }>('closeTerminal'),
  },
  actions: {
    /** Says why a call failed (a toast). */
    announceFailure: notProvidedAction<{ error: unknown }>('announceFailure'),
  },
  guards: {
    none: (_, ids: string[]) => ids.length === 0,
    roomForMore: ({ context }) => context.terminals.length < MAX_USER_TERMINALS,
    known: ({ context }, view: string) => view === AGENT_VIEW || context.terminals.includes(view),
  },
}).createMachine({
  id: 'terminals',
  context: ({ input }) => ({ ...input, terminals: [], selected: AGENT_VIEW }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'listTerminals',
        src: 'listTerminals',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: [
          { guard: { type: 'none', params: ({ event }) => event.output }, target: 'opening' },
          {
            target: 'ready',
            actions: assign(({ event }) => ({ terminals: event.output, selected: event.output.at(-1) ?? AGENT_VIEW })),
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'announceFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    ready: {
      on: {
        NEW: { guard: 'roomForMore', target: 'opening' },
        CLOSE: { target: 'closing' },
      },
    },
    opening: {
      invoke: {
        id: 'openTerminal',
        src: 'openTerminal',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            terminals: [...context.terminals, event.output],
            selected: event.output,
          })),
        },
        onError: {
          target: 'ready',
          actions: { type: 'announceFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    closing: {
      invoke: {
        id: 'closeTerminal',
        src: 'closeTerminal',
        input: ({ context, event }) => ({
          conversationId: context.conversationId,
          terminalId: (event as Extract<TerminalsEvent, { type: 'CLOSE' }>).terminalId,
        }),
        onDone: { target: 'ready', actions: assign(({ context, event }) => without(context, event.output)) },
        onError: {
          target: 'ready',
          actions: { type: 'announceFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
  on: {
    SELECT: {
      guard: { type: 'known', params: ({ event }) => event.view },
      actions: assign(({ event }) => ({ selected: event.view })),
    },
    FORGET: { actions: assign(({ context, event }) => without(context, event.terminalId)) },
  },
});

export type TerminalsSnapshot = SnapshotFrom<typeof terminalsMachine>;

export const selectTerminalIds = (snapshot: TerminalsSnapshot) => snapshot.context.terminals;
export const selectSelectedView = (snapshot: TerminalsSnapshot) => snapshot.context.selected;
export const selectCanOpenMore = (snapshot: TerminalsSnapshot) =>
  snapshot.matches('ready') && snapshot.context.terminals.length < MAX_USER_TERMINALS;
export const selectListFailed = (snapshot: TerminalsSnapshot) => snapshot.matches('failed');
