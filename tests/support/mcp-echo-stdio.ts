import path from 'node:path';

/** The echo MCP server as a stdio entry of an MCP configuration (tests/support/mcp-echo-server.ts). */
export const echoStdioServer = {
  name: 'echo',
  command: process.execPath,
  // Stdio servers start in the workspace, where a bare `tsx` would not resolve: name it by its URL.
  args: ['--import', import.meta.resolve('tsx'), path.resolve(import.meta.dirname, 'mcp-echo-server.ts')],
  env: { ECHO_MODE: 'test' },
};
