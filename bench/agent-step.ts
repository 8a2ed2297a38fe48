import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { ScenarioFactory } from '../tests/agent/scenario.ts';
import { testSettings } from '../tests/agent/memory-host.ts';
import type { BenchResult } from './result.ts';
import { quantile, round } from './stats.ts';

interface StepCost {
  wallMs: number;
  cpuMs: number;
}

/**
 * Runs of each task whose median is reported: on this 2-core machine one run's figure swings by
 * a factor of two (garbage collection and the JIT's background threads land in one run or the next).
 */
const RUNS = 5;

async function startFakeModel(kind: 'think' | 'shell', steps: number): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = fork(path.join(import.meta.dirname, 'fake-model-process.ts'), [kind, String(steps)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return { baseUrl: line.toString().trim(), child };
}

/**
 * Server-side cost per agent step with a fake OpenAI-compatible model answering at once. The
 * fake model runs in another process, so `cpu` is the agent's own work (prompt, HTTP and SSE
 * to the model, events, tools; the shell's processes excluded); `wall` adds waiting (the
 * shell's round trip for shell steps, and whatever else runs on the machine). `cpu` is the whole
 * process's, so it includes V8's background threads (garbage collection, compilation).
 */
export async function benchAgentStep(): Promise<BenchResult[]> {
  const scenarios = new ScenarioFactory();
  async function perStep(kind: 'think' | 'shell', steps: number): Promise<StepCost> {
    const model = await startFakeModel(kind, steps);
    const scenario = await scenarios.start({ settings: { maxIterations: steps + 1, llm: testSettings({ baseUrl: model.baseUrl }).llm } });
    try {
      await scenario.store.waitForState('AWAITING_USER_INPUT');
      const started = performance.now();
      const cpu = process.cpuUsage();
      scenario.say('Go');
      await scenario.store.waitForState('FINISHED', { timeoutMs: 120_000 });
      const used = process.cpuUsage(cpu);
      return { wallMs: (performance.now() - started) / (steps + 1), cpuMs: (used.user + used.system) / 1000 / (steps + 1) };
    } finally {
      await scenario.close();
      model.child.disconnect();
    }
  }
  async function median(kind: 'think' | 'shell', steps: number): Promise<StepCost> {
    const runs: StepCost[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await perStep(kind, steps));
    return { wallMs: quantile(runs.map((run) => run.wallMs), 0.5), cpuMs: quantile(runs.map((run) => run.cpuMs), 0.5) };
  }
  try {
    // Warm-up of both kinds of step: module loading and the JIT's first compilations are not per-step cost.
    await perStep('think', 100);
    await perStep('shell', 30);
    const name = `agent step, fake model answering instantly in another process (in-memory host), median of ${RUNS} runs`;
    const rows: BenchResult[] = [];
    for (const [kind, steps, label] of [
      ['think', 10, '10-step think task'],
      ['think', 100, '100-step think task'],
      ['shell', 30, '30-step shell task'],
    ] as const) {
      const cost = await median(kind, steps);
      rows.push({ name, metric: `${label}, CPU per step`, value: round(cost.cpuMs), unit: 'ms', target: '≤ 5 ms' });
      rows.push({ name, metric: `${label}, wall time per step`, value: round(cost.wallMs), unit: 'ms' });
    }
    return rows;
  } finally {
    await scenarios.cleanup();
  }
}
