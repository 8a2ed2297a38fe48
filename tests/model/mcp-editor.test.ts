import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { EMPTY_MCP_CONFIG, mcpConfigText, validateMcpConfig, type McpConfig } from '../../machines/mcp-config.ts';
import {
  mcpEditorMachine,
  selectCanSave,
  selectIsEditing,
  selectShownConfig,
  type McpEditorEvent,
} from '../../machines/mcp-editor.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

/** The spec's example: one SSE url and a stdio server named fetch with command uvx. */
const EXAMPLE: McpConfig = {
  sse_servers: ['https://mcp.acme.example/sse'],
  stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'] }],
};
const VALID_TEXT = mcpConfigText(EXAMPLE);
const INVALID_TEXT = '{"sse_servers": "not a list"}';

const events: (McpEditorEvent | AnyEventObject)[] = [
  { type: 'EDIT' },
  { type: 'CHANGE', text: VALID_TEXT },
  { type: 'CHANGE', text: INVALID_TEXT },
  { type: 'CONFIRM' },
  { type: 'CANCEL' },
  { type: 'SAVE' },
  { type: 'xstate.done.actor.saveMcpConfig' },
  { type: 'xstate.error.actor.saveMcpConfig', error: new TypeError('Failed to fetch') },
];

const fakes: FakeSideEffects = { promises: ['saveMcpConfig'], callbacks: {}, actions: [] };

function expectStep({ event, before, after, started }: StepRecord) {
  // Save sends exactly what was staged, and nothing else ever calls the server.
  for (const { src, input } of started) {
    expect(src).toBe('saveMcpConfig');
    expect(input).toEqual(before.context.staged);
  }
  if (event.type === 'EDIT') expect(after.context.draft).toBe(mcpConfigText(selectShownConfig(before)));
  if (event.type === 'CONFIRM') {
    const result = validateMcpConfig(before.context.draft);
    if ('config' in result) {
      expect(selectCanSave(after)).toBe(true);
      expect(selectShownConfig(after)).toEqual(result.config);
    } else {
      expect(selectIsEditing(after)).toBe(true);
      expect(after.context.errors).toEqual(result.errors);
      expect(after.context.staged).toEqual(before.context.staged);
    }
  }
  // Cancel discards the text: what is listed does not change.
  if (event.type === 'CANCEL') expect(selectShownConfig(after)).toEqual(selectShownConfig(before));
  if (event.type === 'xstate.done.actor.saveMcpConfig') {
    expect(after.context.saved).toEqual(before.context.staged);
    expect(after.context.staged).toBeNull();
  }
  if (event.type === 'xstate.error.actor.saveMcpConfig') {
    expect(selectCanSave(after)).toBe(true);
    expect(after.context.saveError).toBeInstanceOf(TypeError);
  }
}

const coverage = new Coverage(mcpEditorMachine);
let pathCount = 0;

describe('MCP editor machine, every edge of its graph', () => {
  const input = { saved: EMPTY_MCP_CONFIG };
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(mcpEditorMachine, { events, input }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(mcpEditorMachine, path, { fakes, input, coverage, expectStep });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('MCP configuration rules (spec §5)', () => {
  const errors = (text: string) => {
    const result = validateMcpConfig(text);
    return 'errors' in result ? result.errors : [];
  };

  it('accepts the spec’s example and fills in missing lists', () => {
    expect(validateMcpConfig(VALID_TEXT)).toEqual({ config: EXAMPLE });
    expect(validateMcpConfig('{}')).toEqual({ config: EMPTY_MCP_CONFIG });
    expect(validateMcpConfig('{"sse_servers": [{"url": "https://a.example/sse", "api_key": "k"}]}')).toEqual({
      config: { sse_servers: [{ url: 'https://a.example/sse', api_key: 'k' }], stdio_servers: [] },
    });
  });

  it("takes OpenHands' shttp_servers: URL strings, or objects with an api_key and a timeout in seconds", () => {
    const shttp = ['https://a.example/mcp', { url: 'https://b.example/mcp', api_key: 'k', timeout: 3600 }];
    expect(validateMcpConfig(JSON.stringify({ shttp_servers: shttp }))).toEqual({
      config: { sse_servers: [], stdio_servers: [], shttp_servers: shttp },
    });
    expect(errors('{"shttp_servers": "https://a.example"}')).toEqual(['shttpNotArray']);
    expect(errors('{"shttp_servers": [42, {"api_key": "k"}]}')).toEqual(['shttpUrl']);
    expect(errors('{"shttp_servers": [{"url": "https://a.example", "api_key": 3}]}')).toEqual(['shttpApiKey']);
    for (const timeout of [0, 3601, 1.5, '60'])
      expect(errors(JSON.stringify({ shttp_servers: [{ url: 'https://a.example', timeout }] }))).toEqual([
        'shttpTimeout',
      ]);
    expect(errors('{"shttp_servers": [{"url": "https://a.example", "timeout": null}]}')).toEqual([]);
  });

  it('names each broken rule once', () => {
    expect(errors('{"sse_servers": [')).toEqual(['invalidJson']);
    expect(errors('[]')).toEqual(['notAnObject']);
    expect(errors('{"servers": []}')).toEqual(['unknownField']);
    expect(errors('{"sse_servers": "https://a.example"}')).toEqual(['sseNotArray']);
    expect(errors('{"stdio_servers": {}}')).toEqual(['stdioNotArray']);
    expect(errors('{"sse_servers": [42, {"url": 1}, {"api_key": "k"}]}')).toEqual(['sseUrl']);
    expect(errors('{"sse_servers": [{"url": "https://a.example", "api_key": 3}]}')).toEqual(['sseApiKey']);
    expect(errors('{"stdio_servers": [{"name": "fetch"}, {"command": "uvx"}]}')).toEqual(['stdioProps']);
    expect(errors('{"stdio_servers": [{"name": "f", "command": "c", "args": "x"}]}')).toEqual(['stdioArgs']);
    expect(errors('{"stdio_servers": [{"name": "f", "command": "c", "env": {"A": 1}}]}')).toEqual(['stdioEnv']);
    expect(errors('{"sse_servers": {}, "stdio_servers": 1}')).toEqual(['sseNotArray', 'stdioNotArray']);
  });
});
