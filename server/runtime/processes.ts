import { readdirSync, readFileSync } from 'node:fs';

interface ProcessEntry {
  pid: number;
  ppid: number;
  session: number;
  state: string;
}

function readProcess(pid: number): ProcessEntry | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // gone
  }
  // `pid (comm) state ppid pgrp session …`; comm may hold spaces and parentheses, so split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pid, ppid: Number(fields[1]), session: Number(fields[3]), state: fields[0] ?? '' };
}

function readProcesses(): ProcessEntry[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcess(Number(name)))
    .filter((entry) => entry !== null);
}

/** The process and everything it started: its descendants and, since it leads its own session, every process of that session (orphans reparented to init included). */
export function processTree(rootPid: number): number[] {
  const all = readProcesses();
  const found = new Set<number>([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (found.has(p.pid)) continue;
      if (found.has(p.ppid) || p.session === rootPid) {
        found.add(p.pid);
        grew = true;
      }
    }
  }
  return [...found].filter((pid) => all.some((p) => p.pid === pid));
}

/**
 * SIGKILLs a process and everything it started, and waits (up to `timeoutMs`) until they
 * are gone: a killed process still holds its memory and files for a moment. Background
 * jobs of an interactive shell sit in their own process groups, so killing the group
 * alone would leak them; Linux's /proc is the only place that knows sessions and
 * parents. A daemon that forked away into a session of its own is out of reach here;
 * inside bwrap's pid namespace it dies with the namespace instead.
 */
export async function killTree(rootPid: number, timeoutMs = 3000): Promise<void> {
  const pids = processTree(rootPid);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + timeoutMs;
  // A zombie ('Z') has released everything; only its parent's wait() is missing.
  const running = () => pids.some((pid) => !['Z', 'X', undefined].includes(readProcess(pid)?.state));
  while (running() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}
