// npm run paths: what the model-based tests generate, for testers. It runs the model tests (the
// browser's statecharts and the server's), which write each machine's generated paths and coverage
// into a temporary folder (tests/model/model-paths.ts), then prints them.
//
//   npm run paths                          every machine: states, transitions, coverage, paths
//   npm run paths -- <machine>             its generated paths, step by step (event, guards, state after)
//   npm run paths -- <machine> --from A --to B   only paths that pass a state matching A, then one matching B
//   --json                                 the same as JSON, for tools
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface PathStep {
  event: string;
  detail: string;
  guards: string[];
  state: string;
}
interface MachinePaths {
  machine: string;
  states: string[];
  transitions: string[];
  reachedStates: string[];
  reachedTransitions: string[];
  paths: { name: string; steps: PathStep[] }[];
}

function option(args: string[], name: string): string | null {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? null) : null;
}

/** The model tests' exports, one record per machine (several test files of one machine are merged). */
function generate(): MachinePaths[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-paths-'));
  try {
    process.stderr.write('Generating the paths (the model-based tests run)…\n');
    const run = spawnSync('npx', ['vitest', 'run', '--project', 'model', '--reporter=dot'], {
      env: { ...process.env, ATELIER_PATHS_DIR: dir },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (run.status !== 0) throw new Error('The model-based tests failed: run `npm run test:model` to see why.');
    const merged = new Map<string, MachinePaths>();
    for (const file of fs.readdirSync(dir).sort()) {
      const part = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as MachinePaths;
      const known = merged.get(part.machine);
      if (!known) merged.set(part.machine, part);
      else {
        known.reachedStates = [...new Set([...known.reachedStates, ...part.reachedStates])];
        known.reachedTransitions = [...new Set([...known.reachedTransitions, ...part.reachedTransitions])];
        known.paths.push(...part.paths);
      }
    }
    return [...merged.values()].sort((a, b) => a.machine.localeCompare(b.machine));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Paths that pass a state matching `from` (a part of its dotted name) and later one matching `to`. */
export function between(paths: MachinePaths['paths'], from: string | null, to: string | null) {
  return paths.filter(({ steps }) => {
    const states = ['(start)', ...steps.map((step) => step.state)];
    const start = from === null ? 0 : states.findIndex((state) => state.includes(from));
    if (start < 0) return false;
    return to === null || states.slice(start + 1).some((state) => state.includes(to));
  });
}

const percent = (part: number, whole: number) => (whole === 0 ? '100%' : `${Math.floor((part / whole) * 100)}%`);

function main(args: string[]) {
  const json = args.includes('--json');
  const from = option(args, '--from');
  const to = option(args, '--to');
  const name = args.find((arg, i) => !arg.startsWith('--') && !['--from', '--to'].includes(args[i - 1] ?? ''));
  const machines = generate();

  if (!name) {
    const rows = machines.map((m) => ({
      machine: m.machine,
      states: m.states.length,
      transitions: m.transitions.length,
      statesCovered: percent(m.reachedStates.length, m.states.length),
      transitionsCovered: percent(m.reachedTransitions.length, m.transitions.length),
      paths: m.paths.length,
    }));
    if (json) return console.log(JSON.stringify(rows, null, 2));
    console.log('| machine | states | transitions | states covered | transitions covered | generated paths |');
    console.log('|---|---|---|---|---|---|');
    for (const row of rows)
      console.log(
        `| ${row.machine} | ${row.states} | ${row.transitions} | ${row.statesCovered} | ${row.transitionsCovered} | ${row.paths} |`,
      );
    return;
  }

  const machine = machines.find((m) => m.machine === name);
  if (!machine) {
    console.error(`No machine "${name}". Machines: ${machines.map((m) => m.machine).join(', ')}`);
    process.exitCode = 1;
    return;
  }
  const paths = between(machine.paths, from, to);
  if (json) return console.log(JSON.stringify({ ...machine, paths }, null, 2));
  console.log(
    `${machine.machine}: ${paths.length} of ${machine.paths.length} generated paths` +
      (from || to ? ` (from ${from ?? 'the start'} to ${to ?? 'anywhere'})` : ''),
  );
  paths.forEach((p, index) => {
    console.log(`\n${index + 1}.`);
    p.steps.forEach((step, i) => {
      const guards = step.guards.length ? ` [${step.guards.join(', ')}]` : '';
      const detail = step.detail ? ` ${step.detail}` : '';
      console.log(`   ${i + 1}. ${step.event}${detail}${guards} → ${step.state}`);
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename))
  main(process.argv.slice(2));
