/**
 * The snapshot process of one workspace, started inside its sandbox: one JSON request per line
 * on stdin ({name, previous}), one answer per line on stdout (a snapshot, {unsupported} or {error}).
 * It lives as long as the session, so its stat cache does: a snapshot reads only changed files.
 */
import { createInterface } from 'node:readline';
import { SnapshotUnsupported, WorkspaceTrees } from './workspace-tree.ts';

const trees = new WorkspaceTrees(process.cwd(), process.env.HOME ?? '', process.env.XDG_CONFIG_HOME);

for await (const line of createInterface({ input: process.stdin })) {
  let answer: unknown;
  try {
    const { name, previous } = JSON.parse(line) as { name: string; previous: string | null };
    answer = trees.snapshot(name, previous);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    answer = error instanceof SnapshotUnsupported ? { unsupported: message } : { error: message };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
