import { readFile } from 'node:fs/promises';

// What listens on a network namespace's TCP ports, read from the kernel's tables in /proc
// (the namespace of the process whose /proc directory is given): no probe, no connection.

export interface Listener {
  port: number;
  family: 4 | 6;
  /** Bound to every address of its family (0.0.0.0 or ::) rather than one. */
  anyAddress: boolean;
  /** The socket's inode: the process holding it has a descriptor linking to `socket:[inode]`. */
  inode: number;
}

const LISTEN = '0A';

/** Listening sockets of one /proc/net/tcp or tcp6 table. */
export function parseTcpTable(table: string, family: 4 | 6): Listener[] {
  return table
    .split('\n')
    .slice(1)
    .flatMap((line) => {
      const [, local, , state, , , , , , inode = '0'] = line.trim().split(/\s+/);
      if (state !== LISTEN || !local) return [];
      const [address = '', port = ''] = local.split(':');
      return [{ port: Number.parseInt(port, 16), family, anyAddress: /^0+$/.test(address), inode: Number(inode) }];
    });
}

/** Every listening TCP socket in the namespace of the process at `procDir` (e.g. `/proc/self`). */
export async function listeners(procDir: string): Promise<Listener[]> {
  const read = (name: string) => readFile(`${procDir}/net/${name}`, 'utf8').catch(() => '');
  const [v4, v6] = await Promise.all([read('tcp'), read('tcp6')]);
  return [...parseTcpTable(v4, 4), ...parseTcpTable(v6, 6)];
}

/**
 * The address a served app answers at on one of the ports: IPv4's loopback when anything
 * takes IPv4 there (an IPv6 socket on :: takes both), IPv6's when only IPv6 does, null when
 * nothing listens. Naming the family avoids `localhost`, which a browser may try over the
 * family the app does not listen on.
 */
export function servedAddress(found: readonly Listener[], port: number): string | null {
  const onPort = found.filter((listener) => listener.port === port);
  if (onPort.some((listener) => listener.family === 4 || listener.anyAddress)) return `http://127.0.0.1:${port}`;
  if (onPort.length > 0) return `http://[::1]:${port}`;
  return null;
}
