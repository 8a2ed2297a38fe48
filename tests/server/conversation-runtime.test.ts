import fs from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFactory } from '../../server/agent/index.ts';
import { schema } from '../../server/db/index.ts';
import { call, withTestApp } from '../support/app.ts';
import {
  createRunning,
  listen,
  runInTerminal,
  signUp,
  SocketClient,
  waitFor,
  waitRunning,
} from '../support/conversations.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import type { Event } from '../../openapi/types.ts';

/** openvscode-server takes its connection token as `tkn`: the folder must be added beside it. */
const VSCODE_URL = 'https://vscode.acme.example/?tkn=connection-token';
const t = withTestApp({ VSCODE_URL });
/** The real agent, talking to a fake OpenAI-compatible model. */
const oss = withTestApp({ APP_MODE: 'oss' }, { agentFactory });
const llm = new FakeLlm('fake-model');
let user: { token: string; id: string };
let baseUrl: string;
let ossUrl: string;

beforeAll(async () => {
  const llmUrl = await llm.start();
  await call(oss.app, 'POST', '/api/settings', {
    body: { llm_model: 'openai/fake-model', llm_base_url: llmUrl, llm_api_key: 'fake-key' },
  });
  ossUrl = await listen(oss.app);
  baseUrl = await listen(t.app);
  user = await signUp(t.app, t.db, 'runtime@acme.example');
});
afterAll(() => llm.stop());

/** The workspace as the runtime sees it (the data directory may sit behind a symlink). */
const workspaceOf = (dataDir: string, id: string) => fs.realpathSync(path.join(dataDir, 'workspaces', id));

const storedEvents = async (conversationId: string) =>
  (await t.db.select({ n: count() }).from(schema.events).where(eq(schema.events.conversationId, conversationId)))[0]?.n;

describe('a conversation’s runtime', () => {
  it(
    'lists a served app in web-hosts once it listens, as its owner’s link through the app proxy, over either address family',
    { timeout: 60_000 },
    async () => {
      const conversation = await createRunning(t.app, user.token);
      const id = conversation.conversation_id;
      const hosts = async () =>
        (
          await call(t.app, 'GET', `/api/conversations/${id}/web-hosts`, {
            token: user.token,
            headers: { host: 'localhost:3000' },
          })
        ).body?.hosts as string[];
      expect(await hosts()).toEqual([]);
      const socket = await SocketClient.open(
        baseUrl,
        { conversation_id: id, latest_event_id: -1 },
        { authorization: `Bearer ${user.token}` },
      );
      await runInTerminal(
        socket,
        'echo v4 > v4.html && (/usr/bin/python3 -m http.server "$APP_PORT_1" --bind 127.0.0.1 > /dev/null 2>&1 &)',
      );
      await runInTerminal(
        socket,
        'echo v6 > v6.html && (/usr/bin/python3 -m http.server "$APP_PORT_2" --bind ::1 > /dev/null 2>&1 &)',
      );
      const [port1, port2] =
        String((await runInTerminal(socket, 'echo "ports $APP_PORT_1 $APP_PORT_2"')).content)
          .match(/ports (\d+) (\d+)/)
          ?.slice(1) ?? [];
      const served = await waitFor(hosts, (list) => list.length === 2, 20_000, 'both apps to listen');
      expect(served.map((url) => url.split('?')[0])).toEqual([
        `http://localhost:${port1}/`,
        `http://localhost:${port2}/`,
      ]);
      // Each link trades its token for the port's cookie; the proxy reaches each app over the family it listens on.
      for (const [url, file, text] of [
        [served[0] as string, 'v4.html', 'v4\n'],
        [served[1] as string, 'v6.html', 'v6\n'],
      ] as const) {
        const traded = await fetch(url.replace('localhost', '127.0.0.1'), { redirect: 'manual' });
        expect(traded.status).toBe(302);
        const cookie = (traded.headers.get('set-cookie') ?? '').split(';')[0] as string;
        const app = new URL(url);
        expect(await (await fetch(`http://127.0.0.1:${app.port}/${file}`, { headers: { cookie } })).text()).toBe(text);
      }
      await socket.close();
      await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: user.token });
    },
  );

  it(
    'gives the agent and the terminal tab one shell: the terminal sees the agent’s variables and directory',
    { timeout: 60_000 },
    async () => {
      llm.enqueue(
        reply.text('Shared shell', { when: withoutTools }),
        reply.toolCall(
          'execute_bash',
          { command: 'export SHARED_MARK=from-agent && mkdir -p sub && cd sub', security_risk: 'LOW' },
          { when: withTools },
        ),
        reply.toolCall('finish', { message: 'Done.', task_completed: 'true' }, { when: withTools }),
      );
      const created = await call(oss.app, 'POST', '/api/conversations', {
        body: { initial_user_msg: 'Prepare the shell' },
      });
      const id = created.body?.conversation_id as string;
      const socket = await SocketClient.open(ossUrl, { conversation_id: id, latest_event_id: -1 });
      await socket.waitFor((s) => s.events.some((e) => e.action === 'finish'), 'the agent to finish', 30_000);
      const agentRun = socket.events.find((e) => e.observation === 'run');
      expect(agentRun).toMatchObject({ extras: { metadata: { exit_code: 0 } } });

      const observation = await runInTerminal(socket, 'echo "$SHARED_MARK" && pwd');
      expect(observation.extras?.metadata?.exit_code).toBe(0);
      expect(observation.content?.trim().split('\n')).toEqual([
        'from-agent',
        path.join(workspaceOf(oss.database.dataDir, id), 'sub'),
      ]);
      await socket.close();
      await call(oss.app, 'POST', `/api/conversations/${id}/stop`);
    },
  );

  it('deletes the conversation’s events from the database with it, and no one else’s', async () => {
    const doomed = await createRunning(t.app, user.token);
    const kept = await createRunning(t.app, user.token);
    // Stopped, it writes no more events (READY is stored just after RUNNING is seen), so its count can be compared.
    await call(t.app, 'POST', `/api/conversations/${kept.conversation_id}/stop`, { token: user.token });
    const before = await storedEvents(doomed.conversation_id);
    expect(before).toBeGreaterThan(0);
    const keptBefore = await storedEvents(kept.conversation_id);

    expect(
      (await call(t.app, 'DELETE', `/api/conversations/${doomed.conversation_id}`, { token: user.token })).body,
    ).toEqual({ success: true });
    expect(await storedEvents(doomed.conversation_id)).toBe(0);
    expect(await storedEvents(kept.conversation_id)).toBe(keptBefore);
  });

  it('opens the configured VS Code server on the workspace folder while running, and as configured once stopped', async () => {
    const { conversation_id: id } = await createRunning(t.app, user.token);
    const running = (await call(t.app, 'GET', `/api/conversations/${id}/vscode-url`, { token: user.token })).body
      ?.vscode_url as string;
    const url = new URL(running);
    expect(url.origin + url.pathname).toBe('https://vscode.acme.example/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tkn: 'connection-token',
      folder: workspaceOf(t.database.dataDir, id),
    });

    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: user.token });
    expect((await call(t.app, 'GET', `/api/conversations/${id}/vscode-url`, { token: user.token })).body).toEqual({
      vscode_url: VSCODE_URL,
    });
  });

  it(
    'gives the shell every saved provider token, or only those of providers_set on start',
    { timeout: 60_000 },
    async () => {
      const tokens = await signUp(t.app, t.db, 'tokens@acme.example');
      const saved = await call(t.app, 'POST', '/api/settings', {
        token: tokens.token,
        body: { provider_tokens: { github: { token: 'ghp_runtime_test' }, gitlab: { token: 'glpat-runtime-test' } } },
      });
      expect(saved.status).toBe(200);
      const { conversation_id: id } = await createRunning(t.app, tokens.token);
      const socket = await SocketClient.open(
        baseUrl,
        { conversation_id: id },
        { authorization: `Bearer ${tokens.token}` },
      );
      const command = 'echo "gh=${GITHUB_TOKEN:-none} gl=${GITLAB_TOKEN:-none}"';
      expect((await runInTerminal(socket, command)).content).toBe('gh=ghp_runtime_test gl=glpat-runtime-test');

      await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: tokens.token });
      const started = await call(t.app, 'POST', `/api/conversations/${id}/start`, {
        token: tokens.token,
        body: { providers_set: ['github'] },
      });
      expect(started.status).toBe(200);
      await waitRunning(t.app, tokens.token, id);
      expect((await runInTerminal(socket, command)).content).toBe('gh=ghp_runtime_test gl=none');
      await socket.close();
      await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: tokens.token });
    },
  );

  it('records files_uploaded as the user’s message naming the uploaded file and why the other was skipped', async () => {
    const { conversation_id: id } = await createRunning(t.app, user.token);
    const socket = await SocketClient.open(baseUrl, { conversation_id: id }, { authorization: `Bearer ${user.token}` });
    socket.send({
      action: 'files_uploaded',
      args: { uploaded_files: ['a.py'], skipped_files: [{ name: 'b.exe', reason: 'Executables are not accepted' }] },
    });
    await socket.waitFor((s) => s.events.some((e) => e.action === 'message'), 'the message');
    await socket.close();

    // This app has no agent: the host records the message itself.
    const trajectory = (await call(t.app, 'GET', `/api/conversations/${id}/trajectory`, { token: user.token })).body
      ?.trajectory as Event[];
    const messages = trajectory.filter((e) => e.action === 'message');
    expect(messages).toEqual([
      expect.objectContaining({ source: 'user', args: expect.objectContaining({ file_urls: ['a.py'] }) }),
    ]);
    const content = messages[0]?.args?.content;
    expect(content).toContain('a.py');
    expect(content).toMatch(/b\.exe: Executables are not accepted/);
    expect(messages[0]?.message).toBe(content);
    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: user.token });
  });
});
