import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { snapshotSettings } from './git-config.ts';
import { trackedPaths } from './git-index.ts';
import { matchIgnoreRules, parseIgnoreRules, type IgnoreRule } from './gitignore.ts';
import { SNAPSHOT_FILE_LIMIT_BYTES, SNAPSHOT_REFS } from './snapshot-limits.ts';
import type { DirectoryChanges, DirectoryWatcher } from './directory-watcher.ts';
import type { WorkspaceSnapshot } from './types.ts';

/** Where the work tree's files cannot be read as git would record them: git itself takes the snapshot then. */
export class SnapshotUnsupported extends Error {}

/** A file's stat as last hashed, and its blob. */
interface HashedFile {
  ino: number;
  size: number;
  mode: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Changed within the clock's granularity of hashing: it could change again unseen by stat, so it is hashed again. */
  racy: boolean;
  entryMode: string;
  oid: string;
}

/** A file as a directory's reading found it. */
interface FoundFile {
  hashed: HashedFile;
  /** Its number of names: another one can be written without an event of this directory. */
  links: number;
  /** Its content is new to this directory's readings. */
  fresh: boolean;
}

interface TreeEntry {
  name: string;
  mode: string;
  oid: string;
  isTree: boolean;
}

/** The ignore rules of one file, applying below `base` (a path from the work tree's root; '' for the root). */
interface IgnoreLevel {
  base: string;
  rules: IgnoreRule[];
}

/** A directory as last read: its tree, and what the next reading of it starts from. */
interface DirectoryState {
  /**
   * Read while watched, as was everything below it, and no event since: its tree is taken as it is.
   * Never so for a directory holding a file with other links, which can be written unseen.
   */
  current: boolean;
  /** Its tree; null when it holds no file to record. */
  oid: string | null;
  /** Its entries, to see that a tree is unchanged without serialising it. */
  key: string;
  /** The ignore rules applying to it from above, as read then. */
  levels: readonly IgnoreLevel[];
  trackedOnly: boolean;
  /** Its files' stats and blobs, by name. */
  files: Map<string, HashedFile>;
  /** The subdirectories read below it, by name. */
  children: string[];
  /** Files over the limit, here and below. */
  skipped: string[];
}

/** What one snapshot reads about the repository before it walks the files. */
interface Walk {
  tracked: Set<string>;
  trackedDirectories: Set<string>;
  skipped: string[];
  /** Directories read without a watch: watched once the snapshot is answered. */
  unwatched: string[];
  /**
   * A file with more than one name was written or linked: another name may be in a directory
   * taken as current, so the work tree is read again.
   */
  linked: boolean;
}

/**
 * A file changed less than this before it was read could change again with the same stat: the
 * kernel stamps files from a clock that advances once a jiffy (at most 10 ms), so it is read again.
 */
const RACY_MS = 50;
/** Files made ahead for objects and ref locks: a step that changed one file writes its blob, a tree per directory above it and a ref. */
const SPARE_FILES = 8;
/** How temporary object files are named, in the objects directory, as git names its own. */
const TEMPORARY_PREFIX = 'tmp_obj_atelier_';
/** This process's part of those names: each snapshot process has a pid namespace of its own, so its pid may be an earlier one's. */
const PROCESS_TAG = randomBytes(6).toString('hex');
const SIMPLE_NAMES = /^[\x20-\x7e]*$/;
const statKey = (stat: Stats) => `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
const parentOf = (relative: string) => relative.slice(0, Math.max(relative.lastIndexOf('/'), 0));
const sameLevels = (a: readonly IgnoreLevel[], b: readonly IgnoreLevel[]) =>
  a.length === b.length && a.every((level, i) => level.rules === b[i]?.rules && level.base === b[i]?.base);

/**
 * Records a git work tree's files as git trees without running git: the files `git add -A`
 * would take into an index seeded with the user's one (tracked files, and untracked ones no
 * ignore rule excludes), byte for byte as they are on disk, in loose objects of the repository,
 * and kept alive by a ref in {@link SNAPSHOT_REFS}. A stat cache, like git's index, means only
 * files changed since the last snapshot are read; with a {@link DirectoryWatcher}, only
 * directories changed since are listed, as git's fsmonitor does. Runs inside the conversation's
 * sandbox, as a long-lived process: the files and the repository's config are the agent's to write.
 */
export class WorkspaceTrees {
  private readonly gitDir: string;
  /** Every directory read, by path from the root ('' for the root). */
  private readonly directories = new Map<string, DirectoryState>();
  /** Directories whose events the watcher reports. */
  private readonly watched = new Set<string>();
  /** Directories no longer read, to stop watching. */
  private unwatch: string[] = [];
  /** The watch request sent after the last snapshot, answered before the next one. */
  private watching: Promise<void> = Promise.resolve();
  /** Objects known to be in the repository. */
  private readonly stored = new Set<string>();
  private readonly parsed = new Map<string, { key: string; value: unknown }>();
  /** The settings and index of the last snapshot: when either changes, every directory is read again. */
  private lastReading: { settings: unknown; tracked: Set<string> } | null = null;
  private refsDirectory: string | null = null;
  private temporaryCount = 0;
  /** Empty files made ahead in the objects directory, which an object is written into and renamed from (null until first made). */
  private spares: string[] | null = null;
  /** How many directories the last snapshot listed: what the watcher saves, for tests and benchmarks. */
  directoriesRead = 0;

  constructor(
    private readonly workspaceDir: string,
    /** $HOME and $XDG_CONFIG_HOME, where git's global config and ignore file are. */
    private readonly home: string,
    private readonly xdgConfigHome: string | undefined,
    private watcher: DirectoryWatcher | null = null,
  ) {
    this.gitDir = path.join(workspaceDir, '.git');
  }

  /** Records the files under `name` unless their tree is `previous`; throws {@link SnapshotUnsupported}. */
  async snapshot(name: string, previous: string | null): Promise<WorkspaceSnapshot> {
    await this.watching;
    if (this.watcher) {
      const changes = await this.watcher.changes();
      if (changes) this.changed(changes);
      else this.stopWatching();
    }
    if (!this.statOrNull(this.gitDir)?.isDirectory()) throw new SnapshotUnsupported('.git is not a directory');
    const configHome = this.xdgConfigHome || path.join(this.home, '.config');
    const configs = [
      path.join(this.home, '.gitconfig'),
      path.join(configHome, 'git', 'config'),
      path.join(this.gitDir, 'config'),
    ];
    const settings = this.cached('config', configs, (texts) =>
      snapshotSettings(texts.map((text) => text.toString('utf8'))),
    );
    if (settings.unsupported) throw new SnapshotUnsupported(settings.unsupported);
    const index = this.cached('index', [path.join(this.gitDir, 'index')], ([bytes]) =>
      bytes?.length ? trackedPaths(bytes) : { paths: new Set<string>(), directories: new Set<string>() },
    );
    if ('unsupported' in index) throw new SnapshotUnsupported(index.unsupported);
    const last = this.lastReading;
    if (last && (last.settings !== settings || !sameSet(last.tracked, index.paths))) this.changed({ overflow: true });
    this.lastReading = { settings, tracked: index.paths };
    const excludesFile = settings.excludesFile
      ? settings.excludesFile.replace(/^~(?=\/)/, this.home)
      : path.join(configHome, 'git', 'ignore');
    const levels = [excludesFile, path.join(this.gitDir, 'info', 'exclude')].map((file) => ({
      base: '',
      rules: this.rules(file),
    }));
    this.directoriesRead = 0;
    const read = () => {
      const walk: Walk = {
        tracked: index.paths,
        trackedDirectories: index.directories,
        skipped: [],
        unwatched: [],
        linked: false,
      };
      return { walk, root: this.tree('', levels, false, walk) };
    };
    let { walk, root } = read();
    if (walk.linked) {
      this.changed({ overflow: true });
      ({ walk, root } = read());
    }
    const tree = root ?? this.writeObject('tree', Buffer.alloc(0));
    if (tree !== previous) this.writeRef(`${SNAPSHOT_REFS}${name}`, tree);
    this.watchAfter(walk.unwatched);
    return { tree, ...this.head(), skipped: walk.skipped };
  }

  /** Ends the watcher (the snapshot process ends). */
  close(): void {
    this.watcher?.close();
  }

  /** Marks what the watcher reports, and every directory above it, to be read again. */
  private changed(changes: Partial<DirectoryChanges>): void {
    if (changes.overflow) {
      for (const state of this.directories.values()) state.current = false;
    }
    for (const directory of changes.lost ?? []) this.watched.delete(directory);
    for (const directory of [...(changes.dirty ?? []), ...(changes.lost ?? [])]) {
      for (let at = directory; ; at = parentOf(at)) {
        const state = this.directories.get(at);
        if (state) state.current = false;
        if (at === '') break;
      }
    }
  }

  /** Asks the watcher to watch what was read unwatched: read once more at the next snapshot, it is then current. */
  private watchAfter(unwatched: string[]): void {
    const watcher = this.watcher;
    const unwatch = this.unwatch.splice(0);
    if (!watcher || (unwatched.length === 0 && unwatch.length === 0)) return;
    this.watching = watcher.watch(unwatched, unwatch).then(
      (answer) => {
        if (!answer) return this.stopWatching();
        for (const directory of answer.watched) this.watched.add(directory);
        this.changed({ lost: answer.lost });
      },
      () => this.stopWatching(),
    );
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = null;
    this.watched.clear();
    this.changed({ overflow: true });
  }

  /** Forgets a directory no longer read, and everything below it. */
  private forget(relative: string): void {
    const state = this.directories.get(relative);
    this.directories.delete(relative);
    if (this.watched.delete(relative)) this.unwatch.push(relative);
    for (const child of state?.children ?? []) this.forget(relative ? `${relative}/${child}` : child);
  }

  /** The tree of directory `relative` and what is below it, written; null when it holds no file to record. */
  private tree(relative: string, levels: readonly IgnoreLevel[], trackedOnly: boolean, walk: Walk): string | null {
    const known = this.directories.get(relative);
    if (known?.current && known.trackedOnly === trackedOnly && sameLevels(known.levels, levels)) {
      walk.skipped.push(...known.skipped);
      return known.oid;
    }
    // Watched before it is read: a change after the reading is an event.
    let current = this.watched.has(relative);
    if (!current && this.watcher) walk.unwatched.push(relative);
    // Concatenated, not joined: a walk builds a thousand paths, and these are already normal.
    const directory = relative ? `${this.workspaceDir}/${relative}` : this.workspaceDir;
    const dirents = readdirSync(directory, { withFileTypes: true });
    this.directoriesRead += 1;
    let here = levels;
    // git reads no .gitignore that is a symbolic link.
    if (!trackedOnly && dirents.some((dirent) => dirent.name === '.gitignore' && dirent.isFile())) {
      here = [...levels, { base: relative, rules: this.rules(`${directory}/.gitignore`) }];
    }
    const entries: TreeEntry[] = [];
    const files = new Map<string, HashedFile>();
    const children: string[] = [];
    const skippedFrom = walk.skipped.length;
    for (const dirent of dirents) {
      const name = dirent.name;
      const file = relative ? `${relative}/${name}` : name;
      if (name === '.git' && (relative === '' || trackedOnly)) continue;
      if (name.toLowerCase() === '.git') throw new SnapshotUnsupported(`a repository inside the workspace: ${file}`);
      if (name.includes('\uFFFD')) throw new SnapshotUnsupported(`a file name that is not UTF-8: ${file}`);
      const type =
        dirent.isDirectory() || dirent.isFile() || dirent.isSymbolicLink() ? dirent : lstatSync(`${directory}/${name}`);
      if (type.isDirectory()) {
        const excluded = trackedOnly || this.ignored(here, file, true);
        if (excluded && !walk.trackedDirectories.has(file)) continue;
        const oid = this.tree(file, here, excluded, walk);
        children.push(name);
        current &&= this.directories.get(file)?.current === true;
        if (oid) entries.push({ name, mode: '40000', oid, isTree: true });
      } else if (type.isFile() || type.isSymbolicLink()) {
        if ((trackedOnly || this.ignored(here, file, false)) && !walk.tracked.has(file)) continue;
        const blob = this.blob(`${directory}/${name}`, file, known?.files.get(name), walk);
        if (!blob) continue;
        files.set(name, blob.hashed);
        current &&= blob.links === 1;
        walk.linked ||= blob.fresh && blob.links > 1;
        entries.push({ name, mode: blob.hashed.entryMode, oid: blob.hashed.oid, isTree: false });
      }
      // Sockets, FIFOs and devices are not files git records.
    }
    if (known && known.children.length > 0) {
      const read = new Set(children);
      for (const child of known.children) if (!read.has(child)) this.forget(relative ? `${relative}/${child}` : child);
    }
    const key = entries.map((entry) => `${entry.mode} ${entry.name} ${entry.oid}`).join('\0');
    const oid =
      entries.length === 0
        ? null
        : known?.key === key && known.oid
          ? known.oid
          : this.writeObject('tree', treeContent(entries));
    const skipped = walk.skipped.slice(skippedFrom);
    this.directories.set(relative, { current, oid, key, levels, trackedOnly, files, children, skipped });
    return oid;
  }

  private ignored(levels: readonly IgnoreLevel[], file: string, isDirectory: boolean): boolean {
    // The deepest file with a matching rule decides; the root's excludes come last.
    for (let i = levels.length - 1; i >= 0; i -= 1) {
      const level = levels[i] as IgnoreLevel;
      const match = matchIgnoreRules(level.rules, level.base ? file.slice(level.base.length + 1) : file, isDirectory);
      if (match !== null) return match;
    }
    return false;
  }

  /** The blob of a file or symbolic link, from `known` when its stat is unchanged; null (and listed) when it is over the limit. */
  private blob(full: string, file: string, known: HashedFile | undefined, walk: Walk): FoundFile | null {
    const stat = lstatSync(full);
    if (
      known &&
      !known.racy &&
      known.ino === stat.ino &&
      known.size === stat.size &&
      known.mode === stat.mode &&
      known.mtimeMs === stat.mtimeMs &&
      known.ctimeMs === stat.ctimeMs
    ) {
      return { hashed: known, links: stat.nlink, fresh: false };
    }
    if (stat.isFile() && stat.size > SNAPSHOT_FILE_LIMIT_BYTES) {
      walk.skipped.push(file);
      return null;
    }
    const hashedAt = Date.now();
    const link = stat.isSymbolicLink();
    const content = link ? readlinkSync(full, { encoding: 'buffer' }) : readFileSync(full);
    const hashed: HashedFile = {
      ino: stat.ino,
      size: stat.size,
      mode: stat.mode,
      mtimeMs: stat.mtimeMs,
      ctimeMs: stat.ctimeMs,
      racy: Math.max(stat.mtimeMs, stat.ctimeMs) >= hashedAt - RACY_MS,
      // git records one executable bit: the owner's.
      entryMode: link ? '120000' : stat.mode & 0o100 ? '100755' : '100644',
      oid: this.writeObject('blob', content),
    };
    return { hashed, links: stat.nlink, fresh: hashed.oid !== known?.oid };
  }

  /** Stores a loose object unless the repository has it; answers its id. */
  private writeObject(type: 'blob' | 'tree', content: Buffer): string {
    const header = Buffer.from(`${type} ${content.length}\0`);
    const oid = createHash('sha1').update(header).update(content).digest('hex');
    if (this.stored.has(oid)) return oid;
    const directory = path.join(this.gitDir, 'objects', oid.slice(0, 2));
    const target = path.join(directory, oid.slice(2));
    if (!existsSync(target)) {
      mkdirSync(directory, { recursive: true });
      // Written aside and renamed, as git does: a reader never sees half an object.
      const temporary = this.spares?.pop() ?? this.temporaryFile();
      writeFileSync(temporary, deflateSync(Buffer.concat([header, content])));
      chmodSync(temporary, 0o444);
      renameSync(temporary, target);
    }
    this.stored.add(oid);
    return oid;
  }

  /**
   * Makes empty files for the next snapshot's objects and ref, after a snapshot: on some disks
   * making a file costs most of a millisecond, writing into one that is there tens of
   * microseconds. Named as git names its temporary objects.
   */
  prepareSpares(): void {
    try {
      const spares = (this.spares ??= this.removeLeftSpares());
      while (spares.length < SPARE_FILES) {
        const file = this.temporaryFile();
        writeFileSync(file, '', { flag: 'wx' });
        spares.push(file);
      }
    } catch {
      // No objects directory (yet): objects are written into new files.
    }
  }

  /** Removes the spare files an earlier snapshot process left (it ends when idle, or with its session). */
  private removeLeftSpares(): string[] {
    const objects = path.join(this.gitDir, 'objects');
    for (const name of readdirSync(objects))
      if (name.startsWith(TEMPORARY_PREFIX)) rmSync(path.join(objects, name), { force: true });
    return [];
  }

  private temporaryFile(): string {
    return path.join(this.gitDir, 'objects', `${TEMPORARY_PREFIX}${PROCESS_TAG}_${(this.temporaryCount += 1)}`);
  }

  private writeRef(ref: string, oid: string): void {
    const file = path.join(this.gitDir, ...ref.split('/'));
    if (this.refsDirectory !== path.dirname(file))
      mkdirSync((this.refsDirectory = path.dirname(file)), { recursive: true });
    // git's lock protocol: another writer of the same ref fails rather than interleaves. A spare,
    // written, takes the lock as a new link, which is made only where no file is.
    const lock = `${file}.lock`;
    const spare = this.spares?.pop();
    if (spare === undefined || !linkedAsLock(spare, lock, `${oid}\n`)) writeFileSync(lock, `${oid}\n`, { flag: 'wx' });
    renameSync(lock, file);
  }

  /** HEAD's commit (null before the first) and branch (null when detached). */
  private head(): { head: string | null; branch: string | null } {
    const head = readFileSync(path.join(this.gitDir, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return { head, branch: null };
    const symbolic = /^ref: refs\/heads\/(.+)$/.exec(head);
    if (!symbolic) throw new SnapshotUnsupported(`HEAD is ${head}`);
    const branch = symbolic[1] as string;
    const loose = this.readOrEmpty(path.join(this.gitDir, 'refs', 'heads', branch))
      .toString('utf8')
      .trim();
    if (loose) return { head: loose, branch };
    const packed = this.readOrEmpty(path.join(this.gitDir, 'packed-refs'))
      .toString('utf8')
      .split('\n')
      .find((line) => line.endsWith(` refs/heads/${branch}`));
    return { head: packed ? packed.slice(0, 40) : null, branch };
  }

  /** The rules of an ignore file; none when it does not exist. */
  private rules(file: string): IgnoreRule[] {
    return this.cached(`rules:${file}`, [file], ([text]) => parseIgnoreRules(text?.toString('utf8') ?? ''));
  }

  /** `parse` of the files' bytes (empty for a missing one), parsed again only when one of them changed. */
  private cached<T>(name: string, files: readonly string[], parse: (contents: Buffer[]) => T): T {
    const stats = files.map((file) => this.statOrNull(file));
    const key = stats.map((stat) => (stat ? statKey(stat) : '-')).join('|');
    const known = this.parsed.get(name);
    if (known && known.key === key) return known.value as T;
    const value = parse(files.map((file, i) => (stats[i] ? this.readOrEmpty(file) : Buffer.alloc(0))));
    // A file changed within the clock's granularity could change again unseen: it is parsed again next time.
    const racy = stats.some((stat) => stat && stat.mtimeMs >= Date.now() - RACY_MS);
    if (racy) this.parsed.delete(name);
    else this.parsed.set(name, { key, value });
    return value;
  }

  private readOrEmpty(file: string): Buffer {
    try {
      return readFileSync(file);
    } catch {
      return Buffer.alloc(0);
    }
  }

  private statOrNull(file: string): Stats | null {
    try {
      return statSync(file);
    } catch {
      return null;
    }
  }
}

/** A tree object's content: entries in git's order (a directory sorts as its name with a slash). */
function treeContent(entries: TreeEntry[]): Buffer {
  const keyed = entries.map((entry) => ({ entry, key: entry.isTree ? `${entry.name}/` : entry.name }));
  if (keyed.every(({ key }) => SIMPLE_NAMES.test(key)))
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  else {
    const bytes = new Map(keyed.map((item) => [item, Buffer.from(item.key)]));
    keyed.sort((a, b) => Buffer.compare(bytes.get(a) as Buffer, bytes.get(b) as Buffer));
  }
  const parts: Buffer[] = [];
  for (const { entry } of keyed) {
    parts.push(Buffer.from(`${entry.mode} ${entry.name}\0`), Buffer.from(entry.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

function sameSet<T>(a: Set<T>, b: Set<T>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

/** Writes `text` into `spare` and links it as `lock`; false where the file system makes no links. Throws when the lock is taken. */
function linkedAsLock(spare: string, lock: string, text: string): boolean {
  try {
    writeFileSync(spare, text);
    linkSync(spare, lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
    return false;
  } finally {
    rmSync(spare, { force: true });
  }
}
