import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ScenarioFactory, type Scenario, titleReply, finishReply } from '../../../tests/agent/scenario.ts';
import { reply, withTools } from '../../../tests/support/fake-llm/index.ts';

const scenarios = new ScenarioFactory();
let scenario: Scenario | undefined;
afterEach(async () => scenario?.close());
afterAll(async () => scenarios.cleanup());

describe('the user controlling the agent', () => {
  it('pauses a running command, then resumes by asking the model again', async () => {
    scenario = await scenarios.start({
      script: (llm) =>
        llm.enqueue(
          titleReply,
          reply.toolCall('execute_bash', { command: 'echo started && sleep 20' }, { when: withTools }),
          finishReply,
        ),
    });
    const { store, llm } = scenario;
    const started = new Promise<void>((resolve) => {
      const unsubscribe = store.host.runtime.onOutput((chunk) => {
        if (!chunk.includes('started')) return;
        unsubscribe();
        resolve();
      });
    });
    scenario.say('Sleep long');
    const action = await store.waitFor((event) => event.action === 'run');
    await started;
    scenario.setState('PAUSED');
    const paused = await store.waitForState('PAUSED');
    const interrupted = await store.waitFor((event) => event.observation === 'run');
    expect(interrupted.cause).toBe(action.id);
    expect(interrupted.content).toContain('interrupted');

    scenario.setState('RUNNING');
    await store.waitForState('FINISHED', { after: paused.id });
    const resumed = llm.completions.filter(withTools)[1];
    expect(resumed?.messages.find((message) => message.role === 'tool')?.content).toContain('interrupted');
    expect(store.states).toEqual(['LOADING', 'AWAITING_USER_INPUT', 'RUNNING', 'PAUSED', 'RUNNING', 'FINISHED']);
  }, 20_000);

  it('stops the loop and the model call when the session is stopped', async () => {
    scenario = await scenarios.start({ script: (llm) => llm.enqueue(titleReply, reply.hang({ when: withTools })) });
    scenario.say('Wait');
    await expect.poll(() => scenario?.llm.completions.filter(withTools).length).toBe(1);
    await scenario.session.stop();
    await expect.poll(() => scenario?.llm.abandoned).toBe(1);
  });
});
