import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { findOnPath } from './executables.ts';
import type { IsolatedNetwork } from './network.ts';

/** Where one conversation's processes run: the directories they may write (everything else is read-only or hidden) and their network. */
export interface SandboxScope {
  workspaceDir: string;
  homeDir: string;
  /** Mounted as /tmp: one per conversation, so its shell, kernel and git see the same temporary files. */
  tmpDir: string;
  /** The conversation's own network namespace; null shares the host's network. */
  network: IsolatedNetwork | null;
}

/**
 * Finds bwrap on PATH and checks it can create namespaces here (containers often forbid user
 * namespaces). Asynchronous: the probe runs while the server starts, not before it.
 */
export async function detectBwrap(): Promise<{ path: string | null; problem?: string }> {
  const found = findOnPath('bwrap');
  if (!found) return { path: null, problem: 'bwrap is not on PATH' };
  const failure = await new Promise<string | null>((resolve) => {
    execFile(
      found,
      ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', 'true'],
      { encoding: 'utf8', timeout: 5000 },
      (error, _stdout, stderr) => resolve(error ? (stderr || error.message).trim() : null),
    );
  });
  return failure === null ? { path: found } : { path: null, problem: `bwrap cannot create a sandbox here: ${failure}` };
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

  /** The argv that runs `argv` confined to `scope`; `network: false` leaves only a loopback of its own (for git, which rarely needs more). */
  wrap(argv: readonly string[], scope: SandboxScope, options: { network: boolean } = { network: true }): string[] {
    if (!this.bwrapPath) return [...argv];
    // Outer directories first: a tmpfs mounted later over a parent would hide the binds inside it.
    // A missing directory hides nothing, and bwrap could not create its mount point on the read-only root.
    const hidden = [...new Set([...this.hiddenDirs, this.rootDir].map((dir) => path.resolve(dir)))]
      .filter((dir) => existsSync(dir))
      .sort((a, b) => a.length - b.length);
    const sandboxed = [
      this.bwrapPath,
      '--ro-bind',
      '/',
      '/',
      ...(options.network && scope.network?.resolvConf
        ? ['--ro-bind', scope.network.resolvConf, '/etc/resolv.conf']
        : []),
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--bind',
      scope.tmpDir,
      '/tmp',
      ...hidden.flatMap((dir) => ['--tmpfs', dir]),
      '--bind',
      scope.workspaceDir,
      scope.workspaceDir,
      '--bind',
      scope.homeDir,
      scope.homeDir,
      '--chdir',
      scope.workspaceDir,
      '--unshare-all',
      ...(options.network ? ['--share-net'] : []),
      '--die-with-parent',
      ...argv,
    ];
    // bwrap shares the network it starts in: the conversation's namespace when there is one.
    return options.network && scope.network ? scope.network.enter(sandboxed) : sandboxed;
  }
}
