import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromCallback, type ActorRefFrom, type AnyEventObject, type InspectionEvent } from 'xstate';
import { getShortestPaths, type StatePath } from 'xstate/graph';
import { agentMachine, sendDisabled, agentStateOf } from '../../machines/agent.ts';
import { chatInputMachine } from '../../machines/chat-input.ts';
import {
  agentFinished,
  openConversationMachine,
  restoredText,
  type OpenConversationInput,
} from '../../machines/open-conversation.ts';
import { uploadMachine } from '../../machines/upload.ts';
import {
  Coverage,
  coverageInspector,
  describePath,
  serializeEvent,
  stateText,
  withoutPrefixPaths,
  type PathStep,
} from './model-paths.ts';
import type { Event } from '../../openapi/types.ts';

// The parent's graph is the graph of the whole tree: a state is the parent's together with its
// children's, and each step is replayed on a real tree (children with fake side effects), so the
// rules between the machines are what the paths exercise.

const AT = '2026-03-01T10:00:00.000Z';
const stateEvent = (id: number, agent_state: string, extras: Event['extras'] = {}): Event => ({
  id,
  source: 'agent',
  timestamp: AT,
  observation: 'agent_state_changed',
  extras: { ...extras, agent_state } as Event['extras'],
});
const echo = (id: number, content: string, clientId: string): Event => ({
  id,
  source: 'user',
  action: 'message',
  timestamp: AT,
  args: { content, client_id: clientId },
});
const costly: Event = {
  id: 9,
  source: 'agent',
  action: 'message',
  timestamp: AT,
  llm_metrics: { accumulated_cost: 0.5 },
} as Event;

const input: OpenConversationInput = {
  idPrefix: 'p',
  draft: 'Draft',
  unsent: [{ id: 'old-1', content: 'Deploy it', timestamp: AT }],
};

/** An event to the parent, or (with `to`) to one of its children, as a view sends it. */
type Step = AnyEventObject & { to?: 'chatInput' | 'upload' };

const history: Step = { type: 'EVENTS_RECEIVED', events: [] };
const running: Step = { type: 'EVENTS_RECEIVED', events: [stateEvent(1, 'RUNNING')] };
const awaiting: Step = { type: 'EVENTS_RECEIVED', events: [stateEvent(2, 'AWAITING_USER_INPUT')] };
const failed: Step = { type: 'EVENTS_RECEIVED', events: [stateEvent(3, 'ERROR', { reason: 'Out of memory' })] };
const unsentEcho: Step = { type: 'EVENTS_RECEIVED', events: [echo(4, 'Deploy it', 'old-1')] };
const sentEcho: Step = { type: 'EVENTS_RECEIVED', events: [echo(5, 'Add a dark mode', 'p-1')] };
const costs: Step = { type: 'EVENTS_RECEIVED', events: [costly] };
const connected: Step = { type: 'CONNECTION_CHANGED', connection: 'CONNECTED' };
const typed: Step = { type: 'TEXT_CHANGED', text: 'Add a dark mode', to: 'chatInput' };
const submit: Step = { type: 'SUBMIT', at: AT, to: 'chatInput' };

/**
 * Each family of events (each event at most once, in any order) reaches every state of the tree
 * its events lead to; the families together take every transition of the parent, without the
 * product of all the tree's facts.
 */
const families: Record<string, Step[]> = {
  'busy blocks sending; a message waits for its echo': [history, running, awaiting, typed, submit, sentEcho],
  'critical credits block all three': [
    { type: 'CREDITS_CHANGED', balance: 0.05 },
    typed,
    submit,
    { type: 'DROP_FILES', files: [{ name: 'project.zip', size: 1000 }], to: 'upload' },
    { type: 'UPLOAD_DONE', result: { uploaded_files: ['project.zip'], skipped_files: [] }, to: 'upload' },
  ],
  'unsent messages come back on the first connection': [
    history,
    unsentEcho,
    connected,
    { type: 'CONNECTION_CHANGED', connection: 'CONNECTING' },
    typed,
  ],
  'only live events are announced': [history, failed, running, awaiting, costs],
  'the socket and the conversation are the agent’s': [
    { type: 'CONVERSATION_STATUS_CHANGED', status: 'RUNNING' },
    connected,
    { type: 'CONNECTION_CHANGED', connection: 'DISCONNECTED' },
  ],
};

const FAKE_ACTIONS = {
  agent: ['requestAgentState', 'announceError'],
  chatInput: ['sendMessage', 'announceInsufficientCredits', 'announceSendFailure', 'keepDraft'],
  upload: ['attachImages', 'announceSkipped', 'announceUploaded', 'announceFailure'],
  parent: ['keepUnsent', 'announceFinish'],
} as const;

/** A watcher or upload that reports nothing by itself: the paths send what it would. */
const idle = fromCallback(() => undefined) as never;

/** The tree with fake side effects; each one that runs is written to `effects` with its params. */
function treeLogic(effects: { name: string; params: unknown }[]) {
  const fakes = (names: readonly string[]) =>
    Object.fromEntries(
      names.map((name) => [name, (_: unknown, params: unknown) => void effects.push({ name, params })]),
    );
  return openConversationMachine.provide({
    actors: {
      agent: agentMachine.provide({ actions: fakes(FAKE_ACTIONS.agent) }),
      chatInput: chatInputMachine.provide({ actions: fakes(FAKE_ACTIONS.chatInput) }),
      upload: uploadMachine.provide({ actors: { uploadFiles: idle }, actions: fakes(FAKE_ACTIONS.upload) }),
      watchStream: idle,
      watchBalance: idle,
    },
    actions: fakes(FAKE_ACTIONS.parent),
  });
}

type Tree = ReturnType<typeof startTree>;

function startTree(inspect?: (inspection: InspectionEvent) => void) {
  const effects: { name: string; params: unknown }[] = [];
  const actor = createActor(treeLogic(effects), { input, ...(inspect && { inspect }) }).start();
  const child = <T extends 'agent' | 'chatInput' | 'upload'>(id: T) =>
    actor.getSnapshot().children[id] as ActorRefFrom<
      T extends 'agent' ? typeof agentMachine : T extends 'chatInput' ? typeof chatInputMachine : typeof uploadMachine
    >;
  const send = ({ to, ...event }: Step) => {
    if (to) child(to).send(event as never);
    else actor.send(event as never);
  };
  return { actor, effects, child, send };
}

/** What tells two trees apart: the parent's state and the facts it relays (each child's own are checked by its own model test). */
function summarize(tree: Tree) {
  const parent = tree.actor.getSnapshot();
  const agent = tree.child('agent').getSnapshot();
  const chatInput = tree.child('chatInput').getSnapshot();
  const upload = tree.child('upload').getSnapshot();
  return {
    parent: parent.value,
    unsent: parent.context.unsent.length,
    agent: agent.value,
    agentFacts: {
      balance: agent.context.balance,
      uploading: agent.context.uploading,
      optimistic: agent.context.optimisticPending,
      connection: agent.context.connection,
      status: agent.context.conversationStatus,
    },
    chatInput: {
      text: chatInput.context.text,
      busy: chatInput.context.busy,
      pending: chatInput.context.pending.length,
      sent: chatInput.context.sent,
      balance: chatInput.context.balance,
    },
    upload: { value: upload.value, balance: upload.context.balance },
  };
}

interface TreeState {
  status: 'active';
  output: undefined;
  error: undefined;
  steps: Step[];
  summary: ReturnType<typeof summarize>;
}

function replay(steps: Step[]): TreeState {
  const tree = startTree();
  for (const step of steps) tree.send(step);
  const summary = summarize(tree);
  tree.actor.stop();
  return { status: 'active', output: undefined, error: undefined, steps, summary };
}

/** The tree as logic the graph utilities walk: a state is the tree after its steps. */
const treeGraph = {
  getInitialSnapshot: () => replay([]),
  transition: (state: TreeState, event: Step) => replay([...state.steps, event]),
};

/** Each event of the family once; an upload finishes only while it runs. */
const once = (family: Step[]) => (state: TreeState) =>
  family.filter(
    (event) =>
      !state.steps.includes(event) && (event.type !== 'UPLOAD_DONE' || state.summary.upload.value === 'uploading'),
  );

function treePaths(family: Step[]) {
  const key = (state: TreeState) => JSON.stringify(state.summary);
  return getShortestPaths(treeGraph as never, {
    events: once(family) as never,
    serializeEvent,
    serializeState: key as never,
  }) as unknown as StatePath<TreeState, Step>[];
}

const critical = (balance: number | null) => balance !== null && balance < 0.1;

function expectStep(step: Step, before: ReturnType<typeof summarize>, tree: Tree, effects: string[]) {
  const after = summarize(tree);
  const agent = tree.child('agent').getSnapshot();
  // The agent's busy (or an upload, or critical credits) is the message box's.
  expect(after.chatInput.busy).toBe(sendDisabled(agentStateOf(agent), agent.context));
  // An upload running and a message waiting for its echo are the agent's.
  expect(after.agentFacts.uploading).toBe(after.upload.value === 'uploading');
  expect(after.agentFacts.optimistic).toBe(after.chatInput.pending > 0);
  switch (step.type) {
    case 'CREDITS_CHANGED':
      // Critical credits block all three.
      expect([after.agentFacts.balance, after.chatInput.balance, after.upload.balance]).toEqual([0.05, 0.05, 0.05]);
      expect(critical(after.chatInput.balance)).toBe(true);
      break;
    case 'SUBMIT': {
      const sends =
        before.chatInput.text.trim() !== '' && !critical(before.chatInput.balance) && !before.chatInput.busy;
      expect(effects.includes('sendMessage')).toBe(sends);
      if (sends) expect(effects).toContain('keepUnsent');
      if (critical(before.chatInput.balance) && before.chatInput.text.trim() !== '')
        expect(effects).toContain('announceInsufficientCredits');
      break;
    }
    case 'DROP_FILES':
      // Drops are ignored with critical credits.
      expect(after.upload.value).toBe(critical(before.upload.balance) ? 'idle' : 'uploading');
      break;
    case 'CONNECTION_CHANGED': {
      expect(after.agentFacts.connection).toBe(step['connection']);
      // The unsent messages come back (before the draft) the first time the socket is connected.
      const firstConnection = (before.parent as { unsent: string }).unsent === 'waiting';
      // What the earlier visit kept is taken the first time.
      expect(effects.includes('keepUnsent')).toBe(firstConnection && step['connection'] === 'CONNECTED');
      if (step['connection'] === 'CONNECTED' && firstConnection && before.unsent > 0) {
        expect(after.chatInput.text).toBe(
          restoredText([{ id: 'old-1', content: 'Deploy it', timestamp: AT }], before.chatInput.text),
        );
        expect(after.unsent).toBe(0);
      } else expect(after.chatInput.text).toBe(before.chatInput.text);
      break;
    }
    case 'EVENTS_RECEIVED': {
      const received = step['events'] as Event[];
      const live = (before.parent as { events: string }).events === 'live';
      // An error is announced only when it happens live.
      const error = received.some((event) => event.extras?.agent_state === 'ERROR');
      expect(effects.includes('announceError')).toBe(error && live);
      // A finish is announced when the agent goes from RUNNING to waiting for the user.
      expect(effects.includes('announceFinish')).toBe(agentFinished(before.agent as never, after.agent as never));
      break;
    }
    default:
      expect(effects.filter((name) => name === 'announceError')).toEqual([]);
  }
}

const coverage = new Coverage(openConversationMachine);
let pathCount = 0;

describe.each(Object.entries(families))('open conversation tree: %s', (_family, family) => {
  const paths = withoutPrefixPaths(treePaths(family) as never) as unknown as StatePath<TreeState, Step>[];
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path as never), path] as const))('%s', (name, path) => {
    let guards: string[] = [];
    const tree = startTree(coverageInspector(openConversationMachine, coverage, (guard) => guards.push(guard)));
    const recorded: PathStep[] = [];
    for (const { event, state } of path.steps.slice(1)) {
      const before = summarize(tree);
      tree.effects.length = 0;
      guards = [];
      tree.send(event);
      const { type, to, ...detail } = event;
      recorded.push({
        event: to ? `${to}:${type}` : type,
        detail: JSON.stringify(detail).slice(0, 120),
        guards,
        state: stateText(tree.actor.getSnapshot().value),
      });
      expect(summarize(tree)).toEqual(state.summary);
      expectStep(
        event,
        before,
        tree,
        tree.effects.map((effect) => effect.name),
      );
    }
    coverage.paths.push({ name, steps: recorded });
    tree.actor.stop();
  });
});

describe('open conversation tree', () => {
  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});
