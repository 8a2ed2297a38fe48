import { copyFile, link, mkdir, readdir, readlink, symlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Copies a repository's `.git` directory for a forked workspace. Objects are hard links (git
 * writes each object file once and never changes it, so a copy costs no space or time per
 * object); everything else is copied, symbolic links as links.
 */
export function copyRepository(gitDir: string, to: string): Promise<void> {
  return copyTree(gitDir, to, (name) => name === 'objects');
}

/**
 * A lock file, a temporary object file (being written, or a snapshot process's spare, which it
 * writes into: a link to it would change with it), or an entry that vanishes meanwhile (the source
 * may be running), is left out.
 */
async function copyTree(from: string, to: string, linksBelow: (name: string) => boolean, hardLinks = false) {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.name.endsWith('.lock') || entry.name.startsWith('tmp_obj_')) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    try {
      if (entry.isDirectory()) await copyTree(source, target, () => false, hardLinks || linksBelow(entry.name));
      else if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
      else if (entry.isFile())
        await (hardLinks ? link(source, target).catch(() => copyFile(source, target)) : copyFile(source, target));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
