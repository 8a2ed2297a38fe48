import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
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

/** What one snapshot reads about the repository before it walks the files. */
interface Walk {
  tracked: Set<string>;
  trackedDirectories: Set<string>;
  skipped: string[];
  /** Files hashed in this snapshot, by path: the next snapshot's cache. */
  hashed: Map<string, HashedFile>;
  /** Trees of this snapshot, by directory: the next snapshot's cache. */
  trees: Map<string, { key: string; oid: string }>;
}

/**
 * A file changed less than this before it was read could change again with the same stat: the
 * kernel stamps files from a clock that advances once a jiffy (at most 10 ms), so it is read again.
 */
const RACY_MS = 50;
const SIMPLE_NAMES = /^[\x20-\x7e]*$/;
const statKey = (stat: Stats) => `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;

/**
 * Records a git work tree's files as git trees without running git: the files `git add -A`
 * would take into an index seeded with the user's one (tracked files, and untracked ones no
 * ignore rule excludes), byte for byte as they are on disk, in loose objects of the repository,
 * and kept alive by a ref in {@link SNAPSHOT_REFS}. A stat cache, like git's index, means only
 * files changed since the last snapshot are read. Runs inside the conversation's sandbox, as a
 * long-lived process: the files and the repository's config are the agent's to write.
 */
export class WorkspaceTrees {
  private readonly gitDir: string;
  private hashed = new Map<string, HashedFile>();
  /** Objects known to be in the repository. */
  private readonly stored = new Set<string>();
  private readonly parsed = new Map<string, { key: string; value: unknown }>();
  /** Each directory's last tree, by its entries: an unchanged directory is not serialised and hashed again. */
  private trees = new Map<string, { key: string; oid: string }>();
  private refsDirectory: string | null = null;
  private temporaryCount = 0;

  constructor(
    private readonly workspaceDir: string,
    /** $HOME and $XDG_CONFIG_HOME, where git's global config and ignore file are. */
    private readonly home: string,
    private readonly xdgConfigHome: string | undefined,
  ) {
    this.gitDir = path.join(workspaceDir, '.git');
  }

  /** Records the files under `name` unless their tree is `previous`; throws {@link SnapshotUnsupported}. */
  snapshot(name: string, previous: string | null): WorkspaceSnapshot {
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
    const excludesFile = settings.excludesFile
      ? settings.excludesFile.replace(/^~(?=\/)/, this.home)
      : path.join(configHome, 'git', 'ignore');
    const levels = [excludesFile, path.join(this.gitDir, 'info', 'exclude')].map((file) => ({
      base: '',
      rules: this.rules(file),
    }));
    const walk: Walk = {
      tracked: index.paths,
      trackedDirectories: index.directories,
      skipped: [],
      hashed: new Map(),
      trees: new Map(),
    };
    const tree = this.tree('', levels, false, walk) ?? this.writeObject('tree', Buffer.alloc(0));
    this.hashed = walk.hashed;
    this.trees = walk.trees;
    if (tree !== previous) this.writeRef(`${SNAPSHOT_REFS}${name}`, tree);
    return { tree, ...this.head(), skipped: walk.skipped };
  }

  /** The tree of directory `relative` and what is below it, written; null when it holds no file to record. */
  private tree(relative: string, levels: readonly IgnoreLevel[], trackedOnly: boolean, walk: Walk): string | null {
    // Concatenated, not joined: a walk builds a thousand paths, and these are already normal.
    const directory = relative ? `${this.workspaceDir}/${relative}` : this.workspaceDir;
    const dirents = readdirSync(directory, { withFileTypes: true });
    let here = levels;
    // git reads no .gitignore that is a symbolic link.
    if (!trackedOnly && dirents.some((dirent) => dirent.name === '.gitignore' && dirent.isFile())) {
      here = [...levels, { base: relative, rules: this.rules(`${directory}/.gitignore`) }];
    }
    const entries: TreeEntry[] = [];
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
        if (oid) entries.push({ name, mode: '40000', oid, isTree: true });
      } else if (type.isFile() || type.isSymbolicLink()) {
        if ((trackedOnly || this.ignored(here, file, false)) && !walk.tracked.has(file)) continue;
        const blob = this.blob(`${directory}/${name}`, file, walk);
        if (blob) entries.push({ name, mode: blob.entryMode, oid: blob.oid, isTree: false });
      }
      // Sockets, FIFOs and devices are not files git records.
    }
    if (entries.length === 0) return null;
    const key = entries.map((entry) => `${entry.mode} ${entry.name} ${entry.oid}`).join('\0');
    const known = this.trees.get(relative);
    const oid = known?.key === key ? known.oid : this.writeObject('tree', treeContent(entries));
    walk.trees.set(relative, { key, oid });
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

  /** The blob of a file or symbolic link, from the cache when its stat is unchanged; null (and listed) when it is over the limit. */
  private blob(full: string, file: string, walk: Walk): HashedFile | null {
    const stat = lstatSync(full);
    const known = this.hashed.get(file);
    if (
      known &&
      !known.racy &&
      known.ino === stat.ino &&
      known.size === stat.size &&
      known.mode === stat.mode &&
      known.mtimeMs === stat.mtimeMs &&
      known.ctimeMs === stat.ctimeMs
    ) {
      walk.hashed.set(file, known);
      return known;
    }
    if (stat.isFile() && stat.size > SNAPSHOT_FILE_LIMIT_BYTES) {
      walk.skipped.push(file);
      return null;
    }
    const hashedAt = Date.now();
    const link = stat.isSymbolicLink();
    const content = link ? readlinkSync(full, { encoding: 'buffer' }) : readFileSync(full);
    const blob: HashedFile = {
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
    walk.hashed.set(file, blob);
    return blob;
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
      const temporary = path.join(directory, `tmp_obj_atelier_${process.pid}_${(this.temporaryCount += 1)}`);
      writeFileSync(temporary, deflateSync(Buffer.concat([header, content])), { mode: 0o444 });
      renameSync(temporary, target);
    }
    this.stored.add(oid);
    return oid;
  }

  private writeRef(ref: string, oid: string): void {
    const file = path.join(this.gitDir, ...ref.split('/'));
    if (this.refsDirectory !== path.dirname(file))
      mkdirSync((this.refsDirectory = path.dirname(file)), { recursive: true });
    // git's lock protocol: another writer of the same ref fails rather than interleaves.
    writeFileSync(`${file}.lock`, `${oid}\n`, { flag: 'wx' });
    renameSync(`${file}.lock`, file);
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
