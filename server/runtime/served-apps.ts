import { readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { Listener } from './listening.ts';

/** What serves one of a conversation's app ports: its command line and where it ran. */
export interface ServedApp {
  /** Which of the two app ports (0 or 1): a restart may give the conversation other numbers. */
  slot: number;
  port: number;
  argv: string[];
  /** Relative to the workspace ('' for its root); absolute when it ran outside it. */
  cwd: string;
}

/** A descriptor of `pid` links to the socket with `inode`. */
async function holds(pid: number, inode: number): Promise<boolean> {
  const dir = `/proc/${pid}/fd`;
  const fds = await readdir(dir).catch(() => [] as string[]);
  for (const fd of fds) if ((await readlink(`${dir}/${fd}`).catch(() => '')) === `socket:[${inode}]`) return true;
  return false;
}

/**
 * The processes (of `processes`, the conversation's) that listen on each of `ports`: their
 * command lines and working directories, read from /proc. A port whose listener is none of
 * them (or has gone meanwhile) is left out.
 */
export async function servedApps(
  found: readonly Listener[],
  ports: readonly number[],
  processes: readonly number[],
  workspaceDir: string,
): Promise<ServedApp[]> {
  const apps: ServedApp[] = [];
  for (const [slot, port] of ports.entries()) {
    const inodes = found.filter((listener) => listener.port === port).map((listener) => listener.inode);
    if (inodes.length === 0) continue;
    for (const pid of processes) {
      if (!(await Promise.all(inodes.map((inode) => holds(pid, inode)))).some(Boolean)) continue;
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
      const argv = cmdline.split('\0').filter((part, index, all) => part !== '' || index < all.length - 1);
      if (argv.length === 0 || cwd === null) break;
      const relative = path.relative(workspaceDir, cwd);
      apps.push({ slot, port, argv, cwd: relative.startsWith('..') || path.isAbsolute(relative) ? cwd : relative });
      break;
    }
  }
  return apps;
}

const shellQuote = (value: string) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/**
 * The command line that starts `app` again, on `port` now (a restart may have given the
 * conversation other ports: the old number is replaced where it stands as a number of its own).
 */
export function startCommand(app: ServedApp, port: number): string {
  const argv = app.argv.map((part) => part.replace(new RegExp(`(?<!\\d)${app.port}(?!\\d)`, 'g'), String(port)));
  const command = argv.map(shellQuote).join(' ');
  return app.cwd === '' ? command : `cd ${shellQuote(app.cwd)} && ${command}`;
}
