import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import {
  devopsFailure,
  devopsMachine,
  progressOf,
  type DevopsEntry,
  type DevopsMessage,
  type DevopsHistory,
  type DevopsReply,
} from '../../machines/devops.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });
const message = (text: string, sender: 'user' | 'agent', isComplete = false) => ({
  id: `m-${text}`,
  text,
  sender,
  timestamp: '2026-11-26T10:00:00.000Z',
  is_complete: isComplete,
});
const history = (messages: DevopsHistory['messages']): DevopsHistory => ({ messages, infra_hourly_cost: 0.00893 });
const reply = (text: string, isComplete: boolean): DevopsReply => ({
  display_message: text,
  is_complete: isComplete,
  infra_hourly_cost: isComplete ? 0.00893 : 0,
  receivedAt: '2026-11-26T10:05:00.000Z',
});
const at = '2026-11-26T10:04:00.000Z';
const file = new File(['name: app'], 'app.yaml');

// Each run of the tab sends at most two messages of its own: enough for every edge, and a finite graph.
const events = (snapshot: AnyMachineSnapshot): AnyEventObject[] => [
  { type: 'RUNTIME_READY' },
  { type: 'xstate.done.actor.loadHistory', output: history([]) },
  { type: 'xstate.done.actor.loadHistory', output: history([message('start', 'user'), message('Plan?', 'agent')]) },
  { type: 'xstate.done.actor.loadHistory', output: history([message('Deployed.', 'agent', true)]) },
  { type: 'xstate.error.actor.loadHistory', error: refusal(503, 'DevOps agent unavailable') },
  { type: 'xstate.done.actor.execute', output: reply('I will deploy on a 1 GB droplet. Go ahead?', false) },
  { type: 'xstate.done.actor.execute', output: reply('Deployed at http://203.0.113.7', true) },
  { type: 'xstate.error.actor.execute', error: refusal(405, '') },
  { type: 'xstate.error.actor.execute', error: new TypeError('Failed to fetch') },
  ...(snapshot.context.added < 3
    ? [
        { type: 'SEND', text: 'yes, deploy', at },
        { type: 'SEND', text: '   ', at },
        { type: 'SEND', text: '', files: [file], at },
      ]
    : []),
  { type: 'xstate.after.progressPoll.devops.sending.waiting' },
  {
    type: 'xstate.done.actor.readProgress',
    output: history([message('yes, deploy', 'user'), message('Deploying web-1…', 'agent')]),
  },
  { type: 'xstate.error.actor.readProgress', error: new TypeError('Failed to fetch') },
  { type: 'xstate.done.actor.uploadFiles', output: 'I attached app.yaml.' },
  { type: 'xstate.error.actor.uploadFiles', error: new Error('413') },
];

const fakes: FakeSideEffects = {
  promises: ['loadHistory', 'execute', 'uploadFiles', 'readProgress'],
  callbacks: {},
  actions: ['announceUploadFailure'],
};

const entriesOf = (snapshot: AnyMachineSnapshot) => snapshot.context.entries as DevopsEntry[];

/** What each step must do, whatever the path. */
function expectStep({ event, before, after, effects, started }: StepRecord) {
  const added = entriesOf(after).slice(entriesOf(before).length);
  switch (event.type) {
    case 'RUNTIME_READY':
      expect(started).toEqual([{ src: 'loadHistory', input: { sessionId: 'conv-1' } }]);
      break;
    case 'xstate.done.actor.loadHistory': {
      const messages = (event as AnyEventObject).output.messages as unknown[];
      if (messages.length === 0)
        expect(started).toEqual([{ src: 'execute', input: { sessionId: 'conv-1', message: 'start' } }]);
      expect(entriesOf(after)).toHaveLength(messages.length);
      break;
    }
    case 'xstate.error.actor.loadHistory':
      expect(added).toEqual([expect.objectContaining({ kind: 'failure', step: 'initialize' })]);
      break;
    case 'xstate.after.progressPoll.devops.sending.waiting':
      // Every 2 s while the message is answered, the history is read for its progress.
      expect(started).toEqual([{ src: 'readProgress', input: { sessionId: 'conv-1' } }]);
      break;
    case 'xstate.done.actor.readProgress':
      // Shown beside the entries while the message is answered; the reply (or its failure) ends it.
      expect(after.context.progress).toEqual(
        progressOf((event as AnyEventObject).output.messages, before.context.outgoing?.text ?? ''),
      );
      expect(added).toEqual([]);
      break;
    case 'xstate.error.actor.readProgress':
      // A missed reading only delays the progress.
      expect(after.context.progress).toEqual(before.context.progress);
      expect(after.matches({ sending: 'waiting' })).toBe(true);
      break;
    case 'xstate.error.actor.execute':
      expect(after.context.progress).toEqual([]);
      expect(added).toEqual([
        expect.objectContaining({ kind: 'failure', step: before.context.outgoing?.opening ? 'start' : 'send' }),
      ]);
      break;
    case 'xstate.done.actor.execute':
      expect(after.context.progress).toEqual([]);
      expect(added).toEqual([
        // The steps shown while it was answered stay, above the reply.
        ...before.context.progress.map((message: DevopsMessage) => ({ kind: 'message', message })),
        {
          kind: 'message',
          message: expect.objectContaining({ sender: 'agent', is_complete: after.matches('complete') }),
        },
      ]);
      break;
    case 'SEND': {
      const { text, files = [] } = event as AnyEventObject;
      // Text shows at once; files alone wait for their upload; the message goes once the files are up.
      expect(added).toEqual(
        text.trim() ? [{ kind: 'message', message: expect.objectContaining({ text, sender: 'user' }) }] : [],
      );
      expect(started).toEqual(
        files.length > 0
          ? [{ src: 'uploadFiles', input: { text, files, at } }]
          : [{ src: 'execute', input: { sessionId: 'conv-1', message: text } }],
      );
      break;
    }
    case 'xstate.done.actor.uploadFiles':
      expect(started).toEqual([{ src: 'execute', input: { sessionId: 'conv-1', message: 'I attached app.yaml.' } }]);
      break;
    case 'xstate.error.actor.uploadFiles':
      expect(effects).toEqual(['announceUploadFailure']);
      expect(after.context.outgoing).toBeNull();
      break;
  }
  if (event.type !== 'xstate.error.actor.uploadFiles') expect(effects).toEqual([]);
}

const input = { sessionId: 'conv-1' };
const coverage = new Coverage(devopsMachine);
const paths = withoutPrefixPaths(pathsThroughEveryEdge(devopsMachine, { events, input }));

describe('DevOps tab machine, every edge of its graph', () => {
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(devopsMachine, path, { fakes, input, coverage, expectStep });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(paths.length)));
});

describe('DevOps progress', () => {
  it('is read every 2 s, a named delay', () => {
    expect(devopsMachine.implementations.delays).toEqual({ progressPoll: 2000 });
  });

  it('is the agent’s lines after the user’s latest row with the message sent', () => {
    const rows = [
      message('start', 'user'),
      message('Plan?', 'agent'),
      message('yes', 'user'),
      message('Deploying…', 'agent'),
      message('Checking…', 'agent'),
    ];
    expect(progressOf(rows, 'yes').map((row) => row.text)).toEqual(['Deploying…', 'Checking…']);
    expect(progressOf(rows.slice(0, 2), 'yes')).toEqual([]);
    expect(progressOf([...rows, message('yes', 'user')], 'yes')).toEqual([]);
  });
});

describe('DevOps call mapping (spec §8)', () => {
  it('names 405, server errors with their words, other answers by their words, and no answer as the network', () => {
    expect(devopsFailure(refusal(405, 'Method Not Allowed'))).toEqual({ kind: 'methodNotAllowed' });
    expect(devopsFailure(refusal(502, 'Bad gateway'))).toEqual({ kind: 'serverError', message: 'Bad gateway' });
    expect(devopsFailure(refusal(500, ''))).toEqual({ kind: 'serverError', message: null });
    expect(devopsFailure(refusal(402, 'Insufficient credits'))).toEqual({
      kind: 'server',
      text: 'Insufficient credits',
    });
    expect(devopsFailure(new TypeError('Failed to fetch'))).toEqual({ kind: 'networkError' });
  });
});
