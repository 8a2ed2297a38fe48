import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFactory } from '../../server/agent/index.ts';
import { forkTitle } from '../../server/modules/conversations/service.ts';
import { call, withTestApp } from '../support/app.ts';
import { listen, signUp, SocketClient, waitRunning } from '../support/conversations.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import type { Conversation, Event } from '../../openapi/types.ts';

/** Forks of a conversation whose agent (the real one, on a fake model) changes its workspace in ten steps. */
const test = withTestApp({ APP_MODE: 'oss', MAX_RUNNING_CONVERSATIONS_PER_USER: '3' }, { agentFactory });
const llm = new FakeLlm('fake-model');
let baseUrl: string;

/** Each step prints every file of the workspace after it, as `path:text` lines: what the runtime saw then. */
const SHOW_FILES =
  '; echo ===; find . -path ./.git -prune -o -type f -print | sort | while read -r f; do echo "${f#./}:$(cat "$f")"; done';
const STEPS = [
  'mkdir -p src && echo one > src/a.txt',
  'echo two > b.txt',
  'echo changed >> src/a.txt',
  'rm b.txt',
  'git add -A && git commit -qm first',
  'echo three > c.txt && mv src/a.txt src/renamed.txt',
  'git checkout -qb feature',
  'echo four > d.txt && git add d.txt',
  'rm -r src',
  'echo five > e.txt && git commit -qam second',
];

const workspaceOf = (id: string) => path.join(test.database.dataDir, 'workspaces', id);

/** The workspace's files (git's own left out) in the steps' `path:text` form. */
async function filesOf(dir: string): Promise<string> {
  const lines: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full);
    if (entry.isFile() && !relative.split(path.sep).includes('.git'))
      lines.push(`${relative}:${(await readFile(full, 'utf8')).trimEnd()}`);
  }
  return lines.sort().join('\n');
}

async function eventsOf(id: string, token?: string): Promise<Event[]> {
  const page = await call(test.app, 'GET', `/api/conversations/${id}/events?limit=500`, token ? { token } : {});
  return ((page.body?.events ?? []) as Event[]).reverse();
}

async function fork(id: string, body: Record<string, unknown>): Promise<Conversation> {
  const answer = await call(test.app, 'POST', `/api/conversations/${id}/fork`, { body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as unknown as Conversation;
}

const stop = (id: string) => call(test.app, 'POST', `/api/conversations/${id}/stop`);
// The test reads the workspace as the server's user, which its sandbox's user owns.
const git = (id: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'safe.directory=*', ...args], { cwd: workspaceOf(id), encoding: 'utf8' }).trim();

let sourceId: string;
let history: Event[];

beforeAll(async () => {
  const llmUrl = await llm.start();
  baseUrl = await listen(test.app);
  await call(test.app, 'POST', '/api/settings', {
    body: { llm_model: 'openai/fake-model', llm_base_url: llmUrl, llm_api_key: 'fake-key' },
  });
  llm.enqueue(
    reply.text('Ten steps', { when: withoutTools }),
    ...STEPS.map((command) =>
      reply.toolCall('execute_bash', { command: command + SHOW_FILES, security_risk: 'LOW' }, { when: withTools }),
    ),
    reply.toolCall('finish', { message: 'Ten steps done.', task_completed: 'true' }, { when: withTools }),
  );
  const created = await call(test.app, 'POST', '/api/conversations', { body: { initial_user_msg: 'Take ten steps' } });
  sourceId = created.body?.conversation_id as string;
  const socket = await SocketClient.open(baseUrl, { conversation_id: sourceId, latest_event_id: -1 });
  await socket.waitFor((s) => s.events.some((e) => e.action === 'finish'), 'the ten steps', 60_000);
  await socket.close();
  history = await eventsOf(sourceId);
}, 90_000);

afterAll(() => llm.stop());

const steps = () => history.filter((e) => e.observation === 'run');

describe('forking a conversation', () => {
  it('gives, at every step, exactly the files the runtime saw then and exactly that prefix of the history', async () => {
    expect(steps()).toHaveLength(STEPS.length);
    const before = {
      status: git(sourceId, 'status', '--porcelain=v1'),
      branch: git(sourceId, 'symbolic-ref', '--short', 'HEAD'),
      log: git(sourceId, 'log', '--all', '--format=%H %s'),
      files: await filesOf(workspaceOf(sourceId)),
    };
    for (const step of steps()) {
      const forked = await fork(sourceId, { event_id: step.id });
      expect(forked.forked_from).toEqual({ conversation_id: sourceId, event_id: step.id, title: 'Ten steps' });
      // Named by the user's words it goes on from, not by an event id.
      expect(forked.title).toBe('Fork of Ten steps: “Take ten steps”');
      const saw = (step.content ?? '').split('===\n')[1]?.trim() ?? '';
      expect(await filesOf(workspaceOf(forked.conversation_id))).toBe(saw);
      const copied = (await eventsOf(forked.conversation_id)).filter((e) => e.id <= step.id);
      expect(copied).toEqual(history.filter((e) => e.id <= step.id));
      await waitRunning(test.app, '', forked.conversation_id);
      await stop(forked.conversation_id);
    }
    // The original is as it was: files, index, branch and history.
    expect(await filesOf(workspaceOf(sourceId))).toBe(before.files);
    expect(git(sourceId, 'status', '--porcelain=v1')).toBe(before.status);
    expect(git(sourceId, 'symbolic-ref', '--short', 'HEAD')).toBe(before.branch);
    expect(git(sourceId, 'log', '--all', '--format=%H %s')).toBe(before.log);
    expect(await eventsOf(sourceId)).toEqual(expect.arrayContaining(history));
  }, 120_000);

  it('lists the forks of a conversation', async () => {
    const forks = await call(test.app, 'GET', `/api/conversations?forked_from=${sourceId}&limit=100`);
    expect((forks.body?.results as Conversation[]).map((c) => c.forked_from?.event_id).sort((a, b) => a! - b!)).toEqual(
      steps().map((s) => s.id),
    );
  });

  it("gives the fork's agent the history up to the fork and nothing after it", async () => {
    const third = steps()[2]!;
    const forked = await fork(sourceId, { event_id: third.id });
    await waitRunning(test.app, '', forked.conversation_id);
    const asked = llm.completions.length;
    llm.enqueue(reply.toolCall('finish', { message: 'Forked and done.', task_completed: 'true' }, { when: withTools }));
    const socket = await SocketClient.open(baseUrl, { conversation_id: forked.conversation_id, latest_event_id: -1 });
    socket.send({ action: 'message', args: { content: 'Go on from the fork' } });
    await socket.waitFor((s) => s.events.some((e) => e.action === 'finish'), 'the fork to finish', 30_000);
    await socket.close();
    const request = JSON.stringify(llm.completions.slice(asked).find(withTools)?.messages);
    for (const command of STEPS.slice(0, 3)) expect(request).toContain(JSON.stringify(command).slice(1, -1));
    for (const command of STEPS.slice(3)) expect(request).not.toContain(JSON.stringify(command).slice(1, -1));
    expect(request).toContain('Go on from the fork');
    // The fork's metrics go on from the prefix's totals.
    const events = await eventsOf(forked.conversation_id);
    const atFork = history.filter((e) => e.id <= third.id && e.llm_metrics).at(-1)?.llm_metrics?.accumulated_cost;
    const last = events.filter((e) => e.llm_metrics).at(-1)?.llm_metrics?.accumulated_cost;
    expect(last).toBeGreaterThanOrEqual(atFork ?? 0);
    await stop(forked.conversation_id);
  }, 60_000);

  it('forks a fork, and a running conversation', async () => {
    const fifth = steps()[4]!;
    const first = await fork(sourceId, { event_id: fifth.id });
    const firstRunning = await waitRunning(test.app, '', first.conversation_id);
    expect(firstRunning.status).toBe('RUNNING');
    const second = await fork(first.conversation_id, { event_id: steps()[1]!.id });
    expect(second.forked_from?.conversation_id).toBe(first.conversation_id);
    expect(await filesOf(workspaceOf(second.conversation_id))).toBe(
      (steps()[1]!.content ?? '').split('===\n')[1]?.trim(),
    );
    expect((await call(test.app, 'GET', `/api/conversations/${first.conversation_id}`)).body?.status).toBe('RUNNING');
    await waitRunning(test.app, '', second.conversation_id);
    await stop(second.conversation_id);
    await stop(first.conversation_id);
  }, 60_000);

  it('edits and retries a user message: the history ends before it and the edited text is sent', async () => {
    const message = history.find((e) => e.source === 'user' && e.action === 'message')!;
    llm.enqueue(
      reply.text('Edited', { when: withoutTools }),
      reply.toolCall('finish', { message: 'Did the edited task.', task_completed: 'true' }, { when: withTools }),
    );
    const forked = await fork(sourceId, { event_id: message.id, message: 'Take one step instead' });
    expect(forked.title).toBe('Fork of Ten steps: “Take one step instead”');
    const socket = await SocketClient.open(baseUrl, { conversation_id: forked.conversation_id, latest_event_id: -1 });
    await socket.waitFor((s) => s.events.some((e) => e.action === 'finish'), 'the edited task', 30_000);
    await socket.close();
    const events = await eventsOf(forked.conversation_id);
    expect(events.filter((e) => e.id < message.id)).toEqual(history.filter((e) => e.id < message.id));
    expect(events.filter((e) => e.source === 'user' && e.action === 'message').map((e) => e.args?.content)).toEqual([
      'Take one step instead',
    ]);
    await stop(forked.conversation_id);
  }, 60_000);

  it("keeps the user's own saves before a message in forks after it and in an edit-and-retry of it", async () => {
    llm.enqueue(
      reply.text('Saves', { when: withoutTools }),
      reply.toolCall('execute_bash', { command: 'echo agent > agent.txt', security_risk: 'LOW' }, { when: withTools }),
      reply.toolCall('finish', { message: 'First done.', task_completed: 'true' }, { when: withTools }),
      reply.toolCall('finish', { message: 'Second done.', task_completed: 'true' }, { when: withTools }),
      reply.text('Retried', { when: withoutTools }),
      reply.toolCall('finish', { message: 'Retried done.', task_completed: 'true' }, { when: withTools }),
    );
    const created = await call(test.app, 'POST', '/api/conversations', { body: { initial_user_msg: 'Write a file' } });
    const id = created.body?.conversation_id as string;
    const socket = await SocketClient.open(baseUrl, { conversation_id: id, latest_event_id: -1 });
    await socket.waitFor((s) => s.events.some((e) => e.action === 'finish'), 'the first task', 30_000);
    const saved = await call(test.app, 'POST', `/api/conversations/${id}/save-file`, {
      body: { path: 'saved.txt', content: 'saved in the editor\n' },
    });
    expect(saved.status).toBe(200);
    socket.send({ action: 'message', args: { content: 'Look at my file' } });
    await socket.waitFor((s) => s.events.filter((e) => e.action === 'finish').length === 2, 'the second task', 30_000);
    await socket.close();
    const message = (await eventsOf(id)).filter((e) => e.source === 'user' && e.action === 'message').at(-1)!;
    expect(message.extras?.workspace_snapshot?.tree).toMatch(/^[0-9a-f]{40}$/);
    const expected = 'agent.txt:agent\nsaved.txt:saved in the editor';
    const forked = await fork(id, { event_id: message.id });
    expect(await filesOf(workspaceOf(forked.conversation_id))).toBe(expected);
    await waitRunning(test.app, '', forked.conversation_id);
    await stop(forked.conversation_id);
    const retried = await fork(id, { event_id: message.id, message: 'Look at my file again' });
    expect(await filesOf(workspaceOf(retried.conversation_id))).toBe(expected);
    const retrySocket = await SocketClient.open(baseUrl, {
      conversation_id: retried.conversation_id,
      latest_event_id: -1,
    });
    await retrySocket.waitFor((s) => s.events.some((e) => e.message === 'Retried done.'), 'the retried task', 30_000);
    await retrySocket.close();
    await stop(retried.conversation_id);
    await stop(id);
  }, 90_000);

  it("keeps the user's terminal commands as fork points, and leaves files over 50 MB out of forks, saying which", async () => {
    const created = await call(test.app, 'POST', '/api/conversations', { body: {} });
    const id = created.body?.conversation_id as string;
    await waitRunning(test.app, '', id);
    const socket = await SocketClient.open(baseUrl, { conversation_id: id, latest_event_id: -1 });
    socket.send({
      action: 'run',
      args: { command: 'truncate -s 51M big.bin && echo small > small.txt', hidden: false },
    });
    const ran = await socket.waitFor(
      (s) => s.events.some((e) => e.observation === 'run'),
      'the terminal command',
      30_000,
    );
    await socket.close();
    const observation = ran.events.find((e) => e.observation === 'run')!;
    expect(observation.extras?.workspace_snapshot?.skipped).toEqual(['big.bin']);
    const forked = await fork(id, { event_id: observation.id });
    expect(forked.forked_from?.skipped_files).toEqual(['big.bin']);
    expect(await filesOf(workspaceOf(forked.conversation_id))).toBe('small.txt:small');
    await waitRunning(test.app, '', forked.conversation_id);
    await stop(forked.conversation_id);
    await stop(id);
  }, 60_000);

  it("quotes the first line of the user's message in the title, at most 40 characters", () => {
    expect(forkTitle('Shop', `${'Make the checkout page faster and more reliable'}\nand more`)).toBe(
      'Fork of Shop: “Make the checkout page faster and more…”',
    );
    expect(forkTitle('Shop', '  \n ')).toBe('Fork of Shop');
    expect(forkTitle('Shop', null)).toBe('Fork of Shop');
  });

  it('refuses what cannot be forked, with the reason', async () => {
    const missing = await call(test.app, 'POST', `/api/conversations/${sourceId}/fork`, {
      body: { event_id: 100_000 },
    });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body)).toContain('This conversation has no event 100000');
    const notMessage = await call(test.app, 'POST', `/api/conversations/${sourceId}/fork`, {
      body: { event_id: steps()[0]!.id, message: 'x' },
    });
    expect(notMessage.status).toBe(422);
    expect(JSON.stringify(notMessage.body)).toContain('Only your own messages can be edited and sent again');
    const unknown = await call(test.app, 'POST', '/api/conversations/0123456789abcdef/fork', { body: { event_id: 0 } });
    expect(unknown.status).toBe(404);
  });
});

describe('forking in saas mode', () => {
  const saas = withTestApp({});
  it("answers 404 for another user's conversation", async () => {
    const owner = await signUp(saas.app, saas.db, 'fork-owner@acme.example');
    const other = await signUp(saas.app, saas.db, 'fork-other@acme.example');
    const created = await call(saas.app, 'POST', '/api/conversations', { token: owner.token, body: {} });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body?.conversation_id as string;
    const answer = await call(saas.app, 'POST', `/api/conversations/${id}/fork`, {
      token: other.token,
      body: { event_id: 0 },
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Conversation not found' });
  });
});
