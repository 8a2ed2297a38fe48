import { afterAll, describe, expect, it } from 'vitest';
import { type AnyEventObject } from 'xstate';
import {
  canConnect,
  conversationMachine,
  isNotAuthenticated,
  type ConversationEvent,
} from '../../machines/conversation.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';
import type { Conversation } from '../../openapi/types.ts';

const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });

const record = (fields: Partial<Conversation>): Conversation => ({
  conversation_id: 'c-1',
  title: 'Todo app',
  status: 'RUNNING',
  runtime_status: 'STATUS$READY',
  url: 'http://localhost:3000/api/conversations/c-1',
  session_api_key: 'key',
  selected_repository: null,
  selected_branch: null,
  git_provider: null,
  trigger: 'gui',
  created_at: '2026-01-01T00:00:00Z',
  last_updated_at: '2026-01-01T00:00:00Z',
  ...fields,
});
const running = record({});
const starting = record({ status: 'STARTING', runtime_status: null });
const stopped = record({ status: 'STOPPED', runtime_status: null, url: null, session_api_key: null });

const after = (delay: string, state: string) => ({ type: `xstate.after.${delay}.conversation.${state}` });

const events: (ConversationEvent | AnyEventObject)[] = [
  { type: 'xstate.done.actor.fetchConversation', output: running },
  { type: 'xstate.done.actor.fetchConversation', output: starting },
  { type: 'xstate.done.actor.fetchConversation', output: stopped },
  { type: 'xstate.error.actor.fetchConversation', error: refusal(403, 'Not authenticated') },
  { type: 'xstate.error.actor.fetchConversation', error: refusal(500, '') },
  { type: 'xstate.error.actor.fetchConversation', error: refusal(401, 'Not authenticated') },
  { type: 'RETRY' },
  { type: 'xstate.done.actor.startConversation', output: starting },
  { type: 'xstate.error.actor.startConversation', error: refusal(503, 'No runtime is available.') },
  { type: 'START' },
  { type: 'RESTART' },
  { type: 'REFRESH' },
  { type: 'SOCKET_CONNECTED_CHANGED', connected: true },
  { type: 'STATUS_STREAMED', status: 'STOPPED' },
  { type: 'xstate.done.actor.stopConversation', output: stopped },
  { type: 'xstate.error.actor.stopConversation', error: new TypeError('Failed to fetch') },
  after('pollWhileStarting', 'ready.idle'),
  after('poll', 'ready.idle'),
  after('restartWait', 'ready.restarting.waiting'),
];

const fakes: FakeSideEffects = {
  promises: ['fetchConversation', 'startConversation', 'stopConversation'],
  callbacks: {},
  actions: ['goToDashboard', 'announceFailure'],
};

function expectSideEffects({ event, before, after: reached, effects, started }: StepRecord) {
  switch (event.type) {
    case 'xstate.error.actor.fetchConversation':
      expect(effects).toEqual(
        (event as unknown as { error: { status: number } }).error.status === 403 ? ['goToDashboard'] : [],
      );
      if (effects.length > 0) expect(reached.matches('left')).toBe(true);
      // Signed out: asked to sign in, whatever the server's words.
      if ((event as unknown as { error: { status: number } }).error.status === 401 && before.matches('loading'))
        expect(reached.context.failure).toEqual({ kind: 'message', message: 'signInNeeded' });
      break;
    case 'xstate.error.actor.startConversation':
    case 'xstate.error.actor.stopConversation':
      expect(effects).toEqual(['announceFailure']);
      expect(reached.context.conversation).toEqual(before.context.conversation);
      break;
    default:
      expect(effects).toEqual([]);
  }
  if (event.type === 'REFRESH') expect(before.context.socketConnected).toBe(false);
  if (event.type === 'START') expect(before.context.conversation?.status).toBe('STOPPED');
  if (event.type === 'STATUS_STREAMED') expect(reached.context.conversation?.status).toBe('STOPPED');
  if (event.type === 'xstate.done.actor.fetchConversation' && before.matches('loading')) {
    // Opened STOPPED: started automatically.
    expect(reached.matches('starting')).toBe(
      (event as unknown as { output: Conversation }).output.status === 'STOPPED',
    );
  }
  for (const { input } of started) expect(input).toEqual({ conversationId: 'c-1' });
  if (event.type.startsWith('xstate.after.pollWhileStarting'))
    expect(before.context.conversation?.status).toBe('STARTING');
}

const input = { conversationId: 'c-1' };
const coverage = new Coverage(conversationMachine);
let pathCount = 0;

describe('conversation machine, every edge of its graph', () => {
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(conversationMachine, { events, input }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(conversationMachine, path, { fakes, input, coverage, expectStep: expectSideEffects });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('conversation rules', () => {
  it('sends to /dashboard only on a 403 that says Not authenticated', () => {
    expect(isNotAuthenticated(refusal(403, 'Not authenticated'))).toBe(true);
    expect(isNotAuthenticated(refusal(403, 'Forbidden'))).toBe(false);
    expect(isNotAuthenticated(refusal(401, 'Not authenticated'))).toBe(false);
    expect(isNotAuthenticated(new Error('Not authenticated'))).toBe(false);
  });

  it('opens the runtime socket only when RUNNING or with a runtime status', () => {
    expect(canConnect(running)).toBe(true);
    expect(canConnect(starting)).toBe(false);
    expect(canConnect(record({ status: 'STARTING', runtime_status: 'STATUS$RUNTIME_STARTED' }))).toBe(true);
    expect(canConnect(stopped)).toBe(false);
    expect(canConnect(null)).toBe(false);
  });

  it('polls every 3 s while STARTING and every 5 minutes otherwise, and waits 1 s to restart', () => {
    const delays = conversationMachine.implementations.delays;
    expect(delays).toEqual({ pollWhileStarting: 3000, poll: 300000, restartWait: 1000 });
  });
});
