import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ScenarioFactory } from '../tests/agent/scenario.ts';
import { testSettings } from '../tests/agent/memory-host.ts';
import { randomHistory } from '../tests/support/history-builder.ts';
import { isAgentState, SocketClient } from '../tests/support/conversations.ts';
import { createTestDatabase } from '../tests/support/database.ts';
import { startServer, type RunningServer } from '../tests/support/server.ts';
import type { BenchResult } from './result.ts';
import type { Event } from '../openapi/types.ts';
import { POSTGRES_URL } from './databases.ts';
import { configureModel } from './model-settings.ts';
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
/**
 * 60-step runs through the server before measuring: a server that has run for a while has compiled
 * its hot code. After one run V8's background threads still spend 1.3–2.6 ms per step compiling
 * (about as much as the main thread's work), after five 1.2–2.3 ms, after ten 0.3–1 ms.
 */
const SERVER_WARMUP_RUNS = 5;
/** The model's context window in these runs: a long history is condensed to half of it. */
const LONG_CONTEXT_WINDOW = 128_000;

async function startFakeModel(
  kind: 'think' | 'shell',
  steps: number,
): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = fork(path.join(import.meta.dirname, 'fake-model-process.ts'), [kind, String(steps)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return { baseUrl: line.toString().trim(), child };
}

/** A process's CPU time so far in ms (user + system, from /proc, in clock ticks of 10 ms). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The median cost of RUNS runs of a task. */
async function medianOf(run: () => Promise<StepCost>): Promise<StepCost> {
  const runs: StepCost[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run());
  return {
    wallMs: quantile(
      runs.map((cost) => cost.wallMs),
      0.5,
    ),
    cpuMs: quantile(
      runs.map((cost) => cost.cpuMs),
      0.5,
    ),
  };
}

/**
 * The same think task through the real server process (oss mode; on PGlite, then on PostgreSQL):
 * every event stored and sent to the socket that watches the conversation, as a browser does.
 * CPU is the server process's, read from /proc: PGlite's work is in it, PostgreSQL's is in its
 * own processes.
 */
async function serverStep(server: RunningServer, steps: number): Promise<StepCost> {
  const model = await startFakeModel('think', steps);
  const json = { 'content-type': 'application/json' };
  let socket: SocketClient | null = null;
  let id = '';
  try {
    await configureModel(server.url, model.baseUrl);
    ({ conversation_id: id } = (await (
      await fetch(`${server.url}/api/conversations`, { method: 'POST', headers: json, body: '{}' })
    ).json()) as { conversation_id: string });
    socket = await SocketClient.open(server.url, { conversation_id: id });
    await socket.waitFor(
      (s) => s.events.some(isAgentState('AWAITING_USER_INPUT')),
      'the agent to wait for input',
      60_000,
    );
    const pid = server.pid() ?? 0;
    const cpu = processCpuMs(pid);
    const started = performance.now();
    socket.send({ action: 'message', args: { content: 'Go' } });
    await socket.waitFor((s) => s.events.some(isAgentState('FINISHED')), 'the task to finish', 120_000);
    return { wallMs: (performance.now() - started) / (steps + 1), cpuMs: (processCpuMs(pid) - cpu) / (steps + 1) };
  } finally {
    await socket?.close();
    if (id) await fetch(`${server.url}/api/conversations/${id}/stop`, { method: 'POST' });
    model.child.disconnect();
  }
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
  async function perStep(kind: 'think' | 'shell', steps: number, history?: Event[]): Promise<StepCost> {
    const model = await startFakeModel(kind, steps);
    const scenario = await scenarios.start({
      settings: { maxIterations: steps + 1, llm: testSettings({ baseUrl: model.baseUrl }).llm },
      ...(history && { history, agent: { contextWindow: LONG_CONTEXT_WINDOW } }),
    });
    try {
      await scenario.store.waitForState('AWAITING_USER_INPUT');
      const started = performance.now();
      const cpu = process.cpuUsage();
      scenario.say('Go');
      await scenario.store.waitForState('FINISHED', { timeoutMs: 120_000 });
      const used = process.cpuUsage(cpu);
      return {
        wallMs: (performance.now() - started) / (steps + 1),
        cpuMs: (used.user + used.system) / 1000 / (steps + 1),
      };
    } finally {
      await scenario.close();
      model.child.disconnect();
    }
  }
  try {
    // Warm-up of both kinds of step: module loading and the JIT's first compilations are not per-step cost.
    await perStep('think', 100);
    await perStep('shell', 30);
    const name = `agent step, fake model answering instantly in another process (in-memory host), median of ${RUNS} runs`;
    const rows: BenchResult[] = [];
    const longHistory = randomHistory(1, 2_000).events;
    for (const [kind, steps, label, history] of [
      ['think', 10, '10-step think task', undefined],
      ['think', 100, '100-step think task', undefined],
      ['shell', 30, '30-step shell task', undefined],
      ['think', 100, `100-step think task after ${longHistory.length.toLocaleString('en')} events`, longHistory],
    ] as const) {
      const cost = await medianOf(() => perStep(kind, steps, history));
      rows.push({ name, metric: `${label}, CPU per step`, value: round(cost.cpuMs), unit: 'ms', target: '≤ 5 ms' });
      rows.push({ name, metric: `${label}, wall time per step`, value: round(cost.wallMs), unit: 'ms' });
    }
    for (const [label, serverUrl] of [
      ['PGlite', null],
      ['PostgreSQL', POSTGRES_URL],
    ] as const) {
      const database = await createTestDatabase(serverUrl);
      const server = await startServer({ mode: 'oss', database });
      try {
        const steps = 60;
        const first = await serverStep(server, steps);
        for (let i = 1; i < SERVER_WARMUP_RUNS; i++) await serverStep(server, steps);
        const cost = await medianOf(() => serverStep(server, steps));
        // PostgreSQL's own processes are not the server's: their CPU is not counted.
        const serverName = `agent step through the server process (oss, ${label}, one socket watching), median of ${RUNS} runs after ${SERVER_WARMUP_RUNS} to warm up`;
        rows.push({
          name: serverName,
          metric: `the first ${steps}-step run after the server starts, server CPU per step`,
          value: round(first.cpuMs),
          unit: 'ms',
        });
        rows.push({
          name: serverName,
          metric: `${steps}-step think task, server CPU per step`,
          value: round(cost.cpuMs),
          unit: 'ms',
          target: '≤ 5 ms',
        });
        rows.push({
          name: serverName,
          metric: `${steps}-step think task, wall time per step`,
          value: round(cost.wallMs),
          unit: 'ms',
        });
      } finally {
        await server.destroy();
        await database.destroy();
      }
    }
    return rows;
  } finally {
    await scenarios.cleanup();
  }
}
