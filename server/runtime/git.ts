import { execFile } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FileChange, RepositorySource } from './types.ts';

const exec = promisify(execFile);

export interface GitOptions {
  workspaceDir: string;
  /** Environment for git (PATH, HOME, LANG). */
  env: Record<string, string>;
  /**
   * Turns git's argv into the argv to run; the sandbox, because the repository's config is the
   * agent's to write and git would obey it (core.fsmonitor, filters). `network` only for fetching.
   */
  wrap: (argv: string[], network: boolean) => string[];
}

/** Status letters of `git status --porcelain=v1` mapped to the file-change kinds the Changes tab shows. */
function changeKind(x: string, y: string): FileChange['status'] {
  if (x === '?' && y === '?') return 'U';
  if (x === 'R' || y === 'R') return 'R';
  if (x === 'A' || x === 'C') return 'A';
  if (x === 'D' || y === 'D') return 'D';
  return 'M';
}

/** The workspace's git repository, as the Changes tab needs it. */
export class Git {
  constructor(private readonly options: GitOptions) {}

  private async git(args: string[], network = false): Promise<string> {
    // core.fsmonitor would run a program the repository names; the Changes tab never needs it.
    const [file, ...rest] = this.options.wrap(['git', '-c', 'core.fsmonitor=false', ...args], network);
    if (!file) throw new Error('Empty git command line');
    const { stdout } = await exec(file, rest, {
      cwd: this.options.workspaceDir,
      env: { ...this.options.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
      maxBuffer: 256 * 1024 * 1024,
      encoding: 'utf8',
    });
    return stdout;
  }

  /** `git init` with a local identity, unless the workspace already is a repository. */
  async init(identity: { name: string; email: string }): Promise<void> {
    const exists = await access(path.join(this.options.workspaceDir, '.git')).then(
      () => true,
      () => false,
    );
    if (exists) return;
    await this.git(['init', '-q', '-b', 'main']);
    await this.git(['config', 'user.name', identity.name]);
    await this.git(['config', 'user.email', identity.email]);
  }

  /**
   * Makes a fresh workspace a checkout of `source` (its `branch`, else the remote's default
   * branch). Only while the repository has neither commits nor remotes, so a restart never
   * touches the user's work: answers false then. The token stays out of the repository's files:
   * the credential helper reads it from the runtime's environment (for the agent's pushes too).
   */
  async checkout(source: RepositorySource): Promise<boolean> {
    const hasCommits = await this.git(['rev-parse', '--verify', '-q', 'HEAD']).then(
      () => true,
      () => false,
    );
    if (hasCommits || (await this.git(['remote'])).trim() !== '') return false;
    await this.git(['remote', 'add', 'origin', source.url]);
    if (source.credentialHelper) await this.git(['config', 'credential.helper', source.credentialHelper]);
    await this.git(['fetch', '-q', 'origin'], true);
    let branch = source.branch;
    if (!branch) {
      await this.git(['remote', 'set-head', 'origin', '--auto'], true);
      branch = (await this.git(['symbolic-ref', '--short', 'refs/remotes/origin/HEAD']))
        .trim()
        .replace(/^origin\//, '');
    }
    await this.git(['checkout', '-q', '-B', branch, '--track', `origin/${branch}`]);
    return true;
  }

  async changes(): Promise<FileChange[]> {
    const fields = (await this.git(['status', '--porcelain=v1', '-z', '--untracked-files=all'])).split('\0');
    const changes: FileChange[] = [];
    for (let i = 0; i < fields.length; i += 1) {
      const field = fields[i] as string;
      if (field.length < 4) continue;
      const x = field[0] as string;
      const y = field[1] as string;
      changes.push({ path: field.slice(3), status: changeKind(x, y) });
      // Renames and copies are followed by the original path in the next field.
      if (x === 'R' || x === 'C' || y === 'R' || y === 'C') i += 1;
    }
    return changes;
  }

  /**
   * The committed and the working-tree text of a file: '' for the side where it does not
   * exist (new file, deleted file, or a repository without commits yet).
   * @param relative path relative to the workspace, already checked to be inside it
   */
  async diff(relative: string): Promise<{ original: string; modified: string }> {
    const gitPath = relative.split(path.sep).join('/');
    const original = await this.git(['show', `HEAD:${gitPath}`]).catch(() => '');
    const modified = await readFile(path.join(this.options.workspaceDir, relative), 'utf8').catch(() => '');
    return { original, modified };
  }
}
