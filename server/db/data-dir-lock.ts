import fs from 'node:fs';
import path from 'node:path';

// PGlite is one process's database: a second process opening the same files corrupts them or
// loses its writes. Whoever opens the embedded database holds this lock file first.

/** What the lock file says about the process that holds it. */
export interface LockHolder {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), so a reused pid is not taken for the holder. */
  started: string | null;
  /** Where the holder answers operator commands (`npm run admin`), once it does. */
  adminSocket?: string;
}

export interface DataDirLock {
  /** Tells other processes where this one answers operator commands. */
  advertise(adminSocket: string): void;
  release(): void;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The embedded database in ${dataDir} is open in another process (pid ${holder.pid}); ` +
        'two processes must never open it. Stop that process first (operator commands reach a running server: npm run admin).',
    );
  }
}

const lockFile = (dataDir: string) => path.join(dataDir, 'atelier.lock');

/** Field 22 of /proc/<pid>/stat: when the process started; null where /proc is not available. */
function startTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return holder.started === null || startTime(holder.pid) === null || startTime(holder.pid) === holder.started;
}

/** The live process holding the data directory's lock, or null when none does (a stale lock is ignored). */
export function lockHolder(dataDir: string): LockHolder | null {
  let holder: LockHolder;
  try {
    holder = JSON.parse(fs.readFileSync(lockFile(dataDir), 'utf8')) as LockHolder;
  } catch {
    return null;
  }
  return typeof holder.pid === 'number' && isAlive(holder) ? holder : null;
}

/** Takes the data directory's lock for this process, or throws DataDirInUseError naming the live holder. */
export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  const me: LockHolder = { pid: process.pid, started: startTime(process.pid) };
  const write = (flag: 'wx' | 'w') => fs.writeFileSync(file, JSON.stringify(me), { flag, mode: 0o600 });
  try {
    write('wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = lockHolder(dataDir);
    if (holder) throw new DataDirInUseError(dataDir, holder);
    // Left by a process that died (kill -9, power loss): take it over.
    fs.rmSync(file, { force: true });
    try {
      write('wx');
    } catch {
      // Another process took it over between the two steps.
      throw new DataDirInUseError(dataDir, lockHolder(dataDir) ?? me);
    }
  }
  let held = true;
  const releaseOnExit = () => release();
  function release() {
    if (!held) return;
    held = false;
    process.off('exit', releaseOnExit);
    if (lockHolder(dataDir)?.pid === process.pid) fs.rmSync(file, { force: true });
  }
  process.on('exit', releaseOnExit);
  return {
    advertise(adminSocket) {
      me.adminSocket = adminSocket;
      write('w');
    },
    release,
  };
}
