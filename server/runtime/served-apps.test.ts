import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { listeners } from './listening.ts';
import { servedApps, startCommand } from './served-apps.ts';

describe('served apps', () => {
  it('finds the process that listens on a port: its command line and where it runs', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const found = await servedApps(await listeners('/proc/self'), [port + 1, port], [process.pid], process.cwd());
    expect(found).toEqual([{ slot: 1, port, argv: expect.arrayContaining([process.execPath]), cwd: '' }]);
    await new Promise((resolve) => server.close(resolve));
    expect(await servedApps(await listeners('/proc/self'), [port], [process.pid], process.cwd())).toEqual([]);
  });

  it('starts again on the port of today, quoting what the shell would split', () => {
    const app = { slot: 0, port: 3000, argv: ['npm', 'run', 'dev', '--', '--port=3000', 'a b'], cwd: 'web app' };
    expect(startCommand(app, 3100)).toBe("cd 'web app' && npm run dev -- --port=3100 'a b'");
    // Only the port as a number of its own is replaced.
    expect(startCommand({ ...app, argv: ['serve', '13000', '3000'], cwd: '' }, 4000)).toBe('serve 13000 4000');
  });
});
