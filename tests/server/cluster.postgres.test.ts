import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SocketClient, waitFor, type Conversation, type Event } from '../support/conversations.ts';
import { startServer, type RunningServer } from '../support/server.ts';

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

async function api<T = Record<string, unknown>>(node: RunningServer, method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
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
    await waitFor(() => api<Conversation>(b, 'GET', `/api/conversations/${id}`), (r) => r.body.status === 'RUNNING', 30_000, 'RUNNING as seen from b');

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
    await late.waitFor((s) => s.events.some((e: Event) => e.observation === 'run' && e.content?.includes('late') === true), 'the late output on b');

    // The runtime lives on a: b says so for workspace calls, and can still stop it.
    expect((await api(b, 'GET', `/api/conversations/${id}/list-files`)).status).toBe(503);
    expect((await api(a, 'GET', `/api/conversations/${id}/list-files`)).status).toBe(200);
    expect((await api<Conversation>(b, 'POST', `/api/conversations/${id}/stop`)).body.status).toBe('STOPPED');
    await onA.waitFor((s) => s.events.some((e) => e.status_id === 'STATUS$STOPPED'), 'the stop on a');
    await waitFor(() => api(a, 'GET', `/api/conversations/${id}/list-files`), (r) => r.status === 503, 10_000, 'a to release the runtime');
    await Promise.all([onA.close(), onB.close(), late.close()]);
  });
});
