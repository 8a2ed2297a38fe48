import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchAffiliateClicks } from './affiliate-clicks.ts';
import { benchAgentStep } from './agent-step.ts';
import { benchBundles } from './bundle-size.ts';
import { benchEventFanout } from './event-fanout.ts';
import { benchFork } from './fork.ts';
import { benchLandingPaint } from './landing-paint.ts';
import { benchLedgerDebits } from './ledger-debits.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchLoopbackFloor } from './loopback-floor.ts';
import { benchMachineSpeed } from './machine-speed.ts';
import { benchPgliteClient } from './pglite-client.ts';
import { benchRestReads } from './rest-reads.ts';
import { benchSandboxStart } from './sandbox-start.ts';
import { benchServerStart } from './server-start.ts';
import type { BenchResult } from './result.ts';
import { benchWorkspaceHistory } from './workspace-history.ts';
import prepareTestDatabase from '../tests/support/global-setup.ts';
import { buildWebApp } from '../server/web-build.ts';

const benchmarks: Record<string, () => BenchResult[] | Promise<BenchResult[]>> = {
  'machine-speed': benchMachineSpeed,
  'bundle-size': benchBundles,
  'landing-paint': benchLandingPaint,
  lighthouse: benchLighthouse,
  'rest-reads': benchRestReads,
  'agent-step': benchAgentStep,
  'event-fanout': benchEventFanout,
  'loopback-floor': benchLoopbackFloor,
  'workspace-history': benchWorkspaceHistory,
  'ledger-debits': benchLedgerDebits,
  'pglite-client': benchPgliteClient,
  'affiliate-clicks': benchAffiliateClicks,
  'server-start': benchServerStart,
  fork: benchFork,
  'sandbox-start': benchSandboxStart,
};

// `npm run bench`: runs every benchmark, prints a table and writes bench/RESULTS.md.
// `npm run bench -- NAME...`: runs only those and prints them (RESULTS.md keeps the full run).
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in benchmarks));
if (unknown.length > 0)
  throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(benchmarks).join(', ')}`);
// Every benchmark measures the production build and starts servers on copies of the migrated PGlite template.
buildWebApp({ quiet: true });
await prepareTestDatabase();

const results: BenchResult[] = [];
for (const [name, run] of Object.entries(benchmarks))
  if (chosen.length === 0 || chosen.includes(name)) results.push(...(await run()));

const rows = results.map((r) => `| ${r.name} | ${r.metric} | ${r.value} ${r.unit} | ${r.target ?? '—'} |`);
const table = ['| benchmark | metric | result | target |', '|---|---|---|---|', ...rows].join('\n');
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const text = `# Benchmark results\n\nMeasured ${new Date().toISOString().slice(0, 10)} on ${machine} with \`npm run bench\`.\n\n${table}\n`;
if (chosen.length === 0) fs.writeFileSync(path.join(import.meta.dirname, 'RESULTS.md'), text);
console.log(table);
