import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { listen, signUp } from '../support/conversations.ts';

// Requests the hosted server makes because of what a user saved — a git token's host, an MCP
// server's URL — never reach the server's loopback, its network or a cloud's metadata service,
// and their errors do not tell one internal service from another. The internal service below
// answers anyone who reaches it; the test counts who did.

const t = withTestApp();
let internal: Server;
let internalPort: number;
let internalHits = 0;
let ownUrl: string;
let user: { token: string };

beforeAll(async () => {
  internal = createServer((request, response) => {
    internalHits += 1;
    if (request.url?.startsWith('/internal/user'))
      return void response.setHeader('content-type', 'application/json').end('{"login":"internal","id":1}');
    response.statusCode = 500;
    response.end('{"message":"internal secret: db password is hunter2"}');
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalPort = (internal.address() as AddressInfo).port;
  ownUrl = await listen(t.app);
  user = await signUp(t.app, t.db, 'ssrf@acme.example');
});

afterAll(() => internal.close());

const saveGitHost = (host: string) =>
  call(t.app, 'POST', '/api/settings', {
    token: user.token,
    body: { provider_tokens: { github: { token: 'ghp_attacker', host } } },
  });

describe('requests on a user’s behalf, on the hosted service', () => {
  it('would reach the internal service: it answers whoever connects', async () => {
    expect(await (await fetch(`http://127.0.0.1:${internalPort}/internal/user`)).json()).toEqual({
      login: 'internal',
      id: 1,
    });
    internalHits = 0;
  });

  it('refuse a git host that is more than a host name, and save nothing of it', async () => {
    for (const host of [
      `http://127.0.0.1:${internalPort}/internal/user#`,
      `127.0.0.1:${internalPort}/internal`,
      'gitlab.example.com?x=1',
      'user:pass@gitlab.example.com',
      'ftp://gitlab.example.com',
    ]) {
      const saved = await saveGitHost(host);
      expect([host, saved.status]).toEqual([host, 422]);
      expect(saved.body?.detail).toEqual([
        expect.objectContaining({
          loc: ['body', 'provider_tokens', 'github', 'host'],
          msg: expect.stringMatching(/is not a git host/),
        }),
      ]);
    }
    expect((await call(t.app, 'GET', '/api/settings', { token: user.token })).body?.provider_tokens_set).toMatchObject({
      github: false,
    });
  });

  it('never call a git host at an internal address, by address or by name, nor relay what one said', async () => {
    for (const host of [
      `http://127.0.0.1:${internalPort}`,
      `http://localhost:${internalPort}`,
      'http://169.254.169.254',
    ]) {
      expect((await saveGitHost(host)).status).toBe(200);
      const info = await call(t.app, 'GET', '/api/user/info', { token: user.token });
      expect([host, info.status]).toEqual([host, 503]);
      expect(info.body?.detail).toMatch(/is not reachable from Atelier: it is .*an internal address/);
    }
    expect(internalHits).toBe(0);
  });

  it('never connect to an MCP server at an internal address, and tell them all apart from nothing', async () => {
    const own = new URL(ownUrl);
    const urls = [
      `http://127.0.0.1:${internalPort}/mcp`,
      'http://127.0.0.1:5432/',
      'http://127.0.0.1:6379/',
      `http://localhost:${own.port}/metrics`,
      // A closed port.
      'http://127.0.0.1:59999/mcp',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:5432/',
      'http://10.0.0.1/mcp',
    ];
    expect(
      (
        await call(t.app, 'POST', '/api/settings', {
          token: user.token,
          body: { mcp_config: { sse_servers: urls, stdio_servers: [] } },
        })
      ).status,
    ).toBe(200);
    const checked = await call(t.app, 'POST', '/api/settings/mcp-check', { token: user.token });
    const servers = checked.body?.servers as { server: string; reachable: boolean; error: string }[];
    expect(servers.map((server) => server.reachable)).toEqual(urls.map(() => false));
    // One kind of answer for all of them: nothing says which port is open or what listens there.
    for (const server of servers)
      expect(server.error).toMatch(/is not reachable from Atelier: it is .*an internal address/);
    expect(internalHits).toBe(0);
  });
});
