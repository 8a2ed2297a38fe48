import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from './executables.ts';
import { LocalRuntime } from './local-runtime.ts';
import { IsolationUnavailableError } from './types.ts';
import { processesWith, tempRuntime, type TempRuntime } from '../../tests/support/temp-runtime.ts';

/** bubblewrap's path where it can sandbox here. */
const bwrap = findOnPath('bwrap');

/** Polls until `check` holds: setsid forks before it runs its command, so that process appears a moment later. */
async function eventually(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let temp: TempRuntime;

beforeAll(async () => {
  temp = await tempRuntime({ portRange: [27000, 27999] });
  await temp.runtime.isSandboxed(); // the one-time probe of the host's protections, outside any test's time
});

afterAll(async () => {
  await temp.cleanup();
});

describe('LocalRuntime', () => {
  it('refuses conversation ids that are not plain names', async () => {
    for (const id of ['../escape', 'a/b', '.homes', '', 'x y'])
      await expect(temp.runtime.start(id)).rejects.toThrow(/Invalid conversation id/);
  });

  it('warns at start when there is no bubblewrap, and says its commands are not sandboxed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'atelier-no-bwrap-'));
    const warnings: string[] = [];
    const logger = {
      warn: (_: Record<string, unknown>, message: string) => void warnings.push(message),
      info: () => undefined,
    };
    const originalPath = process.env.PATH;
    try {
      process.env.PATH = dir; // an empty directory: no bwrap to find
      const runtime = new LocalRuntime({ rootDir: path.join(dir, 'workspaces'), logger });
      expect(await runtime.isSandboxed()).toBe(false);
      expect(warnings).toEqual([expect.stringContaining('without a sandbox')]);
    } finally {
      process.env.PATH = originalPath;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start a conversation unconfined where isolation is required, naming what to install', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'atelier-no-bwrap-'));
    const warnings: string[] = [];
    const logger = {
      warn: (_: Record<string, unknown>, message: string) => void warnings.push(message),
      info: () => undefined,
    };
    const originalPath = process.env.PATH;
    try {
      process.env.PATH = dir; // an empty directory: no bwrap to find
      const runtime = new LocalRuntime({ rootDir: path.join(dir, 'workspaces'), logger, requireIsolation: true });
      process.env.PATH = originalPath;
      const refused = runtime.start('unconfined');
      await expect(refused).rejects.toBeInstanceOf(IsolationUnavailableError);
      await expect(refused).rejects.toThrow(
        /missing bwrap \(apt-get install bubblewrap\).*install bubblewrap and passt/,
      );
      expect(warnings).toEqual([expect.stringContaining('Conversations cannot start')]);
      await expect(access(path.join(dir, 'workspaces', 'unconfined'))).rejects.toThrow(/ENOENT/);
    } finally {
      process.env.PATH = originalPath;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('returns the running session to concurrent and later starts', async () => {
    const [a, b] = await Promise.all([temp.runtime.start('same'), temp.runtime.start('same')]);
    expect(a).toBe(b);
    expect(temp.runtime.get('same')).toBe(a);
    await expect(access(path.join(a.workspaceDir, '.git'))).resolves.toBeUndefined();
    await temp.runtime.remove('same');
  });

  it('reserves distinct ports in the range for each session', async () => {
    const one = await temp.runtime.start('ports-one');
    const two = await temp.runtime.start('ports-two');
    const all = [...one.ports, ...two.ports];
    expect(new Set(all).size).toBe(4);
    for (const port of all) expect(port).toBeGreaterThanOrEqual(27000);
    for (const port of all) expect(port).toBeLessThanOrEqual(27999);
    await one.stop();
    await two.stop();
  });

  it('stop kills every process the session started and start again keeps the files', async () => {
    const session = await temp.runtime.start('restart');
    await session.writeFile('kept.txt', 'still here');
    // A background job and one that left the shell's session: neither may outlive stop().
    await session.runCommand({ command: 'sleep 3217 & setsid sleep 3218 & disown -a' });
    await eventually(() => processesWith('sleep 3217').length === 1 && processesWith('sleep 3218').length === 1);
    await session.stop();
    expect(temp.runtime.get('restart')).toBeUndefined();
    expect(processesWith('sleep 3217')).toEqual([]);
    expect(processesWith('sleep 3218')).toEqual([]);
    await expect(session.runCommand({ command: 'true' })).rejects.toThrow(/stopped/);

    const again = await temp.runtime.start('restart');
    expect(again).not.toBe(session);
    await expect(again.runCommand({ command: 'cat kept.txt' })).resolves.toMatchObject({
      output: 'still here',
      exitCode: 0,
    });
    expect(again.ports).toEqual(session.ports);
  });

  // Without the pid namespace only the shell's session is known: a process that calls setsid() itself escapes (documented in processes.ts).
  it('without the sandbox, stop still kills background jobs and their orphans', async () => {
    const unsandboxed = await tempRuntime({ sandbox: 'off' });
    try {
      const session = await unsandboxed.runtime.start('plain');
      expect(session.sandboxed).toBe(false);
      await session.runCommand({ command: 'sleep 3219 & (sleep 3220 &) ; disown -a' });
      await eventually(() => processesWith('sleep 3219').length === 1 && processesWith('sleep 3220').length === 1);
      await session.stop();
      expect([...processesWith('sleep 3219'), ...processesWith('sleep 3220')]).toEqual([]);
    } finally {
      await unsandboxed.cleanup();
    }
  });

  it('remove stops the session and deletes its workspace', async () => {
    const session = await temp.runtime.start('doomed');
    await session.writeFile('x.txt', 'x');
    await temp.runtime.remove('doomed');
    expect(temp.runtime.get('doomed')).toBeUndefined();
    await expect(access(session.workspaceDir)).rejects.toThrow(/ENOENT/);
  });
});

// Skipped only on a developer machine without bubblewrap; in CI a missing sandbox fails.
describe.skipIf(!bwrap && !process.env.CI)('sandbox', () => {
  it('lets a conversation write its workspace but not read other workspaces or the data directory', async () => {
    const a = await temp.runtime.start('sandbox-a');
    const b = await temp.runtime.start('sandbox-b');
    expect(a.sandboxed).toBe(true);
    await b.writeFile('private.txt', 'b only');
    const dbFile = path.join(temp.dataDir, 'database.db');
    await writeFile(dbFile, 'server secrets');

    await expect(a.runCommand({ command: `cat ${path.join(b.workspaceDir, 'private.txt')}` })).resolves.toMatchObject({
      exitCode: 1,
    });
    await expect(a.runCommand({ command: `cat ${dbFile}` })).resolves.toMatchObject({ exitCode: 1 });
    await expect(a.runCommand({ command: `ls ${temp.rootDir}` })).resolves.toMatchObject({
      output: expect.not.stringContaining('sandbox-b'),
    });
    await expect(a.runCommand({ command: 'touch /usr/atelier-escape' })).resolves.toMatchObject({ exitCode: 1 });

    await expect(
      a.runCommand({ command: 'echo mine > mine.txt && touch ~/home-file && cat mine.txt' }),
    ).resolves.toMatchObject({ output: 'mine', exitCode: 0 });
    expect(await a.readFile('mine.txt')).toBe('mine\n');
    await a.runCommand({ command: 'echo a > /tmp/a-only.txt' });
    await expect(b.runCommand({ command: 'cat /tmp/a-only.txt' })).resolves.toMatchObject({ exitCode: 1 });
  });
});

/** The status of GET http://<host>:<port>/ from the host, or the connection error's code. */
function fetchFromHost(host: string, port: number): Promise<number | string> {
  return new Promise((resolve) => {
    http
      .get({ host, port, path: '/', timeout: 3000 }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** bash's /dev/tcp connect, from inside the session: 'open' or 'closed' (a dropped connection attempt gives up after 2 s). */
const probe = (host: string, port: number) =>
  `timeout 2 bash -c 'echo > /dev/tcp/${host}/${port}' 2>/dev/null && echo open || echo closed`;

// Skipped only on a developer machine without bubblewrap or pasta; in CI a missing network namespace fails.
describe.skipIf(!(bwrap && findOnPath('pasta')) && !process.env.CI)('network namespace', { timeout: 30_000 }, () => {
  let hostService: http.Server;
  let hostPort: number;

  beforeAll(async () => {
    // Stands for the database and the server's own ports on the host's loopback.
    hostService = http.createServer((_request, response) => response.end('host only'));
    await new Promise<void>((resolve) => hostService.listen(0, '127.0.0.1', resolve));
    hostPort = (hostService.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => hostService.close(resolve));
  });

  it("keeps commands away from the host's loopback and its own addresses", async () => {
    const session = await temp.runtime.start('net-isolated');
    await expect(session.runCommand({ command: 'echo > /dev/null' })).resolves.toMatchObject({ exitCode: 0 });
    // The same probe from the host proves the service answers and the probe works.
    expect(await fetchFromHost('127.0.0.1', hostPort)).toBe(200);
    await expect(session.runCommand({ command: probe('127.0.0.1', hostPort) })).resolves.toMatchObject({
      output: 'closed',
    });
    const gateway = await session.runCommand({ command: "ip route | awk '/default/ {print $3}'" });
    for (const address of [gateway.output.trim(), ...hostAddresses()].filter(Boolean)) {
      await expect(session.runCommand({ command: probe(address, hostPort) })).resolves.toMatchObject({
        output: 'closed',
      });
    }
    await session.stop();
  });

  it("reaches the host's loopback only on the ports the operator opened", async () => {
    const opened = await tempRuntime({ hostPorts: [hostPort] });
    try {
      const session = await opened.runtime.start('net-opened');
      await expect(session.runCommand({ command: `curl -s http://127.0.0.1:${hostPort}/` })).resolves.toMatchObject({
        output: 'host only',
      });
      await expect(session.runCommand({ command: probe('127.0.0.1', hostPort + 1) })).resolves.toMatchObject({
        output: 'closed',
      });
    } finally {
      await opened.cleanup();
    }
  });

  it('forwards the app ports to the host’s loopback only, for the app proxy, and not into other conversations', async () => {
    const serving = await temp.runtime.start('net-serving');
    const other = await temp.runtime.start('net-other');
    const [appPort] = serving.ports;
    expect(serving.proxiedApps).toBe(true);
    expect(await serving.appTarget(appPort)).toBeNull();
    await serving.runCommand({ command: `python3 -m http.server "$APP_PORT_1" --bind 127.0.0.1 > /dev/null 2>&1 &` });
    // The server starts in the background: poll until the namespace lists it, then the target answers.
    const deadline = Date.now() + 10_000;
    let target = await serving.appTarget(appPort);
    while (!target || (await fetchFromHost(target.host, target.port)) !== 200) {
      if (Date.now() > deadline) throw new Error('the app never answered on its forwarded port');
      await new Promise((resolve) => setTimeout(resolve, 100));
      target = await serving.appTarget(appPort);
    }
    expect(target.host).toBe('127.0.0.1');
    expect(target.port).not.toBe(appPort);
    expect(await serving.servedPorts()).toEqual([appPort]);
    // Nothing of the sandbox listens on the app's own port of the host, nor on its other addresses.
    expect(await fetchFromHost('127.0.0.1', appPort)).toBe('ECONNREFUSED');
    for (const address of hostAddresses()) expect(await fetchFromHost(address, target.port)).toBe('ECONNREFUSED');
    await expect(other.runCommand({ command: probe('127.0.0.1', appPort) })).resolves.toMatchObject({
      output: 'closed',
    });
    // The Python kernel lives in the same namespace as the shell (CI has ipykernel).
    if (!(await serving.pythonUnavailable())) {
      await expect(
        serving.runPython(`import urllib.request\nurllib.request.urlopen('http://127.0.0.1:${appPort}/').status`),
      ).resolves.toMatchObject({ output: '200' });
    }
    await serving.stop();
    await other.stop();
    // Stopping frees the forwarded port on the host.
    expect(await fetchFromHost('127.0.0.1', target.port)).toBe('ECONNREFUSED');
  });
});

/** This machine's non-loopback IPv4 addresses. */
function hostAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((entry) => entry && entry.family === 'IPv4' && !entry.internal)
    .map((entry) => entry?.address ?? '');
}
