// The echo MCP server over stdio, for tests: `node --import tsx tests/support/mcp-echo-server.ts`.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createEchoServer } from './mcp-echo-tools.ts';

await createEchoServer().connect(new StdioServerTransport());
