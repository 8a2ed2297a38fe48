/**
 * The snapshot process of one workspace, started inside its sandbox: one JSON request per line
 * on stdin ({name, previous}), one answer per line on stdout (a snapshot, {unsupported} or {error}).
 * It lives as long as the session, so its caches do: a snapshot reads only the directories the
 * watcher saw change, and in them only changed files.
 */
import { createInterface } from 'node:readline';
import { DIRECTORY_WATCHER_ENV, DirectoryWatcher } from './directory-watcher.ts';
import { SnapshotUnsupported, WorkspaceTrees } from './workspace-tree.ts';

const workTree = process.cwd();
const trees = new WorkspaceTrees(
  workTree,
  process.env.HOME ?? '',
  process.env.XDG_CONFIG_HOME,
  DirectoryWatcher.start(process.env[DIRECTORY_WATCHER_ENV], workTree),
);

// Said once the process runs: a node that could not start all its threads (its workspace at the
// process limit) waits for them forever, and its client gives up on it.
process.stdout.write('ready\n');

for await (const line of createInterface({ input: process.stdin })) {
  let answer: unknown;
  try {
    const { name, previous } = JSON.parse(line) as { name: string; previous: string | null };
    answer = await trees.snapshot(name, previous);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    answer = error instanceof SnapshotUnsupported ? { unsupported: message } : { error: message };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
  trees.prepareSpares();
}
trees.close();
