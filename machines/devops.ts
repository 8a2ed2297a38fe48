import { assign, setup, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';
import { isServerRejection } from './notice.ts';

// The DevOps tab (spec §4 DevOps agent, §8 DevOps errors and call mapping).
//
// It starts once, when the conversation's runtime is ready: it loads the session's history, or,
// when there is none, starts the workflow by sending 'start'. Messages then go one at a time; the
// user's shows at once, the agent's reply when it comes (the server may take up to ten minutes).
// Attached files are uploaded first; a failed upload is a toast and sends nothing. A reply with
// is_complete ends the session: the input is disabled and a banner shows. Failures are shown as
// agent messages, worded by the view from the notice: 'Failed to initialize session: …' (history),
// 'Failed to start workflow: …' ('start'), 'Error: …' (a message). While a message is answered,
// the agent's progress lines of that turn (a deployment's steps) show as the history gets them.

export type DevopsMessage = components['schemas']['DevopsMessage'];
export type DevopsResponse = components['schemas']['DevopsResponse'];
export type DevopsHistory = components['schemas']['DevopsHistory'];
/** A reply as the execute actor hands it over: with the time it arrived. */
export type DevopsReply = DevopsResponse & { receivedAt: string };

/**
 * Why a call failed (spec §8 call mapping), worded by the view: 405 (the endpoint may not be
 * configured), 5xx ('Server error: …' with the server's words or 'Internal server error'), another
 * answer (the server's words), no answer (the network: the service may be down).
 */
export type DevopsCallFailure =
  | { kind: 'methodNotAllowed' }
  | { kind: 'serverError'; message: string | null }
  | { kind: 'server'; text: string }
  | { kind: 'networkError' };
export type DevopsFailureStep = 'initialize' | 'start' | 'send';

export type DevopsEntry =
  | { kind: 'message'; message: DevopsMessage }
  | { kind: 'failure'; id: string; step: DevopsFailureStep; reason: DevopsCallFailure };

export function devopsFailure(error: unknown): DevopsCallFailure {
  if (!isServerRejection(error)) return { kind: 'networkError' };
  if (error.status === 405) return { kind: 'methodNotAllowed' };
  if (error.status >= 500) return { kind: 'serverError', message: error.message || null };
  return error.message ? { kind: 'server', text: error.message } : { kind: 'serverError', message: null };
}

/** The agent's lines of the turn that answers `message`: those after the user's last row with its text. */
export function progressOf(messages: readonly DevopsMessage[], message: string): DevopsMessage[] {
  const asked = messages.findLastIndex((row) => row.sender === 'user' && row.text === message);
  return asked < 0 ? [] : messages.slice(asked + 1).filter((row) => row.sender === 'agent');
}

export interface DevopsInput {
  sessionId: string;
}

export interface DevopsSend {
  text: string;
  files: readonly File[];
  /** When the user sent it. */
  at: string;
}

interface DevopsContext {
  sessionId: string;
  entries: DevopsEntry[];
  infraHourlyCost: number;
  /** What is being sent (its files first), until the reply; `opening` for the workflow's 'start'. */
  outgoing: (DevopsSend & { opening: boolean }) | null;
  /** Numbers the entries this tab adds (the user's messages, failures). */
  added: number;
  /** The agent's progress lines while a message is answered. */
  progress: DevopsMessage[];
}

export type DevopsEvent =
  { type: 'RUNTIME_READY' } | { type: 'SEND'; text: string; files?: readonly File[]; at: string };

/** How often the session's history is read for progress while a message is answered. */
export const PROGRESS_POLL_MS = 2_000;

const localId = (context: DevopsContext) => `local-${context.added + 1}`;
const failureOf = (step: DevopsFailureStep) => (context: DevopsContext, error: unknown) => ({
  entries: [...context.entries, { kind: 'failure' as const, id: localId(context), step, reason: devopsFailure(error) }],
  added: context.added + 1,
  outgoing: null,
  progress: [],
});

export const devopsMachine = setup({
  types: {
    context: {} as DevopsContext,
    events: {} as DevopsEvent,
    input: {} as DevopsInput,
  },
  actors: {
    loadHistory: notProvidedPromise<DevopsHistory, { sessionId: string }>('loadHistory'),
    /** POST /api/devops-agent/execute. */
    execute: notProvidedPromise<DevopsReply, { sessionId: string; message: string }>('execute'),
    /** The attached files into the conversation's workspace; answers the message that names them. */
    uploadFiles: notProvidedPromise<string, DevopsSend>('uploadFiles'),
    /** The session's history, read for the progress of the message being answered (see progressOf). */
    readProgress: notProvidedPromise<DevopsHistory, { sessionId: string }>('readProgress'),
  },
  actions: {
    /** The 'Failed to upload files' toast. */
    announceUploadFailure: notProvidedAction('announceUploadFailure'),
    keepHistory: assign((_, history: DevopsHistory) => ({
      entries: history.messages.map((message): DevopsEntry => ({ kind: 'message', message })),
      infraHourlyCost: history.infra_hourly_cost,
    })),
    keepOutgoing: assign(({ context }, send: DevopsSend) => ({
      outgoing: { ...send, opening: false },
      // The user's text shows at once; files alone show when their message is sent.
      ...(send.text.trim()
        ? {
            entries: [
              ...context.entries,
              {
                kind: 'message' as const,
                message: {
                  id: localId(context),
                  text: send.text,
                  sender: 'user' as const,
                  timestamp: send.at,
                  is_complete: false,
                },
              },
            ],
            added: context.added + 1,
          }
        : {}),
    })),
    keepReply: assign(({ context }, reply: DevopsReply) => ({
      // The turn's steps stay above its reply, as a reload shows them.
      entries: [
        ...context.entries,
        ...context.progress.map((message) => ({ kind: 'message' as const, message })),
        {
          kind: 'message' as const,
          message: {
            id: localId(context),
            text: reply.display_message,
            sender: 'agent' as const,
            timestamp: reply.receivedAt,
            is_complete: reply.is_complete,
          },
        },
      ],
      added: context.added + 1,
      infraHourlyCost: reply.infra_hourly_cost,
      outgoing: null,
      progress: [],
    })),
    keepProgress: assign(({ context }, history: DevopsHistory) => ({
      progress: progressOf(history.messages, context.outgoing?.text ?? ''),
    })),
    failInitialize: assign(({ context }, error: unknown) => failureOf('initialize')(context, error)),
    /** The reply to 'start' failed, or to the user's message. */
    failSend: assign(({ context }, error: unknown) =>
      failureOf(context.outgoing?.opening ? 'start' : 'send')(context, error),
    ),
    /** A new session: the workflow starts with 'start', which is not shown as the user's. */
    startWorkflow: assign({ outgoing: { text: 'start', files: [], at: '', opening: true } }),
    /** The upload answers the message to send: the user's text with the files named. */
    keepUploadedMessage: assign(({ context }, text: string) => ({
      outgoing: { text, files: context.outgoing?.files ?? [], at: context.outgoing?.at ?? '', opening: false },
    })),
    forgetOutgoing: assign({ outgoing: null }),
  },
  guards: {
    hasHistory: (_, history: DevopsHistory) => history.messages.length > 0,
    historyComplete: (_, history: DevopsHistory) => history.messages.at(-1)?.is_complete === true,
    isComplete: (_, reply: DevopsResponse) => reply.is_complete,
    /** Something to send: text that is not only whitespace, or files. */
    hasContent: (_, send: DevopsSend) => send.text.trim() !== '' || send.files.length > 0,
    hasFiles: ({ context }) => (context.outgoing?.files.length ?? 0) > 0,
  },
  delays: { progressPoll: PROGRESS_POLL_MS },
}).createMachine({
  id: 'devops',
  context: ({ input }) => ({
    sessionId: input.sessionId,
    entries: [],
    infraHourlyCost: 0,
    outgoing: null,
    added: 0,
    progress: [],
  }),
  initial: 'waitingForRuntime',
  states: {
    waitingForRuntime: {
      on: { RUNTIME_READY: { target: 'loadingHistory' } },
    },
    loadingHistory: {
      invoke: {
        id: 'loadHistory',
        src: 'loadHistory',
        input: ({ context }) => ({ sessionId: context.sessionId }),
        onDone: [
          {
            guard: { type: 'historyComplete', params: ({ event }) => event.output },
            target: 'complete',
            actions: { type: 'keepHistory', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'hasHistory', params: ({ event }) => event.output },
            target: 'ready',
            actions: { type: 'keepHistory', params: ({ event }) => event.output },
          },
          { target: 'sending', actions: 'startWorkflow' },
        ],
        onError: {
          target: 'ready',
          actions: { type: 'failInitialize', params: ({ event }: { event: ErrorActorEvent }) => event.error },
        },
      },
    },
    ready: {
      on: {
        SEND: {
          guard: {
            type: 'hasContent',
            params: ({ event }) => ({ text: event.text, files: event.files ?? [], at: event.at }),
          },
          target: 'preparing',
          actions: {
            type: 'keepOutgoing',
            params: ({ event }) => ({ text: event.text, files: event.files ?? [], at: event.at }),
          },
        },
      },
    },
    preparing: {
      always: [{ guard: 'hasFiles', target: 'uploading' }, { target: 'sending' }],
    },
    uploading: {
      invoke: {
        id: 'uploadFiles',
        src: 'uploadFiles',
        input: ({ context }): DevopsSend => ({
          text: context.outgoing?.text ?? '',
          files: context.outgoing?.files ?? [],
          at: context.outgoing?.at ?? '',
        }),
        onDone: {
          target: 'sending',
          actions: { type: 'keepUploadedMessage', params: ({ event }) => event.output },
        },
        onError: { target: 'ready', actions: ['forgetOutgoing', 'announceUploadFailure'] },
      },
    },
    sending: {
      invoke: {
        id: 'execute',
        src: 'execute',
        input: ({ context }) => ({ sessionId: context.sessionId, message: context.outgoing?.text ?? '' }),
        onDone: [
          {
            guard: { type: 'isComplete', params: ({ event }) => event.output },
            target: 'complete',
            actions: { type: 'keepReply', params: ({ event }) => event.output },
          },
          { target: 'ready', actions: { type: 'keepReply', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'ready',
          actions: { type: 'failSend', params: ({ event }: { event: ErrorActorEvent }) => event.error },
        },
      },
      // The progress is read every 2 s until the reply comes.
      initial: 'waiting',
      states: {
        waiting: { after: { progressPoll: { target: 'reading' } } },
        reading: {
          invoke: {
            id: 'readProgress',
            src: 'readProgress',
            input: ({ context }) => ({ sessionId: context.sessionId }),
            onDone: { target: 'waiting', actions: { type: 'keepProgress', params: ({ event }) => event.output } },
            // The reply's own call reports failures; a missed reading only delays the progress.
            onError: { target: 'waiting' },
          },
        },
      },
    },
    complete: {},
  },
});

type DevopsSnapshot = SnapshotFrom<typeof devopsMachine>;

export const selectEntries = (snapshot: DevopsSnapshot) => snapshot.context.entries;
/** The agent is working: the typing indicator shows and the input waits. */
export const selectIsBusy = (snapshot: DevopsSnapshot) =>
  (['loadingHistory', 'preparing', 'uploading', 'sending'] as const).some((state) => snapshot.matches(state));
export const selectCanSend = (snapshot: DevopsSnapshot) => snapshot.matches('ready');
export const selectIsComplete = (snapshot: DevopsSnapshot) => snapshot.matches('complete');
export const selectProgress = (snapshot: DevopsSnapshot) => snapshot.context.progress;
export const selectInfraHourlyCost = (snapshot: DevopsSnapshot) => snapshot.context.infraHourlyCost;
