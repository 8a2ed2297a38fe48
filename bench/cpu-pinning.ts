import { execFileSync, spawnSync } from 'node:child_process';
import os from 'node:os';

/**
 * Separate CPUs for a server and the load generator measuring it: the server on the last CPU,
 * the generator on the others, so the generator does not take the server's CPU (on a 2-CPU
 * machine unpinned runs showed p99 stalls of 10–30 ms that pinning removes). Null when the
 * machine has one CPU or no taskset.
 */
function choosePinning(): { server: string; load: string } | null {
  const last = os.availableParallelism() - 1;
  if (last < 1 || spawnSync('taskset', ['-V']).status !== 0) return null;
  return { server: String(last), load: last === 1 ? '0' : `0-${last - 1}` };
}

export const pinning = choosePinning();

/** Moves every thread of a running process onto `cpus` (a taskset list such as "1" or "0-2"). */
export function pinProcess(pid: number | undefined, cpus: string | undefined) {
  if (pid !== undefined && cpus !== undefined)
    execFileSync('taskset', ['-acp', cpus, String(pid)], { stdio: 'ignore' });
}
