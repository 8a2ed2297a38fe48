import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { PortPool } from './ports.ts';

// Ports below Linux's ephemeral range (32768–60999): a client connection made by another test
// meanwhile can take a port inside it, as 48500 was once taken during CI.
describe('PortPool', () => {
  it('skips ports in use and never gives one port to two owners', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve, reject) => busy.once('error', reject).listen(29_500, resolve));
    try {
      const pool = new PortPool([29_500, 29_503]);
      const first = await pool.reserve('a');
      expect(first).not.toContain(29_500);
      const second = await pool.reserve('b').catch((error: Error) => error);
      expect(second).toBeInstanceOf(Error);
      expect((second as Error).message).toMatch(/No free ports/);
      pool.release('a');
      await expect(pool.reserve('b')).resolves.toHaveLength(2);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('gives a returning owner its previous ports', async () => {
    const pool = new PortPool([29_600, 29_699]);
    const before = await pool.reserve('a');
    pool.release('a');
    expect(await pool.reserve('a')).toEqual(before);
  });
});
