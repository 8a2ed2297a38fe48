import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, listen, signUp, SocketClient, waitFor } from '../support/conversations.ts';
import { sample } from '../contract/sample.ts';
import type { Event } from '../../openapi/types.ts';

const t = withTestApp();
let alice: { token: string; id: string };
let bob: { token: string; id: string };

beforeAll(async () => {
  alice = await signUp(t.app, t.db, 'alice@acme.example');
  bob = await signUp(t.app, t.db, 'bob@acme.example');
});

const workspaceOf = (id: string) => path.join(t.database.dataDir, 'workspaces', id);

describe('conversations', () => {
  it('creates a conversation that starts, then lists, renames, stops and restarts it with its workspace', async () => {
    const created = await call(t.app, 'POST', '/api/conversations', {
      token: alice.token,
      body: { conversation_instructions: 'Be brief.' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'STARTING', session_api_key: expect.any(String) });
    const id = created.body?.conversation_id as string;
    expect(created.body?.url).toBe(`http://localhost:3000/api/conversations/${id}`);

    const running = await createRunningFrom(id);
    expect(running).toMatchObject({
      status: 'RUNNING',
      runtime_status: 'STATUS$READY',
      trigger: 'gui',
      title: `Conversation ${id.slice(0, 5)}`,
    });

    await call(t.app, 'POST', `/api/conversations/${id}/save-file`, {
      token: alice.token,
      body: { path: 'notes/todo.md', content: '# To do' },
    });
    const stopped = await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: alice.token });
    expect(stopped.body).toMatchObject({
      status: 'STOPPED',
      runtime_status: 'STATUS$STOPPED',
      url: null,
      session_api_key: null,
    });
    expect(fs.readFileSync(path.join(workspaceOf(id), 'notes/todo.md'), 'utf8')).toBe('# To do');
    expect((await call(t.app, 'GET', `/api/conversations/${id}/list-files`, { token: alice.token })).status).toBe(503);

    const restarted = await call(t.app, 'POST', `/api/conversations/${id}/start`, {
      token: alice.token,
      body: { providers_set: ['github'] },
    });
    expect(restarted.body?.status).toMatch(/STARTING|RUNNING/);
    await createRunningFrom(id);
    const file = await call(t.app, 'GET', `/api/conversations/${id}/select-file?file=notes/todo.md`, {
      token: alice.token,
    });
    expect(file.body).toEqual({ code: '# To do' });
    // RUNNING is stored just before the READY event is: wait for the second READY.
    const history = await waitFor(
      () => call(t.app, 'GET', `/api/conversations/${id}/events?limit=500`, { token: alice.token }),
      (answer) => (answer.body?.events as Event[]).filter((e) => e.status_id === 'STATUS$READY').length === 2,
      10_000,
      'the second READY status',
    );
    const statuses = (history.body?.events as Event[]).map((e) => e.status_id ?? e.extras?.agent_state).reverse();
    expect(statuses).toEqual([
      'STATUS$STARTING_RUNTIME',
      'STATUS$READY',
      // Stopped: the agent, then the conversation.
      'STOPPED',
      'STATUS$STOPPED',
      'STATUS$STARTING_RUNTIME',
      'STATUS$READY',
    ]);
    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: alice.token });
  });

  it('lists only the caller’s conversations, newest first, in pages and by filter', async () => {
    const ids: string[] = [];
    for (const body of [
      { repository: 'acme/web' },
      { repository: 'acme/api' },
      { repository: 'acme/web', create_microagent: true },
    ]) {
      const created = await call(t.app, 'POST', '/api/conversations', { token: bob.token, body });
      ids.push(created.body?.conversation_id as string);
      await call(t.app, 'POST', `/api/conversations/${ids.at(-1)}/stop`, { token: bob.token });
    }
    const first = await call(t.app, 'GET', '/api/conversations?limit=2', { token: bob.token });
    const second = await call(
      t.app,
      'GET',
      `/api/conversations?limit=2&page_id=${first.body?.next_page_id as string}`,
      { token: bob.token },
    );
    const listed = [
      ...(first.body?.results as { conversation_id: string }[]),
      ...(second.body?.results as { conversation_id: string }[]),
    ];
    expect(listed.map((c) => c.conversation_id)).toEqual([...ids].reverse());
    expect(second.body?.next_page_id).toBeNull();
    const web = await call(t.app, 'GET', '/api/conversations?selected_repository=acme/web', { token: bob.token });
    expect((web.body?.results as unknown[]).length).toBe(2);
    const microagent = await call(t.app, 'GET', '/api/conversations?conversation_trigger=microagent_management', {
      token: bob.token,
    });
    expect((microagent.body?.results as { conversation_id: string }[]).map((c) => c.conversation_id)).toEqual([ids[2]]);
    const mine = await call(t.app, 'GET', '/api/conversations?limit=100', { token: alice.token });
    expect((mine.body?.results as { conversation_id: string }[]).some((c) => ids.includes(c.conversation_id))).toBe(
      false,
    );
    expect((await call(t.app, 'GET', `/api/conversations?user_id=${alice.id}`, { token: bob.token })).status).toBe(403);
  });

  it('starts from a suggested task (its repository, provider and prompt), and keeps the pictures of a first message', async () => {
    const firstMessage = async (id: string) =>
      (
        await waitFor(
          () => call(t.app, 'GET', `/api/conversations/${id}/events?limit=100`, { token: alice.token }),
          (answer) => (answer.body?.events as Event[]).some((e) => e.source === 'user' && e.action === 'message'),
          30_000,
          'the first message',
        )
      ).body?.events as Event[];
    const task = {
      git_provider: 'gitlab',
      issue_number: 42,
      repo: 'acme/shop',
      title: 'Checkout button does nothing',
      task_type: 'OPEN_ISSUE',
    };
    const fromTask = (
      await call(t.app, 'POST', '/api/conversations', { token: alice.token, body: { suggested_task: task } })
    ).body?.conversation_id as string;
    expect((await call(t.app, 'GET', `/api/conversations/${fromTask}`, { token: alice.token })).body).toMatchObject({
      selected_repository: 'acme/shop',
      git_provider: 'gitlab',
      trigger: 'suggested_task',
    });
    expect(
      (await firstMessage(fromTask)).find((e) => e.source === 'user' && e.action === 'message')?.args?.content,
    ).toBe(
      'Fix issue #42 ("Checkout button does nothing") in the repository acme/shop on gitlab and open a pull request with the fix.',
    );

    const picture = 'data:image/png;base64,iVBORw0KGgo=';
    const withPicture = (
      await call(t.app, 'POST', '/api/conversations', {
        token: alice.token,
        body: { initial_user_msg: 'What is this?', image_urls: [picture] },
      })
    ).body?.conversation_id as string;
    expect(
      (await firstMessage(withPicture)).find((e) => e.source === 'user' && e.action === 'message')?.args,
    ).toMatchObject({ content: 'What is this?', image_urls: [picture] });
    for (const id of [fromTask, withPicture])
      await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: alice.token });
  });

  it('renames with the title trimmed, 1 to 200 characters, and tells open sockets', async () => {
    const conversation = await createRunning(t.app, alice.token);
    const id = conversation.conversation_id;
    const socket = await SocketClient.open(
      await listen(t.app),
      { conversation_id: id, latest_event_id: -1 },
      { authorization: `Bearer ${alice.token}` },
    );
    const renamed = await call(t.app, 'PATCH', `/api/conversations/${id}`, {
      token: alice.token,
      body: { title: '  Landing page  ' },
    });
    expect(renamed.body?.title).toBe('Landing page');
    await socket.waitFor((s) => s.events.some((e) => e.conversation_title === 'Landing page'), 'the title update');
    for (const title of ['   ', '', 'x'.repeat(201)]) {
      const refused = await call(t.app, 'PATCH', `/api/conversations/${id}`, { token: alice.token, body: { title } });
      expect(refused.status).toBe(422);
      expect(refused.body?.detail).toEqual([
        expect.objectContaining({
          msg: 'The title must be 1 to 200 characters long (spaces at either end do not count)',
        }),
      ]);
    }
    const padded = await call(t.app, 'PATCH', `/api/conversations/${id}`, {
      token: alice.token,
      body: { title: ` ${'y'.repeat(200)} ` },
    });
    expect(padded.body?.title).toBe('y'.repeat(200));
    await socket.close();
    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: alice.token });
  });

  it('answers 404 to another user on every conversation operation and on the socket', async () => {
    const conversation = await createRunning(t.app, alice.token);
    const id = conversation.conversation_id;
    const operations = t.app.operations.filter(
      (op) => op.tag === 'conversations' && op.path.startsWith('/api/conversations/{conversation_id}'),
    );
    expect(operations.length).toBe(24);
    for (const op of operations) {
      const query = new URLSearchParams(
        Object.entries((sample(op.request.querystring) ?? {}) as Record<string, string>),
      );
      const url = op.path.replace('{conversation_id}', id) + (query.size ? `?${query}` : '');
      const multipart = op.request.bodyType === 'multipart/form-data';
      const response = await t.app.http.inject({
        method: op.method as 'GET',
        url,
        headers: {
          authorization: `Bearer ${bob.token}`,
          ...(multipart && { 'content-type': 'multipart/form-data; boundary=x' }),
        },
        ...(op.request.body
          ? { payload: sample(op.request.body) as object }
          : multipart
            ? { payload: '--x--\r\n' }
            : {}),
      });
      expect.soft({ op: op.operationId, status: response.statusCode }).toEqual({ op: op.operationId, status: 404 });
    }
    const socket = await SocketClient.open(
      await listen(t.app),
      { conversation_id: id },
      { authorization: `Bearer ${bob.token}` },
    );
    await socket.waitFor((s) => s.closed !== null, 'the socket to close');
    expect(socket.frames).toEqual([{ error: true, message: 'Conversation not found', error_code: 404 }]);
    expect(socket.closed?.code).toBe(4404);
    // Still there for its owner, untouched.
    expect((await call(t.app, 'GET', `/api/conversations/${id}`, { token: alice.token })).body?.status).toBe('RUNNING');
    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: alice.token });
  });

  it('accepts the session key for that conversation only, and never once stopped', async () => {
    const one = await createRunning(t.app, alice.token);
    const other = await createRunning(t.app, bob.token);
    const key = one.session_api_key as string;
    const ask = (id: string, sessionKey: string) =>
      t.app.http.inject({
        method: 'GET',
        url: `/api/conversations/${id}/web-hosts`,
        headers: { 'x-session-api-key': sessionKey },
      });
    const hosts = await ask(one.conversation_id, key);
    expect(hosts.statusCode).toBe(200);
    // Nothing is served yet (tests/server/conversation-runtime.test.ts serves apps).
    expect(hosts.json().hosts).toEqual([]);
    expect((await ask(other.conversation_id, key)).statusCode).toBe(401);
    expect((await ask(one.conversation_id, 'wrong')).statusCode).toBe(401);
    // Not a per-conversation call: the key is no account credential.
    const list = await t.app.http.inject({
      method: 'GET',
      url: '/api/conversations',
      headers: { 'x-session-api-key': key },
    });
    expect(list.statusCode).toBe(401);
    await call(t.app, 'POST', `/api/conversations/${one.conversation_id}/stop`, { token: alice.token });
    expect((await ask(one.conversation_id, key)).statusCode).toBe(401);
    // The conversation itself answers a stale key with the contract's 403 'Not authenticated'.
    const stale = await t.app.http.inject({
      method: 'GET',
      url: `/api/conversations/${one.conversation_id}`,
      headers: { 'x-session-api-key': key },
    });
    expect({ status: stale.statusCode, body: stale.json() }).toEqual({
      status: 403,
      body: { detail: 'Not authenticated' },
    });
    await call(t.app, 'POST', `/api/conversations/${other.conversation_id}/stop`, { token: bob.token });
  });

  it('works on the real workspace: files, git changes and diff, zip, microagents, prompts and history', async () => {
    const { conversation_id: id } = await createRunning(t.app, alice.token);
    const base = `/api/conversations/${id}`;
    const get = (url: string) => call(t.app, 'GET', `${base}${url}`, { token: alice.token });
    const microagent = '---\nname: testing\ntriggers:\n- test\n---\nRun npm test.\n';
    expect(
      (
        await call(t.app, 'POST', `${base}/save-file`, {
          token: alice.token,
          body: { path: '.openhands/microagents/testing.md', content: microagent },
        })
      ).status,
    ).toBe(200);
    await call(t.app, 'POST', `${base}/save-file`, {
      token: alice.token,
      body: { path: 'src/app.ts', content: 'export {};\n' },
    });
    expect((await get('/list-files')).body).toEqual(['.openhands/', 'src/']);
    expect((await get('/list-files?path=src')).body).toEqual(['app.ts']);
    expect((await get('/list-files?path=../..')).status).toBe(400);
    expect((await get('/select-file?file=../../secret.key')).status).toBe(400);
    expect((await get('/select-file?file=missing.txt')).status).toBe(404);
    expect(
      (
        await call(t.app, 'POST', `${base}/save-file`, {
          token: alice.token,
          body: { path: '../escape.txt', content: 'x' },
        })
      ).status,
    ).toBe(400);
    expect((await get('/git/changes')).body).toEqual(
      expect.arrayContaining([
        { path: 'src/app.ts', status: 'U' },
        { path: '.openhands/microagents/testing.md', status: 'U' },
      ]),
    );
    expect((await get('/git/diff?path=src/app.ts')).body).toEqual({ original: '', modified: 'export {};\n' });
    expect((await get('/microagents')).body).toEqual({
      microagents: [{ name: 'testing', type: 'knowledge', triggers: ['test'], content: 'Run npm test.' }],
    });

    const zip = await t.app.http.inject({
      method: 'GET',
      url: `${base}/zip-directory`,
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.rawPayload.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zip.rawPayload.includes(Buffer.from('src/app.ts'))).toBe(true);

    expect((await get('/config')).body).toEqual({ runtime_id: id, session_id: id });
    expect((await get('/vscode-url')).body).toEqual({ vscode_url: null });
    const trajectory = (await get('/trajectory')).body?.trajectory as Event[];
    expect(trajectory.map((e) => e.id)).toEqual(trajectory.map((_, i) => i));
    const newest = (await get('/events?limit=1')).body;
    expect(newest).toMatchObject({ has_more: true, events: [{ id: trajectory.length - 1 }] });
    expect((await get(`/events?before_id=1`)).body).toMatchObject({ has_more: false, events: [{ id: 0 }] });
    const prompt = await get('/remember-prompt?event_id=0');
    expect(prompt.body?.prompt).toContain('.openhands/microagents/');
    expect((await get('/remember-prompt?event_id=9999')).status).toBe(404);

    expect((await call(t.app, 'DELETE', base, { token: alice.token })).body).toEqual({ success: true });
    expect(fs.existsSync(workspaceOf(id))).toBe(false);
    expect((await get('')).status).toBe(404);
    expect((await get('/events')).status).toBe(404);
  });

  it('refuses a user_id that is not the caller’s, an invalid replay and a 6th running conversation', async () => {
    expect(
      (await call(t.app, 'POST', '/api/conversations', { token: alice.token, body: { user_id: bob.id } })).status,
    ).toBe(403);
    const badReplay = await call(t.app, 'POST', '/api/conversations', {
      token: alice.token,
      body: { replay_json: '{"trajectory": [{"id": "x"}]}' },
    });
    expect(badReplay.status).toBe(422);
    const carol = await signUp(t.app, t.db, 'carol@acme.example');
    // Five that run (a runtime that failed to start would not count, and would say why here).
    const ids = (await Promise.all(Array.from({ length: 5 }, () => createRunning(t.app, carol.token)))).map(
      (conversation) => conversation.conversation_id,
    );
    const sixth = await call(t.app, 'POST', '/api/conversations', { token: carol.token, body: {} });
    expect(sixth.status).toBe(429);
    expect(sixth.body?.detail).toContain('At most 5 conversations');
    await Promise.all(ids.map((id) => call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: carol.token })));
  });
});

async function createRunningFrom(id: string) {
  const found = await waitFor(
    () => call(t.app, 'GET', `/api/conversations/${id}`, { token: alice.token }),
    (r) => r.body?.status === 'RUNNING',
    30_000,
  );
  return found.body;
}
