import type { CgroupEvents, CgroupLimits } from './cgroups.ts';

/** What one conversation's processes may use together (README: SANDBOX_* variables). */
export interface WorkspaceLimits {
  memoryMb: number;
  /** Processes and threads at once. */
  processes: number;
  /** CPUs' worth of time. */
  cpus: number;
  /** The workspace, home and temporary directories together. */
  diskMb: number;
}

export const DEFAULT_LIMITS: WorkspaceLimits = { memoryMb: 2048, processes: 512, cpus: 1, diskMb: 10240 };

const MB = 2 ** 20;

/** The limits a conversation's control group holds. */
export function cgroupLimits(limits: WorkspaceLimits): CgroupLimits {
  return { memoryBytes: limits.memoryMb * MB, processes: limits.processes, cpus: limits.cpus };
}

/**
 * The rlimits every sandboxed process starts with, as `prlimit` options: the floor where no
 * control group holds the conversation. A file may not grow past the disk limit (nor at all
 * while the workspace is over it); a process's data past the memory limit; processes of its
 * user past the process limit (only with a user of its own: the server's user runs the server
 * too); no core files.
 */
export function rlimitOptions(limits: WorkspaceLimits, options: { fileSizeBytes: number; ownUser: boolean }): string[] {
  return [
    `--fsize=${options.fileSizeBytes}`,
    `--data=${limits.memoryMb * MB}`,
    '--core=0',
    ...(options.ownUser ? [`--nproc=${limits.processes}`] : []),
  ];
}

export type LimitKind = 'memory' | 'processes' | 'disk';

/** A limit a conversation reached: what the agent reads after its command, and the user's status message. */
export interface LimitHit {
  kind: LimitKind;
  message: string;
}

export function memoryHit(limits: WorkspaceLimits): LimitHit {
  return {
    kind: 'memory',
    message: `Out of memory: the command was stopped; this workspace may use ${limits.memoryMb} MB.`,
  };
}

export function processesHit(limits: WorkspaceLimits): LimitHit {
  return {
    kind: 'processes',
    message: `Process limit reached: a new process could not start; this workspace may run ${limits.processes} processes and threads at once.`,
  };
}

export function diskHit(limits: WorkspaceLimits, usedBytes: number, stopped = false): LimitHit {
  return {
    kind: 'disk',
    message: `Out of disk space: this workspace may use ${limits.diskMb} MB and holds ${Math.ceil(usedBytes / MB)} MB; ${stopped ? 'the commands still writing were stopped, and ' : ''}files cannot grow until some are deleted.`,
  };
}

/** The hits between two readings of a group's counters. */
export function cgroupHits(before: CgroupEvents, after: CgroupEvents, limits: WorkspaceLimits): LimitHit[] {
  return [
    ...(after.oomKills > before.oomKills ? [memoryHit(limits)] : []),
    ...(after.processLimitHits > before.processLimitHits ? [processesHit(limits)] : []),
  ];
}
