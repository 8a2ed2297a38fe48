import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SocketClient, waitFor } from '../support/conversations.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import type { Conversation, Event } from '../../openapi/types.ts';

/**
 * Two nodes of one installation on one PostgreSQL database (ARCHITECTURE.md §8): events fan
 * out through LISTEN/NOTIFY, and actions sent to either node reach the node that runs the
 * conversation. Runs in the PostgreSQL pass only (vitest.config.ts): PGlite is embedded in
 * a single process by nature.
 */
let a: RunningServer;
let b: RunningServer;
beforeAll(async () => {
  a = await startServer({ mode: 'oss' });
  b = await startServer({ mode: 'oss', database: a.database });
});
afterAll(async () => {
  await b?.destroy();
  await a?.destroy();
});

async function api<T = Record<string, unknown>>(
  node: RunningServer,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${node.url}${url}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

describe('two server processes on one database', () => {
  it('share one event stream, and either node’s socket reaches the conversation’s runtime', async () => {
    const created = await api<{ conversation_id: string }>(a, 'POST', '/api/conversations', {});
    const id = created.body.conversation_id;
    await waitFor(
      () => api<Conversation>(b, 'GET', `/api/conversations/${id}`),
      (r) => r.body.status === 'RUNNING',
      30_000,
      'RUNNING as seen from b',
    );

    const onA = await SocketClient.open(a.url, { conversation_id: id, latest_event_id: -1 });
    const onB = await SocketClient.open(b.url, { conversation_id: id, latest_event_id: -1 });
    onB.send({ action: 'run', args: { command: 'echo "from b: $((20+22))"', hidden: false } });
    onA.send({ action: 'run', args: { command: 'echo "from a"', hidden: false } });
    const outputs = (s: SocketClient) => s.events.filter((e) => e.observation === 'run').map((e) => e.content ?? '');
    await onA.waitFor((s) => outputs(s).length === 2, 'both outputs on a');
    await onB.waitFor((s) => outputs(s).length === 2, 'both outputs on b');
    expect(outputs(onA).join('\n')).toContain('from b: 42');
    expect(outputs(onB).join('\n')).toContain('from a');
    expect(onB.events).toEqual(onA.events);

    // Events written by a reach a socket on b that joins later, replayed then live.
    const late = await SocketClient.open(b.url, { conversation_id: id, latest_event_id: onA.events.at(-1)?.id ?? -1 });
    onA.send({ action: 'run', args: { command: 'echo late' } });
    await late.waitFor(
      (s) => s.events.some((e: Event) => e.observation === 'run' && e.content?.includes('late') === true),
      'the late output on b',
    );

    // The runtime lives on a; b passes the calls that need it on: answers, binary downloads
    // and streamed uploads are the same through either node.
    const onBoth = async (url: string) =>
      Promise.all(
        [a, b].map((node) =>
          fetch(`${node.url}${url}`).then(async (r) => ({
            status: r.status,
            type: r.headers.get('content-type'),
            body: Buffer.from(await r.arrayBuffer()),
          })),
        ),
      );
    const [filesOnA, filesOnB] = await onBoth(`/api/conversations/${id}/list-files`);
    expect(filesOnA?.status).toBe(200);
    expect(filesOnB).toEqual(filesOnA);
    const form = new FormData();
    form.append('files', new Blob(['sent through b\n']), 'via-b.txt');
    const uploaded = await fetch(`${b.url}/api/conversations/${id}/upload-files`, { method: 'POST', body: form });
    expect(await uploaded.json()).toEqual({ uploaded_files: ['via-b.txt'], skipped_files: [] });
    const selected = await api<{ code: string }>(a, 'GET', `/api/conversations/${id}/select-file?file=via-b.txt`);
    expect(selected.body.code).toBe('sent through b\n');
    const [zipOnA, zipOnB] = await onBoth(`/api/conversations/${id}/zip-directory`);
    expect(zipOnB?.status).toBe(200);
    expect(zipOnB?.type).toBe('application/zip');
    expect(zipOnB?.body.length).toBe(zipOnA?.body.length);
    // Bad input is refused by the owner just as it is locally.
    expect((await api(b, 'GET', `/api/conversations/${id}/list-files?path=../..`)).status).toBe(400);

    // A terminal opened and typed into through b runs on a: its socket is passed on too.
    const terminal = await api<{ id: string }>(b, 'POST', `/api/conversations/${id}/terminals`, { cols: 80, rows: 24 });
    expect(terminal.status).toBe(201);
    const keys = new WebSocket(
      `${b.url.replace(/^http/, 'ws')}/terminal?conversation_id=${id}&terminal_id=${terminal.body.id}`,
    );
    let shown = '';
    keys.on('message', (data) => (shown += (JSON.parse(String(data)) as { data?: string }).data ?? ''));
    keys.on('open', () => keys.send(JSON.stringify({ type: 'input', data: 'echo via-b-$((40+2))\r' })));
    await waitFor(
      () => shown,
      (text) => text.includes('via-b-42'),
      10_000,
      'the terminal output through b',
    );
    keys.close();

    // b can stop it.
    expect((await api<Conversation>(b, 'POST', `/api/conversations/${id}/stop`)).body.status).toBe('STOPPED');
    await onA.waitFor((s) => s.events.some((e) => e.status_id === 'STATUS$STOPPED'), 'the stop on a');
    await waitFor(
      () => api(a, 'GET', `/api/conversations/${id}/list-files`),
      (r) => r.status === 503,
      10_000,
      'a to release the runtime',
    );
    expect((await api<{ detail: string }>(b, 'GET', `/api/conversations/${id}/list-files`)).body.detail).toBe(
      'The conversation is not running; start it first.',
    );
    await Promise.all([onA.close(), onB.close(), late.close()]);
  });
});

describe('settings saved on another node', () => {
  const llm = new FakeLlm('fake-model');
  afterAll(() => llm.stop());

  it('reach the agent running on this node from its next step: the notice crosses to its cached settings', async () => {
    const llmUrl = await llm.start();
    const saveKey = (node: RunningServer, key: string) =>
      api(node, 'POST', '/api/settings', { llm_model: 'openai/fake-model', llm_base_url: llmUrl, llm_api_key: key });
    const finish = (message: string) =>
      reply.toolCall('finish', { message, task_completed: 'true' }, { when: withTools });
    const keysSince = (from: number) =>
      llm.requests
        .slice(from)
        .filter((r) => r.path === '/v1/chat/completions')
        .map((r) => r.headers.authorization);
    await saveKey(a, 'key-one');
    llm.enqueue(reply.text('Keys', { when: withoutTools }), finish('First done.'));
    const created = await api<{ conversation_id: string }>(a, 'POST', '/api/conversations', {
      initial_user_msg: 'First',
    });
    const id = created.body.conversation_id;
    const socket = await SocketClient.open(a.url, { conversation_id: id, latest_event_id: -1 });
    const finished = (count: number) => (s: SocketClient) =>
      s.events.filter((e) => e.action === 'finish').length === count;
    await socket.waitFor(finished(1), 'the first answer', 30_000);
    expect(keysSince(0)).toContain('Bearer key-one');

    const savedAt = llm.requests.length;
    await saveKey(b, 'key-two');
    // The notice travels through NOTIFY after the save's answer: it takes milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    llm.enqueue(finish('Second done.'));
    socket.send({ action: 'message', args: { content: 'Second' } });
    await socket.waitFor(finished(2), 'the second answer', 30_000);
    expect(new Set(keysSince(savedAt))).toEqual(new Set(['Bearer key-two']));
    await socket.close();
    await api(a, 'POST', `/api/conversations/${id}/stop`);
  });
});

describe('a node that dies', () => {
  let c: RunningServer;
  let d: RunningServer;
  // Short leases so that the test waits seconds, not the default 30 s.
  const env = { CONVERSATION_LEASE_SECONDS: '4' };
  beforeAll(async () => {
    c = await startServer({ mode: 'oss', env });
    d = await startServer({ mode: 'oss', env, database: c.database });
  });
  afterAll(async () => {
    await d?.destroy();
    await c?.destroy();
  });

  it('keeps its conversations until its lease runs out; then another node marks them stopped and can start them again', async () => {
    const id = (await api<{ conversation_id: string }>(c, 'POST', '/api/conversations', {})).body.conversation_id;
    await waitFor(
      () => api<Conversation>(c, 'GET', `/api/conversations/${id}`),
      (r) => r.body.status === 'RUNNING',
      30_000,
      'RUNNING on c',
    );
    const onC = await SocketClient.open(c.url, { conversation_id: id, latest_event_id: -1 });
    onC.send({ action: 'run', args: { command: 'echo before > kept.txt && cat kept.txt' } });
    await onC.waitFor(
      (s) => s.events.some((e) => e.observation === 'run' && e.content?.includes('before') === true),
      'the command on c',
    );
    await onC.close();
    const before = (await api<{ events: Event[] }>(d, 'GET', `/api/conversations/${id}/events?limit=100`)).body.events;

    await c.crash();
    // The lease is still live: d does not take the conversation over, and cannot reach its runtime.
    const early = await api<Conversation>(d, 'POST', `/api/conversations/${id}/start`, {});
    expect(early.body.status).toBe('RUNNING');
    expect((await api<{ detail: string }>(d, 'GET', `/api/conversations/${id}/list-files`)).body).toEqual({
      detail: 'The server running this conversation cannot be reached; try again in a moment.',
    });

    // Once it runs out, d marks the conversation stopped and says why in its history.
    await waitFor(
      () => api<Conversation>(d, 'GET', `/api/conversations/${id}`),
      (r) => r.body.status === 'STOPPED',
      20_000,
      'STOPPED after the lease',
    );
    const afterExpiry = (
      await waitFor(
        () => api<{ events: Event[] }>(d, 'GET', `/api/conversations/${id}/events?limit=100`),
        (r) => r.body.events[0]?.status_id === 'STATUS$STOPPED',
        10_000,
        'the stop in the history',
      )
    ).body.events;
    expect(afterExpiry[0]).toMatchObject({
      status_id: 'STATUS$STOPPED',
      message: 'The server running this conversation stopped answering; the conversation was stopped.',
    });
    // Its agent is stopped too, so no chat shows it at work.
    expect(afterExpiry[1]).toMatchObject({ observation: 'agent_state_changed', extras: { agent_state: 'STOPPED' } });
    expect(afterExpiry.slice(2)).toEqual(before);

    // Started again on d, with its history and workspace.
    expect((await api<Conversation>(d, 'POST', `/api/conversations/${id}/start`, {})).body.status).toBe('STARTING');
    await waitFor(
      () => api<Conversation>(d, 'GET', `/api/conversations/${id}`),
      (r) => r.body.status === 'RUNNING',
      30_000,
      'RUNNING on d',
    );
    const files = await api<string[]>(d, 'GET', `/api/conversations/${id}/list-files`);
    expect(files.status).toBe(200);
    expect(files.body).toContain('kept.txt');
    await api(d, 'POST', `/api/conversations/${id}/stop`);
  }, 90_000);
});
