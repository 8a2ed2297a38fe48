import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

/** The directories one conversation's processes may write; everything else is read-only or hidden. */
export interface SandboxMounts {
  workspaceDir: string;
  homeDir: string;
  /** Mounted as /tmp: one per conversation, so its shell, kernel and git see the same temporary files. */
  tmpDir: string;
}

/** Finds bwrap on PATH and checks it can create namespaces here (containers often forbid user namespaces). */
export function detectBwrap(): { path: string | null; problem?: string } {
  const found = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, 'bwrap'))
    .find((candidate) => {
      try {
        accessSync(candidate, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  if (!found) return { path: null, problem: 'bwrap is not on PATH' };
  const probe = spawnSync(found, ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', 'true'], { encoding: 'utf8', timeout: 5000 });
  if (probe.status !== 0) return { path: null, problem: `bwrap cannot create a sandbox here: ${(probe.stderr || probe.error?.message || '').trim()}` };
  return { path: found };
}

/**
 * Wraps commands in bubblewrap: the host file system read-only, the conversation's own
 * /tmp, a private /proc and /dev, the data directories hidden behind empty tmpfs mounts (rootDir holds every
 * conversation's workspace; hiddenDirs the server's database and secrets), and only this
 * conversation's workspace and home bound back writable. Without bwrap, commands run as
 * they are: `sandboxed` says which.
 */
export class Sandbox {
  readonly sandboxed: boolean;

  constructor(
    private readonly bwrapPath: string | null,
    private readonly rootDir: string,
    private readonly hiddenDirs: readonly string[],
  ) {
    this.sandboxed = bwrapPath !== null;
  }

  /** The argv that runs `argv` confined to `mounts`; `network: false` leaves only loopback (for git, which never needs it). */
  wrap(argv: readonly string[], mounts: SandboxMounts, options: { network: boolean } = { network: true }): string[] {
    if (!this.bwrapPath) return [...argv];
    // Outer directories first: a tmpfs mounted later over a parent would hide the binds inside it.
    // A missing directory hides nothing, and bwrap could not create its mount point on the read-only root.
    const hidden = [...new Set([...this.hiddenDirs, this.rootDir].map((dir) => path.resolve(dir)))]
      .filter((dir) => existsSync(dir))
      .sort((a, b) => a.length - b.length);
    return [
      this.bwrapPath,
      '--ro-bind', '/', '/',
      '--dev', '/dev',
      '--proc', '/proc',
      '--bind', mounts.tmpDir, '/tmp',
      ...hidden.flatMap((dir) => ['--tmpfs', dir]),
      '--bind', mounts.workspaceDir, mounts.workspaceDir,
      '--bind', mounts.homeDir, mounts.homeDir,
      '--chdir', mounts.workspaceDir,
      '--unshare-all',
      ...(options.network ? ['--share-net'] : []),
      '--die-with-parent',
      ...argv,
    ];
  }
}
