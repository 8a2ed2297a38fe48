import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ScenarioFactory, type Scenario } from '../../../tests/agent/scenario.ts';
import { reply, withTools, withoutTools, type FakeReply } from '../../../tests/support/fake-llm/index.ts';

const scenarios = new ScenarioFactory();
let scenario: Scenario | undefined;
afterEach(async () => scenario?.close());
afterAll(async () => scenarios.cleanup());

/**
 * Wall-clock and CPU milliseconds per step of a task of `steps` steps, the fake model answering
 * at once. The CPU time includes the fake model's own work (it runs in this process).
 */
async function msPerStep(steps: number, step: () => FakeReply): Promise<{ wall: number; cpu: number }> {
  const replies = Array.from({ length: steps }, step);
  scenario = await scenarios.start({
    settings: { maxIterations: steps + 1 },
    script: (llm) => llm.enqueue(reply.text('Title', { when: withoutTools }), ...replies, reply.toolCall('finish', { message: 'Done.' }, { when: withTools })),
  });
  await scenario.store.waitForState('AWAITING_USER_INPUT');
  const started = performance.now();
  const cpu = process.cpuUsage();
  scenario.say('Go');
  await scenario.store.waitForState('FINISHED', { timeoutMs: 60_000 });
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - started) / (steps + 1), cpu: (used.user + used.system) / 1000 / (steps + 1) };
}

describe('server overhead per agent step', () => {
  it('stays small with the model answering instantly', async () => {
    // Distinct thoughts and commands: identical steps would (rightly) trip the stuck detector.
    let n = 0;
    const measure = async (steps: number, step: () => FakeReply) => {
      const result = await msPerStep(steps, step);
      await scenario?.close();
      scenario = undefined;
      return result;
    };
    // The first task pays for loading modules and compiling hot code: measure warm tasks only.
    await measure(10, () => reply.toolCall('think', { thought: `step ${++n}` }, { when: withTools }));
    const short = await measure(10, () => reply.toolCall('think', { thought: `step ${++n}` }, { when: withTools }));
    const long = await measure(100, () => reply.toolCall('think', { thought: `step ${++n}` }, { when: withTools }));
    const shell = await measure(30, () => reply.toolCall('execute_bash', { command: `true ${++n}` }, { when: withTools }));
    const line = (name: string, figures: { wall: number; cpu: number }) => `${name} ${figures.wall.toFixed(1)} ms wall / ${figures.cpu.toFixed(1)} ms CPU`;
    console.log(
      `agent step overhead, fake model answering instantly (HTTP + SSE included): ${line('10-step think task', short)}; ${line('100-step think task', long)}; ${line('30-step shell task', shell)}`,
    );
    expect(short.wall).toBeLessThan(200);
    expect(long.wall).toBeLessThan(300);
    expect(shell.wall).toBeLessThan(500);
  }, 120_000);
});
