import { assign, setup, spawnChild, stopChild, type SnapshotFrom } from 'xstate';
import type { GitProvider } from '../openapi/types.ts';
import { notProvidedAction, notProvidedCallback, notProvidedPromise } from './not-provided.ts';

// Launching a microagent from a chat event (spec §2 launch-microagent modal, §4 microagent launch
// task, §5). The modal opens on an agent event of a conversation that has a repository, branch and
// git provider; it starts with the server's remember-prompt for that event as the query. Query and
// target are required; a word typed before a space becomes a trigger, Backspace in an empty trigger
// input takes the last one back. Launch creates a conversation with create_microagent; its task
// is then 'creating' until the child conversation's agent finishes or its finish names a
// pull-request link ('completed'), or it fails ('error'): each step is announced (a toast for 5 s),
// and the child's subscription is dropped when the task ends.

/** The current conversation, as a launch needs it; null when it has no repository, branch or provider. */
export interface LaunchSource {
  conversationId: string;
  repository: string;
  branch: string;
  provider: GitProvider;
}

export interface LaunchForm {
  query: string;
  target: string;
  triggers: string[];
}

export interface LaunchTask {
  eventId: number;
  conversationId: string;
  status: 'creating' | 'completed' | 'error';
  prUrl: string | null;
}

export type LaunchNotice =
  { kind: 'creating' } | { kind: 'completed'; prUrl: string | null } | { kind: 'error'; failure: unknown };

interface MicroagentLaunchContext extends LaunchForm {
  source: LaunchSource | null;
  eventId: number | null;
  triggerDraft: string;
  failure: unknown;
  tasks: LaunchTask[];
}

export type MicroagentLaunchEvent =
  | { type: 'OPEN'; eventId: number }
  | { type: 'QUERY_CHANGED'; value: string }
  | { type: 'TARGET_CHANGED'; value: string }
  | { type: 'TRIGGER_INPUT'; value: string }
  | { type: 'TRIGGER_BACKSPACE' }
  | { type: 'LAUNCH' }
  | { type: 'CANCEL' }
  | { type: 'CHILD_FINISHED'; conversationId: string; prUrl: string | null }
  | { type: 'CHILD_FAILED'; conversationId: string };

export interface LaunchRequest extends LaunchForm {
  source: LaunchSource;
  eventId: number;
}

/**
 * The trigger input after typing `value`: every word followed by whitespace becomes a trigger
 * (once each), what follows the last whitespace stays in the input.
 */
export function typeTriggers(triggers: readonly string[], value: string): { triggers: string[]; draft: string } {
  const parts = value.split(/\s+/);
  const draft = parts.pop() ?? '';
  const added = parts.filter((word) => word !== '');
  return { triggers: [...new Set([...triggers, ...added])], draft };
}

const watcherId = (conversationId: string) => `child-${conversationId}`;
const createdId = (event: unknown) => (event as { output: string }).output;
const EMPTY_FORM = { query: '', target: '', triggers: [], triggerDraft: '', failure: null };

export const microagentLaunchMachine = setup({
  types: {
    context: {} as MicroagentLaunchContext,
    events: {} as MicroagentLaunchEvent,
    input: {} as { source: LaunchSource | null },
  },
  actors: {
    /** GET /api/conversations/{id}/remember-prompt?event_id=… */
    rememberPrompt: notProvidedPromise<string, { conversationId: string; eventId: number }>('rememberPrompt'),
    /** POST /api/conversations with create_microagent: the child conversation's id. */
    createConversation: notProvidedPromise<string, LaunchRequest>('createConversation'),
    /** Follows the child conversation's events until its agent finishes (with a pull-request link, if any) or fails. */
    watchChild: notProvidedCallback<
      Extract<MicroagentLaunchEvent, { type: 'CHILD_FINISHED' | 'CHILD_FAILED' }>,
      { conversationId: string }
    >('watchChild'),
  },
  actions: {
    /** A toast for 5 s. */
    announce: notProvidedAction<LaunchNotice>('announce'),
    start: assign((_, eventId: number) => ({ eventId, ...EMPTY_FORM })),
    // The prompt fills the query unless the user has typed one meanwhile.
    offerPrompt: assign(({ context }, prompt: string) => (context.query === '' ? { query: prompt } : {})),
    setQuery: assign((_, query: string) => ({ query })),
    setTarget: assign((_, target: string) => ({ target })),
    typeTrigger: assign(({ context }, value: string) => {
      const typed = typeTriggers(context.triggers, value);
      return { triggers: typed.triggers, triggerDraft: typed.draft };
    }),
    removeLastTrigger: assign(({ context }) => ({ triggers: context.triggers.slice(0, -1) })),
    rememberFailure: assign((_, failure: unknown) => ({ failure })),
    addTask: assign(({ context }, conversationId: string) => ({
      tasks: [
        ...context.tasks,
        { eventId: context.eventId ?? -1, conversationId, status: 'creating' as const, prUrl: null },
      ],
    })),
    finishTask: assign(
      ({ context }, result: { conversationId: string; status: 'completed' | 'error'; prUrl: string | null }) => ({
        tasks: context.tasks.map((task) =>
          task.conversationId === result.conversationId
            ? { ...task, status: result.status, prUrl: result.prUrl }
            : task,
        ),
      }),
    ),
    close: assign({ eventId: null, ...EMPTY_FORM }),
  },
  guards: {
    hasSource: ({ context }) => context.source !== null,
    // The typed word counts even before its space: Launch takes it as a trigger too.
    formComplete: ({ context }) => context.query.trim() !== '' && context.target.trim() !== '',
    draftEmpty: ({ context }) => context.triggerDraft === '',
    isCreating: ({ context }, conversationId: string) =>
      context.tasks.some((task) => task.conversationId === conversationId && task.status === 'creating'),
  },
}).createMachine({
  id: 'microagentLaunch',
  context: ({ input }) => ({ source: input.source, eventId: null, ...EMPTY_FORM, tasks: [] }),
  initial: 'closed',
  on: {
    CHILD_FINISHED: {
      guard: { type: 'isCreating', params: ({ event }) => event.conversationId },
      actions: [
        {
          type: 'finishTask',
          params: ({ event }) => ({ conversationId: event.conversationId, status: 'completed', prUrl: event.prUrl }),
        },
        stopChild(({ event }) => watcherId(event.conversationId)),
        { type: 'announce', params: ({ event }) => ({ kind: 'completed', prUrl: event.prUrl }) },
      ],
    },
    CHILD_FAILED: {
      guard: { type: 'isCreating', params: ({ event }) => event.conversationId },
      actions: [
        {
          type: 'finishTask',
          params: ({ event }) => ({ conversationId: event.conversationId, status: 'error', prUrl: null }),
        },
        stopChild(({ event }) => watcherId(event.conversationId)),
        { type: 'announce', params: () => ({ kind: 'error', failure: null }) },
      ],
    },
  },
  states: {
    closed: {
      on: {
        OPEN: {
          guard: 'hasSource',
          target: 'open',
          actions: { type: 'start', params: ({ event }) => event.eventId },
        },
      },
    },
    open: {
      initial: 'loadingPrompt',
      on: { CANCEL: { target: 'closed', actions: 'close' } },
      states: {
        loadingPrompt: {
          invoke: {
            id: 'rememberPrompt',
            src: 'rememberPrompt',
            input: ({ context }) => ({
              conversationId: context.source?.conversationId ?? '',
              eventId: context.eventId ?? 0,
            }),
            onDone: { target: 'editing', actions: { type: 'offerPrompt', params: ({ event }) => event.output } },
            // Without the prompt the user writes the query.
            onError: 'editing',
          },
        },
        editing: {
          on: {
            QUERY_CHANGED: { actions: { type: 'setQuery', params: ({ event }) => event.value } },
            TARGET_CHANGED: { actions: { type: 'setTarget', params: ({ event }) => event.value } },
            TRIGGER_INPUT: { actions: { type: 'typeTrigger', params: ({ event }) => event.value } },
            TRIGGER_BACKSPACE: { guard: 'draftEmpty', actions: 'removeLastTrigger' },
            LAUNCH: {
              guard: 'formComplete',
              target: 'launching',
              actions: { type: 'typeTrigger', params: ({ context }) => `${context.triggerDraft} ` },
            },
          },
        },
        launching: {
          invoke: {
            id: 'createConversation',
            src: 'createConversation',
            input: ({ context }) => ({
              source: context.source as LaunchSource,
              eventId: context.eventId ?? 0,
              query: context.query.trim(),
              target: context.target.trim(),
              triggers: context.triggers,
            }),
            onDone: {
              target: '#microagentLaunch.closed',
              actions: [
                { type: 'addTask', params: ({ event }) => event.output },
                // spawnChild's callbacks see the machine's events, not this done event: its output is read as such.
                spawnChild('watchChild', {
                  id: ({ event }) => watcherId(createdId(event)),
                  input: ({ event }) => ({ conversationId: createdId(event) }),
                }),
                { type: 'announce', params: { kind: 'creating' } },
                'close',
              ],
            },
            onError: {
              target: 'editing',
              actions: [
                { type: 'rememberFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
                { type: 'announce', params: ({ event }) => ({ kind: 'error', failure: event.error }) },
              ],
            },
          },
        },
      },
    },
  },
});

export type MicroagentLaunchSnapshot = SnapshotFrom<typeof microagentLaunchMachine>;
export const selectOpen = (s: MicroagentLaunchSnapshot) => s.matches('open');
export const selectForm = (s: MicroagentLaunchSnapshot) => s.context;
export const selectLoadingPrompt = (s: MicroagentLaunchSnapshot) => s.matches({ open: 'loadingPrompt' });
export const selectLaunching = (s: MicroagentLaunchSnapshot) => s.matches({ open: 'launching' });
export const selectCanLaunch = (s: MicroagentLaunchSnapshot) =>
  s.matches({ open: 'editing' }) && s.can({ type: 'LAUNCH' });
export const selectTasks = (s: MicroagentLaunchSnapshot) => s.context.tasks;
