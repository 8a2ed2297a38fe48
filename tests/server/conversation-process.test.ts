import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.ts';
import { waitFor, type Conversation, type Event } from '../support/conversations.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ mode: 'oss' });
});
afterAll(() => server?.destroy());

async function api<T = Record<string, unknown>>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const conversation = (id: string) => api<Conversation>('GET', `/api/conversations/${id}`);
const trajectory = async (id: string) => (await api<{ trajectory: Event[] }>('GET', `/api/conversations/${id}/trajectory`)).trajectory;
const running = (id: string) => waitFor(() => conversation(id), (c) => c.status === 'RUNNING', 30_000, 'the conversation to run');
const workspace = (id: string) => path.join(server.database.dataDir, 'workspaces', id);

/** A long recorded session: commands that write files, so the crash lands in the middle of it. */
function longTrajectory(steps: number): Event[] {
  const at = '2026-01-01T00:00:00Z';
  return Array.from({ length: steps }, (_, n) => ({
    id: n,
    timestamp: at,
    source: 'agent' as const,
    action: 'run' as const,
    message: `step ${n}`,
    args: { command: `echo ${n} >> steps.txt` },
  }));
}

describe('conversations across server restarts', () => {
  it('keeps every event written before a kill -9, and the conversation starts again', async () => {
    const created = await api<{ conversation_id: string }>('POST', '/api/conversations', { replay_json: JSON.stringify(longTrajectory(400)) });
    const id = created.conversation_id;
    // Kill while the replay is writing events.
    const seen = await waitFor(() => trajectory(id), (events) => events.length >= 60, 30_000, 'the replay to be under way');
    await server.crash();
    await server.restart();

    const after = await trajectory(id);
    expect(after.length).toBeGreaterThanOrEqual(seen.length);
    expect(after.slice(0, seen.length)).toEqual(seen);
    expect(after.map((e) => e.id)).toEqual(after.map((_, i) => i));
    const replayed = after.filter((e) => e.observation === 'run').length;
    expect(replayed).toBeLessThan(400);
    expect(await conversation(id)).toMatchObject({ status: 'STOPPED', runtime_status: 'STATUS$STOPPED', url: null });
    expect(after.at(-1)).toMatchObject({ status_update: true, status_id: 'STATUS$STOPPED' });
    const lines = fs.readFileSync(path.join(workspace(id), 'steps.txt'), 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(replayed);

    await api('POST', `/api/conversations/${id}/start`);
    await running(id);
    expect((await api<{ code: string }>('GET', `/api/conversations/${id}/select-file?file=steps.txt`)).code.trim().split('\n').length).toBe(lines.length);
    const resumed = await trajectory(id);
    expect(resumed.slice(0, after.length)).toEqual(after);
    expect(resumed.map((e) => e.id)).toEqual(resumed.map((_, i) => i));
    await api('POST', `/api/conversations/${id}/stop`);
  });

  it('leaves running conversations STOPPED after a graceful restart, with history and workspace', async () => {
    const created = await api<{ conversation_id: string }>('POST', '/api/conversations', {});
    const id = created.conversation_id;
    await running(id);
    await api('POST', `/api/conversations/${id}/save-file`, { path: 'kept.txt', content: 'still here' });
    const before = await trajectory(id);
    await server.restart();

    expect(await conversation(id)).toMatchObject({ status: 'STOPPED', session_api_key: null });
    const after = await trajectory(id);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(fs.readFileSync(path.join(workspace(id), 'kept.txt'), 'utf8')).toBe('still here');
    await api('POST', `/api/conversations/${id}/start`);
    await running(id);
    expect(await api('GET', `/api/conversations/${id}/select-file?file=kept.txt`)).toEqual({ code: 'still here' });
    await api('POST', `/api/conversations/${id}/stop`);
  });
});
