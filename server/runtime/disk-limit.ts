import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Owner } from './beneath.ts';

// How the disk limit is held on a conversation's running processes (limit-watch.ts decides when).

const CAP_SYS_RESOURCE = 24;

/** Whether this process may raise other processes' hard rlimits (some containers give root every capability but this one). */
function canRaiseHardLimits(): boolean {
  const status = readFileSync('/proc/self/status', 'utf8');
  const effective = BigInt(`0x${/^CapEff:\s*([0-9a-f]+)/m.exec(status)?.[1] ?? '0'}`);
  return (effective & (1n << BigInt(CAP_SYS_RESOURCE))) !== 0n;
}

const PRLIMIT = `import resource, sys
size, hard = int(sys.argv[1]), sys.argv[2] == 'hard'
for pid in map(int, sys.argv[3:]):
    try:
        _, limit = resource.prlimit(pid, resource.RLIMIT_FSIZE)
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (size, size) if hard else (min(size, limit), limit))
    except (OSError, ValueError):
        pass`;

export interface FileSizeTools {
  python: string;
  /** As root: runs a program as the conversation's user, to move limits it may move itself. */
  setpriv: string | null;
  user: Owner | null;
}

/**
 * Sets RLIMIT_FSIZE of running processes (Python's resource.prlimit: one process for all of
 * them). With CAP_SYS_RESOURCE both limits move, so no process can raise its own again; without
 * it only the soft one, as the processes' own user may (up to the hard limit each started with,
 * the disk limit: a process that raises its soft limit again can still grow files; see
 * stopWriters for what holds then).
 */
export function setFileSizeLimit(pids: readonly number[], bytes: number, tools: FileSizeTools): Promise<void> {
  if (!pids.length) return Promise.resolve();
  const hard = tools.user !== null && canRaiseHardLimits();
  const asUser =
    !hard && tools.user && tools.setpriv
      ? [tools.setpriv, `--reuid=${tools.user.uid}`, `--regid=${tools.user.gid}`, '--clear-groups', '--']
      : [];
  const [file = tools.python, ...args] = [
    ...asUser,
    tools.python,
    '-c',
    PRLIMIT,
    String(bytes),
    hard ? 'hard' : 'soft',
    ...pids.map(String),
  ];
  return new Promise((resolve) => execFile(file, args, () => resolve()));
}

interface ProcessInfo {
  pid: number;
  ppid: number;
  command: string;
  /** Clock ticks after boot. */
  started: number;
}

function processInfo(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return { pid, ppid: Number(fields[1]), command, started: Number(fields[19]) };
  } catch {
    return null;
  }
}

/**
 * The backstop when a conversation goes on filling its disk past the limit: SIGKILL every
 * process it runs but bubblewrap's and the first one of each sandbox (its shell, its kernel, its
 * snapshot process), so the agent still has a shell to delete files with. A process that left
 * its parent is a child of the sandbox's init too, started later than the first.
 */
export function stopWriters(pids: readonly number[]): number {
  const found = pids.map(processInfo).filter((info): info is ProcessInfo => info !== null);
  const byPid = new Map(found.map((info) => [info.pid, info]));
  const isSandbox = (info: ProcessInfo | undefined) => info?.command === 'bwrap';
  const firsts = new Set<number>();
  const children = new Map<number, ProcessInfo[]>();
  for (const info of found)
    if (!isSandbox(info) && isSandbox(byPid.get(info.ppid)))
      children.set(info.ppid, [...(children.get(info.ppid) ?? []), info]);
  for (const siblings of children.values()) firsts.add(siblings.reduce((a, b) => (b.started < a.started ? b : a)).pid);
  let stopped = 0;
  for (const info of found) {
    if (isSandbox(info) || firsts.has(info.pid)) continue;
    try {
      process.kill(info.pid, 'SIGKILL');
      stopped += 1;
    } catch {
      // gone already
    }
  }
  return stopped;
}
