import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolInputError } from '../tools/tool.ts';

/** The largest app the agent ships (a cloud's user data is smaller still; its provider says so). */
const ARCHIVE_LIMIT_BYTES = 200 * 2 ** 20;

/** The workspace directory the plan names, refused when it leaves the workspace or is not a directory. */
export async function appDirectory(workspaceDir: string, directory: string): Promise<string> {
  const root = path.resolve(workspaceDir);
  const dir = path.resolve(root, directory);
  if (dir !== root && !dir.startsWith(root + path.sep))
    throw new ToolInputError(`The directory ${directory} is outside the workspace.`);
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw new ToolInputError(`The workspace has no directory ${directory}.`);
  return dir;
}

/** A gzipped tar of the app's directory, without its git metadata. */
export async function archiveDirectory(workspaceDir: string, directory: string): Promise<Uint8Array> {
  const dir = await appDirectory(workspaceDir, directory);
  return new Promise((resolve, reject) => {
    execFile(
      'tar',
      ['-czf', '-', '--exclude=.git', '-C', dir, '.'],
      { encoding: 'buffer', maxBuffer: ARCHIVE_LIMIT_BYTES },
      (error, stdout) => {
        if (error)
          reject(
            new ToolInputError(
              error.message.includes('maxBuffer')
                ? `The directory ${directory} is larger than 200 MB packed; deploy a built app without its caches.`
                : `Packing ${directory} failed: ${error.message}`,
            ),
          );
        else resolve(new Uint8Array(stdout));
      },
    );
  });
}
