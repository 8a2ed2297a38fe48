import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpConfig } from '../types.ts';
import { refusalOf } from '../../shared/outbound.ts';
import { OUTPUT_LIMIT, ToolInputError, truncateMiddle, type AgentTool, type ToolOutcome } from './tool.ts';

const CLIENT_INFO = { name: 'atelier-agent', version: '1.0.0' };

/**
 * The MCP SDK, loaded when a conversation first connects to or checks an MCP server: most have
 * none, and loading it with the server costs its start about 0.4 s and 20 MB.
 */
async function loadMcpSdk() {
  const [client, sse, stdio, streamable] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    StdioClientTransport: stdio.StdioClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
  };
}
let sdk: ReturnType<typeof loadMcpSdk> | null = null;
const mcpSdk = () => (sdk ??= loadMcpSdk());
const CONNECT_TIMEOUT_MS = 30_000;
/**
 * A tool call may take this long in all while its server reports progress (each report restarts
 * the SDK's 60 s wait); a Streamable HTTP server's `timeout` sets its own.
 */
const CALL_LIMIT_MS = 10 * 60_000;
/** How much of a failed stdio server's stderr is told. */
const STDERR_LIMIT = 2_000;
/**
 * Where stdio servers run: as processes of the server host (oss mode's one local user), inside
 * the conversation's sandbox (saas with bubblewrap), or nowhere — without a sandbox a saas
 * user's server would run commands on the host.
 */
export type StdioLauncher =
  | { kind: 'host' }
  | { kind: 'sandbox'; launch: (argv: string[]) => { argv: string[]; env: Record<string, string> } }
  | { kind: 'refused' };

const STDIO_REFUSED =
  'stdio MCP servers would run on the server host outside any sandbox (bubblewrap is not available), so they are disabled here; use an SSE or Streamable HTTP server instead';

/** The user's MCP servers, connected, and their tools as agent tools. */
export interface McpConnections {
  tools: AgentTool<Record<string, unknown>>[];
  /** Servers that could not be reached, with the reason (told to the user, the other servers still work). */
  failures: { server: string; reason: string }[];
  close(): Promise<void>;
}

interface McpServerSpec {
  /** For messages: the stdio server's name or the URL. */
  label: string;
  transport: 'remote' | 'stdio';
  /** The longest one tool call may take in all. */
  callLimitMs: number;
  connect(client: Client, timeoutMs: number): Promise<void>;
}

type StdioServer = McpConfig['stdio_servers'][number];
type SseServer = McpConfig['sse_servers'][number];
type ShttpServer = NonNullable<McpConfig['shttp_servers']>[number];

/**
 * The configured servers in the one order both the agent and the settings check use (it decides
 * which of two colliding tool names gets its server's prefix): SSE, Streamable HTTP, stdio.
 */
function configuredServers(config: McpConfig) {
  return [
    ...config.sse_servers.map((server) => ({ kind: 'sse' as const, server })),
    ...(config.shttp_servers ?? []).map((server) => ({ kind: 'shttp' as const, server })),
    ...config.stdio_servers.map((server) => ({ kind: 'stdio' as const, server })),
  ];
}
type ConfiguredServer = ReturnType<typeof configuredServers>[number];

function remoteSpec(entry: Exclude<ConfiguredServer, { kind: 'stdio' }>, fetchImpl: typeof fetch): McpServerSpec {
  return entry.kind === 'sse' ? remoteServer(entry.server, fetchImpl) : shttpServer(entry.server, fetchImpl);
}

function stdioServer(server: StdioServer, cwd: string, launcher: StdioLauncher): McpServerSpec {
  return {
    label: server.name,
    transport: 'stdio',
    callLimitMs: CALL_LIMIT_MS,
    connect: async (client, timeoutMs) => {
      const { StdioClientTransport, getDefaultEnvironment } = await mcpSdk();
      const argv = [server.command, ...(server.args ?? [])];
      const sandboxed = launcher.kind === 'sandbox' ? launcher.launch(argv) : null;
      const [command = server.command, ...args] = sandboxed?.argv ?? argv;
      const transport = new StdioClientTransport({
        command,
        args,
        env: { ...(sandboxed?.env ?? getDefaultEnvironment()), ...server.env },
        cwd,
        stderr: 'pipe',
      });
      // What it wrote before failing says why (a missing module, a bad flag): kept, bounded.
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        if (stderr.length < STDERR_LIMIT) stderr = (stderr + chunk.toString()).slice(0, STDERR_LIMIT);
      });
      try {
        await client.connect(transport, { timeout: timeoutMs });
      } catch (error) {
        const said = stderr.trim();
        throw new Error(said ? `${reasonOf(error)}. The server wrote: ${said}` : reasonOf(error), { cause: error });
      }
    },
  };
}

const remoteAccess = (server: SseServer | ShttpServer) => {
  const { url, api_key: apiKey } = typeof server === 'string' ? { url: server, api_key: null } : server;
  const requestInit: RequestInit = apiKey ? { headers: { Authorization: `Bearer ${apiKey}` } } : {};
  return { url, requestInit };
};

/**
 * A server of `sse_servers`. The settings call them SSE servers, but current servers speak
 * Streamable HTTP: try that first and fall back to the older SSE transport, as the MCP SDK
 * recommends for clients that must talk to both.
 */
function remoteServer(server: SseServer, fetchImpl: typeof fetch): McpServerSpec {
  const { url, requestInit } = remoteAccess(server);
  return {
    label: url,
    transport: 'remote',
    callLimitMs: CALL_LIMIT_MS,
    async connect(client, timeoutMs) {
      const { StreamableHTTPClientTransport, SSEClientTransport } = await mcpSdk();
      const attempt = async (transport: Transport) => client.connect(transport, { timeout: timeoutMs });
      try {
        await attempt(new StreamableHTTPClientTransport(new URL(url), { requestInit, fetch: fetchImpl }));
      } catch (first) {
        await attempt(new SSEClientTransport(new URL(url), { requestInit, fetch: fetchImpl })).catch((error) => {
          throw remoteConnectError(first, error);
        });
      }
    },
  };
}

/** A server of `shttp_servers`: Streamable HTTP only, with its own call limit (`timeout`, seconds). */
function shttpServer(server: ShttpServer, fetchImpl: typeof fetch): McpServerSpec {
  const { url, requestInit } = remoteAccess(server);
  const timeout = typeof server === 'string' ? null : server.timeout;
  return {
    label: url,
    transport: 'remote',
    callLimitMs: timeout ? timeout * 1000 : CALL_LIMIT_MS,
    async connect(client, timeoutMs) {
      const { StreamableHTTPClientTransport } = await mcpSdk();
      const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit, fetch: fetchImpl });
      await client.connect(transport, { timeout: timeoutMs }).catch((error: unknown) => {
        throw remoteConnectError(error);
      });
    },
  };
}

/**
 * Why a remote server could not be used: Atelier's own refusal (an address users may not reach),
 * else what each transport tried met. The SSE transport's errors lose their cause, so the
 * Streamable HTTP attempt's tells a refusal.
 */
function remoteConnectError(overStreamableHttp: unknown, overSse?: unknown): Error {
  const refused = refusalOf(overStreamableHttp);
  if (refused) return new Error(refused.message, { cause: overStreamableHttp });
  const http = `Over Streamable HTTP the server ${remoteFailure(overStreamableHttp)}`;
  return new Error(overSse === undefined ? http : `${http} Over SSE it ${remoteFailure(overSse)}`, {
    cause: overSse ?? overStreamableHttp,
  });
}

/**
 * Why a transport could not use a remote server, in Atelier's words ("the server …"): the HTTP
 * status, or that it did not answer as an MCP server. What the server said is not relayed (nor
 * which kind of service answered instead: that would make the check a port scanner).
 */
function remoteFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && code >= 400 && code <= 599) return `answered HTTP ${code}.`;
  return 'could not be reached, or did not answer as an MCP server.';
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface ContentPart {
  type: string;
  text?: string;
  uri?: string;
  name?: string;
  data?: string;
  mimeType?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/** Bytes of base64 data. */
const decodedBytes = (base64: string) =>
  Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

/** Image formats every provider that takes images takes. */
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** The images of one result together, decoded (Anthropic's limit for one image). */
const RESULT_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * A tool's result as the model reads it: text whole, a resource's text with its URI, binary data
 * named; images are passed on as data URLs (bounded), which models that take images are shown.
 */
function resultOf(result: Awaited<ReturnType<Client['callTool']>>): { text: string; images: string[] } {
  const parts = Array.isArray(result.content) ? (result.content as ContentPart[]) : [];
  const images: string[] = [];
  let imageBytes = 0;
  const imageText = (part: ContentPart) => {
    const mimeType = part.mimeType ?? '';
    const bytes = decodedBytes(part.data ?? '');
    const shown = `[image ${mimeType}, ${bytes} bytes`;
    if (!MODEL_IMAGE_TYPES.has(mimeType)) return `${shown}: not a format models take, not shown]`;
    if (imageBytes + bytes > RESULT_IMAGE_BYTES)
      return `${shown}: over the 5 MB a result's images may take, not shown]`;
    imageBytes += bytes;
    images.push(`data:${mimeType};base64,${part.data ?? ''}`);
    return `${shown}, image ${images.length} of this result]`;
  };
  const partText = (part: ContentPart): string => {
    switch (part.type) {
      case 'text':
        return part.text ?? '';
      case 'resource': {
        const { uri = '', mimeType, text, blob } = part.resource ?? {};
        const kind = mimeType ? ` (${mimeType})` : '';
        if (text !== undefined) return `[resource ${uri}${kind}]\n${text}`;
        return `[resource ${uri}${kind}: ${decodedBytes(blob ?? '')} bytes of binary data, not shown]`;
      }
      case 'resource_link':
        return `[resource link: ${part.name ?? ''} ${part.uri ?? ''}]`.replace('  ', ' ');
      case 'image':
        return imageText(part);
      case 'audio':
        return `[audio ${part.mimeType ?? ''}, ${decodedBytes(part.data ?? '')} bytes: not shown to the model]`;
      default:
        return `[${part.type}${part.uri ? `: ${part.uri}` : ''}]`;
    }
  };
  const texts = parts.map(partText);
  if (texts.length === 0 && result.structuredContent !== undefined)
    texts.push(JSON.stringify(result.structuredContent));
  return { text: texts.join('\n'), images };
}

/** The SDK's timeouts (MCP error -32001) in words the model can act on; null for other errors. */
function timedOut(error: unknown, name: string, callLimitMs: number): Error | null {
  if ((error as { code?: unknown }).code !== -32001) return null;
  const total = /total/i.test(reasonOf(error));
  const reason = total
    ? `did not finish within its limit of ${callLimitMs / 1000} s`
    : 'neither answered nor reported progress for 60 s';
  return new Error(
    `The MCP tool ${name} ${reason}, so the call was given up (it may still be running on its server).`,
    {
      cause: error,
    },
  );
}

/** A tool of a server, as the model sees it (`name`) and as the server knows it (`tool.name`). */
function mcpTool(
  client: Client,
  tool: Awaited<ReturnType<Client['listTools']>>['tools'][number],
  name: string,
  callLimitMs: number,
): AgentTool<Record<string, unknown>> {
  return {
    name,
    description: tool.description ?? `The ${tool.name} tool of an MCP server.`,
    parameters: tool.inputSchema,
    actionKind: 'call_tool_mcp',
    parse(input) {
      if (typeof input !== 'object' || input === null || Array.isArray(input))
        throw new ToolInputError(`The arguments of ${tool.name} must be an object.`);
      return input as Record<string, unknown>;
    },
    describe: (input) => ({
      action: 'call_tool_mcp',
      message: `Calling MCP tool: ${name}`,
      args: { name, arguments: input },
    }),
    async run(input, { signal }): Promise<ToolOutcome> {
      const result = await client
        .callTool({ name: tool.name, arguments: input }, undefined, {
          signal,
          // Asking for progress lets a long call live while its server reports it.
          onprogress: () => undefined,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: callLimitMs,
        })
        .catch((error: unknown) => {
          throw timedOut(error, name, callLimitMs) ?? error;
        });
      const { text, images } = resultOf(result);
      return {
        observation: 'mcp',
        content: truncateMiddle(text, OUTPUT_LIMIT),
        message: `MCP tool ${name} answered.`,
        extras: {
          name,
          arguments: input,
          ...(images.length > 0 && { image_urls: images }),
          ...(result.isError === true && { error: true }),
        },
        error: result.isError === true,
      };
    },
  };
}

/** What a server's colliding tool names start with: its name (a remote one's host), as a tool name may be spelled (`[A-Za-z0-9_-]`). */
export function toolPrefix(label: string): string {
  const host = /^[a-z]+:\/\/([^/]+)/i.exec(label)?.[1] ?? label;
  return host.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 30);
}

/** Tool names providers accept: OpenAI and Anthropic take up to 64 of `[A-Za-z0-9_-]`. */
const TOOL_NAME_LIMIT = 64;

/**
 * The names the agent gives each server's tools, servers in configuration order (null: a server
 * whose tools are not known). A tool keeps its own name, as models trained on OpenHands expect,
 * unless a built-in or an earlier server's tool has it: then it is `<server>__<tool>`, so two
 * servers never hide each other's tools. Null for a tool that cannot be named at all.
 */
function agentToolNames(
  servers: readonly ({ label: string; tools: readonly string[] } | null)[],
  reservedNames: ReadonlySet<string>,
): (string | null)[][] {
  const names = new Set(reservedNames);
  return servers.map((server) =>
    (server?.tools ?? []).map((tool) => {
      const name = [tool, `${toolPrefix(server?.label ?? '')}__${tool}`.slice(0, TOOL_NAME_LIMIT)].find(
        (candidate) => !names.has(candidate),
      );
      if (name === undefined) return null;
      names.add(name);
      return name;
    }),
  );
}

/**
 * Connects every configured server (in parallel; one failing does not stop the others) and
 * lists their tools, named by agentToolNames. Stdio servers start in the workspace directory
 * (see StdioLauncher).
 */
export async function connectMcpServers(
  config: McpConfig,
  options: { cwd: string; reservedNames: ReadonlySet<string>; stdio: StdioLauncher; fetch: typeof fetch },
): Promise<McpConnections> {
  const { stdio } = options;
  const specs = configuredServers(config).flatMap((entry) => {
    if (entry.kind !== 'stdio') return [remoteSpec(entry, options.fetch)];
    return stdio.kind === 'refused' ? [] : [stdioServer(entry.server, options.cwd, stdio)];
  });
  const clients: Client[] = [];
  const connected = await Promise.all(
    specs.map(async (spec) => {
      const client = new (await mcpSdk()).Client(CLIENT_INFO);
      try {
        await spec.connect(client, CONNECT_TIMEOUT_MS);
        clients.push(client);
        const { tools } = await client.listTools();
        return { spec, client, tools };
      } catch (error) {
        await client.close().catch(() => undefined);
        return { spec, failure: { server: spec.label, reason: reasonOf(error) } };
      }
    }),
  );
  const refused =
    stdio.kind !== 'refused'
      ? []
      : config.stdio_servers.map((server) => ({ server: server.name, reason: STDIO_REFUSED }));
  const failures = [...connected.flatMap((result) => (result.failure ? [result.failure] : [])), ...refused];
  const names = agentToolNames(
    connected.map((result) => ({ label: result.spec.label, tools: (result.tools ?? []).map((tool) => tool.name) })),
    options.reservedNames,
  );
  const tools = connected.flatMap(({ spec, client, tools: listed = [] }, server) =>
    listed.flatMap((tool, index) => {
      const name = names[server]?.[index];
      return client && name ? [mcpTool(client, tool, name, spec.callLimitMs)] : [];
    }),
  );
  return {
    tools,
    failures,
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    },
  };
}

/** One configured server as the check found it: reachable with its tools, unreachable with why, or not checked here (null). */
export interface McpServerCheck {
  server: string;
  transport: 'remote' | 'stdio';
  reachable: boolean | null;
  tools: { name: string; agent_name: string | null; description: string | null }[];
  error: string | null;
}

/**
 * Connects to each configured server as the agent would, lists its tools with the names the
 * agent will give them, and disconnects, so a broken server shows in the settings before a
 * conversation needs it. `stdio: null` leaves stdio servers unchecked with `stdioNotChecked` as
 * the reason (saas: they run only inside a conversation's sandbox).
 */
export async function checkMcpServers(
  config: McpConfig,
  options: {
    cwd: string;
    reservedNames: ReadonlySet<string>;
    stdio: StdioLauncher | null;
    stdioNotChecked: string;
    timeoutMs: number;
    fetch: typeof fetch;
  },
): Promise<McpServerCheck[]> {
  const { stdio } = options;
  const launchable = stdio && stdio.kind !== 'refused' ? stdio : null;
  const checks = await Promise.all(
    configuredServers(config).map((entry) => {
      if (entry.kind !== 'stdio') return probe(remoteSpec(entry, options.fetch), options.timeoutMs);
      if (launchable) return probe(stdioServer(entry.server, options.cwd, launchable), options.timeoutMs);
      return {
        server: entry.server.name,
        transport: 'stdio' as const,
        reachable: null,
        tools: [],
        error: stdio?.kind === 'refused' ? STDIO_REFUSED : options.stdioNotChecked,
      };
    }),
  );
  const names = agentToolNames(
    checks.map((check) => (check.reachable ? { label: check.server, tools: check.tools.map((t) => t.name) } : null)),
    options.reservedNames,
  );
  return checks.map(({ tools, ...check }, server) => ({
    ...check,
    tools: tools.map((tool, index) => ({ ...tool, agent_name: names[server]?.[index] ?? null })),
  }));
}

async function probe(spec: McpServerSpec, timeoutMs: number) {
  const client = new (await mcpSdk()).Client(CLIENT_INFO);
  const shown = { server: spec.label, transport: spec.transport };
  try {
    await spec.connect(client, timeoutMs);
    const { tools } = await client.listTools(undefined, { timeout: timeoutMs });
    return {
      ...shown,
      reachable: true,
      tools: tools.map((tool) => ({ name: tool.name, description: tool.description ?? null })),
      error: null,
    };
  } catch (error) {
    return { ...shown, reachable: false, tools: [], error: reasonOf(error) };
  } finally {
    await client.close().catch(() => undefined);
  }
}
