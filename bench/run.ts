import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchAgentStep } from './agent-step.ts';
import { benchBundles } from './bundle-size.ts';
import { benchEventFanout } from './event-fanout.ts';
import type { BenchResult } from './result.ts';
import { benchCurrentUser } from './server-auth.ts';
import { benchWorkspaceHistory } from './workspace-history.ts';

// `npm run bench`: runs every benchmark, prints a table and writes bench/RESULTS.md.
const results: BenchResult[] = [...benchBundles(), ...(await benchCurrentUser()), ...(await benchAgentStep()), ...(await benchEventFanout()), ...(await benchWorkspaceHistory())];

const rows = results.map((r) => `| ${r.name} | ${r.metric} | ${r.value} ${r.unit} | ${r.target ?? '—'} |`);
const table = ['| benchmark | metric | result | target |', '|---|---|---|---|', ...rows].join('\n');
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const text = `# Benchmark results\n\nMeasured ${new Date().toISOString().slice(0, 10)} on ${machine} with \`npm run bench\`.\n\n${table}\n`;
fs.writeFileSync(path.join(import.meta.dirname, 'RESULTS.md'), text);
console.log(table);
