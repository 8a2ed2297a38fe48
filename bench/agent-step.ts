import { ScenarioFactory, titleReply, finishReply } from '../tests/agent/scenario.ts';
import { reply, withTools, type FakeReply } from '../tests/support/fake-llm/index.ts';
import type { BenchResult } from './result.ts';
import { round } from './stats.ts';

/**
 * Server-side time per agent step with a fake OpenAI-compatible model answering at once
 * (HTTP + SSE to it included, as is the real runtime for shell steps). The fake model runs
 * in this process, so its own work is part of the figure: an upper bound.
 */
export async function benchAgentStep(): Promise<BenchResult[]> {
  const scenarios = new ScenarioFactory();
  let n = 0;
  async function msPerStep(steps: number, step: () => FakeReply): Promise<number> {
    const scenario = await scenarios.start({
      settings: { maxIterations: steps + 1 },
      script: (llm) => llm.enqueue(titleReply, ...Array.from({ length: steps }, step), finishReply),
    });
    try {
      await scenario.store.waitForState('AWAITING_USER_INPUT');
      const started = performance.now();
      scenario.say('Go');
      await scenario.store.waitForState('FINISHED', { timeoutMs: 120_000 });
      return (performance.now() - started) / (steps + 1);
    } finally {
      await scenario.close();
    }
  }
  // Distinct thoughts and commands: identical steps would (rightly) trip the stuck detector.
  const think = () => reply.toolCall('think', { thought: `step ${++n}` }, { when: withTools });
  const shell = () => reply.toolCall('execute_bash', { command: `true ${++n}` }, { when: withTools });
  try {
    await msPerStep(10, think); // warm-up: module loading and JIT
    const name = 'agent step, fake model answering instantly (in-memory host)';
    return [
      { name, metric: '10-step think task, per step', value: round(await msPerStep(10, think)), unit: 'ms', target: '≤ 5 ms' },
      { name, metric: '100-step think task, per step', value: round(await msPerStep(100, think)), unit: 'ms', target: '≤ 5 ms' },
      { name, metric: '30-step shell task, per step', value: round(await msPerStep(30, shell)), unit: 'ms', target: '≤ 5 ms' },
    ];
  } finally {
    await scenarios.cleanup();
  }
}
