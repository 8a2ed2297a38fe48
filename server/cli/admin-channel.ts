import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

// Operator commands reach the server that holds the embedded database over a Unix socket in
// DATA_DIR (mode 0600): local-only, and only for whoever may read the data directory anyway.

export interface CommandResult {
  code: number;
  lines: string[];
}

export type CommandRunner = (args: string[]) => Promise<CommandResult>;

/** The socket's path: in DATA_DIR, unless that path is too long for a Unix socket (108 bytes on Linux). */
export function adminSocketPath(dataDir: string): string {
  const inDataDir = path.join(path.resolve(dataDir), 'admin.sock');
  if (Buffer.byteLength(inDataDir) < 100) return inDataDir;
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `atelier-admin-${digest}.sock`);
}

const isArgs = (value: unknown): value is string[] => Array.isArray(value) && value.every((a) => typeof a === 'string');

/** Answers `POST /commands {"args": [...]}` on the socket with `{code, lines}`; resolves once listening. */
export async function serveAdminChannel(socketPath: string, run: CommandRunner): Promise<{ close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number, body: CommandResult) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      let args: unknown;
      try {
        args = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { args?: unknown }).args;
      } catch {
        args = undefined;
      }
      if (request.method !== 'POST' || request.url !== '/commands' || !isArgs(args))
        return answer(400, { code: 2, lines: ['Expected POST /commands {"args": [...]}'] });
      run(args).then(
        (result) => answer(200, result),
        (error: unknown) => answer(200, { code: 1, lines: [error instanceof Error ? error.message : String(error)] }),
      );
    });
  });
  // A socket file left by a process that died would refuse the listen; the caller holds the data directory's lock.
  fs.rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/** Runs a command in the server listening on the socket. */
export function callAdminChannel(socketPath: string, args: string[]): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath, path: '/commands', method: 'POST', headers: { 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as CommandResult);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ args }));
  });
}
