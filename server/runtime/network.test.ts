import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from './executables.ts';
import { detectNetworkIsolation, IsolatedNetwork, sandboxResolvConf } from './network.ts';
import { findSandboxTools, Sandbox, sandboxUser, writeAccountFiles } from './sandbox.ts';
import { processesWith } from '../../tests/support/temp-runtime.ts';

/** bubblewrap's path where it can sandbox here. */
const bwrap = findOnPath('bwrap');

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'atelier-network-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('sandboxResolvConf', () => {
  const files = async (host: string, upstream: string | null) => {
    const dir = await mkdtemp(path.join(scratch, 'dns-'));
    await writeFile(path.join(dir, 'host'), host);
    if (upstream !== null) await writeFile(path.join(dir, 'upstream'), upstream);
    return [path.join(dir, 'host'), path.join(dir, 'upstream')] as const;
  };

  it("keeps the host's resolv.conf when its resolver is reachable from the namespace", async () => {
    await expect(sandboxResolvConf(...(await files('nameserver 10.255.255.53\n', null)))).resolves.toEqual({
      resolvConf: null,
    });
  });

  it("gives the upstream servers when the host's resolver is its loopback stub", async () => {
    const [host, upstream] = await files(
      'nameserver 127.0.0.53\noptions edns0\n',
      'nameserver 192.0.2.53\nsearch corp.example\n',
    );
    await expect(sandboxResolvConf(host, upstream)).resolves.toEqual({ resolvConf: upstream });
  });

  it('says names will not resolve when there is nothing but the loopback stub', async () => {
    const [host, upstream] = await files('nameserver 127.0.0.53\n', null);
    await expect(sandboxResolvConf(host, upstream)).resolves.toEqual({
      resolvConf: null,
      problem: expect.stringContaining('cannot resolve names'),
    });
  });
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
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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

  it.skipIf(!bwrap && !process.env.CI)(
    'mounts the upstream resolv.conf inside the sandbox when the host resolves on its loopback',
    async () => {
      const dir = await mkdtemp(path.join(scratch, 'sandbox-'));
      const user = sandboxUser('resolv-test');
      for (const sub of ['workspace', 'home', 'tmp', 'control']) await mkdir(path.join(dir, sub), { mode: 0o755 });
      await writeAccountFiles(path.join(dir, 'control'), user, path.join(dir, 'home'));
      await writeFile(path.join(dir, 'host-resolv.conf'), 'nameserver 127.0.0.53\n');
      await writeFile(path.join(dir, 'upstream-resolv.conf'), 'nameserver 192.0.2.53\nsearch corp.example\n');
      const found = await detectNetworkIsolation(
        scratch,
        sandboxResolvConf(path.join(dir, 'host-resolv.conf'), path.join(dir, 'upstream-resolv.conf')),
      );
      if (!('tools' in found)) throw new Error(found.problem);
      const network = await IsolatedNetwork.start(found.tools, { public: [], loopback: [], toHost: [] }, dir);
      try {
        const tools = await findSandboxTools(path.join(dir, 'control'));
        if ('problem' in tools) throw new Error(tools.problem);
        const sandbox = new Sandbox(tools, []);
        const [file = '', ...args] = sandbox.wrap(['cat', '/etc/resolv.conf'], {
          workspaceDir: path.join(dir, 'workspace'),
          homeDir: path.join(dir, 'home'),
          tmpDir: path.join(dir, 'tmp'),
          controlDir: path.join(dir, 'control'),
          network,
          user,
          cgroup: null,
          rlimits: () => [],
        });
        const output = await new Promise<string>((resolve, reject) =>
          execFile(file, args, { timeout: 10_000 }, (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message} ${stderr}`)) : resolve(stdout),
          ),
        );
        expect(output).toBe('nameserver 192.0.2.53\nsearch corp.example\n');
      } finally {
        await network.stop();
      }
    },
  );
});
