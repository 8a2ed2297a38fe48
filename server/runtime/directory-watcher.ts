import { spawn } from 'node:child_process';
import { LineProcess } from './line-process.ts';

/** Where the snapshot process finds directory-watcher.py's source, to run with `python3 -c`. */
export const DIRECTORY_WATCHER_ENV = 'ATELIER_DIRECTORY_WATCHER';

/** What changed in the work tree since the last question (paths from its root, '' for the root). */
export interface DirectoryChanges {
  /** Directories with an entry created, deleted, moved, written or changed in its attributes. */
  dirty: string[];
  /** Directories no longer watched: deleted, moved, or all of them after `overflow`. */
  lost: string[];
  /** Events were lost: nothing can be trusted unread. */
  overflow: boolean;
}

/**
 * The work tree's directories that changed, from the kernel's inotify events (directory-watcher.py,
 * a child of the snapshot process). Null from either call means the watcher is gone, or at its
 * limit of watches: its caller reads every directory from then on.
 */
export class DirectoryWatcher {
  private constructor(private readonly process: LineProcess) {}

  /** A watcher of the working directory; null without the source or python3 (then there is nothing to ask). */
  static start(source: string | undefined, workTree: string): DirectoryWatcher | null {
    if (!source) return null;
    const child = spawn('python3', ['-c', source], { cwd: workTree, stdio: ['pipe', 'pipe', 'ignore'] });
    return new DirectoryWatcher(new LineProcess(child));
  }

  async changes(): Promise<DirectoryChanges | null> {
    const line = await this.process.ask('{"changes":true}');
    return line === null ? null : (JSON.parse(line) as DirectoryChanges);
  }

  /** Watches `added` (each answered only once its watch is in place) and no longer `removed`. */
  async watch(added: string[], removed: string[]): Promise<{ watched: string[]; lost: string[] } | null> {
    const line = await this.process.ask(JSON.stringify({ watch: added, unwatch: removed }));
    const answer = line === null ? null : (JSON.parse(line) as { watched: string[]; lost: string[] } | { full: true });
    return answer && 'watched' in answer ? answer : null;
  }

  close(): void {
    this.process.kill();
  }
}
