import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { Condenser, estimateTokens } from './condenser.ts';
import { HistoryBuilder } from '../../../tests/support/history-builder.ts';
import { eventsToUnits } from './units.ts';

/** The invariant every provider enforces: each tool call is answered right after it, and no result lacks its call. */
function assertPairs(messages: readonly ModelMessage[]): void {
  messages.forEach((message, index) => {
    const calls =
      message.role === 'assistant' && Array.isArray(message.content)
        ? message.content.filter((part) => part.type === 'tool-call')
        : [];
    const next = messages[index + 1];
    if (calls.length > 0) {
      expect(next?.role, `the calls at ${index} are answered next`).toBe('tool');
      const answered =
        next?.role === 'tool' ? next.content.map((part) => (part.type === 'tool-result' ? part.toolCallId : '')) : [];
      expect(answered).toEqual(calls.map((call) => call.toolCallId));
    }
    if (message.role === 'tool') {
      const previous = messages[index - 1];
      const called =
        previous?.role === 'assistant' && Array.isArray(previous.content)
          ? previous.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []))
          : [];
      for (const part of message.content)
        if (part.type === 'tool-result')
          expect(called, `the result at ${index} follows its call`).toContain(part.toolCallId);
    }
  });
}

/** A pseudo-random but repeatable history: tool calls (sometimes several per response, sometimes unanswered), user messages in between. */
function randomHistory(seed: number, steps: number): HistoryBuilder {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const history = new HistoryBuilder();
  history.recall(history.userMessage('Build me a todo app').id);
  for (let step = 0; step < steps; step++) {
    const count = random() < 0.25 ? 2 : 1;
    const calls = Array.from({ length: count }, (_, i) => ({
      name: 'execute_bash',
      input: { command: `step ${step}.${i} ${'x'.repeat(Math.floor(random() * 400))}` },
    }));
    const actions = history.toolCalls(calls, random() < 0.5 ? `thinking about step ${step}` : '');
    if (random() < 0.15) history.userMessage(`interjection ${step}`);
    for (const action of actions)
      if (random() < 0.9) history.result(action, `output ${step} ${'y'.repeat(Math.floor(random() * 800))}`);
    if (random() < 0.1) history.agentMessage(`progress ${step}`);
  }
  return history;
}

describe('Condenser', () => {
  it('sends everything while it fits', () => {
    const history = randomHistory(1, 5);
    const units = eventsToUnits(history.events);
    const { messages, condensed } = new Condenser(() => ({ limitTokens: 1_000_000, targetTokens: 500_000 })).messages(
      units,
      0,
    );
    expect(condensed).toBe(false);
    expect(messages).toEqual(units.flatMap((unit) => (unit.kind === 'user' ? [unit.message] : unit.messages)));
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'keeps every tool call paired with its result when it condenses (seed %i)',
    (seed) => {
      const history = randomHistory(seed, 60);
      const units = eventsToUnits(history.events);
      const condenser = new Condenser(() => ({ limitTokens: 4000, targetTokens: 2500 }));
      const { messages, condensed } = condenser.messages(units, 300);
      expect(condensed).toBe(true);
      assertPairs(messages);
      expect(messages[0]).toEqual({ role: 'user', content: 'Build me a todo app' });
      expect(messages[1]?.content).toContain('Use pnpm.');
      expect(messages[2]?.content).toMatch(/earlier part\(s\) of this conversation were condensed/);
      expect(estimateTokens(messages) + 300).toBeLessThanOrEqual(4000);
    },
  );

  it('keeps the cut where it is until the conversation outgrows the limit again', () => {
    const history = randomHistory(9, 40);
    const condenser = new Condenser(() => ({ limitTokens: 5000, targetTokens: 2500 }));
    const first = condenser.messages(eventsToUnits(history.events), 0).messages;
    history.userMessage('one more thing');
    const second = condenser.messages(eventsToUnits(history.events), 0).messages;
    expect(second.slice(0, first.length)).toEqual(first);
  });

  it('cuts harder when the provider says the prompt is too long', () => {
    const history = randomHistory(3, 30);
    const units = eventsToUnits(history.events);
    const condenser = new Condenser(() => ({ limitTokens: 1_000_000, targetTokens: 500_000 }));
    const all = condenser.messages(units, 0).messages;
    const forced = condenser.forceCondense(units, 0);
    expect(estimateTokens(forced)).toBeLessThan(estimateTokens(all));
    assertPairs(forced);
  });
});
