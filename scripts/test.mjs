#!/usr/bin/env node
// `npm test`: every check in order — typecheck, lint, contract freshness, unit, model-based,
// server integration (PGlite, then PostgreSQL when DATABASE_URL is set), contract and browser tests.
// Ends with one line "N passed, N failed, N skipped" over all test cases.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];
// Named again at the very end, so a log cut to its last lines still says which tests failed.
const failedTests = [];
const { DATABASE_URL, ...withoutDatabase } = process.env;

function step(name, command, args, env = process.env) {
  console.log(`\n━━ ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  const ok = result.status === 0;
  console.log(`━━ ${name}: ${ok ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!ok) failedSteps.push(name);
  return ok;
}

const firstLine = (text = '') => text.split('\n')[0].slice(0, 300);

function vitest(name, projects, env) {
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-vitest-')), 'report.json');
  const args = [
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
  const ok = step(name, bin('vitest'), args, env);
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    for (const file of r.testResults) {
      const failed = file.assertionResults.filter((a) => a.status === 'failed');
      const where = `${name}: ${path.relative(root, file.name)}`;
      for (const test of failed)
        failedTests.push(`${where} > ${test.fullName}\n    ${firstLine(test.failureMessages[0])}`);
      // A file can fail outside its tests (an import, a hook).
      if (file.status === 'failed' && !failed.length) failedTests.push(`${where}\n    ${firstLine(file.message)}`);
    }
  } else if (!ok) totals.failed += 1;
}

step('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
step('lint', 'npm', ['run', '--silent', 'lint']);
step('api:check', bin('openapi-typescript'), ['openapi/atelier.yaml', '-o', 'openapi/schema.d.ts', '--check']);
vitest('unit and model-based tests', ['unit', 'web', 'model'], withoutDatabase);
vitest('server and contract tests on PGlite', ['server'], withoutDatabase);
if (DATABASE_URL) vitest('server and contract tests on PostgreSQL', ['server'], process.env);
vitest('browser tests in Chromium', ['e2e'], withoutDatabase);

for (const failed of failedTests) console.log(`✗ ${failed}`);
console.log(`\nSteps failed: ${failedSteps.length ? failedSteps.join(', ') : 'none'}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length ? 1 : 0);
