import { constants, type Dirent } from 'node:fs';
import { lstat, open, readdir, type FileHandle } from 'node:fs/promises';
import { Beneath, inside, openDirectoryAt, type Owner } from './beneath.ts';
import { MissingWorkspaceError } from './types.ts';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;

/**
 * Copies a workspace's `.git` directory into a fork's workspace. Objects are hard links (git
 * writes each object file once and never changes it, so a copy costs no space or time per
 * object); everything else is copied, symbolic links as links. The source's sandbox may be
 * running and may swap any directory for a link meanwhile: both trees are walked through open
 * directories, never by name (beneath.ts), so nothing outside the source is ever read or linked.
 * What is made belongs to the fork's sandbox user; the linked objects stay its source's.
 */
export async function copyRepository(sourceWorkspace: string, targetWorkspace: string, owner: Owner | null) {
  const target = new Beneath(targetWorkspace, owner);
  await new Beneath(sourceWorkspace).withDirectory('.', async (sourceRoot) => {
    const sourceGit = await openDirectoryAt(sourceRoot, '.git');
    if ('code' in sourceGit)
      throw new MissingWorkspaceError(`There is no repository in the workspace at ${sourceWorkspace}`);
    try {
      await target.withDirectory('.', async (targetRoot) => {
        await target.makeDirectory(targetRoot, '.git', owner);
        const targetGit = await openDirectoryAt(targetRoot, '.git');
        if ('code' in targetGit) throw new Error(`The fork's repository could not be made (${targetGit.code})`);
        try {
          await copyTree(sourceGit, targetGit, target, (name) => name === 'objects', false);
        } finally {
          await targetGit.close();
        }
      });
    } finally {
      await sourceGit.close();
    }
  });
}

const typeOf = async (dir: FileHandle, entry: Dirent) => {
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFile()) return 'file';
  // A file system without types in its directories: ask the entry itself.
  const stats = await lstat(inside(dir, entry.name)).catch(() => null);
  return stats?.isDirectory() ? 'directory' : stats?.isSymbolicLink() ? 'symlink' : stats?.isFile() ? 'file' : null;
};

/**
 * A lock file, a temporary object file (being written, or a snapshot process's spare, which it
 * writes into: a link to it would change with it), or an entry that vanishes or changes kind
 * meanwhile (the source may be running), is left out.
 */
async function copyTree(
  from: FileHandle,
  to: FileHandle,
  target: Beneath,
  linksBelow: (name: string) => boolean,
  hardLinks: boolean,
): Promise<void> {
  for (const entry of await readdir(inside(from), { withFileTypes: true })) {
    const { name } = entry;
    if (name.endsWith('.lock') || name.startsWith('tmp_obj_')) continue;
    try {
      const type = await typeOf(from, entry);
      if (type === 'directory') {
        const source = await openDirectoryAt(from, name);
        if ('code' in source) continue;
        try {
          await target.makeDirectory(to, name, target.owner);
          const made = await openDirectoryAt(to, name);
          if ('code' in made) throw new Error(`The fork's directory ${name} could not be made (${made.code})`);
          try {
            await copyTree(source, made, target, () => false, hardLinks || linksBelow(name));
          } finally {
            await made.close();
          }
        } finally {
          await source.close();
        }
      } else if (type === 'symlink') await Beneath.copyLink(from, name, to);
      else if (type === 'file') {
        if (hardLinks) await Beneath.hardLink(from, name, to).catch(() => copyFile(from, name, to, target));
        else await copyFile(from, name, to, target);
      }
    } catch (error) {
      if (!['ENOENT', 'ELOOP', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
}

/** Copies a regular file's bytes and mode (never what a link points to, never a FIFO). */
async function copyFile(from: FileHandle, name: string, to: FileHandle, target: Beneath): Promise<void> {
  const source = await open(inside(from, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const stats = await source.stat();
    if (!stats.isFile()) return;
    const copy = await open(inside(to, name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, stats.mode & 0o777);
    try {
      if (target.owner) await copy.chown(target.owner.uid, target.owner.gid);
      await copy.writeFile(await source.readFile());
    } finally {
      await copy.close();
    }
  } finally {
    await source.close();
  }
}
