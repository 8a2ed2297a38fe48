import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSocketPath, serveAdminChannel } from '../../server/cli/admin-channel.ts';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, listen, runInTerminal, signUp, SocketClient } from '../support/conversations.ts';
import { sandboxAvailable } from '../support/sandbox.ts';

// An attacker's commands in a conversation's shell (the terminal's `run` action reaches the shell
// the agent uses) on a hosted-mode server, which runs as root in CI as on most containers. Each
// attack prints ESCAPED if it works. It is run on the host too, as the server's user (in a private
// mount namespace where it would change the host), to prove it would be noticed.

const t = withTestApp({ APP_MODE: 'saas' });
const workspaces = () => fs.realpathSync(path.join(t.database.dataDir, 'workspaces'));

let socket: SocketClient;
let otherWorkspace: string;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
/** Unix sockets of the host that answer ESCAPED to whoever connects: under /run and /tmp, and the operator's. */
const hostSockets: string[] = [];
let hostProcess: ChildProcess;

/** A Unix socket of the host answering ESCAPED. */
async function hostSocket(file: string): Promise<string> {
  const server = net.createServer((connection) => connection.end('ESCAPED\n'));
  await new Promise<void>((resolve) => server.listen(file, resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return file;
}

beforeAll(async () => {
  if (!sandboxAvailable) return;
  const baseUrl = await listen(t.app);
  const attacker = await signUp(t.app, t.db, 'attacker@acme.example');
  const victim = await signUp(t.app, t.db, 'victim@acme.example');
  const own = await createRunning(t.app, attacker.token);
  const theirs = await createRunning(t.app, victim.token);
  await call(t.app, 'POST', `/api/conversations/${theirs.conversation_id}/save-file`, {
    token: victim.token,
    body: { path: 'private.txt', content: 'the victim’s work' },
  });
  otherWorkspace = path.join(workspaces(), theirs.conversation_id);
  socket = await SocketClient.open(
    baseUrl,
    { conversation_id: own.conversation_id, latest_event_id: -1 },
    { authorization: `Bearer ${attacker.token}` },
  );
  const tag = randomBytes(4).toString('hex');
  hostSockets.push(await hostSocket(path.join('/run', `atelier-test-${tag}.sock`)));
  hostSockets.push(await hostSocket(path.join(os.tmpdir(), `atelier-test-${tag}.sock`)));
  // The operator's channel, with a command runner that says what it would run.
  const admin = await serveAdminChannel(adminSocketPath(t.database.dataDir), async (args) => ({
    code: 0,
    lines: [`ESCAPED ${args.join(' ')}`],
  }));
  cleanups.push(() => admin.close());
  hostProcess = spawn('sleep', ['600'], { stdio: 'ignore' });
  cleanups.push(() => hostProcess.kill());
}, 120_000);

afterAll(async () => {
  await socket?.close();
  for (const cleanup of cleanups) await cleanup();
});

/** What the command printed in the conversation's shell. */
const inside = async (command: string) => String((await runInTerminal(socket, command)).content ?? '');

/** What it printed on the host, as the server's user. */
const onHost = (command: string) =>
  new Promise<string>((resolve) =>
    execFile('bash', ['-c', command], { encoding: 'utf8', timeout: 20_000 }, (_error, stdout, stderr) =>
      resolve(`${stdout}${stderr}`),
    ),
  );

/** Connects to a Unix socket and prints what it answers. */
const connectTo = (file: string) =>
  `/usr/bin/python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${file}'); print(s.recv(100).decode())"`;

interface Attack {
  name: string;
  command: () => string;
  /** The control run's form, where the command as it is would change the host. */
  control?: (command: string) => string;
}

const privately = (command: string) =>
  `unshare --mount --propagation private bash -c '${command.replace(/'/g, `'\\''`)}'`;

const ATTACKS: Attack[] = [
  {
    name: 'unmount /tmp',
    command: () => 'umount -l /tmp && echo ESCAPED',
    control: (command) => privately(`mount -t tmpfs none /tmp && ${command}`),
  },
  {
    name: 'remount a read-only directory writable',
    command: () => 'mount -o remount,bind,rw /etc && echo ESCAPED',
    control: (command) => privately(`mount --bind -o ro /etc /etc && ${command}`),
  },
  {
    name: 'mount a new /proc (every host process)',
    command: () => 'mkdir -p /tmp/p && mount -t proc proc /tmp/p && ls /tmp/p | grep -q "^1$" && echo ESCAPED',
    control: (command) => `unshare --mount --pid --fork --propagation private bash -c '${command}'`,
  },
  { name: 'read the secret key', command: () => `cat ${t.database.dataDir}/secret.key > /dev/null && echo ESCAPED` },
  {
    name: 'list the data directory',
    command: () => `ls -a ${t.database.dataDir} | grep -q secret.key && echo ESCAPED`,
  },
  { name: "read another user's workspace", command: () => `cat ${otherWorkspace}/private.txt && echo ESCAPED` },
  {
    name: "list the other users' workspaces",
    command: () => `ls -a ${workspaces()} | grep -q ${path.basename(otherWorkspace)} && echo ESCAPED`,
  },
  { name: 'connect to a socket of the host under /run', command: () => connectTo(hostSockets[0] as string) },
  { name: 'connect to a socket of the host under /tmp', command: () => connectTo(hostSockets[1] as string) },
  {
    name: "use the operator's socket to grant credits",
    command: () =>
      `curl -s --unix-socket ${adminSocketPath(t.database.dataDir)} -d '{"args":["grant-credits","attacker@acme.example","1000000"]}' http://admin/commands`,
  },
  { name: 'write a system directory', command: () => 'touch /usr/escaped-by-test && echo ESCAPED', control: privately },
  {
    name: 'write the data directory',
    command: () => `touch ${t.database.dataDir}/escaped-by-test && echo ESCAPED`,
    control: privately,
  },
  {
    name: "write another user's workspace",
    command: () => `touch ${otherWorkspace}/escaped-by-test && echo ESCAPED`,
    control: privately,
  },
  {
    name: 'make a user namespace with privileges',
    command: () => 'unshare --user --map-root-user true && echo ESCAPED',
  },
  { name: 'make a mount namespace', command: () => 'unshare --mount true && echo ESCAPED' },
  {
    name: "enter a host process's namespaces",
    command: () => `nsenter -t ${hostProcess.pid} -m -u -i -n -p true && echo ESCAPED`,
  },
  {
    name: "enter the sandbox's first process's namespaces",
    command: () => 'nsenter -t 1 -m true && echo ESCAPED',
    control: () => `nsenter -t ${hostProcess.pid} -m true && echo ESCAPED`,
  },
  {
    name: 'trace a process of the host',
    command: () =>
      `/usr/bin/python3 -c "import ctypes; libc = ctypes.CDLL(None, use_errno=True); r = libc.ptrace(16, ${hostProcess.pid}, 0, 0); print('ESCAPED' if r == 0 else ctypes.get_errno())"`,
  },
  { name: 'signal a process of the host', command: () => `kill -0 ${hostProcess.pid} && echo ESCAPED` },
  {
    name: "read the server's environment",
    command: () => `cat /proc/${process.pid}/environ > /dev/null && echo ESCAPED`,
  },
  {
    name: 'use a kernel keyring',
    command: () =>
      `/usr/bin/python3 -c "import ctypes; libc = ctypes.CDLL(None, use_errno=True); r = libc.syscall(250, 0, -3, 0, 0, 0); print('ESCAPED' if r >= 0 else ctypes.get_errno())"`,
  },
];

// Skipped only on a developer machine without bubblewrap or pasta; CI always has them.
describe.skipIf(!sandboxAvailable)('a conversation’s sandbox, attacked from inside', { timeout: 120_000 }, () => {
  it.each(ATTACKS)('refuses: $name', async ({ command, control }) => {
    const attack = command();
    expect(await onHost(control ? control(attack) : attack), 'the control run, outside the sandbox').toContain(
      'ESCAPED',
    );
    expect(await inside(attack)).not.toContain('ESCAPED');
  });

  it('runs as an unprivileged user with no capability, not even in its bounding set, under no_new_privs and seccomp', async () => {
    const read = `id -u; grep -E '^(CapEff|CapPrm|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status`;
    const host = await onHost(read);
    expect(host).toMatch(/CapBnd:\s+0*[1-9a-f]/);
    const status = await inside(read);
    const uid = Number(status.split('\n')[0]);
    expect(uid).toBeGreaterThan(65534);
    for (const field of ['CapEff', 'CapPrm', 'CapBnd', 'CapAmb'])
      expect(status).toMatch(new RegExp(`${field}:\\s+0+\\s`));
    expect(status).toMatch(/NoNewPrivs:\s+1/);
    expect(status).toMatch(/Seccomp:\s+2/);
  });

  it('sees only its own processes, and only system directories of the host', async () => {
    const processes = await inside('ls /proc | grep -c "^[0-9]"');
    expect(Number(processes)).toBeLessThan(20);
    const top = (await inside('ls -A /')).split(/\s+/).filter(Boolean).sort();
    for (const hidden of ['home', 'root', 'srv', 'mnt', 'media', 'run', 'opt', 'boot', 'sys'])
      expect(top).not.toContain(hidden);
    expect(await inside('ls -A /var')).toBe('tmp');
  });

  it('still feels like a normal shell: a home, its own /tmp, pip --user, npm, git', async () => {
    const output = await inside(
      'echo $HOME && touch ~/.profile-test && echo tmp > /tmp/x && cat /tmp/x && whoami && ' +
        'python3 -m pip --version > /dev/null && echo pip && npm --version > /dev/null && echo npm && ' +
        'git init -q scratch && echo git',
    );
    expect(output).toMatch(/\.homes\//);
    expect(output).toContain('tmp\nuser\npip\nnpm\ngit');
  });
});
