import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createEchoServer } from './mcp-echo-tools.ts';

interface EchoHttpServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `handle` on 127.0.0.1, answering only requests that carry `Authorization: Bearer <apiKey>`. */
async function serve(
  apiKey: string,
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<{ origin: string; close(): Promise<void> }> {
  const http: Server = createServer(async (request, response) => {
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      response.writeHead(401).end();
      return;
    }
    await handle(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      // Keep-alive sockets and open SSE streams would keep close() waiting.
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The echo MCP server over Streamable HTTP (stateless: a server per request). */
export async function startEchoHttpServer(apiKey: string): Promise<EchoHttpServer> {
  const { origin, close } = await serve(apiKey, async (request, response) => {
    const server = createEchoServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  return { url: `${origin}/mcp`, close };
}

/**
 * The echo MCP server over the legacy HTTP+SSE transport only: GET /sse opens a session's
 * stream, POST /messages?sessionId= carries the client's messages, and anything else (a
 * Streamable HTTP POST to /sse included) is a 404, so a client must fall back to SSE.
 */
export async function startEchoSseServer(apiKey: string): Promise<EchoHttpServer & { sseSessionsOpened(): number }> {
  const sessions = new Map<string, SSEServerTransport>();
  let opened = 0;
  const { origin, close } = await serve(apiKey, async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', response);
      sessions.set(transport.sessionId, transport);
      // Before connect(), which wraps this handler instead of replacing it.
      transport.onclose = () => sessions.delete(transport.sessionId);
      opened += 1;
      await createEchoServer().connect(transport);
      return;
    }
    const session =
      request.method === 'POST' && url.pathname === '/messages'
        ? sessions.get(url.searchParams.get('sessionId') ?? '')
        : undefined;
    if (!session) {
      response.writeHead(404).end();
      return;
    }
    await session.handlePostMessage(request, response);
  });
  return { url: `${origin}/sse`, close, sseSessionsOpened: () => opened };
}
