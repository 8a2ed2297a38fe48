import { describe, expect, it } from 'vitest';
import { HistoryBuilder, randomHistory } from '../../../tests/support/history-builder.ts';
import { ContextUnits, eventsToUnits, missingResult, unitMessages } from './units.ts';

const messagesOf = (history: HistoryBuilder) => eventsToUnits(history.events).flatMap(unitMessages);

describe('eventsToUnits', () => {
  it('turns a message, its recall, tool calls and their results into model messages', () => {
    const history = new HistoryBuilder();
    const message = history.userMessage('List the files');
    history.recall(message.id);
    const [run] = history.toolCalls([{ name: 'execute_bash', input: { command: 'ls' } }], 'I will look.');
    history.result(run!, 'a.txt');
    history.agentMessage('There is a.txt.');

    expect(messagesOf(history)).toEqual([
      { role: 'user', content: 'List the files' },
      { role: 'user', content: expect.stringContaining('Use pnpm.') },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'I will look.' },
          { type: 'tool-call', toolCallId: 'response-1-call-0', toolName: 'execute_bash', input: { command: 'ls' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'response-1-call-0',
            toolName: 'execute_bash',
            output: { type: 'text', value: 'a.txt' },
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'There is a.txt.' }] },
    ]);
  });

  it("follows a turn's results with the images they returned, as the user's part (tool results are text everywhere)", () => {
    const history = new HistoryBuilder();
    history.userMessage('Show the logo');
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const [logo, other] = history.toolCalls([
      { name: 'get_logo', input: {} },
      { name: 'execute_bash', input: { command: 'ls' } },
    ]);
    history.result(logo!, '[image image/png, 8 bytes, image 1 of this result]', {
      image_urls: [png, 'https://tracker.example/pixel.png'],
    });
    history.result(other!, 'a.txt');
    expect(messagesOf(history).slice(-2)).toEqual([
      {
        role: 'tool',
        content: [
          expect.objectContaining({ toolName: 'get_logo' }),
          expect.objectContaining({ toolName: 'execute_bash' }),
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The image that get_logo returned:' },
          { type: 'image', image: png },
        ],
      },
    ]);
  });

  it('pins the first user message and the workspace recall only', () => {
    const history = new HistoryBuilder();
    history.recall(history.userMessage('first').id);
    history.userMessage('second');
    expect(eventsToUnits(history.events).map((unit) => unit.pinned)).toEqual([true, true, false]);
  });

  it('groups the calls of one response into one assistant message and one tool message', () => {
    const history = new HistoryBuilder();
    history.userMessage('go');
    const [a, b] = history.toolCalls([
      { name: 'execute_bash', input: { command: 'a' } },
      { name: 'execute_bash', input: { command: 'b' } },
    ]);
    history.result(a!, 'A');
    history.result(b!, 'B');
    const [, assistant, tool] = messagesOf(history);
    expect(assistant?.content).toHaveLength(2);
    expect(tool?.content).toHaveLength(2);
  });

  it('moves a user message sent while tools ran after their results', () => {
    const history = new HistoryBuilder();
    history.userMessage('go');
    const [run] = history.toolCalls([{ name: 'execute_bash', input: { command: 'sleep 5' } }]);
    history.userMessage('also add tests');
    history.result(run!, 'done');
    expect(messagesOf(history).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });

  it('answers a call that never got a result, so the model never sees an unanswered call', () => {
    const history = new HistoryBuilder();
    history.userMessage('go');
    history.toolCalls([{ name: 'execute_bash', input: { command: 'rm -rf build' } }]);
    history.userMessage('never mind');
    const tool = messagesOf(history)[2];
    expect(tool).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'response-1-call-0',
          toolName: 'execute_bash',
          output: { type: 'text', value: missingResult('execute_bash') },
        },
      ],
    });
  });

  it('keeps one call when an action is stated again with a new confirmation state', () => {
    const history = new HistoryBuilder();
    history.userMessage('go');
    const [awaiting] = history.toolCalls([{ name: 'execute_bash', input: { command: 'ls' } }]);
    history.add({ ...awaiting!, args: { ...awaiting!.args, confirmation_state: 'confirmed' } });
    history.result(awaiting!, 'a.txt');
    const [, assistant, tool] = messagesOf(history);
    expect(assistant?.content).toHaveLength(1);
    expect(tool?.content).toHaveLength(1);
  });

  it('shows the model what the user ran in the terminal, but not hidden commands', () => {
    const history = new HistoryBuilder();
    const visible = history.add({ source: 'user', action: 'run', args: { command: 'npm test' } });
    history.add({ source: 'agent', observation: 'run', cause: visible.id, content: '3 passed' });
    const hidden = history.add({ source: 'user', action: 'run', args: { command: 'ls', hidden: true } });
    history.add({ source: 'agent', observation: 'run', cause: hidden.id, content: 'x' });
    expect(messagesOf(history)).toEqual([
      { role: 'user', content: 'I ran `npm test` in the terminal. It printed:\n3 passed' },
    ]);
  });

  it('leaves out state changes, status updates and the system prompt event', () => {
    const history = new HistoryBuilder();
    history.add({ source: 'agent', action: 'system', args: { content: 'You are…' } });
    history.add({ source: 'agent', observation: 'agent_state_changed', extras: { agent_state: 'RUNNING' } });
    history.add({ source: 'agent', status_update: true, type: 'info', message: 'hi' });
    expect(messagesOf(history)).toEqual([]);
  });

  it('reads only what was appended since the last call, and gives what reading everything gives', () => {
    for (const seed of [1, 2, 3, 4]) {
      const events = randomHistory(seed, 40).events;
      const units = new ContextUnits();
      for (let count = 1; count <= events.length; count++)
        expect(units.of(events.slice(0, count)), `seed ${seed}, ${count} events`).toEqual(
          eventsToUnits(events.slice(0, count)),
        );
      // Only the open turn's unit is made again; the others are kept.
      const again = units.of(events);
      expect(units.of(events).filter((unit, i) => unit !== again[i]).length).toBeLessThanOrEqual(1);
    }
  });

  it('reads a history that was replaced anew', () => {
    const units = new ContextUnits();
    const first = new HistoryBuilder();
    first.userMessage('first');
    first.agentMessage('done');
    expect(units.of(first.events)).toHaveLength(2);
    const other = new HistoryBuilder();
    other.userMessage('another');
    expect(units.of(other.events)).toEqual(eventsToUnits(other.events));
    other.agentMessage('and more');
    other.userMessage('again');
    expect(units.of(other.events)).toEqual(eventsToUnits(other.events));
  });
});
