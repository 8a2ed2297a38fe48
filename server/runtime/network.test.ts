import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from './executables.ts';
import { detectNetworkIsolation } from './network.ts';
import { processesWith } from './test-helpers.ts';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'atelier-network-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

// Skipped only on a developer machine without pasta; in CI a missing network namespace fails.
describe.skipIf(!findOnPath('pasta') && !process.env.CI)('IsolatedNetwork', { timeout: 30_000 }, () => {
  it('can be made and joined here', async () => {
    await expect(detectNetworkIsolation(scratch)).resolves.toHaveProperty('tools');
  });

  it('ends with the process that made it, even one killed with SIGKILL', async () => {
    const marker = path.join(scratch, 'killed');
    // A server stand-in: makes a namespace with a forwarded port, says so, then waits to be killed.
    const script = `
      import { detectNetworkIsolation, IsolatedNetwork } from ${JSON.stringify(path.resolve('server/runtime/network.ts'))};
      const found = await detectNetworkIsolation(${JSON.stringify(scratch)});
      if (!('tools' in found)) throw new Error(found.problem);
      await IsolatedNetwork.start(found.tools, { public: [], loopback: [], toHost: [] }, ${JSON.stringify(marker)});
      console.log('ready');
      setInterval(() => undefined, 1000);
    `;
    await mkdir(marker);
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`the stand-in exited with ${code}`)));
    });
    // pasta's command line names its pid file in the marker directory; it exits once its holder has.
    const pastas = () => processesWith(marker).filter((pid) => pid !== child.pid);
    expect(pastas().length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    const deadline = Date.now() + 5000;
    while (pastas().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pastas()).toEqual([]);
  });
});
