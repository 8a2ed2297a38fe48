import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ScenarioFactory, type Scenario, titleReply } from '../../../tests/agent/scenario.ts';
import { reply, withTools } from '../../../tests/support/fake-llm/index.ts';

const scenarios = new ScenarioFactory();
let scenario: Scenario | undefined;
afterEach(async () => scenario?.close());
afterAll(async () => scenarios.cleanup());

describe('stuck detection', () => {
  it('stops when the same action gives the same result four times in a row', async () => {
    const same = () => reply.toolCall('execute_bash', { command: 'echo same' }, { when: withTools });
    scenario = await scenarios.start({
      script: (llm) => llm.enqueue(titleReply, same(), same(), same(), same(), same()),
    });
    scenario.say('Loop');
    const error = await scenario.store.waitForState('ERROR');
    expect(error.extras?.reason).toMatch(/stuck in a loop: it repeated the same action with the same result 4 times/);
    expect(scenario.store.events.filter((event) => event.observation === 'run')).toHaveLength(4);
    expect(scenario.llm.remaining).toBe(1);
  });

  it('stops when the same error comes back three times in a row', async () => {
    const broken = () => reply.toolCall('str_replace_editor', { command: 'view' }, { when: withTools });
    scenario = await scenarios.start({
      script: (llm) => llm.enqueue(titleReply, broken(), broken(), broken(), broken()),
    });
    scenario.say('View something');
    const error = await scenario.store.waitForState('ERROR');
    expect(error.extras?.reason).toMatch(/same error came back 3 times/);
    const errors = scenario.store.events.filter((event) => event.observation === 'error');
    expect(errors).toHaveLength(3);
    expect(errors[0]?.content).toMatch(/Invalid arguments for str_replace_editor/);
    expect(errors[0]?.content).toMatch(/path/);
  });
});
