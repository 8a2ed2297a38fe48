import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ScenarioFactory, finishReply, titleReply, type Scenario } from '../../../tests/agent/scenario.ts';
import { reply, withTools, type ChatRequest } from '../../../tests/support/fake-llm/index.ts';
import { bundleEverything, startEverything, type EverythingServer } from '../../../tests/support/mcp-everything.ts';
import { toolPrefix } from '../tools/mcp.ts';
import type { Event } from '../../../openapi/types.ts';

// The official reference server, `@modelcontextprotocol/server-everything`, over each transport.

const scenarios = new ScenarioFactory();
let scenario: Scenario | undefined;
let bundle: Awaited<ReturnType<typeof bundleEverything>>;
const servers: EverythingServer[] = [];
beforeAll(async () => {
  bundle = await bundleEverything();
}, 60_000);
afterEach(async () => scenario?.close());
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await bundle.cleanup();
  await scenarios.cleanup();
});

const VISION_MODEL = 'anthropic/claude-sonnet-4-20250514';
const mcpResults = (events: readonly Event[]) => events.filter((event) => event.observation === 'mcp');
/** The user-side parts of the last request with tools, as the provider got them. */
function lastUserParts(requests: readonly ChatRequest[]): unknown[] {
  const messages = (requests.filter(withTools).at(-1)?.messages ?? []) as { role: string; content: unknown }[];
  return messages.filter((message) => message.role === 'user').flatMap((message) => message.content as unknown[]);
}

describe('the MCP reference server', () => {
  it('runs over stdio inside the sandbox; its embedded resource and image reach the model', async () => {
    scenario = await scenarios.start({
      balanceMicros: 10_000_000n,
      model: VISION_MODEL,
      // Installed in the workspace, as a user would: the sandbox sees only the workspace and the system.
      workspace: (dir) => copyFile(bundle.file, path.join(dir, 'everything.mjs')),
      settings: {
        mcpConfig: {
          sse_servers: [],
          stdio_servers: [{ name: 'everything', command: process.execPath, args: ['everything.mjs', 'stdio'] }],
        },
      },
      script: (llm) =>
        llm.enqueue(
          titleReply,
          reply.toolCall('get-resource-reference', { resourceType: 'Text', resourceId: 2 }, { when: withTools }),
          reply.toolCall('get-tiny-image', {}, { when: withTools }),
          finishReply,
        ),
    });
    const { store, llm } = scenario;
    await store.waitForState('AWAITING_USER_INPUT', { timeoutMs: 20_000 });
    if (!store.host.runtime.sandboxed) {
      // Without bubblewrap the hosted service refuses stdio servers (mcp.test.ts shows how).
      expect(store.events.find((event) => event.status_id === 'STATUS$ERROR_MCP_SERVER')?.message).toMatch(
        /outside any sandbox/,
      );
      return;
    }
    scenario.say('Show me resource 2 and the logo');
    await store.waitForState('FINISHED', { timeoutMs: 30_000 });
    const [resource, image] = mcpResults(store.events);
    expect(resource?.content).toMatch(
      /^Returning resource reference for Resource 2:\n\[resource demo:\/\/resource\/dynamic\/text\/2 \(text\/plain\)\]\nResource 2: This is a plaintext resource created at /,
    );
    expect(image?.content).toMatch(
      /^Here's the image you requested:\n\[image image\/png, \d+ bytes, image 1 of this result\]\n/,
    );
    expect(image?.extras?.image_urls).toEqual([expect.stringMatching(/^data:image\/png;base64,iVBOR/)]);
    const requests = llm.completions;
    const tools = JSON.stringify(requests.filter(withTools)[0]?.tools);
    expect(tools).toContain('"get-tiny-image"');
    // Sent in the portable subset: the server's draft-07 `$schema` and `default`s do not reach the model.
    expect(tools).not.toMatch(/\$schema|"default"/);
    const parts = lastUserParts(requests);
    expect(parts).toContainEqual({ type: 'text', text: 'The image that get-tiny-image returned:' });
    expect(parts).toContainEqual({
      type: 'image_url',
      image_url: { url: (image?.extras?.image_urls as string[])[0] },
    });
    expect(JSON.stringify(requests.filter(withTools).at(-1)?.messages)).toContain(
      'Resource 2: This is a plaintext resource created at',
    );
  }, 60_000);

  it('tells a text-only model that an image is not shown', async () => {
    scenario = await scenarios.start({
      workspace: (dir) => copyFile(bundle.file, path.join(dir, 'everything.mjs')),
      settings: {
        mcpConfig: {
          sse_servers: [],
          stdio_servers: [{ name: 'everything', command: process.execPath, args: ['everything.mjs', 'stdio'] }],
        },
      },
      script: (llm) => llm.enqueue(titleReply, reply.toolCall('get-tiny-image', {}, { when: withTools }), finishReply),
    });
    scenario.say('Show me the logo');
    await scenario.store.waitForState('FINISHED', { timeoutMs: 30_000 });
    const parts = lastUserParts(scenario.llm.completions);
    expect(parts).toContainEqual({
      type: 'text',
      text: '[An image is not shown: this model does not take images.]',
    });
    expect(JSON.stringify(parts)).not.toContain('image_url');
  }, 60_000);

  it('shows what a stdio server that cannot start wrote', async () => {
    scenario = await scenarios.start({
      workspace: (dir) => copyFile(bundle.file, path.join(dir, 'everything.mjs')),
      settings: {
        mcpConfig: {
          sse_servers: [],
          stdio_servers: [
            { name: 'everything', command: process.execPath, args: ['everything.mjs', 'carrier-pigeon'] },
          ],
        },
      },
    });
    await scenario.store.waitForState('AWAITING_USER_INPUT', { timeoutMs: 20_000 });
    expect(scenario.store.events.find((event) => event.status_id === 'STATUS$ERROR_MCP_SERVER')?.message).toContain(
      'Unknown transport: carrier-pigeon',
    );
  }, 60_000);

  it('is reached over SSE and Streamable HTTP at once: both copies of each tool callable, a 75 s call with progress completes', async () => {
    const sse = await startEverything(bundle.file, 'sse');
    const http = await startEverything(bundle.file, 'streamableHttp');
    servers.push(sse, http);
    const second = `${toolPrefix(http.url)}__`;
    scenario = await scenarios.start({
      settings: {
        mcpConfig: { sse_servers: [sse.url], shttp_servers: [{ url: http.url, timeout: 120 }], stdio_servers: [] },
      },
      script: (llm) =>
        llm.enqueue(
          titleReply,
          reply.toolCall('echo', { message: 'over sse' }, { when: withTools }),
          reply.toolCall(`${second}echo`, { message: 'over http' }, { when: withTools }),
          // The SDK gives up after 60 s without news; the server reports progress every 5 s.
          reply.toolCall(`${second}trigger-long-running-operation`, { duration: 75, steps: 15 }, { when: withTools }),
          finishReply,
        ),
    });
    const { store } = scenario;
    await store.waitForState('AWAITING_USER_INPUT', { timeoutMs: 20_000 });
    const offered = store.events.find((event) => event.action === 'system')?.args?.tools?.map((tool) => tool.name);
    expect(offered).toEqual(
      expect.arrayContaining(['echo', `${second}echo`, 'get-tiny-image', `${second}get-tiny-image`]),
    );
    scenario.say('Echo twice, then the long operation');
    await store.waitForState('FINISHED', { timeoutMs: 110_000 });
    expect(mcpResults(store.events).map((event) => [event.content, event.extras?.error])).toEqual([
      ['Echo: over sse', undefined],
      ['Echo: over http', undefined],
      ['Long running operation completed. Duration: 75 seconds, Steps: 15.', undefined],
    ]);
  }, 120_000);

  it("stops a call at its Streamable HTTP server's own timeout, progress or not", async () => {
    const http = await startEverything(bundle.file, 'streamableHttp');
    servers.push(http);
    scenario = await scenarios.start({
      settings: { mcpConfig: { sse_servers: [], shttp_servers: [{ url: http.url, timeout: 2 }], stdio_servers: [] } },
      script: (llm) =>
        llm.enqueue(
          titleReply,
          reply.toolCall('trigger-long-running-operation', { duration: 6, steps: 6 }, { when: withTools }),
          finishReply,
        ),
    });
    scenario.say('Run the operation');
    const started = Date.now();
    await scenario.store.waitForState('FINISHED', { timeoutMs: 20_000 });
    const [result] = scenario.store.events.filter(
      (event) => event.cause !== undefined && event.observation === 'error',
    );
    expect(result?.content).toBe(
      'ERROR: The MCP tool trigger-long-running-operation did not finish within its limit of 2 s, so the call was given up (it may still be running on its server).',
    );
    expect(Date.now() - started).toBeLessThan(6_000);
  }, 30_000);
});
