import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Owner } from './beneath.ts';
import type { ConversationCgroup } from './cgroups.ts';
import { findOnPath } from './executables.ts';
import type { IsolatedNetwork } from './network.ts';
import { seccompFilter } from './seccomp.ts';

/** Where one conversation's processes run: the directories they may write (everything else is read-only or absent), their user, group and network. */
export interface SandboxScope {
  workspaceDir: string;
  homeDir: string;
  /** Mounted as /tmp: one per conversation, so its shell, kernel and git see the same temporary files. */
  tmpDir: string;
  /**
   * The server's files for the sandbox's processes (the shell's rc and command files, the
   * kernel's connection file, passwd and group): read-only inside, and outside every directory
   * the sandbox can write, so nothing there can be swapped for a link the server would follow.
   */
  controlDir: string;
  /** The conversation's own network namespace; null shares the host's network. */
  network: IsolatedNetwork | null;
  /** The host user its processes run as; null: the server's own (a server that is not root cannot switch). */
  user: Owner | null;
  /** The conversation's control group, which every process it starts joins; null where none can be made. */
  cgroup: ConversationCgroup | null;
  /** `prlimit` options for a process started now (the file size limit drops while the workspace is over its disk limit). */
  rlimits: () => string[];
}

/** The host programs the sandbox is made of. */
export interface SandboxTools {
  bwrap: string;
  bash: string;
  prlimit: string;
  nice: string;
  /** Only as root: switches to the conversation's user inside the sandbox. */
  setpriv: string | null;
  /** The seccomp filter's file (server-owned), or null where none is known for this architecture. */
  seccomp: string | null;
}

/** Host user ids given to sandboxes (one per conversation, from its id's hash): far above any system or login user. */
export const SANDBOX_UID_BASE = 1_500_000_000;
const SANDBOX_UID_COUNT = 2 ** 24;

/**
 * The host user a conversation's (or a hosted app's) processes run as when the server runs as
 * root: its own unprivileged uid and gid, so the kernel keeps its files and processes apart from
 * the server's and other conversations'. Two keys sharing one by chance (one in 16.7 million per
 * pair) still see only their own workspaces. Null when the server is not root: it cannot switch.
 */
export function sandboxUser(key: string): Owner | null {
  if (process.getuid?.() !== 0) return null;
  const uid = SANDBOX_UID_BASE + (createHash('sha256').update(key).digest().readUInt32BE(0) % SANDBOX_UID_COUNT);
  return { uid, gid: uid };
}

/** passwd and group for the sandbox: its user (name `user`, its home), root and nobody; nothing of the host's accounts. */
export async function writeAccountFiles(controlDir: string, user: Owner | null, homeDir: string): Promise<void> {
  const uid = user?.uid ?? process.getuid?.() ?? 1000;
  const gid = user?.gid ?? process.getgid?.() ?? 1000;
  await writeFile(
    path.join(controlDir, 'passwd'),
    `root:x:0:0:root:/root:/usr/sbin/nologin\nuser:x:${uid}:${gid}:Atelier workspace:${homeDir}:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
  );
  await writeFile(path.join(controlDir, 'group'), `root:x:0:\nuser:x:${gid}:\nnogroup:x:65534:\n`);
}

/**
 * Runs as the server's user (root or not) before the sandbox: joins the conversation's control
 * groups (everything it starts stays in them), opens the seccomp filter for bwrap on fd 9, then
 * runs the rest. A file that would grow past the file size limit fails with "File too large"
 * instead of killing the process (SIGXFSZ ignored, as everything started after inherits).
 * Arguments: the count of cgroup.procs files, the files, the filter's path or '', then the command.
 */
const LAUNCHER = `trap '' XFSZ
n=$1; shift
while [ "$n" -gt 0 ]; do printf '%s\\n' "$$" > "$1" || exit 125; shift; n=$((n - 1)); done
if [ -n "$1" ]; then exec 9<"$1" || exit 125; fi
shift
exec "$@"`;

const SYSTEM_DIRS = ['/usr', '/etc'];
const ROOT_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** /dev/shm's size: POSIX shared memory is the conversation's memory too. */
const SHM_BYTES = 256 * 2 ** 20;

/**
 * The host's system directories the sandbox sees, read-only: /usr, /etc and the root's links or
 * directories into them, and any other directory given (an interpreter installed elsewhere).
 * Nothing else of the host: not its /run, /tmp, /home, /root, /srv, /mnt, /media, /var, /opt,
 * nor any data directory or socket.
 */
function systemBinds(extraDirs: readonly string[]): { args: string[]; dirs: string[] } {
  const dirs = [...SYSTEM_DIRS];
  const links: string[] = [];
  for (const name of ROOT_LINKS) {
    const stats = lstatSync(name, { throwIfNoEntry: false });
    if (stats?.isSymbolicLink()) links.push('--symlink', readlinkSync(name), name);
    else if (stats?.isDirectory()) dirs.push(name);
  }
  dirs.push(...extraDirs);
  return { args: [...dirs.flatMap((dir) => ['--ro-bind', dir, dir]), ...links], dirs };
}

const within = (dir: string, parent: string) => dir === parent || dir.startsWith(parent + path.sep);

/** A path's ancestors below the root, outermost first, without /tmp (the sandbox's own). */
function ancestorsOf(dir: string): string[] {
  const found: string[] = [];
  for (let current = path.dirname(dir); current !== path.dirname(current); current = path.dirname(current))
    if (current !== '/tmp') found.unshift(current);
  return found;
}

/**
 * The installation a program runs from (its `bin/`'s parent), when it lies outside the system
 * directories the sandbox sees: bound read-only so node (the snapshot process) or a configured
 * Python work inside.
 */
export function installationOf(program: string): string | null {
  let real: string;
  try {
    real = realpathSync(program);
  } catch {
    return null;
  }
  if ([...SYSTEM_DIRS, ...ROOT_LINKS].some((dir) => within(real, dir))) return null;
  return path.dirname(path.dirname(real));
}

/**
 * Confines commands with bubblewrap. Each runs in namespaces of its own (mounts, processes,
 * IPC, host name, control groups; the network is the conversation's), sees only the system
 * directories above, its own /dev, /proc and /tmp, and its workspace, home and control
 * directory, under a seccomp filter (seccomp.ts) and no_new_privs, in its control group and
 * under rlimits.
 *
 * Its user: a server running as root starts bwrap as root, which mounts (sources are resolved by
 * root, whatever the data directory's parents allow) and keeps only the capabilities to switch
 * user; `setpriv` then becomes the conversation's own uid and gid with no capability left, not
 * even in its bounding set. Otherwise bwrap runs as the server's user in a user namespace of its
 * own, where it makes no further ones. Without bwrap, commands run as they are: `sandboxed` says
 * which.
 */
export class Sandbox {
  readonly sandboxed: boolean;
  private readonly system: { args: string[]; dirs: string[] };

  constructor(
    private readonly tools: SandboxTools | null,
    /** Directories never to show (the server's data directory), hidden where a bound directory holds them. */
    private readonly hiddenDirs: readonly string[],
    extraDirs: readonly string[] = [],
  ) {
    this.sandboxed = tools !== null;
    this.system = tools ? systemBinds(extraDirs) : { args: [], dirs: [] };
  }

  /** The argv that runs `argv` confined to `scope`; `network: false` leaves only a loopback of its own (for git, which rarely needs more). */
  wrap(argv: readonly string[], scope: SandboxScope, options: { network: boolean } = { network: true }): string[] {
    const tools = this.tools;
    if (!tools) return [...argv];
    const hidden = [...new Set(this.hiddenDirs.map((dir) => path.resolve(dir)))]
      .filter((dir) => this.system.dirs.some((bound) => within(dir, bound)))
      .sort((a, b) => a.length - b.length);
    const asRoot = scope.user !== null;
    // bwrap makes a destination's missing parents 0700, which the sandbox's user could not pass.
    const parents = [...new Set([scope.workspaceDir, scope.homeDir, scope.controlDir].flatMap(ancestorsOf))]
      .filter((dir) => !this.system.dirs.some((bound) => within(dir, bound)))
      .sort((a, b) => a.length - b.length);
    const bwrap = [
      tools.bwrap,
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-cgroup-try',
      ...(options.network ? [] : ['--unshare-net']),
      ...(asRoot
        ? // To switch user; and to enter the workspace whatever mode its user gave it (setpriv drops them all).
          [
            '--cap-drop',
            'ALL',
            ...['CAP_SETUID', 'CAP_SETGID', 'CAP_SETPCAP', 'CAP_DAC_READ_SEARCH'].flatMap((cap) => ['--cap-add', cap]),
          ]
        : // Its own uid named: with --disable-userns and none, bwrap maps the server's user to root in the namespace.
          [
            '--unshare-user',
            '--disable-userns',
            '--uid',
            String(process.getuid?.() ?? 1000),
            '--gid',
            String(process.getgid?.() ?? 1000),
            '--cap-drop',
            'ALL',
          ]),
      '--die-with-parent',
      '--hostname',
      'workspace',
      ...this.system.args,
      '--ro-bind',
      path.join(scope.controlDir, 'passwd'),
      '/etc/passwd',
      '--ro-bind',
      path.join(scope.controlDir, 'group'),
      '/etc/group',
      ...(options.network && scope.network?.resolvConf
        ? ['--ro-bind', scope.network.resolvConf, '/etc/resolv.conf']
        : []),
      '--dev',
      '/dev',
      '--perms',
      '1777',
      '--size',
      String(SHM_BYTES),
      '--tmpfs',
      '/dev/shm',
      '--proc',
      '/proc',
      ...hidden.flatMap((dir) => ['--tmpfs', dir]),
      '--bind',
      scope.tmpDir,
      '/tmp',
      '--perms',
      '0755',
      '--dir',
      '/var',
      '--symlink',
      '/tmp',
      '/var/tmp',
      ...parents.flatMap((dir) => ['--perms', '0755', '--dir', dir]),
      '--bind',
      scope.workspaceDir,
      scope.workspaceDir,
      '--bind',
      scope.homeDir,
      scope.homeDir,
      '--ro-bind',
      scope.controlDir,
      scope.controlDir,
      '--chdir',
      scope.workspaceDir,
      ...(tools.seccomp ? ['--seccomp', '9'] : []),
      '--',
      ...(asRoot && tools.setpriv
        ? [
            tools.setpriv,
            `--reuid=${scope.user?.uid}`,
            `--regid=${scope.user?.gid}`,
            '--clear-groups',
            '--inh-caps=-all',
            '--bounding-set=-all',
            '--no-new-privs',
            '--',
          ]
        : []),
      ...argv,
    ];
    // Without a cpu controller, a lower priority is the conversation's share of the CPU.
    const niced = scope.cgroup?.controllers.includes('cpu') ? bwrap : [tools.nice, '-n', '10', ...bwrap];
    const limited = [tools.prlimit, ...scope.rlimits(), '--', ...niced];
    // bwrap shares the network it starts in: the conversation's namespace when there is one.
    const networked = options.network && scope.network ? scope.network.enter(limited) : limited;
    const procs = scope.cgroup?.procsFiles ?? [];
    return [
      tools.bash,
      '-c',
      LAUNCHER,
      'atelier-sandbox',
      String(procs.length),
      ...procs,
      tools.seccomp ?? '',
      ...networked,
    ];
  }
}

/**
 * The sandbox's programs, when every one is here; else what is missing and how to install it.
 * The seccomp filter is written into `controlRoot` (server-owned).
 */
export async function findSandboxTools(controlRoot: string): Promise<SandboxTools | { problem: string }> {
  const missing: string[] = [];
  const need = (name: string, install: string) => {
    const found = findOnPath(name);
    if (!found) missing.push(`${name} (${install})`);
    return found ?? '';
  };
  const bwrap = need('bwrap', 'apt-get install bubblewrap');
  const bash = need('bash', 'apt-get install bash');
  const prlimit = need('prlimit', 'apt-get install util-linux');
  const nice = need('nice', 'apt-get install coreutils');
  const setpriv = process.getuid?.() === 0 ? need('setpriv', 'apt-get install util-linux') : null;
  if (missing.length) return { problem: `missing ${missing.join(', ')}` };
  const filter = seccompFilter();
  let seccomp: string | null = null;
  if (filter) {
    seccomp = path.join(controlRoot, 'seccomp.bpf');
    await writeFile(seccomp, filter, { mode: 0o644 });
  }
  return { bwrap, bash, prlimit, nice, setpriv, seccomp };
}

/** Runs `argv` once through `wrap` (a sandbox's first command): null when it worked, else why not. */
export function probe(argv: string[]): Promise<string | null> {
  const [file = '', ...args] = argv;
  return new Promise((resolve) => {
    execFile(file, args, { encoding: 'utf8', timeout: 10_000 }, (error, _stdout, stderr) =>
      resolve(error ? (stderr || error.message).trim() : null),
    );
  });
}
