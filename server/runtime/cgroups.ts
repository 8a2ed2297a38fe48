import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Per-conversation control groups: a memory, process and CPU limit for everything a
// conversation runs, where the host lets this server make groups. Version 1 (a hierarchy per
// controller, as on this project's machines) and version 2 (one hierarchy) are both read from
// /proc/self/mountinfo and /proc/self/cgroup; each controller is used where it is mounted.

export type Controller = 'memory' | 'pids' | 'cpu';
const CONTROLLERS: readonly Controller[] = ['memory', 'pids', 'cpu'];

export interface CgroupLimits {
  memoryBytes: number;
  processes: number;
  /** CPUs' worth of time per period (1 = one CPU). */
  cpus: number;
}

/** One hierarchy this server may write: where its own group is, its version, the controllers it has. */
interface Hierarchy {
  version: 1 | 2;
  /** The server's own group's directory. */
  own: string;
  controllers: Controller[];
}

interface Mount {
  point: string;
  /** Which part of the hierarchy the mount shows (a container may see only its own subtree). */
  root: string;
  type: 'cgroup' | 'cgroup2';
  options: string[];
}

/** cgroup mounts of /proc/self/mountinfo. */
export function parseMountinfo(text: string): Mount[] {
  return text.split('\n').flatMap((line) => {
    const [before, after] = line.split(' - ');
    if (!before || !after) return [];
    const fields = before.split(' ');
    const [type, , superOptions = ''] = after.split(' ');
    if (type !== 'cgroup' && type !== 'cgroup2') return [];
    return [
      { point: unescape(fields[4] ?? ''), root: unescape(fields[3] ?? ''), type, options: superOptions.split(',') },
    ];
  });
}

/** mountinfo escapes spaces and the like as octal. */
const unescape = (field: string) =>
  field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

/** The server's group in each hierarchy, from /proc/self/cgroup (`id:controllers:path`; `0::path` for version 2). */
export function parseProcCgroup(text: string): { controllers: string[]; path: string }[] {
  return text.split('\n').flatMap((line) => {
    const match = /^\d+:([^:]*):(.*)$/.exec(line.trim());
    return match ? [{ controllers: (match[1] ?? '').split(',').filter(Boolean), path: match[2] ?? '/' }] : [];
  });
}

/** Where each controller can be used, given the mounts, the server's groups and what version 2 offers. */
export function locateHierarchies(
  mounts: Mount[],
  groups: { controllers: string[]; path: string }[],
  unifiedControllers: (own: string) => string[],
): Hierarchy[] {
  const join = (mount: Mount, groupPath: string) => {
    const relative = path.posix.relative(mount.root, groupPath);
    return relative.startsWith('..') ? null : path.join(mount.point, relative);
  };
  const found: Hierarchy[] = [];
  const taken = new Set<Controller>();
  const unified = mounts.find((mount) => mount.type === 'cgroup2');
  const unifiedGroup = groups.find((group) => group.controllers.length === 0);
  if (unified && unifiedGroup) {
    const own = join(unified, unifiedGroup.path);
    const offered = own ? unifiedControllers(own) : [];
    const controllers = CONTROLLERS.filter((controller) => offered.includes(controller));
    if (own && controllers.length) {
      found.push({ version: 2, own, controllers });
      controllers.forEach((controller) => taken.add(controller));
    }
  }
  for (const controller of CONTROLLERS) {
    if (taken.has(controller)) continue;
    const mount = mounts.find((m) => m.type === 'cgroup' && m.options.includes(controller));
    const group = groups.find((g) => g.controllers.includes(controller));
    const own = mount && group ? join(mount, group.path) : null;
    if (!own) continue;
    const same = found.find((hierarchy) => hierarchy.version === 1 && hierarchy.own === own);
    if (same) same.controllers.push(controller);
    else found.push({ version: 1, own, controllers: [controller] });
    taken.add(controller);
  }
  return found;
}

/** The files a group's limits are written to, per version and controller. */
function limitWrites(version: 1 | 2, controller: Controller, limits: CgroupLimits): [string, string][] {
  const period = 100_000;
  const quota = Math.max(1000, Math.round(limits.cpus * period));
  if (version === 1)
    return {
      // memsw (memory and swap) follows memory's limit; it exists only with swap accounting, and is optional.
      memory: [
        ['memory.limit_in_bytes', String(limits.memoryBytes)],
        ['memory.memsw.limit_in_bytes?', String(limits.memoryBytes)],
      ] as [string, string][],
      pids: [['pids.max', String(limits.processes)]] as [string, string][],
      cpu: [
        ['cpu.cfs_period_us', String(period)],
        ['cpu.cfs_quota_us', String(quota)],
      ] as [string, string][],
    }[controller];
  return {
    memory: [
      ['memory.max', String(limits.memoryBytes)],
      ['memory.swap.max?', '0'],
    ] as [string, string][],
    pids: [['pids.max', String(limits.processes)]] as [string, string][],
    cpu: [['cpu.max', `${quota} ${period}`]] as [string, string][],
  }[controller];
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** A counter out of a flat keyed file (`name value` lines), 0 when absent. */
export function counter(text: string, name: string): number {
  const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** What a conversation's group has counted: processes killed for memory, forks refused at the process limit. */
export interface CgroupEvents {
  oomKills: number;
  processLimitHits: number;
}

/** One conversation's group in each hierarchy. */
export class ConversationCgroup {
  constructor(private readonly dirs: { version: 1 | 2; dir: string; controllers: Controller[] }[]) {}

  get controllers(): Controller[] {
    return this.dirs.flatMap((dir) => dir.controllers);
  }

  /** The files a process writes its pid to, to join (with everything it starts). */
  get procsFiles(): string[] {
    return this.dirs.map((dir) => path.join(dir.dir, 'cgroup.procs'));
  }

  async events(): Promise<CgroupEvents> {
    const read = (dir: string, file: string) => readFile(path.join(dir, file), 'utf8').catch(() => '');
    let oomKills = 0;
    let processLimitHits = 0;
    for (const { version, dir, controllers } of this.dirs) {
      if (controllers.includes('memory'))
        oomKills += counter(await read(dir, version === 1 ? 'memory.oom_control' : 'memory.events'), 'oom_kill');
      if (controllers.includes('pids')) processLimitHits += counter(await read(dir, 'pids.events'), 'max');
    }
    return { oomKills, processLimitHits };
  }

  /** The processes in the group now. */
  async processes(): Promise<number[]> {
    const [first] = this.dirs;
    if (!first) return [];
    const text = await readFile(path.join(first.dir, 'cgroup.procs'), 'utf8').catch(() => '');
    return text.split('\n').filter(Boolean).map(Number);
  }

  /** Removes the group once its processes are gone (a group is removed only when empty: retried a moment). */
  async remove(): Promise<void> {
    for (const { dir } of this.dirs) await removeGroup(dir);
  }
}

async function removeGroup(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return;
      if (errorCode(error) !== 'EBUSY') throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/**
 * The groups this server makes: `<own group>/<name>/<conversation>` in each
 * hierarchy. Version 2 allows controllers to be handed to children only by a group without
 * processes of its own: the server moves itself into a leaf `atelier-server-<pid>` first (as a
 * service with systemd's Delegate=yes must).
 */
export class CgroupTree {
  private constructor(private readonly hierarchies: { version: 1 | 2; parent: string; controllers: Controller[] }[]) {}

  get controllers(): Controller[] {
    return this.hierarchies.flatMap((hierarchy) => hierarchy.controllers);
  }

  get version(): string {
    return [...new Set(this.hierarchies.map((hierarchy) => `v${hierarchy.version}`))].join('+');
  }

  /** The tree (`name`: `atelier-<pid>-<n>`, so a later server knows whose groups are left), or why groups cannot be made here. */
  static async detect(name: string): Promise<CgroupTree | { problem: string }> {
    const [mountinfo, own] = await Promise.all([
      readFile('/proc/self/mountinfo', 'utf8').catch(() => ''),
      readFile('/proc/self/cgroup', 'utf8').catch(() => ''),
    ]);
    const controllersOf = new Map<string, string[]>();
    const mounts = parseMountinfo(mountinfo);
    const unified = mounts.find((mount) => mount.type === 'cgroup2');
    const unifiedGroup = parseProcCgroup(own).find((group) => group.controllers.length === 0);
    if (unified && unifiedGroup) {
      const dir = path.join(unified.point, path.posix.relative(unified.root, unifiedGroup.path));
      controllersOf.set(
        dir,
        (await readFile(path.join(dir, 'cgroup.controllers'), 'utf8').catch(() => '')).trim().split(/\s+/),
      );
    }
    const hierarchies = locateHierarchies(mounts, parseProcCgroup(own), (dir) => controllersOf.get(dir) ?? []);
    if (!hierarchies.length) return { problem: 'no memory, pids or cpu controller is mounted' };
    const made: { version: 1 | 2; parent: string; controllers: Controller[] }[] = [];
    const problems: string[] = [];
    for (const hierarchy of hierarchies) {
      try {
        made.push({ ...hierarchy, parent: await makeParent(hierarchy, name) });
      } catch (error) {
        problems.push(`${hierarchy.controllers.join(',')} (v${hierarchy.version}): ${(error as Error).message}`);
      }
    }
    if (!made.length) return { problem: `no control group can be made: ${problems.join('; ')}` };
    return new CgroupTree(made);
  }

  /** A conversation's group with its limits. */
  async create(key: string, limits: CgroupLimits): Promise<ConversationCgroup> {
    const dirs = [];
    for (const { version, parent, controllers } of this.hierarchies) {
      const dir = path.join(parent, key);
      await mkdir(dir, { recursive: true });
      for (const controller of controllers)
        for (const [file, value] of limitWrites(version, controller, limits)) {
          const optional = file.endsWith('?');
          await writeFile(path.join(dir, file.replace(/\?$/, '')), value).catch((error: unknown) => {
            if (!optional) throw error;
          });
        }
      dirs.push({ version, dir, controllers });
    }
    return new ConversationCgroup(dirs);
  }

  /** Removes the server's parent groups (their conversations' groups first). */
  async remove(): Promise<void> {
    for (const { parent } of this.hierarchies) {
      const children = await readdir(parent, { withFileTypes: true }).catch(() => []);
      for (const child of children) if (child.isDirectory()) await removeGroup(path.join(parent, child.name));
      await removeGroup(parent);
    }
  }
}

/** Makes the server's parent group in one hierarchy, clearing empty ones that earlier servers left behind. */
async function makeParent(hierarchy: Hierarchy, name: string): Promise<string> {
  const parent = path.join(hierarchy.own, name);
  for (const entry of await readdir(hierarchy.own, { withFileTypes: true })) {
    const owner = /^atelier-(\d+)-/.exec(entry.name)?.[1];
    if (entry.isDirectory() && owner && !isAlive(Number(owner)))
      await removeStale(path.join(hierarchy.own, entry.name));
  }
  await mkdir(parent);
  if (hierarchy.version === 2) {
    const enable = hierarchy.controllers.map((controller) => `+${controller}`).join(' ');
    try {
      await writeFile(path.join(hierarchy.own, 'cgroup.subtree_control'), enable);
    } catch (error) {
      if (errorCode(error) !== 'EBUSY') throw error;
      // The server's own group holds processes: move this one into a leaf, then hand the controllers down.
      const leaf = path.join(hierarchy.own, `atelier-server-${process.pid}`);
      await mkdir(leaf, { recursive: true });
      await writeFile(path.join(leaf, 'cgroup.procs'), String(process.pid));
      await writeFile(path.join(hierarchy.own, 'cgroup.subtree_control'), enable);
    }
    await writeFile(path.join(parent, 'cgroup.subtree_control'), enable);
  }
  return parent;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** A group an earlier server left: removed when nothing runs in it any more (rmdir refuses otherwise). */
async function removeStale(dir: string): Promise<void> {
  const children = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const child of children) if (child.isDirectory()) await rmdir(path.join(dir, child.name)).catch(() => undefined);
  await rmdir(dir).catch(() => undefined);
}
