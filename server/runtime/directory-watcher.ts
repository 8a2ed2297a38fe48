import { spawn } from 'node:child_process';
import { LineProcess } from './line-process.ts';

/** Where the snapshot process finds directory-watcher.py's source, to run with `python3 -c`. */
export const DIRECTORY_WATCHER_ENV = 'ATELIER_DIRECTORY_WATCHER';
/** A watcher that has not answered in this long is ended: a snapshot never waits on it for more. */
const ANSWER_TIMEOUT_MS = 5_000;

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

  changes(): Promise<DirectoryChanges | null> {
    return this.request<DirectoryChanges>({ changes: true });
  }

  /** Watches `added` (each answered only once its watch is in place) and no longer `removed`. */
  async watch(added: string[], removed: string[]): Promise<{ watched: string[]; lost: string[] } | null> {
    const answer = await this.request<{ watched: string[]; lost: string[] } | { full: true }>({
      watch: added,
      unwatch: removed,
    });
    return answer && 'watched' in answer ? answer : null;
  }

  close(): void {
    this.process.kill();
  }

  /** The answer; null, and the watcher ended, when it does not answer in time or answers nonsense. */
  private async request<T>(message: object): Promise<T | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ANSWER_TIMEOUT_MS)));
    const line = await Promise.race([this.process.ask(JSON.stringify(message)), timeout]);
    clearTimeout(timer);
    try {
      if (line !== null) return JSON.parse(line) as T;
    } catch {
      // Not an answer: the watcher is ended below.
    }
    this.close();
    return null;
  }
}
