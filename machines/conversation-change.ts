import { setup, type ErrorActorEvent } from 'xstate';
import { isServerRejection, messageNotice, serverNotice, type Notice } from './notice.ts';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';

// One change a user makes to one conversation — stop, delete or rename — from the sidebar's
// cards or the workspace's menu alike: the one owner of that flow. Each change is an actor of
// its own that runs to its end, so closing the dialog or page that asked for it loses nothing.
//
// - A rename to an empty (trimmed) or unchanged title is cancelled without a call.
// - `change` shows the change at once and puts it back when the server refuses (the app's
//   implementation does both on the conversation list); the refusal is announced.
// - Stopping or deleting the open conversation leaves for /dashboard at once; stopping says
//   'Conversation stopped successfully', renaming says so too.

export type ConversationChange =
  | { kind: 'stop'; conversationId: string }
  | { kind: 'delete'; conversationId: string }
  /** `title` as typed; `current` the title it replaces. */
  | { kind: 'rename'; conversationId: string; current: string; title: string };

export type ChangeMessage = 'stopFailed' | 'deleteFailed' | 'renameFailed';
export type ChangeFailure = Notice<ChangeMessage>;

/** The title a rename would save: trimmed, or null when it is empty or unchanged (the rename is cancelled). */
export function renamedTitle(current: string, raw: string): string | null {
  const title = raw.trim();
  return title === '' || title === current.trim() ? null : title;
}

/** What reaches the server: a rename with its trimmed title. */
export type ServerChange =
  Exclude<ConversationChange, { kind: 'rename' }> | { kind: 'rename'; conversationId: string; title: string };

const failureOf = (change: ConversationChange, error: unknown): ChangeFailure =>
  isServerRejection(error) && error.message !== ''
    ? serverNotice(error.message)
    : messageNotice(`${change.kind}Failed`);

export const conversationChangeMachine = setup({
  types: { context: {} as { change: ConversationChange }, input: {} as ConversationChange },
  actors: {
    /** Shows the change, makes the call, and puts the change back when the call fails (then rejects). */
    change: notProvidedPromise<void, ServerChange>('change'),
  },
  actions: {
    /** To /dashboard when the stopped or deleted conversation is the one open. */
    leaveIfOpen: notProvidedAction<{ conversationId: string }>('leaveIfOpen'),
    announceDone: notProvidedAction<{ kind: ConversationChange['kind'] }>('announceDone'),
    announceFailure: notProvidedAction<ChangeFailure>('announceFailure'),
  },
  guards: {
    isCancelled: ({ context }) =>
      context.change.kind === 'rename' && renamedTitle(context.change.current, context.change.title) === null,
    leaves: ({ context }) => context.change.kind !== 'rename',
  },
}).createMachine({
  id: 'conversationChange',
  context: ({ input }) => ({ change: input }),
  initial: 'deciding',
  states: {
    deciding: {
      always: [
        { guard: 'isCancelled', target: 'cancelled' },
        {
          guard: 'leaves',
          target: 'changing',
          actions: {
            type: 'leaveIfOpen',
            params: ({ context }) => ({ conversationId: context.change.conversationId }),
          },
        },
        { target: 'changing' },
      ],
    },
    changing: {
      invoke: {
        id: 'change',
        src: 'change',
        input: ({ context }): ServerChange => {
          const { change } = context;
          return change.kind === 'rename'
            ? {
                kind: 'rename',
                conversationId: change.conversationId,
                title: renamedTitle(change.current, change.title) ?? '',
              }
            : change;
        },
        onDone: {
          target: 'changed',
          actions: { type: 'announceDone', params: ({ context }) => ({ kind: context.change.kind }) },
        },
        onError: {
          target: 'refused',
          actions: {
            type: 'announceFailure',
            params: ({ context, event }: { context: { change: ConversationChange }; event: ErrorActorEvent }) =>
              failureOf(context.change, event.error),
          },
        },
      },
    },
    changed: { type: 'final' },
    refused: { type: 'final' },
    cancelled: { type: 'final' },
  },
});
