import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ScenarioFactory, type Scenario, titleReply, finishReply } from '../../../tests/agent/scenario.ts';
import { reply, withTools } from '../../../tests/support/fake-llm/index.ts';
import { startEchoHttpServer, startEchoSseServer } from '../../../tests/support/mcp-echo-http.ts';
import { echoStdioServer } from '../../../tests/support/mcp-echo-stdio.ts';
import { LISTING_MCP_SERVER } from '../../../tests/support/mcp-inline-server.ts';
import { toolPrefix } from '../tools/mcp.ts';
import type { Event } from '../../../openapi/types.ts';

const scenarios = new ScenarioFactory();
let scenario: Scenario | undefined;
afterEach(async () => scenario?.close());
afterAll(async () => scenarios.cleanup());

const echoServer = echoStdioServer;

/** A task whose one step calls `echo` on a remote MCP server (API key s3cret); the server is closed afterwards. */
async function echoOverRemote(remote: { url: string; close(): Promise<void> }, text: string): Promise<Event[]> {
  try {
    scenario = await scenarios.start({
      settings: { mcpConfig: { stdio_servers: [], sse_servers: [{ url: remote.url, api_key: 's3cret' }] } },
      script: (llm) => llm.enqueue(titleReply, reply.toolCall('echo', { text }, { when: withTools }), finishReply),
    });
    scenario.say(`Echo ${text}`);
    await scenario.store.waitForState('FINISHED', { timeoutMs: 20_000 });
    return scenario.store.events;
  } finally {
    await scenario?.close();
    scenario = undefined;
    await remote.close();
  }
}

describe('MCP tools', () => {
  it('offers the tools of a stdio MCP server to the model and calls them', async () => {
    scenario = await scenarios.start({
      settings: { mcpConfig: { stdio_servers: [echoServer], sse_servers: [] } },
      script: (llm) =>
        llm.enqueue(
          titleReply,
          reply.toolCall('echo', { text: 'hi there' }, { when: withTools }),
          reply.toolCall('fail', {}, { when: withTools }),
          finishReply,
        ),
    });
    const { store, llm } = scenario;
    await store.waitForState('AWAITING_USER_INPUT', { timeoutMs: 20_000 });
    const system = store.events.find((event) => event.action === 'system');
    expect(system?.args?.tools?.map((tool) => tool.name)).toEqual([
      'execute_bash',
      'str_replace_editor',
      'execute_ipython_cell',
      'browser',
      'think',
      'finish',
      'echo',
      'fail',
    ]);

    scenario.say('Echo something');
    await store.waitForState('FINISHED');
    const [call] = store.events.filter((event) => event.action === 'call_tool_mcp');
    expect(call?.args).toMatchObject({ name: 'echo', arguments: { text: 'hi there' } });
    const [echoed, failed] = store.events.filter((event) => event.observation === 'mcp');
    expect(echoed).toMatchObject({
      cause: call?.id,
      content: 'echo: hi there',
      extras: { name: 'echo', arguments: { text: 'hi there' } },
    });
    expect(failed?.content).toBe('this tool always fails');
    expect(failed?.extras?.error).toBe(true);
    expect(echoed?.extras?.error).toBeUndefined();
    expect(llm.completions.filter(withTools)[0]?.tools?.map((tool) => tool.function.name)).toContain('echo');
  }, 30_000);

  it("names a second server's tools that collide after the server, and calls them there", async () => {
    const second = { ...echoServer, name: 'second copy', env: { ECHO_MODE: 'second' } };
    scenario = await scenarios.start({
      settings: { mcpConfig: { stdio_servers: [echoServer, second], sse_servers: [] } },
      script: (llm) =>
        llm.enqueue(
          titleReply,
          reply.toolCall('second_copy__echo', { text: 'twice' }, { when: withTools }),
          finishReply,
        ),
    });
    const { store } = scenario;
    await store.waitForState('AWAITING_USER_INPUT', { timeoutMs: 20_000 });
    const system = store.events.find((event) => event.action === 'system');
    expect(system?.args?.tools?.map((tool) => tool.name).slice(-4)).toEqual([
      'echo',
      'fail',
      'second_copy__echo',
      'second_copy__fail',
    ]);
    scenario.say('Echo on the second server');
    await store.waitForState('FINISHED');
    expect(store.events.find((event) => event.action === 'call_tool_mcp')?.args?.name).toBe('second_copy__echo');
    expect(store.events.find((event) => event.observation === 'mcp')?.content).toBe('echo: twice');
    expect(toolPrefix('https://mcp.example.com:8443/mcp')).toBe('mcp_example_com_8443');
  }, 30_000);

  it("passes a result's embedded resources to the model whole, and names what it cannot show", async () => {
    const rich = { ...echoServer, name: 'rich', env: { ECHO_RICH: '1' } };
    scenario = await scenarios.start({
      settings: { mcpConfig: { stdio_servers: [rich], sse_servers: [] } },
      script: (llm) => llm.enqueue(titleReply, reply.toolCall('report', {}, { when: withTools }), finishReply),
    });
    scenario.say('Get the report');
    await scenario.store.waitForState('FINISHED', { timeoutMs: 20_000 });
    const expected = [
      'Here is the report.',
      '[resource file:///notes.md (text/markdown)]\n# Notes\nAll good.',
      '[resource file:///data.bin (application/octet-stream): 4 bytes of binary data, not shown]',
      '[image image/png, 8 bytes, image 1 of this result]',
    ].join('\n');
    expect(scenario.store.events.find((event) => event.observation === 'mcp')?.content).toBe(expected);
    // The model's next request has the resource's text.
    expect(JSON.stringify(scenario.llm.completions.filter(withTools).at(-1)?.messages)).toContain(
      '# Notes\\nAll good.',
    );
  }, 30_000);

  it('tells what a stdio server that cannot start wrote to its stderr', async () => {
    const crashing = {
      name: 'crashing',
      command: process.execPath,
      args: ['-e', "console.error('Error: Cannot find module mcp-thing'); process.exit(1)"],
    };
    scenario = await scenarios.start({ settings: { mcpConfig: { stdio_servers: [crashing], sse_servers: [] } } });
    await scenario.store.waitForState('AWAITING_USER_INPUT', { timeoutMs: 20_000 });
    const failure = scenario.store.events.find((event) => event.status_id === 'STATUS$ERROR_MCP_SERVER');
    expect(failure?.message).toContain('The server wrote: Error: Cannot find module mcp-thing');
  }, 30_000);

  it('calls the tools of a Streamable HTTP server with its API key', async () => {
    const events = await echoOverRemote(await startEchoHttpServer('s3cret'), 'over http');
    expect(events.find((event) => event.observation === 'mcp')?.content).toBe('echo: over http');
  }, 30_000);

  it('falls back to the legacy SSE transport for a server that only speaks HTTP+SSE', async () => {
    const remote = await startEchoSseServer('s3cret');
    const events = await echoOverRemote(remote, 'over sse');
    const call = events.find((event) => event.action === 'call_tool_mcp');
    expect(call?.args).toMatchObject({ name: 'echo', arguments: { text: 'over sse' } });
    const observation = events.find((event) => event.observation === 'mcp');
    expect(observation).toMatchObject({
      cause: call?.id,
      content: 'echo: over sse',
      extras: { name: 'echo', arguments: { text: 'over sse' } },
    });
    // The server refuses Streamable HTTP, but check that the answer really came over an SSE session.
    expect(remote.sseSessionsOpened()).toBeGreaterThan(0);
  }, 30_000);

  it('runs stdio servers inside the conversation’s sandbox in saas mode, and refuses them without one', async () => {
    scenario = await scenarios.start({
      balanceMicros: 10_000_000n,
      // Inline: the sandbox hides /tmp, where this repository (and the echo server's file) may be checked out.
      settings: {
        mcpConfig: {
          stdio_servers: [{ name: 'listing', command: process.execPath, args: ['-e', LISTING_MCP_SERVER] }],
          sse_servers: [],
        },
      },
      script: (llm) => llm.enqueue(titleReply),
    });
    const { runtime } = scenario.store.host;
    await scenario.store.waitForState('AWAITING_USER_INPUT', { timeoutMs: 20_000 });
    const offered = scenario.store.events
      .find((event) => event.action === 'system')
      ?.args?.tools?.map((tool) => tool.name);
    if (!runtime.sandboxed) {
      const refusal = scenario.store.events.find((event) => event.status_id === 'STATUS$ERROR_MCP_SERVER');
      expect(refusal?.message).toMatch(
        /The MCP server listing could not be used: stdio MCP servers would run on the server host outside any sandbox/,
      );
      expect(offered).not.toContain('list');
      return;
    }
    expect(offered).toContain('list');
    // The directory of every conversation's workspace: in the sandbox only this one's (and the homes' mount point) is there.
    const workspaces = path.dirname(runtime.workspaceDir);
    const other = path.join(workspaces, 'another-conversation');
    fs.mkdirSync(other, { recursive: true });
    scenario.llm.enqueue(reply.toolCall('list', { dir: workspaces }, { when: withTools }), finishReply);
    scenario.say('What do you see?');
    await scenario.store.waitForState('FINISHED', { timeoutMs: 20_000 });
    const seen = JSON.parse(
      scenario.store.events.find((event) => event.observation === 'mcp')?.content ?? 'null',
    ) as string[];
    expect(fs.readdirSync(workspaces)).toContain('another-conversation');
    expect(seen).toContain(path.basename(runtime.workspaceDir));
    expect(seen).not.toContain('another-conversation');
    fs.rmSync(other, { recursive: true });
  }, 30_000);

  it('tells the user about a server that cannot start, and works without it', async () => {
    scenario = await scenarios.start({
      settings: {
        mcpConfig: {
          stdio_servers: [{ name: 'broken', command: '/nonexistent/mcp-server' }],
          sse_servers: ['http://127.0.0.1:9/mcp'],
        },
      },
    });
    await scenario.store.waitForState('AWAITING_USER_INPUT', { timeoutMs: 20_000 });
    const failures = scenario.store.events.filter(
      (event) => event.status_update && event.status_id === 'STATUS$ERROR_MCP_SERVER',
    );
    expect(failures.map((event) => event.message)).toEqual([
      // In the configuration's order of kinds: remote servers, then stdio.
      expect.stringContaining('The MCP server http://127.0.0.1:9/mcp could not be used'),
      expect.stringContaining('The MCP server broken could not be used'),
    ]);
  }, 30_000);
});
