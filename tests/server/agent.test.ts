import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFactory, NO_MODEL_CONFIGURED } from '../../server/agent/index.ts';
import { call, withTestApp } from '../support/app.ts';
import { listen, signUp, SocketClient, waitFor } from '../support/conversations.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import type { Event } from '../../openapi/types.ts';

/** The real agent behind the conversation host, talking to a fake OpenAI-compatible model. */
const oss = withTestApp({ APP_MODE: 'oss' }, { agentFactory });
const saas = withTestApp({}, { agentFactory });
const llm = new FakeLlm('fake-model');
let baseUrl: string;

beforeAll(async () => {
  const llmUrl = await llm.start();
  baseUrl = await listen(oss.app);
  await call(oss.app, 'POST', '/api/settings', {
    body: { llm_model: 'openai/fake-model', llm_base_url: llmUrl, llm_api_key: 'fake-key' },
  });
});
afterAll(() => llm.stop());

const kinds = (events: Event[]) =>
  events
    .filter((e) => !e.status_update && e.observation !== 'agent_state_changed')
    .map((e) => e.action ?? e.observation);

describe('the agent in a conversation', () => {
  it('takes the first message, works in the workspace through tools, names the conversation and takes the next message from the socket', async () => {
    llm.enqueue(
      reply.text('Made file', { when: withoutTools }),
      reply.toolCall(
        'execute_bash',
        { command: 'echo made > made.txt && cat made.txt', security_risk: 'LOW' },
        { when: withTools },
      ),
      reply.toolCall('finish', { message: 'made.txt is there.', task_completed: 'true' }, { when: withTools }),
    );
    const created = await call(oss.app, 'POST', '/api/conversations', {
      body: { initial_user_msg: 'Create made.txt' },
    });
    const id = created.body?.conversation_id as string;
    const socket = await SocketClient.open(baseUrl, { conversation_id: id, latest_event_id: -1 });
    await socket.waitFor((s) => s.events.some((e) => e.action === 'finish'), 'the agent to finish', 30_000);

    expect(kinds(socket.events)).toEqual(['system', 'message', 'recall', 'run', 'run', 'finish']);
    const message = socket.events.find((e) => e.action === 'message');
    expect(message).toMatchObject({ source: 'user', args: { content: 'Create made.txt' } });
    expect(socket.events.find((e) => e.observation === 'recall')?.cause).toBe(message?.id);
    expect(socket.events.find((e) => e.observation === 'run')).toMatchObject({
      content: 'made',
      extras: { metadata: { exit_code: 0 } },
    });
    expect(fs.readFileSync(path.join(oss.database.dataDir, 'workspaces', id, 'made.txt'), 'utf8')).toBe('made\n');
    await waitFor(
      () => call(oss.app, 'GET', `/api/conversations/${id}`),
      (r) => r.body?.title === 'Made file',
      10_000,
      'the title',
    );
    expect(socket.events.some((e) => e.conversation_title === 'Made file')).toBe(true);
    expect(llm.completions.find(withTools)?.model).toBe('fake-model');

    llm.enqueue(
      reply.toolCall('finish', { message: 'Nothing more to do.', task_completed: 'true' }, { when: withTools }),
    );
    socket.send({ action: 'message', args: { content: 'Anything else?' } });
    await socket.waitFor(
      (s) => s.events.filter((e) => e.action === 'finish').length === 2,
      'the second answer',
      30_000,
    );
    expect(
      socket.events.filter((e) => e.action === 'message' && e.source === 'user').map((e) => e.args?.content),
    ).toEqual(['Create made.txt', 'Anything else?']);
    expect(socket.events.map((e) => e.id)).toEqual(socket.events.map((_, i) => i));
    await socket.close();
    await call(oss.app, 'POST', `/api/conversations/${id}/stop`);
  });

  it('calls the model with a key saved while it runs from its next step on, and never with the old key again', async () => {
    const finish = (message: string) =>
      reply.toolCall('finish', { message, task_completed: 'true' }, { when: withTools });
    llm.enqueue(reply.text('Keys', { when: withoutTools }), finish('First done.'));
    const created = await call(oss.app, 'POST', '/api/conversations', { body: { initial_user_msg: 'First' } });
    const id = created.body?.conversation_id as string;
    const socket = await SocketClient.open(baseUrl, { conversation_id: id, latest_event_id: -1 });
    await socket.waitFor((s) => s.events.some((e) => e.action === 'finish'), 'the first answer', 30_000);
    const keysOf = (requests: typeof llm.requests) =>
      requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.headers.authorization);
    expect(keysOf(llm.requests)).toContain('Bearer fake-key');

    const savedAt = llm.requests.length;
    await call(oss.app, 'POST', '/api/settings', { body: { llm_api_key: 'rotated-key' } });
    llm.enqueue(finish('Second done.'));
    socket.send({ action: 'message', args: { content: 'Second' } });
    await socket.waitFor(
      (s) => s.events.filter((e) => e.action === 'finish').length === 2,
      'the second answer',
      30_000,
    );
    const after = keysOf(llm.requests.slice(savedAt));
    expect(after.length).toBeGreaterThan(0);
    expect(new Set(after)).toEqual(new Set(['Bearer rotated-key']));
    await socket.close();
    await call(oss.app, 'POST', `/api/conversations/${id}/stop`);
    await call(oss.app, 'POST', '/api/settings', { body: { llm_api_key: 'fake-key' } });
  });

  it('says clearly when no model is configured', async () => {
    const user = await signUp(saas.app, saas.db, 'nomodel@acme.example');
    const created = await call(saas.app, 'POST', '/api/conversations', {
      token: user.token,
      body: { initial_user_msg: 'Hello?' },
    });
    const id = created.body?.conversation_id as string;
    const events = await waitFor(
      async () =>
        ((await call(saas.app, 'GET', `/api/conversations/${id}/trajectory`, { token: user.token })).body?.trajectory ??
          []) as Event[],
      (list) => list.some((e) => e.extras?.agent_state === 'ERROR'),
      20_000,
      'the agent to report the missing model',
    );
    expect(events.find((e) => e.extras?.agent_state === 'ERROR')?.extras?.reason).toBe(NO_MODEL_CONFIGURED);
    await call(saas.app, 'POST', `/api/conversations/${id}/stop`, { token: user.token });
  });
});
