// A tiny MCP server for tests, spoken to over stdio: `node --import tsx tests/support/mcp-echo-server.ts`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'echo', version: '1.0.0' });

server.registerTool('echo', { description: 'Repeats the text it is given.', inputSchema: { text: z.string() } }, async ({ text }) => ({
  content: [{ type: 'text', text: `echo: ${text}` }],
}));

server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => ({
  content: [{ type: 'text', text: 'this tool always fails' }],
  isError: true,
}));

await server.connect(new StdioServerTransport());
