import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';
import { startEchoHttpServer, startEchoSseServer } from '../support/mcp-echo-http.ts';
import { echoStdioServer } from '../support/mcp-echo-stdio.ts';

import { toolPrefix } from '../../server/agent/tools/mcp.ts';

/** The echo server's tools; a server after the first that has them gets them as `<prefix>__<name>`. */
const echoTools = (prefix?: string) => [
  { name: 'echo', agent_name: prefix ? `${prefix}__echo` : 'echo', description: 'Repeats the text it is given.' },
  { name: 'fail', agent_name: prefix ? `${prefix}__fail` : 'fail', description: 'Always fails.' },
];
const ECHO_TOOLS = echoTools();

let http: Awaited<ReturnType<typeof startEchoHttpServer>>;
let sse: Awaited<ReturnType<typeof startEchoSseServer>>;
beforeAll(async () => {
  http = await startEchoHttpServer('s3cret');
  sse = await startEchoSseServer('s3cret');
});
afterAll(async () => {
  await http.close();
  await sse.close();
});

/** Saves `mcp_config` and asks for the check. */
async function check(app: ReturnType<typeof withTestApp>['app'], token: string, mcpConfig: unknown) {
  expect((await call(app, 'POST', '/api/settings', { token, body: { mcp_config: mcpConfig } })).status).toBe(200);
  return call(app, 'POST', '/api/settings/mcp-check', { token });
}

describe('the MCP check of a self-hosted installation', () => {
  const t = withTestApp({ APP_MODE: 'oss' });

  it('reaches Streamable HTTP, SSE and stdio servers and lists their tools as the agent names them; a wrong key or a dead address says why', async () => {
    const checked = await check(t.app, '', {
      sse_servers: [
        { url: http.url, api_key: 's3cret' },
        { url: sse.url, api_key: 's3cret' },
        { url: http.url, api_key: 'wrong' },
        'http://127.0.0.1:9/mcp',
      ],
      shttp_servers: ['http://127.0.0.1:9/mcp', { url: http.url, api_key: 's3cret', timeout: 30 }],
      stdio_servers: [echoStdioServer, { name: 'missing', command: '/nonexistent/mcp-server' }],
    });
    expect(checked.status).toBe(200);
    const servers = checked.body?.servers as { server: string; reachable: boolean; tools: unknown; error: string }[];
    expect(servers.map((s) => [s.server, s.reachable])).toEqual([
      [http.url, true],
      [sse.url, true],
      [http.url, false],
      ['http://127.0.0.1:9/mcp', false],
      ['http://127.0.0.1:9/mcp', false],
      [http.url, true],
      ['echo', true],
      ['missing', false],
    ]);
    expect(servers[0]).toMatchObject({ transport: 'remote', tools: ECHO_TOOLS, error: null });
    // The same tool names again: the agent calls them after their server, and the check says so.
    expect(servers[1]?.tools).toEqual(echoTools(toolPrefix(sse.url)));
    expect(servers[5]).toMatchObject({ transport: 'remote', tools: echoTools(toolPrefix(http.url)) });
    // The stdio server named echo offers them a third time: after its name.
    expect(servers[6]).toMatchObject({
      transport: 'stdio',
      tools: ECHO_TOOLS.map((tool) => ({ ...tool, agent_name: `echo__${tool.name}` })),
      error: null,
    });
    for (const failed of [servers[2], servers[3], servers[4], servers[7]]) {
      expect(failed?.tools).toEqual([]);
      expect(failed?.error).toBeTruthy();
    }
    expect(servers[7]?.error).toMatch(/ENOENT|not found|spawn/i);
    // Both transports were tried: both reasons, in Atelier's words; an shttp server only the one.
    expect(servers[3]?.error).toBe(
      'Over Streamable HTTP the server could not be reached, or did not answer as an MCP server. Over SSE it could not be reached, or did not answer as an MCP server.',
    );
    expect(servers[4]?.error).toBe(
      'Over Streamable HTTP the server could not be reached, or did not answer as an MCP server.',
    );
  });

  it('answers an empty list when no server is configured', async () => {
    expect((await check(t.app, '', null)).body).toEqual({ servers: [] });
  });
});

describe('the MCP check of the hosted service', () => {
  // The test's servers are on this machine: allowed as an operator allows a server on its LAN.
  const t = withTestApp({ OUTBOUND_ALLOWED_RANGES: '127.0.0.1' });

  it('checks remote servers, leaves stdio servers to the conversation sandbox, and reads only the caller’s settings', async () => {
    const alice = await signUp(t.app, t.db, 'mcp-alice@acme.example');
    const bob = await signUp(t.app, t.db, 'mcp-bob@acme.example');
    const checked = await check(t.app, alice.token, {
      sse_servers: [{ url: http.url, api_key: 's3cret' }],
      stdio_servers: [echoStdioServer],
    });
    expect(checked.body?.servers).toEqual([
      { server: http.url, transport: 'remote', reachable: true, tools: ECHO_TOOLS, error: null },
      {
        server: 'echo',
        transport: 'stdio',
        reachable: null,
        tools: [],
        error: expect.stringContaining('checked when a conversation starts'),
      },
    ]);
    expect((await call(t.app, 'POST', '/api/settings/mcp-check', { token: bob.token })).body).toEqual({ servers: [] });
    expect((await call(t.app, 'POST', '/api/settings/mcp-check', {})).status).toBe(401);
  });
});
