import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedAddress, outboundFetch, parseAllowedRanges, refusalOf } from './outbound.ts';

// The guard of requests made on a user's behalf, against real listeners on this machine's
// loopback (which it must not reach unless allowed) and the addresses attackers use for it.

let internal: Server;
let redirector: Server;
let internalPort: number;
let redirectorPort: number;

const listening = (server: Server, host: string) =>
  new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  internal = createServer((_request, response) => response.end('internal secret'));
  internalPort = await listening(internal, '127.0.0.1');
  redirector = createServer((_request, response) =>
    response.writeHead(302, { location: `http://127.0.0.1:${internalPort}/` }).end(),
  );
  redirectorPort = await listening(redirector, '::1');
});

afterAll(() => {
  internal.close();
  redirector.close();
});

/** What a guarded fetch of `url` ends in: the body, or the guard's refusal. */
async function outcome(url: string, allowed = '') {
  const guarded = outboundFetch({ guarded: true, allowed: parseAllowedRanges(allowed) });
  try {
    return await (await guarded(url, { signal: AbortSignal.timeout(5000) })).text();
  } catch (error) {
    return refusalOf(error)?.message ?? `other error: ${String(error)}`;
  }
}

describe('requests on a user’s behalf', () => {
  it('reach the loopback when not guarded (oss), so the refusals below are the guard’s', async () => {
    const open = outboundFetch({ guarded: false, allowed: [] });
    expect(await (await open(`http://127.0.0.1:${internalPort}/`)).text()).toBe('internal secret');
  });

  it('never reach the loopback, by address, by name or in IPv6 clothing', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]', '2130706433', '0.0.0.0'])
      expect(await outcome(`http://${host}:${internalPort}/`)).toMatch(/is not reachable from Atelier/);
  });

  it('do not follow a redirect to an internal address', async () => {
    expect(await outcome(`http://[::1]:${redirectorPort}/`, '::1')).toMatch(/127\.0\.0\.1 is not reachable/);
  });

  it('reach an internal address the operator allows', async () => {
    expect(await outcome(`http://127.0.0.1:${internalPort}/`, '127.0.0.0/8')).toBe('internal secret');
  });

  it('tell public addresses from private, link-local, shared and metadata ones', () => {
    for (const address of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      'fd00:ec2::254',
      'fe80::1',
      '::1',
      '64:ff9b::7f00:1',
      '224.0.0.1',
    ])
      expect([address, isAllowedAddress(address, [])]).toEqual([address, false]);
    for (const address of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'])
      expect([address, isAllowedAddress(address, [])]).toEqual([address, true]);
    expect(isAllowedAddress('10.1.2.3', parseAllowedRanges('10.0.0.0/8'))).toBe(true);
  });
});
