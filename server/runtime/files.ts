import { lstat, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { resolveInside } from './paths.ts';
import { createZip, type ZipEntry } from './zip.ts';

/** Git's own store: not part of what the user edits or downloads. */
const GIT_DIR = '.git';

/** File access for the API and the agent, confined to one workspace (see resolveInside). */
export class WorkspaceFiles {
  /** @param root the workspace's real path */
  constructor(readonly root: string) {}

  resolve(requested: string): Promise<string> {
    return resolveInside(this.root, requested);
  }

  /** Entries of a directory, directories first, each marked with a trailing '/'. */
  async list(requested = '.'): Promise<string[]> {
    const dir = await this.resolve(requested);
    const entries = await readdir(dir, { withFileTypes: true });
    const names = entries
      .filter((entry) => !(entry.name === GIT_DIR && dir === this.root))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
    return names.sort((a, b) => Number(b.endsWith('/')) - Number(a.endsWith('/')) || a.localeCompare(b));
  }

  async read(requested: string): Promise<string> {
    return readFile(await this.resolve(requested), 'utf8');
  }

  /** Writes a file, creating its directories (whose path is checked as a whole before anything is created). */
  async write(requested: string, data: string | Uint8Array): Promise<void> {
    const target = await this.resolve(requested);
    if (target === this.root) throw new Error(`Not a file: ${requested}`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, data);
  }

  /** A zip of everything in the workspace except git's store. Symlinks are stored as links, never followed out. */
  async zip(): Promise<Uint8Array> {
    const entries: ZipEntry[] = [];
    const visit = async (relDir: string): Promise<void> => {
      const names = (await readdir(path.join(this.root, relDir))).sort();
      for (const name of names) {
        if (name === GIT_DIR) continue;
        const rel = relDir ? `${relDir}/${name}` : name;
        const full = path.join(this.root, rel);
        const stats = await lstat(full);
        if (stats.isDirectory()) {
          entries.push({ name: `${rel}/`, kind: 'directory', mode: stats.mode, modified: stats.mtime });
          await visit(rel);
        } else if (stats.isSymbolicLink()) {
          entries.push({
            name: rel,
            kind: 'symlink',
            mode: stats.mode,
            modified: stats.mtime,
            data: Buffer.from(await readlink(full)),
          });
        } else if (stats.isFile()) {
          entries.push({
            name: rel,
            kind: 'file',
            mode: stats.mode,
            modified: stats.mtime,
            data: await readFile(full),
          });
        }
      }
    };
    await visit('');
    return createZip(entries);
  }
}
