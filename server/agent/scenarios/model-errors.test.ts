import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { NO_MODEL_CONFIGURED } from '../../../server/agent/index.ts';
import { ScenarioFactory, type Scenario, titleReply, finishReply } from '../../../tests/agent/scenario.ts';
import { reply, withTools } from '../../../tests/support/fake-llm/index.ts';

const scenarios = new ScenarioFactory();
let scenario: Scenario | undefined;
afterEach(async () => scenario?.close());
afterAll(async () => scenarios.cleanup());

describe('model failures', () => {
  it('waits in RATE_LIMITED after a 429 and continues RUNNING when the retry succeeds', async () => {
    scenario = await scenarios.start({
      script: (llm) =>
        llm.enqueue(titleReply, reply.error(429, 'Rate limit reached for requests', { when: withTools }), finishReply),
    });
    scenario.say('Do it');
    await scenario.store.waitForState('FINISHED');
    expect(scenario.store.states).toEqual([
      'LOADING',
      'AWAITING_USER_INPUT',
      'RUNNING',
      'RATE_LIMITED',
      'RUNNING',
      'FINISHED',
    ]);
    const limited = scenario.store.events.find((event) => event.extras?.agent_state === 'RATE_LIMITED');
    expect(limited?.extras?.reason).toContain('Rate limit reached for requests');
  });

  it('retries server errors, then ends in ERROR with the reason', async () => {
    scenario = await scenarios.start({
      script: (llm) =>
        llm.enqueue(titleReply, ...[1, 2, 3].map(() => reply.error(500, 'upstream exploded', { when: withTools }))),
    });
    scenario.say('Do it');
    const error = await scenario.store.waitForState('ERROR');
    expect(error.extras?.reason).toBe('The model provider had an internal error (HTTP 500): upstream exploded');
    expect(scenario.store.states.filter((state) => state === 'RATE_LIMITED')).toHaveLength(2);
    expect(scenario.llm.completions.filter(withTools)).toHaveLength(3);
    const status = scenario.store.events.find((event) => event.status_update);
    expect(status).toMatchObject({
      type: 'error',
      status_id: 'STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR',
      message: error.extras?.reason,
    });
  });

  it('does not retry a rejected API key', async () => {
    scenario = await scenarios.start({
      script: (llm) => llm.enqueue(titleReply, reply.error(401, 'Incorrect API key provided', { when: withTools })),
    });
    scenario.say('Do it');
    const error = await scenario.store.waitForState('ERROR');
    expect(error.extras?.reason).toBe('The model provider rejected the API key (HTTP 401): Incorrect API key provided');
    expect(scenario.store.states).not.toContain('RATE_LIMITED');
  });

  it('says clearly that no model is configured, and how to configure one', async () => {
    scenario = await scenarios.start({ settings: { llm: null } });
    const error = await scenario.store.waitForState('ERROR');
    expect(error.extras?.reason).toBe(NO_MODEL_CONFIGURED);
    expect(NO_MODEL_CONFIGURED).toMatch(/Settings/);
    expect(NO_MODEL_CONFIGURED).toMatch(/LLM_PROVIDER/);
    scenario.say('Hello?');
    await scenario.store.waitForState('ERROR', { after: error.id });
  });

  it('aborts the model call in flight when the user stops the agent, and runs again on the next message', async () => {
    scenario = await scenarios.start({
      script: (llm) => llm.enqueue(titleReply, reply.hang({ when: withTools }), finishReply),
    });
    const { store, llm } = scenario;
    scenario.say('Take your time');
    await store.waitForState('RUNNING');
    await expect.poll(() => llm.completions.filter(withTools).length).toBe(1);
    scenario.setState('STOPPED');
    const stopped = await store.waitForState('STOPPED');
    await expect.poll(() => llm.abandoned).toBe(1);
    scenario.say('Now finish');
    await store.waitForState('FINISHED', { after: stopped.id });
  });
});
