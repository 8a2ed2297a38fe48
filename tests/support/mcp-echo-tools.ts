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
  // With ECHO_RICH=1: a tool whose result holds an embedded resource, a binary one and an image.
  if (process.env['ECHO_RICH'] === '1')
    server.registerTool(
      'report',
      { description: 'Answers with resources and an image.', inputSchema: {} },
      async () => ({
        content: [
          { type: 'text', text: 'Here is the report.' },
          {
            type: 'resource',
            resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes\nAll good.' },
          },
          {
            type: 'resource',
            resource: { uri: 'file:///data.bin', mimeType: 'application/octet-stream', blob: 'AAECAw==' },
          },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      }),
    );
  return server;
}
