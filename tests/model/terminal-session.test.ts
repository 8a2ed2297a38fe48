import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock, type AnyEventObject, type EventObject } from 'xstate';
import {
  EXPIRED_CLOSE,
  GONE_CLOSE,
  selectAttached,
  selectLost,
  TERMINAL_ATTEMPTS,
  TERMINAL_RETRY_MS,
  terminalSessionMachine,
  type TerminalKeys,
  type TerminalSessionEvent,
  type TerminalSocketReport,
} from '../../machines/terminal-session.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const input = { conversationId: 'c-1', terminalId: 't-1' };
const retry = { type: 'xstate.after.retryDelay.terminalSession.waiting' };
const settled = { type: 'xstate.after.settleDelay.terminalSession.live.attached.settling' };

const events: (TerminalSessionEvent | AnyEventObject)[] = [
  { type: 'OPENED' },
  { type: 'OUTPUT' },
  { type: 'INPUT', data: 'l' },
  { type: 'INPUT', data: 'ls\r' },
  { type: 'RESIZE', cols: 100, rows: 30 },
  { type: 'EXITED', exitCode: 0 },
  { type: 'DROPPED', code: 1006 },
  { type: 'DROPPED', code: EXPIRED_CLOSE },
  { type: 'DROPPED', code: GONE_CLOSE },
  { type: 'RECONNECT' },
  retry,
  settled,
];

const fakes: FakeSideEffects = {
  promises: [],
  callbacks: { socket: ['OPENED', 'OUTPUT', 'EXITED', 'DROPPED'] },
  actions: ['filesMayHaveChanged'],
};

function expectStep({ event, before, after, effects }: StepRecord) {
  // Files are read again once a command's output settled, and only then.
  expect(effects).toEqual(event.type === settled.type ? ['filesMayHaveChanged'] : []);
  if (event.type === 'INPUT')
    expect(after.matches({ live: { attached: 'settling' } })).toBe(
      (event as TerminalKeys & { type: 'INPUT' }).data.includes('\r') ||
        before.matches({ live: { attached: 'settling' } }),
    );
  // Keys pass only while attached, and change nothing else.
  if (event.type === 'INPUT' || event.type === 'RESIZE') {
    expect(selectAttached(before)).toBe(true);
    expect(after.context).toEqual(before.context);
    expect(selectAttached(after)).toBe(true);
  }
  if (event.type === 'DROPPED') {
    const { code } = event as Extract<TerminalSocketReport, { type: 'DROPPED' }>;
    if (code === EXPIRED_CLOSE) expect(after.context.end).toBe('expired');
    else if (code === GONE_CLOSE) expect(after.context.end).toBe('gone');
    // An ordinary drop is tried again unless this was the fifth attempt in a row.
    else expect(selectLost(after)).toBe(before.context.attempts >= TERMINAL_ATTEMPTS);
  }
  if (event.type === 'EXITED') expect(after.context).toMatchObject({ end: 'exited', exitCode: 0 });
  if (event.type === 'OPENED') expect(after.context.attempts).toBe(0);
}

const coverage = new Coverage(terminalSessionMachine);
let pathCount = 0;

describe('terminal session machine, every edge of its graph', () => {
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(terminalSessionMachine, { events, input }));
  pathCount = paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(terminalSessionMachine, path, { fakes, input, coverage, expectStep });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('terminal session rules', () => {
  it('passes keys and sizes to the one socket it keeps open while attached', async () => {
    const received: EventObject[] = [];
    let opened = 0;
    const actor = createActor(
      terminalSessionMachine.provide({
        actors: {
          socket: fromCallback<EventObject, typeof input, TerminalSocketReport>(({ sendBack, receive }) => {
            opened += 1;
            receive((event) => received.push(event));
            sendBack({ type: 'OPENED' });
          }),
        },
      }),
      { input },
    ).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'INPUT', data: 'top\r' });
    actor.send({ type: 'RESIZE', cols: 120, rows: 40 });
    expect(received).toEqual([
      { type: 'INPUT', data: 'top\r' },
      { type: 'RESIZE', cols: 120, rows: 40 },
    ]);
    expect(opened).toBe(1);
    expect(selectAttached(actor.getSnapshot())).toBe(true);
  });

  it('tries five times a second apart, then waits for Reconnect', () => {
    let attempts = 0;
    const clock = new SimulatedClock();
    const actor = createActor(
      terminalSessionMachine.provide({
        actors: {
          socket: fromCallback<EventObject, typeof input, TerminalSocketReport>(({ sendBack }) => {
            attempts += 1;
            sendBack({ type: 'DROPPED', code: 1006 });
          }),
        },
      }),
      { clock, input },
    ).start();
    expect(attempts).toBe(1);
    // A second apart: no new attempt a moment before the second is over.
    clock.increment(TERMINAL_RETRY_MS - 1);
    expect(attempts).toBe(1);
    for (let attempt = 2; attempt <= TERMINAL_ATTEMPTS; attempt += 1) {
      clock.increment(TERMINAL_RETRY_MS);
      expect(attempts).toBe(attempt);
    }
    expect(selectLost(actor.getSnapshot())).toBe(true);
    clock.increment(10 * TERMINAL_RETRY_MS);
    expect(attempts).toBe(TERMINAL_ATTEMPTS);
    actor.send({ type: 'RECONNECT' });
    for (let second = 0; second < TERMINAL_ATTEMPTS; second += 1) clock.increment(TERMINAL_RETRY_MS);
    expect(attempts).toBe(2 * TERMINAL_ATTEMPTS);
    actor.stop();
  });
});
