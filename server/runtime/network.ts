import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { killTree } from './processes.ts';
import { findOnPath } from './executables.ts';

/**
 * Host ports forwarded into the namespace: `public` on every host address (a hosted app, which is
 * published), `loopback` on 127.0.0.1 only (the Python kernel's channels), `apps` from ports of
 * the host's loopback to a served app's port (reached through the app proxy only); and `toHost`,
 * the namespace's loopback ports that lead out to the same ports on the host's loopback (the
 * operator's choice).
 */
export interface NetworkForwards {
  public: readonly number[];
  loopback: readonly number[];
  apps?: readonly AppForward[];
  toHost: readonly number[];
}

/**
 * Where the host reaches a served app's port in the namespace: pasta keeps the address family
 * (the host's 127.0.0.1 leads to the namespace's, ::1 to its ::1) and takes one port per family.
 */
export interface AppForward {
  /** The port the app listens on in the namespace. */
  port: number;
  v4: number;
  /** Null where the host has no IPv6 loopback. */
  v6: number | null;
}

const START_TIMEOUT_MS = 10_000;
const HOST_RESOLV_CONF = '/etc/resolv.conf';
/** systemd-resolved's list of the upstream servers behind its stub on 127.0.0.53. */
const UPSTREAM_RESOLV_CONF = '/run/systemd/resolve/resolv.conf';

const nameservers = (resolvConf: string) =>
  [...resolvConf.matchAll(/^\s*nameserver\s+(\S+)/gm)].map((match) => match[1] ?? '');
const isLoopback = (address: string) => /^127\./.test(address) || address === '::1';

/**
 * The resolv.conf sandboxed commands need in their namespace. A resolver on the host's
 * loopback (systemd-resolved's stub) is out of the namespace's reach, and this pasta will
 * not relay to one, so they get the upstream servers behind it instead, as container
 * engines do. `resolvConf` null keeps the host's file; `problem` says when names cannot be
 * resolved at all.
 */
export async function sandboxResolvConf(
  hostPath = HOST_RESOLV_CONF,
  upstreamPath = UPSTREAM_RESOLV_CONF,
): Promise<{ resolvConf: string | null; problem?: string }> {
  const host = nameservers(await readFile(hostPath, 'utf8').catch(() => ''));
  if (!host.some(isLoopback)) return { resolvConf: null };
  const upstream = nameservers(await readFile(upstreamPath, 'utf8').catch(() => ''));
  if (upstream.some((server) => !isLoopback(server))) return { resolvConf: upstreamPath };
  return {
    resolvConf: null,
    problem: `the host's resolver (${hostPath}) listens on its loopback and no upstream servers are listed in ${upstreamPath}: sandboxed commands cannot resolve names`,
  };
}

/**
 * One conversation's network namespace, made and connected by pasta (Debian's `passt`):
 * outgoing connections leave through the host's sockets as the server's own would, but
 * the host's loopback — the database, the server's internal ports, other conversations'
 * apps — is out of reach (`--no-map-gw`, and no namespace-to-host forwarding), and only
 * the listed ports are forwarded in. The namespace lives as long as a holder process
 * pasta starts in it; every sandboxed process joins it with nsenter. The holder reads a pipe
 * from this process, so when the server dies, even by SIGKILL, the holder sees its end and
 * exits, and pasta with it: no namespace or forwarded port outlives the server.
 */
export class IsolatedNetwork {
  private constructor(
    private readonly pasta: ChildProcess,
    private readonly holderPid: number,
    private readonly nsenterPath: string,
    /** A resolv.conf to mount over the host's inside the sandbox (see sandboxResolvConf). */
    readonly resolvConf: string | null,
  ) {}

  /** The /proc directory of a process inside the namespace, whose net/ tables are the namespace's. */
  get procDir(): string {
    return `/proc/${this.holderPid}`;
  }

  static async start(tools: NetworkTools, forwards: NetworkForwards, controlDir: string): Promise<IsolatedNetwork> {
    const pidFile = path.join(controlDir, 'pasta.pid');
    await rm(pidFile, { force: true });
    const tcp = [
      forwards.public.join(','),
      forwards.loopback.length ? `127.0.0.1/${forwards.loopback.join(',')}` : '',
      ...(forwards.apps ?? []).flatMap((app) => [
        `127.0.0.1/${app.v4}:${app.port}`,
        ...(app.v6 === null ? [] : [`::1/${app.v6}:${app.port}`]),
      ]),
    ].filter(Boolean);
    const args = [
      // As root pasta would switch to nobody, which may not join the namespaces it made.
      ...(process.getuid?.() === 0 ? ['--runas', '0'] : []),
      '--config-net',
      '--no-map-gw',
      '--quiet',
      '--foreground',
      '--pid',
      pidFile,
      ...(tcp.length ? tcp.flatMap((spec) => ['-t', spec]) : ['-t', 'none']),
      '-u',
      'none',
      // pasta's default forwards every port bound on the host's loopback into the namespace: exactly what must not happen.
      '-T',
      forwards.toHost.length ? forwards.toHost.join(',') : 'none',
      '-U',
      'none',
      '--',
      'cat',
    ];
    // Its own session, so stop() can kill pasta and the holder together; the holder inherits pasta's stdin.
    const pasta = spawn(tools.pasta, args, { detached: true, stdio: ['pipe', 'ignore', 'pipe'] });
    let errors = '';
    pasta.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString('utf8')).slice(-2000)));
    const exited = new Promise<number | null>((resolve) => pasta.once('exit', resolve));
    const deadline = Date.now() + START_TIMEOUT_MS;
    try {
      // pasta writes its pid file once the namespace is configured and the ports are bound.
      for (;;) {
        const code = await Promise.race([exited, delay(10).then(() => undefined)]);
        if (code !== undefined) throw new Error(`pasta exited with ${code}: ${meaningful(errors) || 'no message'}`);
        const ready = await readFile(pidFile).then(
          () => true,
          () => false,
        );
        const holder = ready ? await childOf(pasta.pid) : null;
        if (holder) return new IsolatedNetwork(pasta, holder, tools.nsenter, tools.resolvConf);
        if (Date.now() > deadline)
          throw new Error(
            `pasta did not start within ${START_TIMEOUT_MS / 1000} s: ${meaningful(errors) || 'no message'}`,
          );
      }
    } catch (error) {
      if (pasta.pid !== undefined) await killTree(pasta.pid);
      throw error;
    }
  }

  /** The argv that runs `argv` inside the namespace. */
  enter(argv: readonly string[]): string[] {
    const ns = `/proc/${this.holderPid}/ns`;
    // Outside root, joining the network namespace needs its owner, pasta's user namespace, first.
    const user = process.getuid?.() === 0 ? [] : [`--user=${ns}/user`, '--preserve-credentials'];
    return [this.nsenterPath, ...user, `--net=${ns}/net`, '--', ...argv];
  }

  async stop(): Promise<void> {
    if (this.pasta.pid !== undefined) await killTree(this.pasta.pid);
  }
}

export interface NetworkTools {
  pasta: string;
  nsenter: string;
  resolvConf: string | null;
}

/**
 * pasta and nsenter, and the resolv.conf, when a namespace can be made and joined here;
 * else why not. `dnsProblem` when it can, but names will not resolve in it.
 */
export async function detectNetworkIsolation(
  scratchDir: string,
  dns = sandboxResolvConf(),
): Promise<{ tools: NetworkTools; dnsProblem?: string } | { problem: string }> {
  const pasta = findOnPath('pasta');
  const nsenter = findOnPath('nsenter');
  if (!pasta) return { problem: 'pasta is not on PATH (Debian package passt)' };
  if (!nsenter) return { problem: 'nsenter is not on PATH (util-linux)' };
  const { resolvConf, problem: dnsProblem } = await dns;
  const tools = { pasta, nsenter, resolvConf };
  let network: IsolatedNetwork | null = null;
  try {
    network = await IsolatedNetwork.start(tools, { public: [], loopback: [], toHost: [] }, scratchDir);
    const [file = '', ...args] = network.enter(['true']);
    await new Promise<void>((resolve, reject) =>
      execFile(file, args, { timeout: 5000 }, (error, _stdout, stderr) =>
        error ? reject(new Error(stderr.trim() || error.message)) : resolve(),
      ),
    );
    return { tools, ...(dnsProblem ? { dnsProblem } : {}) };
  } catch (error) {
    return {
      problem: `a network namespace cannot be made or joined here: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    await network?.stop();
  }
}

/** pasta's first child: the holder it started in the namespace. */
async function childOf(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  const first = Number(children.trim().split(' ')[0]);
  return Number.isInteger(first) && first > 0 ? first : null;
}

/** pasta's stderr without the lines about a missing syslog, which every container prints. */
function meaningful(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => line.trim() && !line.includes('syslog'))
    .join('; ');
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
