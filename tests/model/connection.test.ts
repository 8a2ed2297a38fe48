import { afterAll, describe, expect, it } from 'vitest';
import {
  createActor,
  fromCallback,
  SimulatedClock,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type EventObject,
} from 'xstate';
import { getShortestPaths, type StatePath } from 'xstate/graph';
import {
  APP_PROFILE,
  connectionMachine,
  reconnectDelay,
  selectConnectionStatus,
  socketErrorNotice,
  type ConnectionEvent,
  type ConnectionInput,
  type SocketInput,
  type SocketReport,
} from '../../machines/connection.ts';
import {
  Coverage,
  describePath,
  runPath,
  serializeEvent,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';
import type { ClientAction, Event } from '../../openapi/types.ts';

const message: ClientAction = {
  action: 'message',
  args: { content: 'Add a dark mode', image_urls: [], file_urls: [] },
  id: 'c-1',
};
const event = (id: number): Event => ({
  id,
  source: 'agent',
  timestamp: '2026-01-01T00:00:00Z',
  action: 'message',
  args: { content: `event ${id}` },
});
const after = (delay: string, state: string) => ({ type: `xstate.after.${delay}.connection.${state}` });

const events: (ConnectionEvent | AnyEventObject)[] = [
  { type: 'CONNECT' },
  { type: 'DISCONNECT' },
  { type: 'SEND', action: message },
  { type: 'SOCKET_OPENED' },
  { type: 'SOCKET_EVENT', event: event(5) },
  { type: 'SOCKET_ERROR_FRAME', frame: { error: true, message: 'Session expired.', error_code: 401 } },
  { type: 'SOCKET_ERROR_FRAME', frame: { error: true, message: 'websocket error' } },
  { type: 'SOCKET_ERROR_FRAME', frame: { error: true, message: 'The runtime crashed.' } },
  { type: 'SOCKET_CLOSED', reason: 'transport close' },
  { type: 'SOCKET_CLOSED', reason: 'authentication_failed' },
  { type: 'SOCKET_CLOSED', reason: 'io server disconnect' },
  { type: 'SOCKET_FAILED' },
  after('connectTimeout', 'open.connecting'),
  after('reconnect', 'waiting'),
  after('sessionExpiredReload', 'sessionExpired'),
];

const fakes: FakeSideEffects = {
  promises: [],
  callbacks: { socket: ['SOCKET_OPENED', 'SOCKET_EVENT', 'SOCKET_ERROR_FRAME', 'SOCKET_CLOSED', 'SOCKET_FAILED'] },
  actions: ['transmit', 'receive', 'clearTempMessage', 'announceError', 'reloadPage'],
};

/**
 * Like pathsThroughEveryEdge, with the queue and the failed attempts kept small: both only grow,
 * so the graph is finite only when bounded: one queued action and one failed attempt at a time
 * already take every transition (the rules below check longer queues and repeated failures).
 */
function boundedPaths(input: ConnectionInput): StatePath<AnyMachineSnapshot, EventObject>[] {
  const key = (snapshot: AnyMachineSnapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context });
  const bounded = (snapshot: AnyMachineSnapshot, candidate: AnyEventObject) => {
    if (candidate.type === 'SEND') return snapshot.context.outbox.length < 1;
    const fails =
      candidate.type === 'SOCKET_CLOSED' ||
      candidate.type === 'SOCKET_FAILED' ||
      candidate.type.includes('connectTimeout');
    return !fails || snapshot.context.attempts < 1;
  };
  return getShortestPaths(connectionMachine, {
    events: (snapshot) =>
      events.filter(
        (candidate) => snapshot.can(candidate as ConnectionEvent) && bounded(snapshot, candidate),
      ) as ConnectionEvent[],
    input,
    serializeEvent,
    serializeState: (snapshot, step, previous) =>
      previous && step ? `${key(previous)} --${serializeEvent(step)}--> ${key(snapshot)}` : key(snapshot),
  }) as StatePath<AnyMachineSnapshot, EventObject>[];
}

function expectSideEffects({ event: step, before, after: reached, effects, started }: StepRecord) {
  switch (step.type) {
    case 'SOCKET_OPENED': {
      const temp = before.context.tempMessage !== null ? ['transmit', 'clearTempMessage'] : [];
      expect(effects).toEqual([...temp, ...before.context.outbox.map(() => 'transmit')]);
      expect(reached.context.outbox).toEqual([]);
      expect(reached.context.attempts).toBe(0);
      break;
    }
    case 'SEND':
      expect(effects).toEqual(before.matches({ open: 'connected' }) ? ['transmit'] : []);
      if (!before.matches({ open: 'connected' }))
        expect(reached.context.outbox).toEqual([...before.context.outbox, message]);
      break;
    case 'SOCKET_EVENT':
      expect(effects).toEqual(['receive']);
      expect(reached.context.latestEventId).toBe((step as unknown as { event: Event }).event.id);
      break;
    case 'SOCKET_ERROR_FRAME': {
      const frame = (step as unknown as { frame: { message: string; error_code?: number } }).frame;
      expect(effects).toEqual(frame.error_code === 401 ? [] : ['announceError']);
      break;
    }
    case 'xstate.after.sessionExpiredReload.connection.sessionExpired':
      expect(effects).toEqual(['reloadPage']);
      break;
    default:
      expect(effects).toEqual([]);
  }
  for (const { src, input } of started) {
    // Every attempt resumes after the last event received.
    if (src === 'socket') expect(input).toEqual({ latestEventId: reached.context.latestEventId } satisfies SocketInput);
  }
  if (reached.matches('sessionExpired'))
    expect(reached.context.notice).toEqual({ kind: 'message', message: 'sessionExpired' });
  if (step.type === 'SOCKET_FAILED' || step.type.includes('connectTimeout'))
    expect(reached.context.notice).toEqual({ kind: 'message', message: 'connectionLost' });
  if (step.type === 'SOCKET_CLOSED' && reached.matches('waiting')) {
    const reason = (step as unknown as { reason: string | null }).reason;
    expect(reached.context.notice).toEqual(
      reason === null || reason === 'transport close' ? before.context.notice : { kind: 'server', text: reason },
    );
  }
}

// The temp message is sent on the first opening; later openings run without one.
const inputs: ConnectionInput[] = [{ latestEventId: 3, tempMessage: 'Build a todo app' }];
const coverage = new Coverage(connectionMachine);
let pathCount = 0;

describe('connection machine, every edge of its graph', () => {
  for (const input of inputs) {
    describe(input.tempMessage ? 'with a temp_message and earlier events' : 'fresh', () => {
      const paths = withoutPrefixPaths(boundedPaths(input));
      pathCount += paths.length;
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        const reached = await runPath(connectionMachine, path, {
          fakes,
          input,
          coverage,
          expectStep: expectSideEffects,
        });
        expect(reached.value).toEqual(path.state.value);
      });
    });
  }

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('connection rules', () => {
  it('waits 1 s doubling up to 5 s, spread by half either way, never outside 1–5 s', () => {
    expect(reconnectDelay(0, 0.5)).toBe(1000);
    expect(reconnectDelay(1, 0.5)).toBe(2000);
    expect(reconnectDelay(2, 0.5)).toBe(4000);
    expect(reconnectDelay(3, 0.5)).toBe(5000);
    expect(reconnectDelay(10, 0.5)).toBe(5000);
    expect(reconnectDelay(1, 0)).toBe(1000);
    expect(reconnectDelay(1, 0.999)).toBe(2998);
    for (let attempt = 0; attempt < 8; attempt += 1) {
      for (const random of [0, 0.25, 0.5, 0.75, 0.999]) {
        const delay = reconnectDelay(attempt, random);
        expect(delay).toBeGreaterThanOrEqual(APP_PROFILE.minDelay);
        expect(delay).toBeLessThanOrEqual(APP_PROFILE.maxDelay);
      }
    }
  });

  it('suppresses the generic socket errors and falls back for an empty one', () => {
    expect(socketErrorNotice('websocket error')).toBeNull();
    expect(socketErrorNotice('Timeout')).toBeNull();
    expect(socketErrorNotice('')).toEqual({ kind: 'message', message: 'unknownSocketError' });
    expect(socketErrorNotice('Runtime gone')).toEqual({ kind: 'server', text: 'Runtime gone' });
  });

  it('resumes after the last event on every reconnect and sends the temp message once', async () => {
    const attempts: SocketInput[] = [];
    const transmitted: ClientAction[] = [];
    let report: ((event: SocketReport) => void) | null = null;
    const clock = new SimulatedClock();
    const actor = createActor(
      connectionMachine.provide({
        actors: {
          socket: fromCallback<EventObject, SocketInput, SocketReport>(({ input, sendBack }) => {
            attempts.push(input);
            report = sendBack;
          }),
        },
        actions: {
          transmit: (_, action) => void transmitted.push(action),
          receive: () => undefined,
          clearTempMessage: () => undefined,
        },
      }),
      { clock, input: { latestEventId: 7, tempMessage: 'Hello' } },
    ).start();
    actor.send({ type: 'CONNECT' });
    expect(selectConnectionStatus(actor.getSnapshot())).toBe('CONNECTING');
    report!({ type: 'SOCKET_OPENED' });
    expect(selectConnectionStatus(actor.getSnapshot())).toBe('CONNECTED');
    report!({ type: 'SOCKET_EVENT', event: event(8) });
    report!({ type: 'SOCKET_EVENT', event: event(9) });
    report!({ type: 'SOCKET_EVENT', event: event(9) });
    report!({ type: 'SOCKET_CLOSED', reason: 'ping timeout' });
    expect(selectConnectionStatus(actor.getSnapshot())).toBe('DISCONNECTED');
    expect(actor.getSnapshot().context.notice).toBeNull();
    // The longest the profile ever waits before trying again.
    clock.increment(APP_PROFILE.maxDelay);
    report!({ type: 'SOCKET_OPENED' });
    expect(attempts).toEqual([{ latestEventId: 7 }, { latestEventId: 9 }]);
    expect(transmitted).toEqual([{ action: 'message', args: { content: 'Hello', image_urls: [], file_urls: [] } }]);
    actor.stop();
  });
});
