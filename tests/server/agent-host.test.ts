import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentFactory, AgentHost } from '../../server/agent/types.ts';
import { findUserId } from '../../server/modules/auth/index.ts';
import { grantCredit } from '../../server/modules/credits/index.ts';
import { call, withTestApp } from '../support/app.ts';
import {
  completeOnboarding,
  createRunning,
  listen,
  signUp,
  SocketClient,
  waitFor,
  waitRunning,
} from '../support/conversations.ts';
import { verifyByMail } from '../support/mail.ts';
import type { ClientAction, Event } from '../../openapi/types.ts';

/**
 * A stand-in agent that records what the host gives it and answers like the real one does:
 * it records the user's message itself, replies, names the conversation on the first message.
 */
function recordingAgent() {
  const sessions: { host: AgentHost; handled: ClientAction[]; stopped: boolean }[] = [];
  const factory: AgentFactory = (host) => {
    const session = { host, handled: [] as ClientAction[], stopped: false };
    sessions.push(session);
    return {
      state: 'AWAITING_USER_INPUT',
      handle(action) {
        session.handled.push(action);
        if (action.action === 'message') {
          void (async () => {
            const mine = await host.emit({
              source: 'user',
              action: 'message',
              message: action.args.content,
              args: { content: action.args.content },
            });
            await host.emit({
              source: 'agent',
              action: 'message',
              cause: mine.id,
              message: `echo: ${action.args.content}`,
              args: { content: `echo: ${action.args.content}` },
            });
            if (session.handled.filter((a) => a.action === 'message').length === 1)
              await host.setTitle(`  About ${action.args.content}  `);
          })();
        }
      },
      async stop() {
        session.stopped = true;
      },
    };
  };
  return { factory, sessions };
}

const ossAgent = recordingAgent();
const oss = withTestApp(
  {
    APP_MODE: 'oss',
    LLM_PROVIDER: 'openai-compatible',
    LLM_MODEL: 'qwen3',
    LLM_BASE_URL: 'http://127.0.0.1:9/v1',
    LLM_API_KEY: 'operator-key',
  },
  { agentFactory: ossAgent.factory },
);
const saasAgent = recordingAgent();
const saas = withTestApp(
  { LLM_PROVIDER: 'anthropic', LLM_MODEL: 'claude-sonnet-4-20250514', LLM_API_KEY: 'operator-key' },
  { agentFactory: saasAgent.factory },
);

let baseUrl: string;
beforeAll(async () => {
  baseUrl = await listen(oss.app);
});

async function events(id: string): Promise<Event[]> {
  return (await call(oss.app, 'GET', `/api/conversations/${id}/trajectory`)).body?.trajectory as Event[];
}

describe('the agent host', () => {
  it('hands the first message to the agent once the runtime is up, with the settings resolved for the user', async () => {
    await call(oss.app, 'POST', '/api/secrets', {
      body: { name: 'DEPLOY_TOKEN', value: 'x', description: 'Deploys the app' },
    });
    const created = await call(oss.app, 'POST', '/api/conversations', {
      body: { initial_user_msg: 'a todo app', conversation_instructions: 'Use Python.' },
    });
    const id = created.body?.conversation_id as string;
    await waitRunning(oss.app, '', id);
    const session = ossAgent.sessions.at(-1);
    expect(session?.host.conversationId).toBe(id);
    expect(session?.host.settings).toMatchObject({
      llm: { provider: 'openai-compatible', model: 'qwen3', apiKey: 'operator-key', baseUrl: 'http://127.0.0.1:9/v1' },
      agent: 'CodeActAgent',
      confirmationMode: false,
      conversationInstructions: 'Use Python.',
      customSecretsDescriptions: { DEPLOY_TOKEN: 'Deploys the app' },
      mcpConfig: { sse_servers: [], stdio_servers: [] },
    });
    expect(session?.host.runtimeHosts).toEqual(session?.host.runtime.ports.map((p) => `http://localhost:${p}`));
    expect(session?.host.charge).toBeUndefined();

    const list = await waitFor(
      () => events(id),
      (e) => e.some((x) => x.message === 'echo: a todo app'),
    );
    expect(list.filter((e) => e.action === 'message').map((e) => [e.source, e.message])).toEqual([
      ['user', 'a todo app'],
      ['agent', 'echo: a todo app'],
    ]);
    const titled = await waitFor(
      () => call(oss.app, 'GET', `/api/conversations/${id}`),
      (r) => r.body?.title === 'About a todo app',
    );
    expect(titled.body?.title).toBe('About a todo app');
    // The record takes the title first, then the log the event that announces it.
    await waitFor(
      () => events(id),
      (e) => e.some((x) => x.status_update && x.conversation_title === 'About a todo app'),
    );
    expect((await session?.host.history())?.map((e) => e.id)).toEqual((await events(id)).map((e) => e.id));
  });

  it('passes socket messages and state changes to the agent, and stops it with the conversation', async () => {
    const created = await call(oss.app, 'POST', '/api/conversations', { body: {} });
    const id = created.body?.conversation_id as string;
    const socket = await SocketClient.open(baseUrl, { conversation_id: id, latest_event_id: -1 });
    socket.send({ action: 'message', args: { content: 'sent while starting' } });
    socket.send({ action: 'change_agent_state', args: { agent_state: 'PAUSED' } });
    await socket.waitFor((s) => s.events.some((e) => e.message === 'echo: sent while starting'));
    const session = ossAgent.sessions.find((s) => s.host.conversationId === id);
    expect(session?.handled).toEqual([
      { action: 'message', args: { content: 'sent while starting' } },
      { action: 'change_agent_state', args: { agent_state: 'PAUSED' } },
    ]);
    expect(socket.events.filter((e) => e.action === 'message' && e.source === 'user')).toHaveLength(1);
    await call(oss.app, 'POST', `/api/conversations/${id}/stop`);
    expect(session?.stopped).toBe(true);
    await socket.close();
  });

  it('gives a model the user chose in oss mode their own key, never the operator’s', async () => {
    await call(oss.app, 'POST', '/api/settings', {
      body: {
        llm_model: 'anthropic/claude-opus-4-20250514',
        llm_api_key: 'user-key',
        confirmation_mode: true,
        security_analyzer: 'llm',
      },
    });
    const created = await call(oss.app, 'POST', '/api/conversations', { body: {} });
    await waitRunning(oss.app, '', created.body?.conversation_id as string);
    expect(ossAgent.sessions.at(-1)?.host.settings).toMatchObject({
      llm: { provider: 'anthropic', model: 'claude-opus-4-20250514', apiKey: 'user-key' },
      confirmationMode: true,
      securityAnalyzer: 'llm',
    });
    expect(ossAgent.sessions.at(-1)?.host.settings.llm?.baseUrl).toBeUndefined();
    await call(oss.app, 'POST', '/api/settings', { body: { llm_model: 'openai/gpt-4o', llm_api_key: '' } });
    await call(oss.app, 'POST', `/api/conversations/${created.body?.conversation_id as string}/stop`);
    expect(
      (await call(oss.app, 'POST', `/api/conversations/${created.body?.conversation_id as string}/start`)).status,
    ).toBe(200);
    await waitRunning(oss.app, '', created.body?.conversation_id as string);
    expect(ossAgent.sessions.at(-1)?.host.settings.llm).toEqual({ provider: 'openai', model: 'gpt-4o' });
  });

  it('in saas mode runs the operator’s model and charges the user’s credits', async () => {
    await call(saas.app, 'POST', '/api/auth/register', {
      body: { name: 'Payer', email: 'payer@acme.example', password: 'long enough' },
    });
    await verifyByMail(saas.app, saas.db, 'payer@acme.example');
    const token = (
      await call(saas.app, 'POST', '/api/auth/login', {
        body: { email: 'payer@acme.example', password: 'long enough' },
      })
    ).body?.access_token as string;
    await completeOnboarding(saas.app, token);
    expect((await call(saas.app, 'POST', '/api/conversations', { token, body: {} })).status).toBe(402);
    const userId = (await findUserId(saas.db, 'payer@acme.example')) as string;
    await grantCredit(saas.db, {
      userId,
      amountMicros: 1_000_000n,
      type: 'credit',
      kind: 'paid',
      expiresAt: null,
      description: 'test',
      idempotencyKey: 'k',
    });
    await call(saas.app, 'POST', '/api/settings', {
      token,
      body: { llm_model: 'openai/gpt-4o', llm_api_key: 'user-key' },
    });
    const created = await call(saas.app, 'POST', '/api/conversations', { token, body: {} });
    await waitRunning(saas.app, token, created.body?.conversation_id as string);
    const host = saasAgent.sessions.at(-1)?.host;
    expect(host?.settings.llm).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-20250514',
      apiKey: 'operator-key',
    });
    expect(await host?.balance?.()).toBe(1_000_000n);
    expect(await host?.charge?.(250_000n, 'call-1')).toBe(750_000n);
    expect(await host?.charge?.(250_000n, 'call-1')).toBe(750_000n);
    expect((await call(saas.app, 'GET', '/api/auth/credits', { token })).body).toEqual({ balance: 0.75 });
    await call(saas.app, 'POST', `/api/conversations/${created.body?.conversation_id as string}/stop`, { token });
  });

  it('pushes the new balance to the charged user’s open sockets after a model call, never to another user’s', async () => {
    const saasUrl = await listen(saas.app);
    const users = [
      await signUp(saas.app, saas.db, 'pushed@acme.example'),
      await signUp(saas.app, saas.db, 'bystander@acme.example'),
    ];
    const open = [];
    for (const user of users) {
      const conversation = await createRunning(saas.app, user.token);
      const socket = await SocketClient.open(
        saasUrl,
        { conversation_id: conversation.conversation_id, latest_event_id: -1 },
        { authorization: `Bearer ${user.token}` },
      );
      // The replay has begun: the socket is counted as its user's.
      await socket.waitFor((s) => s.events.length > 0, 'the replay');
      open.push({ user, conversation, socket, host: saasAgent.sessions.at(-1)?.host });
    }
    const [charged, bystander] = open;
    // signUp gave each $10.
    expect(await charged?.host?.charge?.(1_500_000n, 'pushed-call')).toBe(8_500_000n);
    await charged?.socket.waitFor((s) => s.balances.length > 0, 'the charged user’s balance');
    expect(await bystander?.host?.charge?.(250_000n, 'bystander-call')).toBe(9_750_000n);
    await bystander?.socket.waitFor((s) => s.balances.length > 0, 'the bystander’s balance');
    expect(charged?.socket.balances).toEqual([8.5]);
    expect(bystander?.socket.balances).toEqual([9.75]);
    for (const { user, conversation, socket } of open) {
      await socket.close();
      await call(saas.app, 'POST', `/api/conversations/${conversation.conversation_id}/stop`, { token: user.token });
    }
  });
});
