import { afterAll, describe, expect, it } from 'vitest';
import { createActor, type AnyEventObject, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { getShortestPaths, type StatePath } from 'xstate/graph';
import {
  chatInputMachine,
  ECHO_CLOCK_SKEW_MS,
  enterKeyIntent,
  isEchoOf,
  selectCanSend,
  selectPending,
  settleEcho,
  type ChatInputEvent,
  type PendingMessage,
} from '../../machines/chat-input.ts';
import {
  Coverage,
  describePath,
  runPath,
  serializeEvent,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';
import type { Event } from '../../openapi/types.ts';

const AT = '2026-03-01T10:00:00.000Z';
const IMAGE = { name: 'shot.png', url: 'data:image/png;base64,iVBORw0KGgo=' };
const echo = (fields: Partial<Event> & { args?: Event['args'] }): Event => ({
  id: 10,
  source: 'user',
  action: 'message',
  timestamp: '2026-03-01T10:00:01.000Z',
  ...fields,
});

const events: (ChatInputEvent | AnyEventObject)[] = [
  { type: 'TEXT_CHANGED', text: ' Add a dark mode ' },
  { type: 'TEXT_CHANGED', text: '  \n ' },
  { type: 'IMAGES_ATTACHED', images: [IMAGE] },
  { type: 'IMAGE_REMOVED', url: IMAGE.url },
  { type: 'COMPOSITION_START' },
  { type: 'COMPOSITION_END' },
  { type: 'KEY_ENTER', shiftKey: false, isComposing: false, at: AT },
  { type: 'KEY_ENTER', shiftKey: true, isComposing: false, at: AT },
  { type: 'KEY_ENTER', shiftKey: false, isComposing: true, at: AT },
  { type: 'SUBMIT', at: AT },
  { type: 'SUBMIT_TEXT', text: ' Please push the changes ', at: AT },
  { type: 'SUBMIT_TEXT', text: ' ', at: AT },
  { type: 'EVENT_RECEIVED', event: echo({ args: { content: 'Add a dark mode', client_id: 'p-1' } }) },
  { type: 'EVENT_RECEIVED', event: echo({ args: { content: 'Add a dark mode' } }) },
  { type: 'EVENT_RECEIVED', event: echo({ source: 'agent', args: { content: 'Add a dark mode' } }) },
  { type: 'SEND_FAILED', id: 'p-1' },
  // Facts change one way here (the rules below check them changing back).
  { type: 'CREDITS_CHANGED', balance: 0.05 },
  { type: 'BUSY_CHANGED', busy: true },
];

/** Pending messages only grow with sends: one send already meets every transition (the rules below send more). */
function boundedPaths(input: { idPrefix: string }): StatePath<AnyMachineSnapshot, EventObject>[] {
  const key = (snapshot: AnyMachineSnapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context });
  return getShortestPaths(chatInputMachine, {
    events: (snapshot) =>
      events.filter(
        (candidate) =>
          snapshot.can(candidate as ChatInputEvent) &&
          (snapshot.context.sent < 1 || !['KEY_ENTER', 'SUBMIT', 'SUBMIT_TEXT'].includes(candidate.type)) &&
          (snapshot.context.images.length < 1 || candidate.type !== 'IMAGES_ATTACHED'),
      ) as ChatInputEvent[],
    input,
    serializeEvent,
    serializeState: (snapshot, step, previous) =>
      previous && step ? `${key(previous)} --${serializeEvent(step)}--> ${key(snapshot)}` : key(snapshot),
  }) as StatePath<AnyMachineSnapshot, EventObject>[];
}

const fakes: FakeSideEffects = {
  promises: [],
  callbacks: {},
  actions: ['sendMessage', 'announceInsufficientCredits', 'announceSendFailure', 'keepDraft'],
};

function expectSideEffects({ event, before, after, effects, effectParams }: StepRecord) {
  if (event.type === 'KEY_ENTER' || event.type === 'SUBMIT' || event.type === 'SUBMIT_TEXT') {
    // A suggestion sends its own text and leaves the draft; the box sends its text and empties it.
    const ownText = (event as { text?: string }).text;
    const text: string = ownText ?? before.context.text;
    const blank = text.trim() === '';
    const wantsSend =
      event.type !== 'KEY_ENTER' ||
      enterKeyIntent(event as unknown as { shiftKey: boolean; isComposing: boolean }) === 'send';
    const lacksCredits = before.context.balance !== null && before.context.balance < 0.1;
    if (!wantsSend || blank || before.matches('composing')) {
      expect(effects).toEqual([]);
    } else if (lacksCredits) {
      expect(effects).toEqual(['announceInsufficientCredits']);
      expect(after.context.notice).toBe('insufficientCredits');
      expect(after.context.pending).toEqual(before.context.pending);
    } else if (before.context.busy) {
      expect(effects).toEqual([]);
    } else {
      const sent: PendingMessage = { id: `p-${before.context.sent + 1}`, content: text.trim(), timestamp: AT };
      expect(after.context.pending).toEqual([...before.context.pending, sent]);
      // The box's images go with its message and leave the box with its text (the kept draft empty); a suggestion leaves both.
      const message = { message: sent, images: ownText === undefined ? before.context.images : [] };
      expect(effects).toEqual(ownText === undefined ? ['sendMessage', 'keepDraft'] : ['sendMessage']);
      expect(effectParams).toEqual(ownText === undefined ? [message, ''] : [message]);
      expect(after.context.text).toBe(ownText === undefined ? '' : before.context.text);
      expect(after.context.images).toEqual(ownText === undefined ? [] : before.context.images);
    }
  } else if (event.type === 'TEXT_CHANGED') {
    const text = (event as unknown as { text: string }).text;
    expect(effects).toEqual(['keepDraft']);
    expect(effectParams).toEqual([text]);
    expect(after.context.text).toBe(text);
  } else if (event.type === 'SEND_FAILED') {
    expect(effects).toEqual(['announceSendFailure']);
    expect(after.context.pending.map((message: PendingMessage) => message.id)).not.toContain('p-1');
  } else {
    expect(effects).toEqual([]);
  }
  if (event.type === 'IMAGES_ATTACHED') expect(after.context.images).toEqual([...before.context.images, IMAGE]);
  if (event.type === 'IMAGE_REMOVED') expect(after.context.images).toEqual([]);
  if (event.type === 'EVENT_RECEIVED') {
    expect(after.context.pending).toEqual(
      settleEcho(before.context.pending, (event as unknown as { event: Event }).event),
    );
    expect(after.context.pending.length).toBe(before.context.pending.length - 1);
  }
}

const input = { idPrefix: 'p' };
const coverage = new Coverage(chatInputMachine);
let pathCount = 0;

describe('chat input machine, every edge of its graph', () => {
  const paths = withoutPrefixPaths(boundedPaths(input));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(chatInputMachine, path, { fakes, input, coverage, expectStep: expectSideEffects });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('chat input rules', () => {
  const pending: PendingMessage = { id: 'p-1', content: 'Add a dark mode', timestamp: AT };

  it('Enter sends, Shift+Enter is a newline, Enter while composing is ignored', () => {
    expect(enterKeyIntent({ shiftKey: false, isComposing: false })).toBe('send');
    expect(enterKeyIntent({ shiftKey: true, isComposing: false })).toBe('newline');
    expect(enterKeyIntent({ shiftKey: false, isComposing: true })).toBe('ignore');
    expect(enterKeyIntent({ shiftKey: true, isComposing: true })).toBe('ignore');
  });

  it('recognises the echo by its client id when it has one', () => {
    expect(isEchoOf(echo({ args: { content: 'Add a dark mode', client_id: 'p-1' } }), pending)).toBe(true);
    expect(isEchoOf(echo({ args: { content: 'Add a dark mode', client_id: 'other-tab-1' } }), pending)).toBe(false);
  });

  it('otherwise by the same content, no more than the clock skew before the send', () => {
    expect(isEchoOf(echo({ args: { content: 'Add a dark mode' } }), pending)).toBe(true);
    expect(isEchoOf(echo({ args: { content: 'Add a light mode' } }), pending)).toBe(false);
    const early = new Date(Date.parse(AT) - ECHO_CLOCK_SKEW_MS - 1).toISOString();
    expect(isEchoOf(echo({ args: { content: 'Add a dark mode' }, timestamp: early }), pending)).toBe(false);
    expect(isEchoOf(echo({ source: 'agent', args: { content: 'Add a dark mode' } }), pending)).toBe(false);
  });

  it('settles the oldest of two identical messages first', () => {
    const twice = [pending, { ...pending, id: 'p-2', timestamp: '2026-03-01T10:00:05.000Z' }];
    expect(settleEcho(twice, echo({ args: { content: 'Add a dark mode' } })).map((message) => message.id)).toEqual([
      'p-2',
    ]);
  });

  it('starts with the draft kept from an earlier visit and keeps every change', () => {
    const kept: string[] = [];
    const actor = createActor(
      chatInputMachine.provide({
        actions: { sendMessage: () => undefined, keepDraft: (_, text) => void kept.push(text) },
      }),
      { input: { ...input, draft: 'Add a dark' } },
    ).start();
    expect(actor.getSnapshot().context.text).toBe('Add a dark');
    actor.send({ type: 'TEXT_CHANGED', text: 'Add a dark mode' });
    actor.send({ type: 'SUBMIT', at: AT });
    expect(kept).toEqual(['Add a dark mode', '']);
    actor.stop();
  });

  it('blocks sending with critical credits and says so', () => {
    const told: string[] = [];
    const actor = createActor(
      chatInputMachine.provide({
        actions: {
          sendMessage: () => void told.push('sent'),
          announceInsufficientCredits: () => void told.push('insufficient'),
          keepDraft: () => undefined,
        },
      }),
      { input },
    ).start();
    actor.send({ type: 'CREDITS_CHANGED', balance: 0.09 });
    actor.send({ type: 'TEXT_CHANGED', text: 'hello' });
    expect(selectCanSend(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'KEY_ENTER', shiftKey: false, isComposing: false, at: AT });
    actor.send({ type: 'CREDITS_CHANGED', balance: 0.1 });
    actor.send({ type: 'KEY_ENTER', shiftKey: false, isComposing: false, at: AT });
    expect(told).toEqual(['insufficient', 'sent']);
    expect(selectPending(actor.getSnapshot())).toEqual([{ id: 'p-1', content: 'hello', timestamp: AT }]);
    actor.stop();
  });
});
