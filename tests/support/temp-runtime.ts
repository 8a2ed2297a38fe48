import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LocalRuntime, type LocalRuntimeOptions } from '../../server/runtime/local-runtime.ts';

export interface TempRuntime {
  runtime: LocalRuntime;
  /** Stands for the server's data directory: parent of rootDir, hidden from the sandbox. */
  dataDir: string;
  rootDir: string;
  cleanup(): Promise<void>;
}

/** A LocalRuntime over a fresh temporary data directory (`<tmp>/data/workspaces`), for one test file. */
export async function tempRuntime(options: Partial<LocalRuntimeOptions> = {}): Promise<TempRuntime> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'atelier-runtime-'));
  const dataDir = path.join(base, 'data');
  const rootDir = path.join(dataDir, 'workspaces');
  await mkdir(rootDir, { recursive: true });
  const runtime = new LocalRuntime({
    rootDir,
    hiddenDirs: [dataDir],
    logger: { warn: () => undefined, info: () => undefined },
    ...options,
  });
  return {
    runtime,
    dataDir,
    rootDir,
    async cleanup() {
      await runtime.stopAll();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** Host processes whose command line contains `needle` (what a leak would leave behind). */
export function processesWith(needle: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}
