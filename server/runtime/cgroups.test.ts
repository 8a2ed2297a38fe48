import { describe, expect, it } from 'vitest';
import { counter, locateHierarchies, parseMountinfo, parseProcCgroup } from './cgroups.ts';

// What these machines have (version 1, a hierarchy per controller, the server in a memory group of
// its own) and what most current hosts have (version 2, one hierarchy, seen from a container's own
// subtree): where each controller's groups go.

const V1_MOUNTS = `31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw`;
const V1_GROUPS = `9:name=systemd:/
8:pids:/
4:memory:/process_api/2e81
2:cpuacct:/
1:cpu:/
0::/`;

const V2_MOUNTS = `1380 1379 0:29 /system.slice/atelier.service /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate`;
const V2_GROUPS = `0::/system.slice/atelier.service`;

describe('control group hierarchies', () => {
  it('finds each version 1 controller where it is mounted, under the server’s own group', () => {
    const found = locateHierarchies(parseMountinfo(V1_MOUNTS), parseProcCgroup(V1_GROUPS), () => []);
    expect(found).toEqual([
      { version: 1, own: '/sys/fs/cgroup/memory/process_api/2e81', controllers: ['memory'] },
      { version: 1, own: '/sys/fs/cgroup/pids', controllers: ['pids'] },
      { version: 1, own: '/sys/fs/cgroup/cpu', controllers: ['cpu'] },
    ]);
  });

  it('uses version 2 for the controllers it offers, from a mount of the server’s own subtree', () => {
    const offered = (own: string) => (own === '/sys/fs/cgroup' ? ['cpuset', 'cpu', 'io', 'memory', 'pids'] : []);
    const found = locateHierarchies(parseMountinfo(V2_MOUNTS), parseProcCgroup(V2_GROUPS), offered);
    expect(found).toEqual([{ version: 2, own: '/sys/fs/cgroup', controllers: ['memory', 'pids', 'cpu'] }]);
  });

  it('takes a hybrid host’s empty version 2 hierarchy for what it is: nothing', () => {
    const found = locateHierarchies(parseMountinfo(V1_MOUNTS), parseProcCgroup(V1_GROUPS), () => ['']);
    expect(found.map((hierarchy) => hierarchy.version)).toEqual([1, 1, 1]);
  });

  it('leaves out a group the mount does not show, and unescapes mount points', () => {
    const mounts = parseMountinfo(`40 1 0:36 /other /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids
41 1 0:37 / /sys/fs/my\\040cgroups rw - cgroup cgroup rw,memory`);
    expect(mounts[1]?.point).toBe('/sys/fs/my cgroups');
    const found = locateHierarchies(mounts, parseProcCgroup('8:pids:/mine\n4:memory:/'), () => []);
    expect(found).toEqual([{ version: 1, own: '/sys/fs/my cgroups', controllers: ['memory'] }]);
  });

  it('reads the counters of a keyed file', () => {
    expect(counter('oom_kill_disable 0\nunder_oom 0\noom_kill 3\n', 'oom_kill')).toBe(3);
    expect(counter('max 0\n', 'max')).toBe(0);
    expect(counter('', 'max')).toBe(0);
  });
});
