import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { listeners, parseTcpTable, servedAddress } from './listening.ts';

const table = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0
   1: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2 1 0 100 0 0 10 0
   2: 0100007F:0BB8 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 3 1 0 100 0 0 10 0
`;

describe('listening sockets', () => {
  it('reads the listening entries of a kernel TCP table, not the connections', () => {
    expect(parseTcpTable(table, 4)).toEqual([
      { port: 3000, family: 4, anyAddress: false, inode: 1 },
      { port: 8080, family: 4, anyAddress: true, inode: 2 },
    ]);
  });

  it('names the family a served app takes', () => {
    expect(servedAddress([{ port: 3000, family: 4, anyAddress: false, inode: 1 }], 3000)).toBe('http://127.0.0.1:3000');
    expect(servedAddress([{ port: 3000, family: 6, anyAddress: true, inode: 1 }], 3000)).toBe('http://127.0.0.1:3000');
    expect(servedAddress([{ port: 3000, family: 6, anyAddress: false, inode: 1 }], 3000)).toBe('http://[::1]:3000');
    expect(servedAddress([{ port: 3001, family: 4, anyAddress: true, inode: 1 }], 3000)).toBeNull();
  });

  it('sees a socket this process listens on, and stops seeing it once closed', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    expect(servedAddress(await listeners('/proc/self'), port)).toBe(`http://127.0.0.1:${port}`);
    await new Promise((resolve) => server.close(resolve));
    expect(servedAddress(await listeners('/proc/self'), port)).toBeNull();
  });
});
