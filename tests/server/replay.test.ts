import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, signUp, waitFor } from '../support/conversations.ts';
import type { Event } from '../../openapi/types.ts';

const t = withTestApp();
let user: { token: string; id: string };

beforeAll(async () => {
  user = await signUp(t.app, t.db, 'replay@acme.example');
});

const at = '2026-01-01T00:00:00Z';
/** A recorded session: what `trajectory` downloads, with outputs that no longer match the workspace. */
const recorded: Event[] = [
  {
    id: 0,
    timestamp: at,
    source: 'user',
    action: 'message',
    message: 'Make a greeting app',
    args: { content: 'Make a greeting app' },
  },
  {
    id: 1,
    timestamp: at,
    source: 'environment',
    status_update: true,
    type: 'info',
    status_id: 'STATUS$READY',
    message: 'Ready',
  },
  {
    id: 2,
    timestamp: at,
    source: 'agent',
    action: 'run',
    message: 'Running',
    args: { command: 'mkdir -p app && echo hello > app/greeting.txt && cat app/greeting.txt' },
  },
  {
    id: 3,
    timestamp: at,
    source: 'agent',
    observation: 'run',
    cause: 2,
    content: 'OLD OUTPUT',
    extras: { metadata: { exit_code: 0 } },
  },
  {
    id: 4,
    timestamp: at,
    source: 'agent',
    action: 'edit',
    message: 'Creating',
    args: { command: 'create', path: 'app/main.py', file_text: 'print("hello")\n' },
  },
  { id: 5, timestamp: at, source: 'agent', observation: 'edit', cause: 4, content: 'OLD EDIT' },
  {
    id: 6,
    timestamp: at,
    source: 'agent',
    action: 'edit',
    message: 'Editing',
    args: { command: 'str_replace', path: 'app/main.py', old_str: 'hello', new_str: 'hello, world' },
  },
  { id: 7, timestamp: at, source: 'agent', observation: 'edit', cause: 6, content: 'OLD EDIT 2' },
  { id: 8, timestamp: at, source: 'agent', action: 'read', message: 'Reading', args: { path: 'app/main.py' } },
  { id: 9, timestamp: at, source: 'agent', observation: 'read', cause: 8, content: 'OLD READ' },
  {
    id: 10,
    timestamp: at,
    source: 'agent',
    action: 'run',
    message: 'Risky',
    args: { command: 'touch rejected.txt', confirmation_state: 'rejected' },
  },
  { id: 11, timestamp: at, source: 'agent', observation: 'user_rejected', cause: 10, content: 'The user rejected it' },
  {
    id: 12,
    timestamp: at,
    source: 'agent',
    action: 'finish',
    message: 'Done',
    args: { final_thought: 'The app greets.' },
  },
];

describe('replaying a trajectory', () => {
  it('executes run, edit and read actions again in a fresh workspace and copies everything else', async () => {
    const conversation = await createRunning(t.app, user.token, {
      replay_json: JSON.stringify({ trajectory: recorded }),
    });
    const id = conversation.conversation_id;
    const workspace = path.join(t.database.dataDir, 'workspaces', id);
    expect(fs.readFileSync(path.join(workspace, 'app/greeting.txt'), 'utf8')).toBe('hello\n');
    expect(fs.readFileSync(path.join(workspace, 'app/main.py'), 'utf8')).toBe('print("hello, world")\n');
    expect(fs.existsSync(path.join(workspace, 'rejected.txt'))).toBe(false);

    // RUNNING is stored just before the READY event is: wait for the event.
    const events = await waitFor(
      async () =>
        (await call(t.app, 'GET', `/api/conversations/${id}/trajectory`, { token: user.token })).body
          ?.trajectory as Event[],
      (list) => list.some((e) => e.status_id === 'STATUS$READY'),
      10_000,
      'the READY status',
    );
    const replayed = events.filter((e) => !e.status_update);
    expect(replayed.map((e) => e.action ?? e.observation)).toEqual([
      'message',
      'run',
      'run',
      'edit',
      'edit',
      'edit',
      'edit',
      'read',
      'read',
      'run',
      'user_rejected',
      'finish',
    ]);
    const byCause = (e: Event) => replayed.find((x) => x.id === e.cause);
    for (const observation of replayed.filter((e) => e.observation)) expect(byCause(observation)?.action).toBeDefined();
    // A replayed step that changed files is a point a fork can start from.
    expect(replayed[2]).toMatchObject({
      observation: 'run',
      content: 'hello',
      extras: { metadata: { exit_code: 0 }, workspace_snapshot: { tree: expect.stringMatching(/^[0-9a-f]{40}$/) } },
    });
    expect(replayed[4]?.content).not.toBe('OLD EDIT');
    expect(replayed[6]?.extras?.diff).toContain('+print("hello, world")');
    expect(replayed[8]?.content).toContain('print("hello, world")');
    expect(replayed[10]?.content).toBe('The user rejected it');
    expect(events.filter((e) => e.status_update).map((e) => e.status_id)).toEqual([
      'STATUS$STARTING_RUNTIME',
      'STATUS$REPLAYING_TRAJECTORY',
      'STATUS$READY',
    ]);

    // What was downloaded replays again, into the same result.
    const again = await createRunning(t.app, user.token, { replay_json: JSON.stringify({ trajectory: events }) });
    expect(
      fs.readFileSync(path.join(t.database.dataDir, 'workspaces', again.conversation_id, 'app/main.py'), 'utf8'),
    ).toBe('print("hello, world")\n');
    for (const c of [id, again.conversation_id])
      await call(t.app, 'POST', `/api/conversations/${c}/stop`, { token: user.token });
  });

  it('accepts a trajectory larger than the default 10 MB body limit', async () => {
    const big: Event[] = [
      {
        id: 0,
        timestamp: at,
        source: 'user',
        action: 'message',
        message: 'Big',
        args: { content: 'x'.repeat(12 * 1024 * 1024) },
      },
    ];
    const conversation = await createRunning(t.app, user.token, { replay_json: JSON.stringify(big) });
    const events = (
      await call(t.app, 'GET', `/api/conversations/${conversation.conversation_id}/trajectory`, { token: user.token })
    ).body?.trajectory as Event[];
    expect(events.find((e) => e.action === 'message')?.args?.content).toHaveLength(12 * 1024 * 1024);
    await call(t.app, 'POST', `/api/conversations/${conversation.conversation_id}/stop`, { token: user.token });
  });

  it('downloads a long trajectory in other scripts whole, its length counted in bytes', async () => {
    const content = 'naïve — 日本語 😀 '.repeat(2_000);
    const conversation = await createRunning(t.app, user.token, {
      replay_json: JSON.stringify([{ id: 0, timestamp: at, source: 'user', action: 'message', args: { content } }]),
    });
    const response = await t.app.http.inject({
      method: 'GET',
      url: `/api/conversations/${conversation.conversation_id}/trajectory`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    const events = (response.json() as { trajectory: Event[] }).trajectory;
    expect(events.find((e) => e.action === 'message')?.args?.content).toBe(content);
    await call(t.app, 'POST', `/api/conversations/${conversation.conversation_id}/stop`, { token: user.token });
  });

  it('refuses replay_json that is not a trajectory', async () => {
    for (const replay of [
      'not json',
      '{"events": []}',
      JSON.stringify([{ id: 0, source: 'martian', timestamp: at }]),
    ]) {
      const response = await call(t.app, 'POST', '/api/conversations', {
        token: user.token,
        body: { replay_json: replay },
      });
      expect(response.status).toBe(422);
      expect(response.body?.detail).toEqual([expect.objectContaining({ loc: ['body', 'replay_json'] })]);
    }
  });
});
