import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, titleReply } from '../agent/scenario.ts';
import { FakeLlm, reply, withTools } from '../support/fake-llm/index.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { isAgentState, SocketClient, waitFor } from '../support/conversations.ts';
import type { Conversation, Event } from '../../openapi/types.ts';

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
const trajectory = async (id: string) =>
  (await api<{ trajectory: Event[] }>('GET', `/api/conversations/${id}/trajectory`)).trajectory;
const running = (id: string) =>
  waitFor(
    () => conversation(id),
    (c) => c.status === 'RUNNING',
    30_000,
    'the conversation to run',
  );
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
    const created = await api<{ conversation_id: string }>('POST', '/api/conversations', {
      replay_json: JSON.stringify(longTrajectory(400)),
    });
    const id = created.conversation_id;
    // Kill while the replay is writing events.
    const seen = await waitFor(
      () => trajectory(id),
      (events) => events.length >= 60,
      30_000,
      'the replay to be under way',
    );
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
    const lines = fs
      .readFileSync(path.join(workspace(id), 'steps.txt'), 'utf8')
      .trim()
      .split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(replayed);

    await api('POST', `/api/conversations/${id}/start`);
    await running(id);
    expect(
      (await api<{ code: string }>('GET', `/api/conversations/${id}/select-file?file=steps.txt`)).code
        .trim()
        .split('\n').length,
    ).toBe(lines.length);
    const resumed = await trajectory(id);
    expect(resumed.slice(0, after.length)).toEqual(after);
    expect(resumed.map((e) => e.id)).toEqual(resumed.map((_, i) => i));
    await api('POST', `/api/conversations/${id}/stop`);
  });

  it('keeps every event of an agent run killed with -9; started again, the agent goes on from that history', async () => {
    const before = new FakeLlm();
    const after = new FakeLlm();
    const useModel = async (llm: FakeLlm) =>
      api('POST', '/api/settings', {
        llm_model: 'openai/fake-model',
        llm_base_url: await llm.start(),
        llm_api_key: 'fake-key',
      });
    try {
      await useModel(before);
      // Paced steps, so the kill lands in the middle of the run.
      before.enqueue(
        titleReply,
        ...Array.from({ length: 40 }, (_, n) =>
          reply.toolCall('execute_bash', { command: `echo ${n} >> count.txt` }, { when: withTools, delayMs: 40 }),
        ),
      );
      const { conversation_id: id } = await api<{ conversation_id: string }>('POST', '/api/conversations', {
        initial_user_msg: 'Count to forty in count.txt',
      });
      const seen = await waitFor(
        () => trajectory(id),
        (events) => events.filter((e) => e.observation === 'run').length >= 5,
        30_000,
        'the agent to be under way',
      );
      await server.crash();
      await server.restart();

      const kept = await trajectory(id);
      expect(kept.slice(0, seen.length)).toEqual(seen);
      expect(kept.map((e) => e.id)).toEqual(kept.map((_, i) => i));
      const commands = kept.filter((e) => e.action === 'run' && e.source === 'agent');
      const results = kept.filter((e) => e.observation === 'run');
      expect(results.length).toBeLessThan(40);
      const lines = fs
        .readFileSync(path.join(workspace(id), 'count.txt'), 'utf8')
        .trim()
        .split('\n');
      expect(lines.length).toBeGreaterThanOrEqual(results.length);
      expect(await conversation(id)).toMatchObject({ status: 'STOPPED' });
      // The history ends saying so, so a chat that reconnects shows no agent at work: the agent stopped, then the conversation.
      expect(kept.slice(-2).map((e) => e.extras?.agent_state ?? e.status_id)).toEqual(['STOPPED', 'STATUS$STOPPED']);
      const costBefore = kept.findLast((e) => e.llm_metrics)?.llm_metrics?.accumulated_cost ?? 0;
      expect(costBefore).toBeGreaterThan(0);

      // Another model answers from now on; the agent of the restarted conversation asks it with the whole story.
      await useModel(after);
      after.enqueue(finishReply);
      await api('POST', `/api/conversations/${id}/start`);
      await running(id);
      const socket = await SocketClient.open(server.url, {
        conversation_id: id,
        latest_event_id: kept.at(-1)?.id ?? -1,
      });
      await socket.waitFor((s) => s.events.some(isAgentState('AWAITING_USER_INPUT')), 'the agent to be ready', 30_000);
      socket.send({ action: 'message', args: { content: 'Go on' } });
      await socket.waitFor((s) => s.events.some(isAgentState('FINISHED')), 'the task to finish', 30_000);
      await socket.close();

      const [request] = after.completions;
      const calls = (request?.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : [])) ?? []) as {
        id: string;
      }[];
      expect(calls.map((call) => call.id)).toEqual(
        commands.map((e) => (e.args?.tool_call_metadata as { tool_call_id: string }).tool_call_id),
      );
      const userTexts = request?.messages.filter((m) => m.role === 'user').map((m) => m.content) ?? [];
      expect(userTexts[0]).toBe('Count to forty in count.txt');
      expect(userTexts.at(-1)).toBe('Go on');
      const finished = await trajectory(id);
      expect(finished.slice(0, kept.length)).toEqual(kept);
      // The workspace context was recalled once, for the first message, not again after the restart.
      expect(
        finished.filter((e) => e.observation === 'recall' && e.extras?.recall_type === 'workspace_context'),
      ).toHaveLength(1);
      // Metrics go on from the restored total instead of starting again at zero.
      expect(finished.at(-1)?.llm_metrics?.accumulated_cost).toBeGreaterThan(costBefore);
      await api('POST', `/api/conversations/${id}/stop`);
    } finally {
      await before.stop();
      await after.stop();
    }
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
