import { assign, setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';

// Forking a conversation from one of its rows (beyond the spec: try another way without losing this one). "Fork from here" forks at once; "Edit
// and retry" on one of the user's messages opens its text for editing first, and sends the
// edited text in a fork that ends just before it. Once the server made the fork, it opens. A
// failure is announced; an edit that failed stays open with its text, to send again.

export interface ForkRequest {
  eventId: number;
  /** The edited message (edit and retry); absent for a plain fork. */
  message?: string;
}

export interface ForkContext {
  /** The message being edited, and the text so far. */
  editing: { eventId: number; draft: string } | null;
  failure: unknown;
}

export type ForkEvent =
  | { type: 'FORK'; eventId: number }
  | { type: 'EDIT'; eventId: number; text: string }
  | { type: 'CHANGE'; text: string }
  | { type: 'SEND' }
  | { type: 'CANCEL' };

export const forkMachine = setup({
  types: { context: {} as ForkContext, events: {} as ForkEvent },
  actors: {
    /** POST /api/conversations/{id}/fork: answers the new conversation's id. */
    fork: notProvidedPromise<string, ForkRequest>('fork'),
  },
  actions: {
    /** Goes to the new conversation. */
    openFork: notProvidedAction<string>('openFork'),
    /** Says why the fork failed (a toast). */
    announceFailure: notProvidedAction<{ error: unknown }>('announceFailure'),
  },
  guards: {
    hasText: ({ context }) => (context.editing?.draft.trim() ?? '') !== '',
  },
}).createMachine({
  id: 'fork',
  context: { editing: null, failure: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        FORK: { target: 'forking' },
        EDIT: {
          target: 'editing',
          actions: assign(({ event }) => ({ editing: { eventId: event.eventId, draft: event.text }, failure: null })),
        },
      },
    },
    forking: {
      invoke: {
        id: 'fork',
        src: 'fork',
        input: ({ event }) => ({ eventId: (event as Extract<ForkEvent, { type: 'FORK' }>).eventId }),
        onDone: { target: 'idle', actions: { type: 'openFork', params: ({ event }) => event.output } },
        onError: {
          target: 'idle',
          actions: { type: 'announceFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    editing: {
      on: {
        CHANGE: {
          actions: assign(({ context, event }) => ({
            editing: context.editing && { ...context.editing, draft: event.text },
            failure: null,
          })),
        },
        SEND: { guard: 'hasText', target: 'sendingEdit' },
        CANCEL: { target: 'idle', actions: assign({ editing: null, failure: null }) },
      },
    },
    sendingEdit: {
      invoke: {
        id: 'fork',
        src: 'fork',
        input: ({ context }) => ({
          eventId: context.editing?.eventId ?? 0,
          message: context.editing?.draft.trim() ?? '',
        }),
        onDone: {
          target: 'idle',
          actions: [assign({ editing: null }), { type: 'openFork', params: ({ event }) => event.output }],
        },
        onError: {
          target: 'editing',
          actions: [
            assign({ failure: ({ event }) => event.error }),
            { type: 'announceFailure', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
  },
});

export type ForkSnapshot = SnapshotFrom<typeof forkMachine>;

/** The message being edited and its text, or null. */
export const selectEditing = (snapshot: ForkSnapshot) => snapshot.context.editing;
/** A fork is being made: the row actions wait. */
export const selectBusy = (snapshot: ForkSnapshot) => snapshot.matches('forking') || snapshot.matches('sendingEdit');
