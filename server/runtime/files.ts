import type { Dirent } from 'node:fs';
import { lstat, open, readdir, readlink, type FileHandle } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { ZipFile } from 'yazl';
import { Beneath, inside, type Owner } from './beneath.ts';

/** Git's own store: not part of what the user edits or downloads. */
const GIT_DIR = '.git';
/** The most file data a workspace's zip holds: it is built in memory. */
const ZIP_LIMIT_BYTES = 1024 * 2 ** 20;

const kind = (entry: Dirent) =>
  entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'symlink' : entry.isFile() ? 'file' : null;

/**
 * File access for the API and the agent, confined to one workspace: every call opens its path
 * beneath the workspace's directory (beneath.ts), so a process in the sandbox that swaps a
 * directory for a link cannot send the server outside it. What the server creates belongs to
 * the sandbox's user.
 */
export class WorkspaceFiles {
  private readonly beneath: Beneath;

  /** @param root the workspace's real path */
  constructor(
    readonly root: string,
    owner: Owner | null = null,
  ) {
    this.beneath = new Beneath(root, owner);
  }

  /** The absolute path `requested` names once links inside the workspace are followed (for messages and git). */
  async resolve(requested: string): Promise<string> {
    const target = path.resolve(this.root, requested);
    if (target === this.root) return this.root;
    const { dir, relative } = await this.beneath.resolve(requested, { want: 'entry', missingRest: true });
    await dir.close();
    return path.join(this.root, relative);
  }

  /** Whether `requested` is a file or a directory now; null when it does not exist. */
  async kind(requested: string): Promise<'file' | 'directory' | null> {
    const stats = await this.beneath.stat(requested);
    if (!stats) return null;
    return stats.isDirectory() ? 'directory' : 'file';
  }

  /** Entries of a directory, directories first, each marked with a trailing '/'. */
  async list(requested = '.'): Promise<string[]> {
    const atRoot = path.resolve(this.root, requested) === this.root;
    const entries = await this.beneath.list(requested);
    const names = entries
      .filter((entry) => !(atRoot && entry.name === GIT_DIR))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
    return names.sort((a, b) => Number(b.endsWith('/')) - Number(a.endsWith('/')) || a.localeCompare(b));
  }

  /**
   * Paths under the directory `requested` down to `depth` levels, hidden entries (and what they
   * hold) left out and counted (at the top), directories marked with '/'. Paths are shown under
   * `shownAs` (the path as asked: a linked directory is listed under its own name, not its target's).
   */
  async tree(requested: string, depth: number, shownAs = requested): Promise<{ paths: string[]; hidden: number }> {
    const dir = await this.resolve(requested);
    const all = await this.beneath.list(dir);
    const entries = all.filter((entry) => !entry.name.startsWith('.'));
    entries.sort((a, b) => a.name.localeCompare(b.name));
    const paths: string[] = [];
    for (const entry of entries) {
      const shown = path.join(shownAs, entry.name);
      paths.push(entry.isDirectory() ? `${shown}/` : shown);
      if (entry.isDirectory() && depth > 1)
        paths.push(...(await this.tree(path.join(dir, entry.name), depth - 1, shown)).paths);
    }
    return { paths, hidden: all.length - entries.length };
  }

  async read(requested: string): Promise<string> {
    return (await this.beneath.read(requested)).toString('utf8');
  }

  /** A file's bytes; over `limit` bytes it is refused (EFBIG, with its `size`) without being read. */
  readBytes(requested: string, limit: number): Promise<Buffer> {
    return this.beneath.read(requested, limit);
  }

  /** Writes a file, creating its missing directories. */
  async write(requested: string, data: string | Uint8Array): Promise<void> {
    if (path.resolve(this.root, requested) === this.root) throw new Error(`Not a file: ${requested}`);
    await this.beneath.write(requested, data);
  }

  /** Removes a file (a missing one is already removed). */
  remove(requested: string): Promise<void> {
    return this.beneath.remove(requested);
  }

  /**
   * A zip of everything in the workspace except git's store. Symlinks are stored as links (their
   * Unix mode and target), never followed out. yazl deflates on the thread pool, so a large
   * workspace does not stall the server.
   */
  async zip(): Promise<Uint8Array> {
    const archive = new ZipFile();
    const zipped = buffer(archive.outputStream);
    let bytes = 0;
    const visit = async (dir: FileHandle, relDir: string): Promise<void> => {
      const found = (await readdir(inside(dir), { withFileTypes: true })).sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      );
      for (const entry of found) {
        if (entry.name === GIT_DIR && relDir === '') continue;
        const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
        // A file system without types in its directories says nothing: ask the entry itself.
        const type = kind(entry) ?? (await lstatKind(dir, entry.name));
        if (type === 'directory') {
          const child = await open(
            inside(dir, entry.name),
            constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW,
          ).catch(
            () => null, // replaced or removed meanwhile: left out
          );
          if (!child) continue;
          try {
            const stats = await child.stat();
            archive.addEmptyDirectory(rel, { mode: stats.mode, mtime: stats.mtime });
            await visit(child, rel);
          } finally {
            await child.close();
          }
        } else if (type === 'symlink') {
          const [stats, target] = await Promise.all([
            lstat(inside(dir, entry.name)),
            readlink(inside(dir, entry.name)),
          ]);
          archive.addBuffer(Buffer.from(target), rel, { mode: stats.mode, mtime: stats.mtime, compress: false });
        } else if (type === 'file') {
          const handle = await this.beneath.openRegular(dir, entry.name, constants.O_RDONLY, rel).catch(() => null); // no longer a plain file: left out
          if (!handle) continue;
          try {
            const stats = await handle.stat();
            bytes += stats.size;
            if (bytes > ZIP_LIMIT_BYTES)
              throw new Error(`The workspace is too large to zip (over ${ZIP_LIMIT_BYTES / 2 ** 20} MB of files)`);
            archive.addBuffer(await handle.readFile(), rel, { mode: stats.mode, mtime: stats.mtime });
          } finally {
            await handle.close();
          }
        }
      }
    };
    await this.beneath.withDirectory('.', (root) => visit(root, ''));
    archive.end();
    return zipped;
  }
}

async function lstatKind(dir: FileHandle, name: string): Promise<'directory' | 'symlink' | 'file' | null> {
  const stats = await lstat(inside(dir, name)).catch(() => null);
  if (!stats) return null;
  return stats.isDirectory() ? 'directory' : stats.isSymbolicLink() ? 'symlink' : stats.isFile() ? 'file' : null;
}
