import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A git host for tests: git's own smart-HTTP server (`git http-backend`, as CGI) over bare
 * repositories in `root`, answering only requests that carry `user:token` (HTTP basic).
 */
export class GitHttpServer {
  readonly requests: { path: string; user: string | null }[] = [];
  private readonly server = http.createServer((request, response) => this.handle(request, response));

  constructor(
    readonly root: string,
    private readonly credentials: { user: string; token: string },
  ) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** A bare repository `name` with one commit per branch: `files` maps branch → path → content. */
  createRepository(name: string, files: Record<string, Record<string, string>>, defaultBranch: string): void {
    const bare = path.join(this.root, `${name}.git`);
    const work = `${bare}.work`;
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', args, {
        cwd,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      });
    fs.mkdirSync(work, { recursive: true });
    git(path.dirname(bare), 'init', '-q', '--bare', '-b', defaultBranch, bare);
    git(work, 'init', '-q', '-b', defaultBranch);
    for (const [branch, tree] of Object.entries(files)) {
      git(work, 'checkout', '-q', '-B', branch);
      for (const [file, content] of Object.entries(tree)) {
        fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
        fs.writeFileSync(path.join(work, file), content);
      }
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '-m', `${branch} files`);
      git(work, 'push', '-q', bare, branch);
    }
  }

  /** Answers one git smart-HTTP request (another test server may hand its git paths here). */
  handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://git.test');
    const [scheme, encoded] = (request.headers.authorization ?? '').split(' ');
    const [user, token] =
      scheme === 'Basic' && encoded ? Buffer.from(encoded, 'base64').toString().split(':') : [null, null];
    this.requests.push({ path: url.pathname, user: user ?? null });
    if (user !== this.credentials.user || token !== this.credentials.token) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: this.root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        REMOTE_USER: user,
      },
    });
    request.pipe(cgi.stdin);
    // CGI: header lines, a blank line, then the body.
    let head = Buffer.alloc(0);
    let headersSent = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) return void response.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers = Object.fromEntries(
        head
          .subarray(0, end)
          .toString()
          .split('\r\n')
          .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const status = Number(String(headers.status ?? '200').split(' ')[0]);
      delete headers.status;
      response.writeHead(status, headers);
      headersSent = true;
      response.write(head.subarray(end + 4));
    });
    cgi.on('close', () => response.end());
  }
}
