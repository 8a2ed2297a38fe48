import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFactory } from '../../server/agent/index.ts';
import { LOCAL_USER } from '../../server/modules/auth/index.ts';
import { grantCredit } from '../../server/modules/credits/index.ts';
import { call, withTestApp } from '../support/app.ts';
import { listen, SocketClient, waitFor } from '../support/conversations.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';

// GET /metrics counts what the server did: one conversation's agent run moves each figure by
// exactly what happened.

const t = withTestApp({ APP_MODE: 'oss' }, { agentFactory });
const llm = new FakeLlm('fake-model');
let baseUrl: string;

beforeAll(async () => {
  const llmUrl = await llm.start();
  baseUrl = await listen(t.app);
  await call(t.app, 'POST', '/api/settings', {
    body: { llm_model: 'openai/fake-model', llm_base_url: llmUrl, llm_api_key: 'fake-key' },
  });
});
afterAll(() => llm.stop());

/** The figures now, by series (`name{labels}`). */
async function figures(): Promise<Map<string, number>> {
  const response = await t.app.http.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain/);
  return new Map(
    response.body
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => {
        const at = line.lastIndexOf(' ');
        return [line.slice(0, at), Number(line.slice(at + 1))] as const;
      }),
  );
}
const of = (all: Map<string, number>, series: string) => all.get(series) ?? 0;

describe('the server’s figures', () => {
  it('count HTTP answers, sockets, running conversations, agent steps, tokens, cost, events and ledger writes', async () => {
    const before = await figures();
    llm.enqueue(
      reply.text('Counted', { when: withoutTools }),
      reply.toolCall('execute_bash', { command: 'echo counted', security_risk: 'LOW' }, { when: withTools }),
      reply.toolCall('finish', { message: 'Counted.', task_completed: 'true' }, { when: withTools }),
    );
    const created = await call(t.app, 'POST', '/api/conversations', { body: { initial_user_msg: 'Count this' } });
    const id = created.body?.conversation_id as string;
    const socket = await SocketClient.open(baseUrl, { conversation_id: id, latest_event_id: -1 });
    await socket.waitFor((s) => s.events.some((e) => e.action === 'finish'), 'the agent to finish', 30_000);

    const during = await figures();
    expect(of(during, 'atelier_sockets_open') - of(before, 'atelier_sockets_open')).toBe(1);
    expect(of(during, 'atelier_conversations_running') - of(before, 'atelier_conversations_running')).toBe(1);
    const created200 =
      'atelier_http_request_duration_seconds_count{operation="createConversation",method="POST",status="200"}';
    expect(of(during, created200) - of(before, created200)).toBe(1);
    expect(of(during, 'atelier_agent_steps_total') - of(before, 'atelier_agent_steps_total')).toBe(2);
    expect(of(during, 'atelier_llm_tokens_total{kind="prompt"}')).toBeGreaterThan(
      of(before, 'atelier_llm_tokens_total{kind="prompt"}'),
    );

    await socket.close();
    const { events, has_more: hasMore } = (await call(t.app, 'GET', `/api/conversations/${id}/events?limit=100`))
      .body as { events: unknown[]; has_more: boolean };
    expect(hasMore).toBe(false);
    const after = await waitFor(
      figures,
      (all) => of(all, 'atelier_sockets_open') === of(before, 'atelier_sockets_open'),
      5_000,
      'the socket to be counted closed',
    );
    expect(of(after, 'atelier_events_appended_total') - of(before, 'atelier_events_appended_total')).toBe(
      events.length,
    );

    const grants = (all: Map<string, number>) => of(all, 'atelier_ledger_writes_total{operation="grant"}');
    const beforeGrant = grants(await figures());
    await grantCredit(t.db, {
      userId: LOCAL_USER.id,
      amountMicros: 1_000_000n,
      type: 'credit',
      kind: 'paid',
      expiresAt: null,
      description: 'counted',
      idempotencyKey: 'counted-1',
    });
    expect(grants(await figures()) - beforeGrant).toBe(1);
  });
});
