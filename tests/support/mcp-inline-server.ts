/**
 * A dependency-free stdio MCP server as `node -e` source, for processes that cannot see this
 * repository (a sandbox hides /tmp, where a checkout may live): newline-delimited JSON-RPC
 * answering initialize, tools/list and tools/call for one tool, `list`, which shows what the
 * process sees of a directory.
 */
export const LISTING_MCP_SERVER = `
const fs = require('node:fs');
const readline = require('node:readline');
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const tool = { name: 'list', description: 'Lists a directory as this process sees it.', inputSchema: { type: 'object', properties: { dir: { type: 'string' } }, required: ['dir'] } };
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  if (request.id === undefined) return;
  if (request.method === 'initialize')
    send({ id: request.id, result: { protocolVersion: request.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'listing', version: '1.0.0' } } });
  else if (request.method === 'tools/list') send({ id: request.id, result: { tools: [tool] } });
  else if (request.method === 'tools/call') send({ id: request.id, result: { content: [{ type: 'text', text: JSON.stringify(fs.readdirSync(request.params.arguments.dir)) }] } });
  else if (request.method === 'ping') send({ id: request.id, result: {} });
  else send({ id: request.id, error: { code: -32601, message: 'Method not found' } });
});
`;
