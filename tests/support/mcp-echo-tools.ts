import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** A tiny MCP server for tests: `echo` repeats its text, `fail` always reports an error. */
export function createEchoServer(): McpServer {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Repeats the text it is given.', inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: 'text', text: `echo: ${text}` }],
    }),
  );
  server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'this tool always fails' }],
    isError: true,
  }));
  return server;
}
