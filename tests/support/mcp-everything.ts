import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * The official MCP reference server (`@modelcontextprotocol/server-everything`), bundled into
 * one file so that it can be copied into a workspace and run inside the conversation's sandbox
 * (which hides this checkout's node_modules), as a user would install a server there.
 */
export async function bundleEverything(): Promise<{ file: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'atelier-mcp-everything-'));
  const file = path.join(dir, 'everything.mjs');
  // The package has only its bin: no main or exports to resolve.
  const manifest = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json');
  const entry = path.join(path.dirname(manifest), 'dist', 'index.js');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: file,
    logLevel: 'warning',
    // Its CommonJS dependencies (express) call require().
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return { file, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface EverythingServer {
  /** `http://127.0.0.1:<port>/mcp` (Streamable HTTP) or `/sse` (HTTP+SSE). */
  url: string;
  close(): Promise<void>;
}

/** Runs the bundled server over HTTP on a free port, and waits until it listens. */
export async function startEverything(file: string, transport: 'streamableHttp' | 'sse'): Promise<EverythingServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [file, transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${said}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (/listening|running/i.test(said)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited (${code}): ${said}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}
