import { beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, listen, signUp, SocketClient } from '../support/conversations.ts';
import type { Event } from '../../openapi/types.ts';

// One user's 50 sockets for the fan-out figure, with others of earlier tests still closing: past the hosted per-user limit.
const t = withTestApp({ SOCKETS_PER_USER: '500' });
let user: { token: string; id: string };
let baseUrl: string;
const auth = () => ({ authorization: `Bearer ${user.token}` });

beforeAll(async () => {
  user = await signUp(t.app, t.db, 'socket@acme.example');
  baseUrl = await listen(t.app);
});

/** A stopped conversation: events can still be appended to it (the producer in the replay tests). */
async function stoppedConversation() {
  const created = await call(t.app, 'POST', '/api/conversations', { token: user.token, body: {} });
  const id = created.body?.conversation_id as string;
  await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: user.token });
  return id;
}

const emit = (id: string, n: number) =>
  t.app.modules.conversations.manager.emit(id, {
    source: 'agent',
    action: 'message',
    message: `event ${n}`,
    args: { content: `event ${n}` },
  });

async function allEvents(id: string): Promise<Event[]> {
  return (await call(t.app, 'GET', `/api/conversations/${id}/trajectory`, { token: user.token })).body
    ?.trajectory as Event[];
}

describe('the conversation socket', () => {
  it('refuses bad credentials with error_code 401', async () => {
    const id = await stoppedConversation();
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }] as Record<string, string>[]) {
      const socket = await SocketClient.open(baseUrl, { conversation_id: id }, headers);
      await socket.waitFor((s) => s.closed !== null);
      expect(socket.frames).toEqual([{ error: true, message: 'Session expired.', error_code: 401 }]);
      expect(socket.closed?.code).toBe(4401);
    }
    const unknown = await SocketClient.open(baseUrl, { conversation_id: 'no-such-conversation' }, auth());
    await unknown.waitFor((s) => s.closed !== null);
    expect(unknown.frames).toEqual([{ error: true, message: 'Conversation not found', error_code: 404 }]);
  });

  it('runs terminal commands in the conversation’s shell and streams the same events to every socket', async () => {
    const conversation = await createRunning(t.app, user.token);
    const query = { conversation_id: conversation.conversation_id, latest_event_id: -1 };
    const viaToken = await SocketClient.open(baseUrl, { ...query, auth_token: user.token });
    const viaKey = await SocketClient.open(baseUrl, {
      ...query,
      session_api_key: conversation.session_api_key as string,
    });
    viaToken.send({ action: 'run', args: { command: 'cd /tmp 2>/dev/null; echo "hello-$((6*7))"', hidden: true } });
    const observed = await viaKey.waitFor((s) => s.events.some((e) => e.observation === 'run'), 'the run observation');
    const action = observed.events.find((e) => e.action === 'run');
    const observation = observed.events.find((e) => e.observation === 'run');
    expect(action).toMatchObject({ source: 'user', args: { command: expect.stringContaining('hello'), hidden: true } });
    expect(observation).toMatchObject({ cause: action?.id, extras: { hidden: true, metadata: { exit_code: 0 } } });
    expect(observation?.content).toContain('hello-42');
    await viaToken.waitFor((s) => s.events.length === viaKey.events.length);
    expect(viaToken.events).toEqual(viaKey.events);

    viaToken.send({ action: 'run', args: { command: 'exit_code_test() { return 3; }; exit_code_test' } });
    await viaToken.waitFor((s) => s.events.filter((e) => e.observation === 'run').length === 2);
    expect(viaToken.events.filter((e) => e.observation === 'run')[1]?.extras?.metadata?.exit_code).toBe(3);
    await Promise.all([viaToken.close(), viaKey.close()]);
    await call(t.app, 'POST', `/api/conversations/${conversation.conversation_id}/stop`, { token: user.token });
  });

  it('sends what is typed while a terminal command runs to that command', { timeout: 60_000 }, async () => {
    const conversation = await createRunning(t.app, user.token);
    const socket = await SocketClient.open(baseUrl, { conversation_id: conversation.conversation_id }, auth());
    const runs = () => socket.events.filter((e) => e.observation === 'run');
    socket.send({ action: 'run', args: { command: 'read -r line; echo "got:$line"' } });
    await socket.waitFor(() => runs().length === 1, 'the command to be left running', 30_000);
    expect(runs()[0]?.extras?.metadata?.exit_code).toBe(-1);
    socket.send({ action: 'run', args: { command: 'hello' } });
    socket.send({ action: 'run', args: { command: 'echo after' } });
    await socket.waitFor(() => runs().length === 3, 'the input and the next command', 30_000);
    expect(runs()[1]).toMatchObject({
      content: expect.stringContaining('got:hello'),
      extras: { metadata: { exit_code: 0 } },
    });
    expect(runs()[2]).toMatchObject({ content: 'after', extras: { metadata: { exit_code: 0 } } });
    await socket.close();
    await call(t.app, 'POST', `/api/conversations/${conversation.conversation_id}/stop`, { token: user.token });
  });

  it('answers invalid frames with an error frame and keeps the socket open', async () => {
    const conversation = await createRunning(t.app, user.token);
    const socket = await SocketClient.open(baseUrl, { conversation_id: conversation.conversation_id }, auth());
    socket.ws.send('not json');
    socket.send({ action: 'run', args: {} });
    socket.send({ action: 'launch_missiles', args: {} });
    await socket.waitFor((s) => s.frames.filter((f) => f.error).length === 3, 'three error frames');
    expect(socket.frames.filter((f) => f.error)).toEqual([
      { error: true, message: 'Frames must be JSON' },
      { error: true, message: expect.stringMatching(/^Invalid action: .*command/) },
      { error: true, message: expect.stringMatching(/^Invalid action/) },
    ]);
    // Without an agent (this app has none), the host records the message itself.
    socket.send({ action: 'message', args: { content: 'Hello there' }, id: 'client-1' });
    await socket.waitFor((s) => s.events.some((e) => e.action === 'message'));
    expect(socket.events.find((e) => e.action === 'message')).toMatchObject({
      source: 'user',
      message: 'Hello there',
      args: { content: 'Hello there' },
    });
    socket.send({ action: 'user_authenticated', args: { auth_method: 'login' } });
    await call(t.app, 'POST', `/api/conversations/${conversation.conversation_id}/stop`, { token: user.token });
    // A message to the stopped conversation starts it again and is delivered once it runs.
    socket.send({ action: 'message', args: { content: 'Anyone?' } });
    await socket.waitFor(
      (s) => s.events.some((e) => e.action === 'message' && e.message === 'Anyone?'),
      'the message after the restart',
    );
    const events = socket.events;
    const stoppedAt = events.findIndex((e) => e.status_id === 'STATUS$STOPPED');
    const readyAgain = events.findIndex((e, i) => i > stoppedAt && e.status_id === 'STATUS$READY');
    expect(stoppedAt).toBeGreaterThan(-1);
    expect(readyAgain).toBeGreaterThan(stoppedAt);
    expect(events.findIndex((e) => e.message === 'Anyone?')).toBeGreaterThan(readyAgain);
    expect(socket.frames.filter((f) => f.error)).toHaveLength(3);
    expect(
      (await call(t.app, 'GET', `/api/conversations/${conversation.conversation_id}`, { token: user.token })).body,
    ).toMatchObject({ status: 'RUNNING' });
    socket.send({ action: 'generic_rewind', args: { reason: 'signup cancelled' } });
    await socket.waitFor((s) => s.events.some((e) => e.status_id === 'STATUS$REWIND_SUCCESS'));
    await socket.close();
  });

  it('sends events and errors as text frames (a browser would read a binary frame as a Blob)', async () => {
    const id = await stoppedConversation();
    const socket = await SocketClient.open(baseUrl, { conversation_id: id }, auth());
    const binary: boolean[] = [];
    socket.ws.on('message', (_data, isBinary) => binary.push(isBinary));
    await emit(id, 1);
    socket.ws.send('not json');
    await socket.waitFor(
      (s) => s.frames.some((f) => f.error) && s.events.some((e) => e.message === 'event 1'),
      'the live event and the error frame',
    );
    expect(binary.length).toBeGreaterThanOrEqual(2);
    expect(binary.every((isBinary) => !isBinary)).toBe(true);
    await socket.close();
  });

  it('replays history after latest_event_id: 100 reconnects during a stream end with exactly the server’s events', async () => {
    const id = await stoppedConversation();
    const total = 1500;
    let produced = 0;
    const producer = (async () => {
      for (; produced < total; produced++) {
        await emit(id, produced);
        if (produced % 10 === 0) await new Promise((r) => setTimeout(r, 1));
      }
    })();
    const received: Event[] = [];
    const latest = () => received.at(-1)?.id ?? -1;
    for (let i = 0; i < 100; i++) {
      const socket = await SocketClient.open(baseUrl, { conversation_id: id, latest_event_id: latest() }, auth());
      // Leave after a varying number of new events, or at once, so reconnects land anywhere.
      const want = i % 7;
      await socket.waitFor((s) => s.events.length >= want || produced >= total, 'some events', 20_000);
      await socket.close();
      received.push(...socket.events);
    }
    await producer;
    const last = await SocketClient.open(baseUrl, { conversation_id: id, latest_event_id: latest() }, auth());
    const server = await allEvents(id);
    await last.waitFor((s) => (s.events.at(-1)?.id ?? latest()) === server.at(-1)?.id, 'the rest of the stream');
    received.push(...last.events);
    await last.close();
    expect(received.map((e) => e.id)).toEqual(server.map((e) => e.id));
    expect(received).toEqual(server);
    expect(server.filter((e) => e.message?.startsWith('event ')).length).toBe(total);
  });

  it('measures replay speed and fan-out latency to many sockets', async () => {
    const id = await stoppedConversation();
    const history = 3000;
    await t.app.modules.conversations.events.append(
      id,
      Array.from({ length: history }, (_, n) => ({
        source: 'agent' as const,
        action: 'message' as const,
        message: `old ${n}`,
        args: { content: `old ${n}` },
      })),
    );
    const stored = (await allEvents(id)).length;
    const replayStarted = performance.now();
    const fresh = await SocketClient.open(baseUrl, { conversation_id: id, latest_event_id: -1 }, auth());
    await fresh.waitFor((s) => s.events.length === stored, 'the whole history');
    const replayMs = performance.now() - replayStarted;
    await fresh.close();

    const sockets = await Promise.all(
      Array.from({ length: 50 }, () =>
        SocketClient.open(baseUrl, { conversation_id: id, latest_event_id: stored - 1 }, auth()),
      ),
    );
    const latencies: number[] = [];
    for (let round = 0; round < 20; round++) {
      const started = performance.now();
      const event = await emit(id, round);
      await Promise.all(sockets.map((s) => s.waitFor((c) => c.events.some((e) => e.id === event.id))));
      const arrived = sockets.map((s) => s.arrivals[s.frames.findIndex((f) => f.data?.id === event.id)] as number);
      latencies.push(Math.max(...arrived) - started);
    }
    await Promise.all(sockets.map((s) => s.close()));
    latencies.sort((a, b) => a - b);
    const median = latencies[Math.floor(latencies.length / 2)] as number;
    console.log(
      `replay: ${stored} events in ${replayMs.toFixed(0)} ms (${Math.round(stored / (replayMs / 1000))} events/s); ` +
        `fan-out to 50 sockets (persist + notify + deliver): median ${median.toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms`,
    );
    expect(median).toBeLessThan(1000);
  });
});
