import { assign, sendTo, setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedCallback } from './not-provided.ts';

// One user terminal of the Terminal tab, attached over its socket (x-terminal-websocket) while
// the tab shows it. Keys and the tab's size go to the socket once it is open; its output goes
// straight to the screen (the socket actor writes it). A line entered is a command that may
// change files: once its output pauses for a second, what shows the files is refreshed. A dropped socket is tried again after
// a second, up to 5 times (the spec's workspace connection profile), then the tab offers
// Reconnect. The shell's end, a terminal the server no longer has (the runtime restarted) and
// an expired session end the attachment for good.

/** The spec's workspace profile: attempts and the delay between them. */
export const TERMINAL_ATTEMPTS = 5;
export const TERMINAL_RETRY_MS = 1000;
/** How long a command's output must pause before the files it may have changed are read again. */
export const SETTLE_MS = 1000;

/** Close codes of the terminal socket (openapi/atelier.yaml, x-terminal-websocket). */
export const EXPIRED_CLOSE = 4401;
export const GONE_CLOSE = 4404;

export type TerminalEnd = 'exited' | 'gone' | 'expired';

export interface TerminalSessionInput {
  conversationId: string;
  terminalId: string;
}

export interface TerminalSessionContext extends TerminalSessionInput {
  /** Attempts since the socket was last open. */
  attempts: number;
  exitCode: number | null;
  end: TerminalEnd | null;
}

/** What the view sends while the socket is open. */
export type TerminalKeys = { type: 'INPUT'; data: string } | { type: 'RESIZE'; cols: number; rows: number };

/** What the socket actor reports (OUTPUT: something was drawn; the screen has it). */
export type TerminalSocketReport =
  { type: 'OPENED' } | { type: 'OUTPUT' } | { type: 'EXITED'; exitCode: number } | { type: 'DROPPED'; code: number };

export type TerminalSessionEvent = TerminalKeys | TerminalSocketReport | { type: 'RECONNECT' };

export const terminalSessionMachine = setup({
  types: {
    context: {} as TerminalSessionContext,
    events: {} as TerminalSessionEvent,
    input: {} as TerminalSessionInput,
  },
  actors: {
    /** The terminal's socket: writes its output to the screen, takes INPUT and RESIZE, reports the rest. */
    socket: notProvidedCallback<TerminalSocketReport, TerminalSessionInput>('socket'),
  },
  delays: { retryDelay: TERMINAL_RETRY_MS, settleDelay: SETTLE_MS },
  guards: {
    entersLine: (_, data: string) => data.includes('\r'),
    expired: (_, code: number) => code === EXPIRED_CLOSE,
    gone: (_, code: number) => code === GONE_CLOSE,
    attemptsLeft: ({ context }) => context.attempts < TERMINAL_ATTEMPTS,
  },
  actions: {
    /** Refreshes what shows the workspace's files. */
    filesMayHaveChanged: notProvidedAction('filesMayHaveChanged'),
    countAttempt: assign(({ context }) => ({ attempts: context.attempts + 1 })),
    forget: assign({ attempts: 0 }),
    endAs: assign((_, end: TerminalEnd) => ({ end })),
  },
}).createMachine({
  id: 'terminalSession',
  context: ({ input }) => ({ ...input, attempts: 0, exitCode: null, end: null }),
  initial: 'live',
  states: {
    // One socket for both substates: it opens once and stays while attached.
    live: {
      entry: 'countAttempt',
      invoke: { id: 'socket', src: 'socket', input: ({ context }) => context },
      initial: 'connecting',
      states: {
        connecting: {
          on: { OPENED: { target: 'attached', actions: 'forget' } },
        },
        attached: {
          initial: 'quiet',
          states: {
            quiet: {},
            // A line was entered: once the output settles, files may have changed (the Changes list, the editor's tree).
            settling: {
              after: { settleDelay: { target: 'quiet', actions: 'filesMayHaveChanged' } },
              on: { OUTPUT: { target: 'settling', reenter: true } },
            },
          },
          on: {
            INPUT: [
              {
                guard: { type: 'entersLine', params: ({ event }) => event.data },
                target: '.settling',
                reenter: true,
                actions: sendTo('socket', ({ event }) => event),
              },
              { actions: sendTo('socket', ({ event }) => event) },
            ],
            RESIZE: { actions: sendTo('socket', ({ event }) => event) },
            EXITED: {
              target: '#terminalSession.ended',
              actions: [assign(({ event }) => ({ exitCode: event.exitCode })), { type: 'endAs', params: 'exited' }],
            },
          },
        },
      },
      on: {
        DROPPED: [
          {
            guard: { type: 'expired', params: ({ event }) => event.code },
            target: 'ended',
            actions: { type: 'endAs', params: 'expired' },
          },
          {
            guard: { type: 'gone', params: ({ event }) => event.code },
            target: 'ended',
            actions: { type: 'endAs', params: 'gone' },
          },
          { guard: 'attemptsLeft', target: 'waiting' },
          { target: 'lost' },
        ],
      },
    },
    waiting: {
      after: { retryDelay: 'live' },
    },
    lost: {
      on: { RECONNECT: { target: 'live', actions: 'forget' } },
    },
    ended: { type: 'final' },
  },
});

export type TerminalSessionSnapshot = SnapshotFrom<typeof terminalSessionMachine>;

/** Whether keys reach the shell now. */
export const selectAttached = (snapshot: TerminalSessionSnapshot) => snapshot.matches({ live: 'attached' });
export const selectLost = (snapshot: TerminalSessionSnapshot) => snapshot.matches('lost');
export const selectTerminalEnd = (snapshot: TerminalSessionSnapshot) => snapshot.context.end;
export const selectExitCode = (snapshot: TerminalSessionSnapshot) => snapshot.context.exitCode;
