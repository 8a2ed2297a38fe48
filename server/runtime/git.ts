import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { SnapshotClient } from './snapshot-client.ts';
import { SNAPSHOT_FILE_LIMIT_BYTES, SNAPSHOT_REFS } from './snapshot-limits.ts';
import type { FileChange, RepositorySource, WorkspaceSnapshot } from './types.ts';

const exec = promisify(execFile);

export interface GitOptions {
  workspaceDir: string;
  /** Environment for git (PATH, HOME, LANG). */
  env: Record<string, string>;
  /**
   * Turns git's argv into the argv to run; the sandbox, because the repository's config is the
   * agent's to write and git would obey it (core.fsmonitor, filters). `network` only for fetching.
   */
  wrap: (argv: string[], network: boolean) => string[];
}

/** Status letters of `git status --porcelain=v1` mapped to the file-change kinds the Changes tab shows. */
function changeKind(x: string, y: string): FileChange['status'] {
  if (x === '?' && y === '?') return 'U';
  if (x === 'R' || y === 'R') return 'R';
  if (x === 'A' || x === 'C') return 'A';
  if (x === 'D' || y === 'D') return 'D';
  return 'M';
}

/**
 * Records the workspace's files (tracked and untracked, not ignored) as a tree from a private
 * index seeded with the user's one, for work trees the snapshot process leaves to git (see
 * workspace-tree.ts; git applies its filters and line-ending rules here, and keeps a file it
 * recorded once while it exists), so the user's index, branch and stash are never touched: with the index's stat cache,
 * only files changed since the last snapshot are read again. A tree unlike the previous one
 * ($2) is checked for files over the limit, which leave it and are excluded from then on (the
 * pathspecs in atelier-snapshot-skip), and kept alive by the ref `$1`. Prints the tree, the HEAD
 * commit, the branch, then every path left out. Shell built-ins read HEAD and the skip list: each
 * process started costs a millisecond or more.
 */
const SNAPSHOT_SCRIPT = `set -e
if [ -d .git ]; then gitdir=.git; else gitdir=$(git rev-parse --git-dir); fi
export GIT_INDEX_FILE="$gitdir/atelier-snapshot-index"
[ -f "$GIT_INDEX_FILE" ] || [ ! -f "$gitdir/index" ] || cp "$gitdir/index" "$GIT_INDEX_FILE"
skip="$gitdir/atelier-snapshot-skip"
[ -f "$skip" ] || printf '.\n' > "$skip"
git -c core.fsmonitor=false add -A --pathspec-from-file="$skip"
tree=$(git write-tree)
if [ "$tree" != "$2" ]; then
  big=$(git -c core.quotePath=false ls-tree -r -l "$tree" | awk -v limit=${SNAPSHOT_FILE_LIMIT_BYTES} '$4 > limit { sub(/^[^\t]*\t/, ""); print }')
  if [ -n "$big" ]; then
    printf '%s\n' "$big" | while IFS= read -r file; do
      printf ':(exclude,literal)%s\n' "$file" >> "$skip"
      git rm -q --cached -- ":(literal)$file"
    done
    tree=$(git write-tree)
  fi
  git update-ref "${SNAPSHOT_REFS}$1" "$tree"
fi
head='' branch=''
read -r ref < "$gitdir/HEAD" || true
case "$ref" in
  'ref: refs/heads/'*)
    branch=\${ref#ref: refs/heads/}
    if [ -f "$gitdir/refs/heads/$branch" ]; then read -r head < "$gitdir/refs/heads/$branch"; else head=$(git rev-parse -q --verify 'HEAD^{commit}' || true); fi ;;
  *) head=$ref ;;
esac
printf '%s\n%s\n%s\n' "$tree" "$head" "$branch"
while IFS= read -r line; do
  case "$line" in ':(exclude,literal)'*) printf '%s\n' "\${line#:(exclude,literal)}" ;; esac
done < "$skip"`;

/**
 * Makes a copied repository the workspace of a snapshot: its files in the working tree, byte for
 * byte as recorded (an info/attributes file that turns off line-ending conversion and filters
 * stands in for the user's one meanwhile), HEAD at the commit and branch of then, and the index at
 * HEAD, so changes not committed then are changes not committed now (what was staged is
 * unstaged). Snapshots after event $4 go.
 */
const RESTORE_SCRIPT = `set -e
git read-tree "$1"
info="$(git rev-parse --git-dir)/info"
mkdir -p "$info"
if [ -f "$info/attributes" ]; then mv "$info/attributes" "$info/attributes.atelier-kept"; fi
printf '* -text -eol -filter -ident -working-tree-encoding\n' > "$info/attributes"
git -c core.fsmonitor=false -c core.autocrlf=false checkout-index -a -f
rm "$info/attributes"
if [ -f "$info/attributes.atelier-kept" ]; then mv "$info/attributes.atelier-kept" "$info/attributes"; fi
if [ -n "$3" ]; then
  git symbolic-ref HEAD "refs/heads/$3"
  if [ -n "$2" ]; then git update-ref "refs/heads/$3" "$2"; else git update-ref -d "refs/heads/$3"; fi
elif [ -n "$2" ]; then git update-ref --no-deref HEAD "$2"; fi
if [ -n "$2" ]; then git read-tree "$2"; else git read-tree --empty; fi
rm -f "$(git rev-parse --git-dir)/atelier-snapshot-index" "$(git rev-parse --git-dir)/atelier-snapshot-skip"
git for-each-ref --format='%(refname)' ${SNAPSHOT_REFS} | while read -r ref; do
  name="\${ref##*/}"
  if [ "\${name%-user}" -gt "$4" ]; then git update-ref -d "$ref"; fi
done`;

/** The workspace's git repository, as the Changes tab needs it. */
export class Git {
  private readonly snapshots: SnapshotClient;

  constructor(private readonly options: GitOptions) {
    this.snapshots = new SnapshotClient({
      workspaceDir: options.workspaceDir,
      env: options.env,
      wrap: (argv) => options.wrap(argv, false),
    });
  }

  private git(args: string[], network = false): Promise<string> {
    // core.fsmonitor would run a program the repository names; the Changes tab never needs it.
    return this.run(['git', '-c', 'core.fsmonitor=false', ...args], network);
  }

  /** A shell script of git commands in one (sandboxed) process: a snapshot is one process, not five. */
  private script(text: string, args: string[]): Promise<string> {
    return this.run(['sh', '-c', text, 'sh', ...args], false);
  }

  private async run(argv: string[], network: boolean): Promise<string> {
    const [file, ...rest] = this.options.wrap(argv, network);
    if (!file) throw new Error('Empty git command line');
    const { stdout } = await exec(file, rest, {
      cwd: this.options.workspaceDir,
      env: { ...this.options.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
      maxBuffer: 256 * 1024 * 1024,
      encoding: 'utf8',
    });
    return stdout;
  }

  /** `git init` with a local identity, unless the workspace already is a repository. */
  async init(identity: { name: string; email: string }): Promise<void> {
    const exists = await access(path.join(this.options.workspaceDir, '.git')).then(
      () => true,
      () => false,
    );
    if (exists) return;
    await this.git(['init', '-q', '-b', 'main']);
    await this.git(['config', 'user.name', identity.name]);
    await this.git(['config', 'user.email', identity.email]);
  }

  /**
   * Makes a fresh workspace a checkout of `source` (its `branch`, else the remote's default
   * branch). Only while the repository has neither commits nor remotes, so a restart never
   * touches the user's work: answers false then. The token stays out of the repository's files:
   * the credential helper reads it from the runtime's environment (for the agent's pushes too).
   */
  async checkout(source: RepositorySource): Promise<boolean> {
    const hasCommits = await this.git(['rev-parse', '--verify', '-q', 'HEAD']).then(
      () => true,
      () => false,
    );
    if (hasCommits || (await this.git(['remote'])).trim() !== '') return false;
    await this.git(['remote', 'add', 'origin', source.url]);
    if (source.credentialHelper) await this.git(['config', 'credential.helper', source.credentialHelper]);
    await this.git(['fetch', '-q', 'origin'], true);
    let branch = source.branch;
    if (!branch) {
      await this.git(['remote', 'set-head', 'origin', '--auto'], true);
      branch = (await this.git(['symbolic-ref', '--short', 'refs/remotes/origin/HEAD']))
        .trim()
        .replace(/^origin\//, '');
    }
    await this.git(['checkout', '-q', '-B', branch, '--track', `origin/${branch}`]);
    return true;
  }

  /** Records the files as they are now under `name` (an event id); `previous` is the last snapshot's tree. */
  async snapshot(name: string, previous: string | null): Promise<WorkspaceSnapshot> {
    const answer = await this.snapshots.snapshot(name, previous);
    if (!('unsupported' in answer)) return answer;
    const output = await this.script(SNAPSHOT_SCRIPT, [name, previous ?? '']);
    const [tree = '', head = '', branch = '', ...skipped] = output.split('\n');
    return { tree, head: head || null, branch: branch || null, skipped: skipped.filter(Boolean) };
  }

  /** Starts the snapshot process now, not at the first snapshot (which may come with the workspace at its process limit). */
  warmSnapshots(): void {
    this.snapshots.warm();
  }

  /** Ends the snapshot process, if one runs. */
  close(): void {
    this.snapshots.close();
  }

  /** Makes this repository (a copy of the snapshot's) hold the workspace of `snapshot`, taken at event `eventId`. */
  async restore(snapshot: WorkspaceSnapshot, eventId: number): Promise<void> {
    await this.script(RESTORE_SCRIPT, [snapshot.tree, snapshot.head ?? '', snapshot.branch ?? '', String(eventId)]);
  }

  async changes(): Promise<FileChange[]> {
    const fields = (await this.git(['status', '--porcelain=v1', '-z', '--untracked-files=all'])).split('\0');
    const changes: FileChange[] = [];
    for (let i = 0; i < fields.length; i += 1) {
      const field = fields[i] as string;
      if (field.length < 4) continue;
      const x = field[0] as string;
      const y = field[1] as string;
      changes.push({ path: field.slice(3), status: changeKind(x, y) });
      // Renames and copies are followed by the original path in the next field.
      if (x === 'R' || x === 'C' || y === 'R' || y === 'C') i += 1;
    }
    return changes;
  }

  /**
   * The committed text of a file: '' where HEAD has none (a new file, or a repository without
   * commits yet). Its working-tree text is the workspace files' to read (files.ts).
   * @param relative path relative to the workspace, already resolved inside it
   */
  committed(relative: string): Promise<string> {
    return this.git(['show', `HEAD:${relative.split(path.sep).join('/')}`]).catch(() => '');
  }
}
