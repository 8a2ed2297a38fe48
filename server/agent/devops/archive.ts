import type { RuntimeSession } from '../../runtime/types.ts';
import { ToolInputError } from '../tools/tool.ts';

/** The largest app the agent ships (a cloud's user data is smaller still; its provider says so). */
const ARCHIVE_LIMIT_BYTES = 200 * 2 ** 20;

/** Refuses a plan's directory that leaves the workspace or is not a directory (looked up beneath the workspace, links inside followed). */
export async function appDirectory(runtime: Pick<RuntimeSession, 'listFiles'>, directory: string): Promise<void> {
  try {
    await runtime.listFiles(directory);
  } catch (error) {
    if ((error as Error).message.startsWith('Path is outside the workspace'))
      throw new ToolInputError(`The directory ${directory} is outside the workspace.`);
    throw new ToolInputError(`The workspace has no directory ${directory}.`);
  }
}

/** A gzipped tar of the app's directory, without its git metadata, packed in the workspace's sandbox. */
export async function archiveDirectory(
  runtime: Pick<RuntimeSession, 'listFiles' | 'archive'>,
  directory: string,
): Promise<Uint8Array> {
  await appDirectory(runtime, directory);
  try {
    return await runtime.archive(directory, ARCHIVE_LIMIT_BYTES);
  } catch (error) {
    if ((error as Error).name === 'ArchiveTooLargeError')
      throw new ToolInputError(
        `The directory ${directory} is larger than 200 MB packed; deploy a built app without its caches.`,
      );
    throw new ToolInputError(`Packing ${directory} failed: ${(error as Error).message}`);
  }
}
