import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMicroagents } from '../../server/agent/recall/microagents.ts';
import type { RuntimeSession, WorkspaceSnapshot } from '../../server/runtime/types.ts';
import { sandboxAvailable } from '../support/sandbox.ts';
import { tempRuntime, type TempRuntime } from '../support/temp-runtime.ts';

// A process in the sandbox swaps a directory and a link to a directory of the host in a tight
// loop (renameat2's RENAME_EXCHANGE: one of the two is always there), while the server's file
// calls go through the name again and again. Not a byte from outside may come back, nothing may
// be written outside, and nothing outside may be copied or linked into a fork. A deliberately
// naive check-then-open, run against the same swapper, proves the race is there to be lost.

const SECRET = 'OUTSIDE-SECRET-7f3a';
const TRIES = 2000;

let temp: TempRuntime;
let session: RuntimeSession;
/** A directory of the host the links point at: a secret to read, a place not to write. */
let outside: string;
/** Taken before the swapper starts: what the forks are made from. */
let snapshot: WorkspaceSnapshot;

/** The swapper: exchanges `<dir>` and `<dir>.link` (a link to the outside) for ever, for each pair given. */
const SWAPPER = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
pairs = [(d.encode(), (d + '.link').encode()) for d in sys.argv[2:]]
for d, l in pairs:
    os.makedirs(d, exist_ok=True)
    if not os.path.lexists(l):
        os.symlink(sys.argv[1], l)
while True:
    for d, l in pairs:
        libc.renameat2(-100, d, -100, l, 2)
`;

beforeAll(async () => {
  if (!sandboxAvailable) return;
  temp = await tempRuntime({ portRange: [28700, 28799] });
  outside = await realpath(await fs.promises.mkdtemp(path.join(temp.dataDir, 'outside-')));
  await writeFile(path.join(outside, 'secret.key'), SECRET);
  await writeFile(path.join(outside, 'only-outside.md'), `---\ntriggers: [x]\n---\n${SECRET}`);
  await mkdir(path.join(outside, 'ab'), { recursive: true });
  await writeFile(path.join(outside, 'ab', 'cdef'), SECRET);
  session = await temp.runtime.start('races');
  await session.writeFile('race/d/secret.key', 'inside');
  await session.writeFile('.openhands/microagents/repo.md', 'inside');
  await session.writeFile('swap.py', SWAPPER);
  await session.runCommand({ command: 'git add -A && git -c user.name=a -c user.email=a@b commit -qm one' });
  snapshot = (await session.snapshot('1')) as WorkspaceSnapshot;
  const objects = (await session.runCommand({ command: 'ls .git/objects | grep -v -e info -e pack | head -1' })).output;
  await session.runCommand({
    command: `nohup python3 swap.py ${outside} race/d .openhands/microagents .git/objects/${objects.trim()} > /dev/null 2>&1 &`,
  });
  // The swapper has made its links.
  for (let i = 0; i < 100 && !fs.existsSync(path.join(session.workspaceDir, 'race/d.link')); i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
}, 120_000);

/** The swapper runs: `race/d` is seen as the directory and as the link, in a few hundred looks. */
function expectSwapping(): void {
  const seen = new Set<string>();
  for (let i = 0; i < 5000 && seen.size < 2; i++) {
    const stats = fs.lstatSync(path.join(session.workspaceDir, 'race/d'), { throwIfNoEntry: false });
    if (stats) seen.add(stats.isSymbolicLink() ? 'link' : 'directory');
  }
  expect([...seen].sort()).toEqual(['directory', 'link']);
}

afterAll(async () => {
  await temp?.cleanup();
});

/** Runs `call` `tries` times; answers what came back and how many calls were refused. */
async function hammer<T>(tries: number, call: (index: number) => Promise<T>) {
  const answers: T[] = [];
  let refused = 0;
  for (let index = 0; index < tries; index++) {
    try {
      answers.push(await call(index));
    } catch {
      refused += 1;
    }
  }
  return { answers, refused };
}

const holds = (value: unknown) =>
  JSON.stringify(value ?? null).includes(SECRET) || Buffer.from(String(value ?? '')).includes(SECRET);

// Skipped only on a developer machine without bubblewrap or pasta; CI always has them.
describe.skipIf(!sandboxAvailable)('the server’s file calls against a racing swapper', { timeout: 180_000 }, () => {
  it('would be lost by a check-then-open by name: the swapper wins that race', async () => {
    expectSwapping();
    const workspace = session.workspaceDir;
    let leaked = 0;
    for (let i = 0; i < 20_000 && leaked === 0; i++) {
      const target = path.join(workspace, 'race/d/secret.key');
      const real = await realpath(target).catch(() => '');
      if (!real.startsWith(workspace + path.sep)) continue;
      if ((await readFile(target, 'utf8').catch(() => '')) === SECRET) leaked += 1;
    }
    expect(leaked).toBeGreaterThan(0);
  });

  it('reads (select-file, the editor, git diff, microagents): never a byte from outside', async () => {
    expectSwapping();
    const reads = await hammer(TRIES, () => session.readFile('race/d/secret.key'));
    expect(reads.answers.filter(holds)).toEqual([]);
    // Both sides of the race were seen: the directory and the link (refused).
    expect(reads.answers.length).toBeGreaterThan(0);
    expect(reads.refused).toBeGreaterThan(0);
    const views = await hammer(TRIES / 4, () => session.editor({ command: 'view', path: 'race/d/secret.key' }));
    expect(views.answers.filter(holds)).toEqual([]);
    const diffs = await hammer(TRIES / 4, () => session.gitDiff('race/d/secret.key'));
    expect(diffs.answers.filter(holds)).toEqual([]);
    const microagents = await hammer(TRIES / 4, () => readMicroagents(session, '.'));
    expect(microagents.answers.filter(holds)).toEqual([]);
    const listings = await hammer(TRIES, () => session.listFiles('race/d'));
    expect(listings.answers.filter((names) => names.includes('only-outside.md'))).toEqual([]);
  });

  it('writes (save-file, uploads, the editor): never a file outside', async () => {
    expectSwapping();
    const writes = await hammer(TRIES, (i) => session.writeFile(`race/d/written-${i}.txt`, 'x'));
    const puts = await hammer(TRIES, (i) => session.putFile(`race/d/upload-${i}.bin`, new Uint8Array([1])));
    const edits = await hammer(TRIES / 4, (i) =>
      session.editor({ command: 'create', path: `race/d/created-${i}.txt`, file_text: 'x' }),
    );
    // Both sides of the race were seen: written into the directory, refused through the link.
    expect(writes.answers.length + puts.answers.length + edits.answers.length).toBeGreaterThan(0);
    expect(writes.refused + puts.refused + edits.refused).toBeGreaterThan(0);
    expect(fs.readdirSync(outside).sort()).toEqual(['ab', 'only-outside.md', 'secret.key']);
    expect(fs.readFileSync(path.join(outside, 'secret.key'), 'utf8')).toBe(SECRET);
  });

  it('copies (the zip, the DevOps archive, a fork of the repository): nothing from outside', async () => {
    expectSwapping();
    const zips = await hammer(50, () => session.zip());
    expect(zips.answers.filter((zip) => Buffer.from(zip).includes(SECRET))).toEqual([]);
    const archives = await hammer(50, () => session.archive('race', 10 * 2 ** 20));
    const unpacked = archives.answers.map((archive) =>
      execFileSync('tar', ['-xzOf', '-'], { input: archive, maxBuffer: 10 * 2 ** 20 }),
    );
    expect(unpacked.filter((bytes) => bytes.includes(SECRET))).toEqual([]);
    expect(snapshot.tree).toMatch(/^[0-9a-f]{40}$/);
    const secretInode = fs.statSync(path.join(outside, 'ab', 'cdef')).ino;
    for (let i = 0; i < 40; i++) {
      const fork = `races-fork-${i}`;
      // A fork may fail when the objects it needs were behind the link at that moment; what it copied is checked either way.
      await temp.runtime.fork('races', fork, snapshot, 1).catch(() => undefined);
      const copied = path.join(temp.rootDir, fork, '.git');
      const files = execFileSync('find', [copied, '-type', 'f'], { encoding: 'utf8' }).split('\n').filter(Boolean);
      expect(files.filter((file) => fs.statSync(file).ino === secretInode)).toEqual([]);
      expect(files.filter((file) => fs.readFileSync(file).includes(SECRET))).toEqual([]);
      await temp.runtime.remove(fork);
    }
  });
});
