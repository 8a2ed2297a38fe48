import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { Condenser, estimateTokens } from './condenser.ts';
import { randomHistory } from '../../../tests/support/history-builder.ts';
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
