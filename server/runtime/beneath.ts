import { constants, type Dirent, type Stats } from 'node:fs';
import { link, lstat, mkdir, open, readdir, readlink, symlink, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

// Workspace files are written by their sandbox's processes, which may swap a directory for a
// symbolic link at any moment. The server never checks a path and then opens it again by name:
// it opens the root, then each component beneath the directory it opened last, without
// following links (`/proc/self/fd/N/name` resolves `name` in the open directory N itself). A
// link inside the workspace is read and resolved within it again, from the root; one that leaves
// it is refused, as is `..` past the root.

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
/** Links followed in one resolution, as the kernel allows (ELOOP beyond). */
const MAX_LINKS = 40;
/** The longest path the kernel takes (PATH_MAX, with its terminating NUL). */
const PATH_MAX = 4095;

/** The host user and group a sandbox's files belong to; null when they are the server's own. */
export interface Owner {
  uid: number;
  gid: number;
}

const DESCRIPTIONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EACCES: 'permission denied',
  EEXIST: 'file already exists',
  EFBIG: 'file too large',
};

/** An error with the errno code callers map (runtime-errors.ts), naming the path as the caller gave it. */
export function fileError(code: string, requested: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: ${DESCRIPTIONS[code] ?? 'failed'}, ${requested}`);
  error.code = code;
  return error;
}

export function outsideError(requested: string): Error {
  return new Error(`Path is outside the workspace: ${requested}`);
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** The path the kernel resolves from the open directory `dir`: `name` is looked up in it, not by the directory's name. */
export const inside = (dir: FileHandle, name = '') => `/proc/self/fd/${dir.fd}${name ? `/${name}` : ''}`;

/** The components of `requested` under `root` (a real path), lexically; throws when they leave it. */
function componentsOf(root: string, requested: string): string[] {
  const absolute = path.resolve(root, requested);
  const relative = path.relative(root, absolute);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw outsideError(requested);
  // Walked one component at a time, a path has no length limit of its own: the one it would have by name holds.
  if (Buffer.byteLength(absolute) > PATH_MAX) throw fileError('ENAMETOOLONG', requested);
  return relative === '' ? [] : relative.split(path.sep);
}

/** Opens a directory beneath `parent`; `{code}` when `name` is not one (a link, a file, missing: the code says which). */
export async function openDirectoryAt(parent: FileHandle, name: string): Promise<FileHandle | { code: string }> {
  try {
    return await open(inside(parent, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    return { code: codeOf(error) ?? 'EIO' };
  }
}

/** The target of the link `name` in `parent`, or null when it is no link. */
async function linkTarget(parent: FileHandle, name: string): Promise<string | null> {
  try {
    return await readlink(inside(parent, name));
  } catch {
    return null;
  }
}

/** Where a resolution ended: the open directory holding the last component, and that component (null: the directory itself). */
export interface Located {
  dir: FileHandle;
  name: string | null;
  /** The path under the root after following links, '' for the root. */
  relative: string;
}

export interface ResolveOptions {
  /** 'directory': the path must be a directory, held open; 'entry': its parent is, and the last component is named. */
  want: 'directory' | 'entry';
  /** Create missing directories on the way, owned by this user (or the server, null); undefined creates nothing. */
  create?: Owner | null;
  /** A missing directory on the way ends the resolution: the rest is named as it is (for paths about to be made). */
  missingRest?: boolean;
  /** The last component is named as it is, a link included (to remove the link itself). */
  keepLastLink?: boolean;
}

/**
 * A directory whose paths are opened beneath it only (see above). `root` must be a real path
 * that no sandbox can replace (a workspace's own directory is a mount point inside its sandbox,
 * whose parent the sandbox cannot see).
 */
export class Beneath {
  constructor(
    readonly root: string,
    /** Who owns what is created here. */
    readonly owner: Owner | null = null,
  ) {}

  /** Resolves `requested`; the caller closes `dir` (every other handle opened on the way is closed here). */
  async resolve(requested: string, options: ResolveOptions): Promise<Located> {
    let components = componentsOf(this.root, requested);
    for (let links = 0; ;) {
      const root = await open(this.root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      let current = root;
      let outcome: Located | string[];
      try {
        outcome = await this.walk(components, root, (opened) => (current = opened), options, requested);
      } catch (error) {
        if (current !== root) await current.close();
        await root.close();
        throw error;
      }
      if (!Array.isArray(outcome)) {
        if (outcome.dir !== root) await root.close();
        return outcome;
      }
      if (current !== root) await current.close();
      await root.close();
      links += 1;
      if (links > MAX_LINKS) throw fileError('ELOOP', requested);
      components = outcome;
    }
  }

  /**
   * One pass over `components` from `root`, each directory opened beneath the last (`moved` is
   * told of each, the one before closed): where it ended, or the components to resolve again
   * from the root when it met a link inside.
   */
  private async walk(
    components: string[],
    root: FileHandle,
    moved: (opened: FileHandle) => void,
    options: ResolveOptions,
    requested: string,
  ): Promise<Located | string[]> {
    let current = root;
    for (let index = 0; index < components.length; index += 1) {
      const name = components[index] as string;
      const last = index === components.length - 1;
      const walked = components.slice(0, index);
      const opened = last && options.want === 'entry' ? null : await openDirectoryAt(current, name);
      if (opened && !('code' in opened)) {
        if (current !== root) await current.close();
        current = opened;
        moved(opened);
        continue;
      }
      const code = opened?.code;
      if (code === 'ENOENT' && !last && options.create !== undefined) {
        await this.makeDirectory(current, name, options.create);
        index -= 1; // open it now
        continue;
      }
      if (code === 'ENOENT' && !last && options.missingRest) {
        const rest = components.slice(index);
        return { dir: current, name: rest.join(path.sep), relative: [...walked, ...rest].join(path.sep) };
      }
      const target = code === 'ENOENT' || (last && options.keepLastLink) ? null : await linkTarget(current, name);
      if (target === null) {
        if (last && options.want === 'entry') return { dir: current, name, relative: [...walked, name].join(path.sep) };
        throw fileError(code === 'ENOENT' ? 'ENOENT' : 'ENOTDIR', requested);
      }
      // A link is resolved from the directory holding it, within the root, then the rest after it.
      const followed = path.resolve(this.root, ...walked, target, ...components.slice(index + 1));
      if (followed !== this.root && !followed.startsWith(this.root + path.sep)) throw outsideError(requested);
      return componentsOf(this.root, followed);
    }
    if (options.want === 'directory') return { dir: current, name: null, relative: components.join(path.sep) };
    throw new Error(`Not a file: ${requested}`);
  }

  /** Runs `work` with the open directory `requested`. */
  async withDirectory<T>(requested: string, work: (dir: FileHandle, relative: string) => Promise<T>): Promise<T> {
    const { dir, relative } = await this.resolve(requested, { want: 'directory' });
    try {
      return await work(dir, relative);
    } finally {
      await dir.close();
    }
  }

  /**
   * Runs `work` with the directory holding `requested`'s last component and its name. A link
   * put there after it was resolved makes the open in `work` fail with ELOOP (O_NOFOLLOW): the
   * path is resolved again, a few times.
   */
  async withEntry<T>(
    requested: string,
    work: (dir: FileHandle, name: string, relative: string) => Promise<T>,
    options: Pick<ResolveOptions, 'create' | 'keepLastLink'> = {},
  ): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const { dir, name, relative } = await this.resolve(requested, { want: 'entry', ...options });
      try {
        return await work(dir, name as string, relative);
      } catch (error) {
        if (codeOf(error) !== 'ELOOP' || attempt === 3) throw error;
      } finally {
        await dir.close();
      }
    }
  }

  /** The file's type and size as the kernel has it now (links inside followed), or null when missing. */
  async stat(requested: string): Promise<Stats | null> {
    if (componentsOf(this.root, requested).length === 0) return this.withDirectory('.', (dir) => dir.stat());
    try {
      return await this.withEntry(requested, async (dir, name) => {
        const stats = await lstat(inside(dir, name));
        // Made a link since it was resolved: resolve it again.
        if (stats.isSymbolicLink()) throw fileError('ELOOP', requested);
        return stats;
      });
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return null;
      throw error;
    }
  }

  /** A regular file's bytes; refuses anything else (a FIFO would block, a device has no end) and files over `limit`. */
  async read(requested: string, limit = Number.MAX_SAFE_INTEGER): Promise<Buffer> {
    return this.withEntry(requested, async (dir, name) => {
      const handle = await this.openRegular(dir, name, O_RDONLY, requested);
      try {
        const { size } = await handle.stat();
        if (size > limit) throw Object.assign(fileError('EFBIG', requested), { size });
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    });
  }

  /** Writes a regular file (created with its missing directories, owned by the sandbox's user). */
  async write(requested: string, data: string | Uint8Array): Promise<void> {
    await this.withEntry(
      requested,
      async (dir, name) => {
        const handle = await this.openRegular(dir, name, O_WRONLY | O_CREAT, requested);
        try {
          await handle.truncate(0);
          await handle.writeFile(data);
        } finally {
          await handle.close();
        }
      },
      { create: this.owner },
    );
  }

  /** Removes a file or link (never what a link points to); a missing one is already removed. */
  async remove(requested: string): Promise<void> {
    await this.withEntry(requested, (dir, name) => unlink(inside(dir, name)).catch(ignoreMissing), {
      keepLastLink: true,
    });
  }

  /** A directory's entries with the kernel's file types (links not followed). */
  list(requested: string): Promise<Dirent[]> {
    return this.withDirectory(requested, (dir) => readdir(inside(dir), { withFileTypes: true }));
  }

  /**
   * Opens `name` in `dir` as a regular file: no link followed, no FIFO waited on, and, when the
   * server writes for a sandbox, only a file its user owns (the sandbox could not write another,
   * such as an object hard-linked from the repository a fork was copied from).
   */
  async openRegular(dir: FileHandle, name: string, flags: number, requested: string): Promise<FileHandle> {
    const created = (flags & O_CREAT) !== 0;
    let handle: FileHandle;
    let isNew = false;
    try {
      handle = await open(inside(dir, name), flags | O_NOFOLLOW | O_NONBLOCK | (created ? O_EXCL : 0), 0o644);
      isNew = created;
    } catch (error) {
      if (!(created && codeOf(error) === 'EEXIST')) throw translated(error, requested);
      handle = await open(inside(dir, name), (flags & ~O_CREAT) | O_NOFOLLOW | O_NONBLOCK).catch((again) => {
        throw translated(again, requested);
      });
    }
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) throw fileError('EISDIR', requested);
      if (!stats.isFile()) throw new Error(`Not a file: ${requested}`);
      if (isNew && this.owner) await handle.chown(this.owner.uid, this.owner.gid);
      else if ((flags & O_WRONLY) !== 0 && this.owner && stats.uid !== this.owner.uid)
        throw fileError('EACCES', requested);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Makes a directory in `parent` (one made meanwhile is fine), owned by `owner`. */
  async makeDirectory(parent: FileHandle, name: string, owner: Owner | null): Promise<void> {
    try {
      await mkdir(inside(parent, name), 0o755);
    } catch (error) {
      if (codeOf(error) === 'EEXIST') return;
      throw error;
    }
    if (!owner) return;
    const made = await openDirectoryAt(parent, name);
    if ('code' in made) return; // replaced at once: the walk that follows finds out
    try {
      await made.chown(owner.uid, owner.gid);
    } finally {
      await made.close();
    }
  }

  /** Copies a link (its target as text) into `dir`. */
  static copyLink(from: FileHandle, name: string, to: FileHandle): Promise<void> {
    return readlink(inside(from, name)).then((target) => symlink(target, inside(to, name)));
  }

  /** A hard link in `to` to the entry `name` of `from` (a link is linked as a link, never followed). */
  static hardLink(from: FileHandle, name: string, to: FileHandle): Promise<void> {
    return link(inside(from, name), inside(to, name));
  }
}

function ignoreMissing(error: unknown): void {
  if (codeOf(error) !== 'ENOENT') throw error;
}

/** The kernel's error for a path under /proc/self/fd, renamed with the path the caller gave. */
function translated(error: unknown, requested: string): unknown {
  const code = codeOf(error);
  return code && code in DESCRIPTIONS ? fileError(code, requested) : error;
}
