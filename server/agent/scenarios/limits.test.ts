import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { INSUFFICIENT_CREDITS } from '../../shared/credit-limits.ts';
import { ScenarioFactory, type Scenario } from '../../../tests/agent/scenario.ts';
import { reply, withTools, withoutTools } from '../../../tests/support/fake-llm/index.ts';

const scenarios = new ScenarioFactory();
let scenario: Scenario | undefined;
afterEach(async () => scenario?.close());
afterAll(async () => scenarios.cleanup());

const think = (thought: string) =>
  reply.toolCall('think', { thought }, { when: withTools, usage: { prompt_tokens: 1000, completion_tokens: 10 } });
const title = reply.text('Title', { when: withoutTools, usage: { prompt_tokens: 10, completion_tokens: 2 } });

describe('limits checked before each model call', () => {
  it('stops in ERROR once the budget is spent, without sending the next call', async () => {
    // 'fake-model' is unknown: $3 per million prompt tokens, so one step of 1000 prompt tokens costs $0.003.
    scenario = await scenarios.start({
      settings: { maxBudgetPerTask: 0.002 },
      script: (llm) => llm.enqueue(title, think('one'), think('two')),
    });
    const { store, llm } = scenario;
    scenario.say('Think twice');
    const error = await store.waitForState('ERROR');
    expect(error.extras?.reason).toMatch(/reached its maximum budget of \$0\.0020/);
    expect(store.events.find((event) => event.status_update && event.type === 'error')?.status_id).toBe(
      'AGENT_ERROR$BUDGET_EXCEEDED',
    );
    expect(llm.completions.filter(withTools)).toHaveLength(1);
    expect(error.llm_metrics?.max_budget_per_task).toBe(0.002);
  });

  it('sends nothing at all when the budget is already spent', async () => {
    scenario = await scenarios.start({ settings: { maxBudgetPerTask: 0 } });
    scenario.say('Build a game of snake');
    await scenario.store.waitForState('ERROR');
    await expect.poll(() => scenario?.store.titles).toEqual(['Build a game of snake']);
    expect(scenario.llm.requests).toHaveLength(0);
  });

  it('pauses at the maximum iterations with a message saying so, and continues on the next message', async () => {
    scenario = await scenarios.start({
      settings: { maxIterations: 2 },
      script: (llm) =>
        llm.enqueue(
          title,
          think('one'),
          think('two'),
          reply.toolCall('finish', { message: 'Done.' }, { when: withTools }),
        ),
    });
    const { store } = scenario;
    scenario.say('Think a lot');
    const paused = await store.waitForState('PAUSED');
    expect(paused.extras?.reason).toContain('maximum iterations');
    const status = store.events.find((event) => event.status_update && event.type === 'error');
    expect(status?.message).toContain('maximum iterations (2)');
    expect(scenario.llm.completions.filter(withTools)).toHaveLength(2);

    // The browser answers the message with PAUSED; the agent is already paused.
    scenario.setState('PAUSED');
    scenario.say('Go on');
    await store.waitForState('FINISHED', { after: paused.id });
  });

  it('stops with the spec message when the credits are below $0.10, and charges each call once', async () => {
    // $0.1020 allows one step; the step ($0.00315) leaves less than $0.10.
    scenario = await scenarios.start({
      balanceMicros: 102_000n,
      script: (llm) => llm.enqueue(title, think('one'), think('two'), think('three')),
    });
    const { store, llm } = scenario;
    scenario.say('Think');
    const error = await store.waitForState('ERROR');
    expect(error.extras?.reason).toBe(INSUFFICIENT_CREDITS);
    expect(error.extras?.reason).toBe('Insufficient credits. Please add more credits to continue chatting.');
    expect(llm.completions.filter(withTools)).toHaveLength(1);
    const charged = [...store.charges.values()].reduce((sum, cost) => sum + cost, 0n);
    expect(BigInt(Math.round((error.llm_metrics?.accumulated_cost ?? 0) * 1e6))).toBe(charged);
    expect([...store.charges.keys()].every((key) => key.startsWith(`${store.conversationId}:`))).toBe(true);
    expect(new Set(store.charges.keys()).size).toBe(llm.completions.length);
  });

  it('will not start a task with credits already below $0.10', async () => {
    scenario = await scenarios.start({ balanceMicros: 99_999n });
    scenario.say('Hello');
    const error = await scenario.store.waitForState('ERROR');
    expect(error.extras?.reason).toBe(INSUFFICIENT_CREDITS);
    expect(scenario.llm.requests).toHaveLength(0);
  });
});
