import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { terminalText } from '../../server/runtime/terminal-text.ts';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, listen, runInTerminal, signUp, SocketClient, waitFor } from '../support/conversations.ts';
import type { Conversation } from '../../openapi/types.ts';

// The Terminal tab's terminals: each a bash on a pseudo-terminal of its own in the
// conversation's sandbox, so keys reach it as typed (Ctrl+C, a REPL, a resize), it never waits
// on the agent's shell, and what it showed is there again for a tab that attaches later.

const t = withTestApp();
let baseUrl: string;
let user: { token: string; id: string };
let conversation: Conversation;
const opened: TerminalClient[] = [];

type Frame = { type?: 'output' | 'exit'; data?: string; exit_code?: number; error?: true; message?: string };

class TerminalClient {
  readonly frames: Frame[] = [];
  closed: { code: number } | null = null;
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(String(data)) as Frame));
    ws.on('close', (code) => (this.closed = { code }));
  }

  static async open(query: Record<string, string>, headers: Record<string, string> = {}) {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/terminal?${new URLSearchParams(query)}`, { headers });
    const client = new TerminalClient(ws);
    opened.push(client);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return client;
  }

  /** Everything it printed, escape sequences and carriage returns removed. */
  get screen(): string {
    return terminalText(this.frames.map((frame) => frame.data ?? '').join('')).replace(/\r/g, '');
  }

  type(data: string) {
    this.ws.send(JSON.stringify({ type: 'input', data }));
  }

  resize(cols: number, rows: number) {
    this.ws.send(JSON.stringify({ type: 'resize', cols, rows }));
  }

  /** Waits until the screen matches, answering how long that took. */
  async shows(pattern: RegExp, what: string, timeoutMs = 10_000): Promise<number> {
    const started = performance.now();
    await waitFor(
      () => this.screen,
      (screen) => pattern.test(screen),
      timeoutMs,
      what,
    );
    return performance.now() - started;
  }

  close() {
    this.ws.close();
  }
}

const path = (suffix = '') => `/api/conversations/${conversation.conversation_id}/terminals${suffix}`;
const openTerminal = async (token = user.token) => call(t.app, 'POST', path(), { token, body: { cols: 80, rows: 24 } });
const attach = (terminalId: string, token = user.token) =>
  TerminalClient.open({ conversation_id: conversation.conversation_id, terminal_id: terminalId, auth_token: token });

beforeAll(async () => {
  baseUrl = await listen(t.app);
  user = await signUp(t.app, t.db, 'terminals@acme.example');
  conversation = await createRunning(t.app, user.token);
});

afterAll(() => opened.forEach((client) => client.close()));

describe('a user terminal', () => {
  it('runs a REPL, is interrupted by Ctrl+C and follows the size of its tab', async () => {
    const created = await openTerminal();
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), exited: false });
    const terminal = await attach(created.body?.id as string);
    terminal.type('echo sum-$((6*7))\r');
    await terminal.shows(/sum-42/, 'the command output');

    // The REPL's prompt comes as soon as Python starts, not after a timeout.
    terminal.type('python3 -q\r');
    expect(await terminal.shows(/>>> $/, 'the Python prompt')).toBeLessThan(5000);
    terminal.type('print(6 * 7 + 1)\r');
    await terminal.shows(/\n43\n>>> $/, 'the REPL answer');
    terminal.type('\x04');
    await terminal.shows(/\n[^\n]*\$ $/, 'the prompt after leaving Python');

    terminal.type('sleep 300; echo not-interrupted\r');
    await new Promise((resolve) => setTimeout(resolve, 300));
    terminal.type('\x03');
    expect(await terminal.shows(/\^C\n[^\n]*\$ $/, 'the prompt after Ctrl+C')).toBeLessThan(2000);
    expect(terminal.screen.split('\n')).not.toContain('not-interrupted');

    terminal.resize(100, 30);
    terminal.type('stty size\r');
    await terminal.shows(/\n30 100\n/, 'the new size');
  });

  it('never waits on the agent’s shell, nor the agent on it', async () => {
    const terminal = await attach((await openTerminal()).body?.id as string);
    terminal.type('sleep 120\r');
    const socket = await SocketClient.open(baseUrl, {
      conversation_id: conversation.conversation_id,
      latest_event_id: -1,
      auth_token: user.token,
    });
    const started = performance.now();
    const observation = await runInTerminal(socket, 'echo agent-$((2*21))');
    expect(observation.content).toContain('agent-42');
    expect(performance.now() - started).toBeLessThan(5000);
    // And the other way round: the agent's shell busy, the terminal answers at once.
    socket.send({ action: 'run', args: { command: 'sleep 8', hidden: true } });
    terminal.type('\x03echo user-$((5*5))\r');
    expect(await terminal.shows(/user-25/, 'the terminal while the agent runs')).toBeLessThan(3000);
    await socket.close();
  });

  it('shows a tab that attaches later what it showed, and ends its processes when closed', async () => {
    const id = (await openTerminal()).body?.id as string;
    const first = await attach(id);
    first.type('echo kept-$((7*6)); sleep 4343 &\r');
    await first.shows(/kept-42/, 'the output');
    first.close();
    const again = await attach(id);
    await again.shows(/kept-42/, 'the output replayed');
    const listed = await call(t.app, 'GET', path(), { token: user.token });
    expect(listed.body?.terminals).toContainEqual({ id, exited: false });
    const running = () => execFileSync('ps', ['-eo', 'args']).toString().includes('sleep 4343');
    expect(running()).toBe(true);

    expect((await call(t.app, 'DELETE', path(`/${id}`), { token: user.token })).status).toBe(200);
    await waitFor(() => again.closed, Boolean, 5000, 'the socket of the closed terminal to close');
    expect(again.frames.at(-1)).toEqual({ type: 'exit', exit_code: expect.any(Number) });
    await waitFor(
      () => running(),
      (still) => !still,
      5000,
      'the background sleep to end',
    );
    expect((await call(t.app, 'GET', path(), { token: user.token })).body?.terminals).not.toContainEqual(
      expect.objectContaining({ id }),
    );
    expect((await call(t.app, 'DELETE', path(`/${id}`), { token: user.token })).status).toBe(404);
  });

  it('opens at most five at once', async () => {
    const listed = (await call(t.app, 'GET', path(), { token: user.token })).body?.terminals as { id: string }[];
    for (let i = listed.length; i < 5; i++) expect((await openTerminal()).status).toBe(201);
    const refused = await openTerminal();
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'At most 5 terminals can be open at once: close one first.' });
  });

  it('is nobody else’s, and closes within a second of signing out', async () => {
    const other = await signUp(t.app, t.db, 'terminals-other@acme.example');
    const id = ((await call(t.app, 'GET', path(), { token: user.token })).body?.terminals as { id: string }[])[0]?.id;
    expect((await openTerminal(other.token)).status).toBe(404);
    expect((await call(t.app, 'DELETE', path(`/${id}`), { token: other.token })).status).toBe(404);
    const stranger = await attach(id ?? '', other.token);
    await waitFor(() => stranger.closed, Boolean, 5000, 'the stranger refused');
    expect(stranger.closed?.code).toBe(4404);
    expect(stranger.frames).toEqual([{ error: true, message: 'No such terminal', error_code: 404 }]);
    const nobody = await TerminalClient.open({ conversation_id: conversation.conversation_id, terminal_id: id ?? '' });
    await waitFor(() => nobody.closed, Boolean, 5000, 'no credentials refused');
    expect(nobody.closed?.code).toBe(4401);

    const login = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'terminals@acme.example', password: 'long enough' },
      ip: 'terminals',
    });
    const token = login.body?.access_token as string;
    const terminal = await attach(id ?? '', token);
    terminal.type('echo signed-in\r');
    await terminal.shows(/signed-in/, 'the terminal working');
    const started = performance.now();
    expect((await call(t.app, 'POST', '/api/auth/logout', { token })).status).toBe(200);
    await waitFor(() => terminal.closed, Boolean, 5000, 'the terminal to close');
    expect(terminal.closed?.code).toBe(4401);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('ends with the runtime', async () => {
    const id = ((await call(t.app, 'GET', path(), { token: user.token })).body?.terminals as { id: string }[])[0]?.id;
    const terminal = await attach(id ?? '');
    expect(
      (await call(t.app, 'POST', `/api/conversations/${conversation.conversation_id}/stop`, { token: user.token }))
        .status,
    ).toBe(200);
    await waitFor(() => terminal.closed, Boolean, 10_000, 'the terminal to end');
    expect(terminal.frames.at(-1)).toMatchObject({ type: 'exit' });
    expect((await call(t.app, 'GET', path(), { token: user.token })).status).toBe(503);
  });
});
