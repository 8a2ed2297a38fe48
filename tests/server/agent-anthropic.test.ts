import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../server/agent/index.ts';
import { FAST_RETRIES } from '../agent/scenario.ts';
import { call, withTestApp } from '../support/app.ts';
import { signUp, waitFor } from '../support/conversations.ts';
import { FakeAnthropic } from '../support/fake-anthropic/index.ts';
import { reply, withoutTools, withTools } from '../support/fake-llm/index.ts';
import type { Event } from '../../openapi/types.ts';

/**
 * The real agent in a saas app whose operator configured Anthropic (LLM_PROVIDER=anthropic)
 * with LLM_BASE_URL pointing at a fake Anthropic Messages API.
 */
const MODEL = 'claude-sonnet-4-20250514';
const llm = new FakeAnthropic(MODEL, 'operator-key');
const env = { LLM_PROVIDER: 'anthropic', LLM_MODEL: MODEL, LLM_API_KEY: 'operator-key', LLM_BASE_URL: '' };
// Registered before the app's own beforeAll, which reads `env` when it builds the app.
beforeAll(async () => {
  env.LLM_BASE_URL = await llm.start();
});
afterAll(() => llm.stop());
const saas = withTestApp(env, { agentFactory: (host) => createAgentSession(host, { retryPolicy: FAST_RETRIES }) });

/** The title costs nothing here, so the metrics of the steps do not depend on when it arrives. */
const titleReply = reply.text('Made file', { when: withoutTools, usage: { prompt_tokens: 0, completion_tokens: 0 } });

async function trajectory(token: string, id: string): Promise<Event[]> {
  return ((await call(saas.app, 'GET', `/api/conversations/${id}/trajectory`, { token })).body?.trajectory ??
    []) as Event[];
}

/** Starts a conversation with `message` and waits until the agent reaches `state`. */
async function converse(email: string, message: string, state: 'FINISHED' | 'ERROR') {
  const user = await signUp(saas.app, saas.db, email);
  const created = await call(saas.app, 'POST', '/api/conversations', {
    token: user.token,
    body: { initial_user_msg: message },
  });
  const id = created.body?.conversation_id as string;
  const events = await waitFor(
    () => trajectory(user.token, id),
    (list) => list.some((e) => e.extras?.agent_state === state),
    30_000,
    `the agent to reach ${state}`,
  );
  const states = events.flatMap((e) =>
    e.observation === 'agent_state_changed' && e.extras?.agent_state ? [e.extras.agent_state] : [],
  );
  return { ...user, id, events, states };
}

describe('the agent with Anthropic as the operator’s model', () => {
  it('runs a task through a tool, metered with Anthropic’s cache token counts at its prices, prompt caching on', async () => {
    llm.enqueue(
      titleReply,
      reply.toolCall(
        'execute_bash',
        { command: 'echo made > made.txt && cat made.txt', security_risk: 'LOW' },
        {
          when: withTools,
          usage: { prompt_tokens: 4000, completion_tokens: 50, cached_tokens: 0, cache_write_tokens: 3500 },
        },
      ),
      reply.toolCall(
        'finish',
        { message: 'made.txt is there.', task_completed: 'true' },
        {
          when: withTools,
          usage: { prompt_tokens: 4300, completion_tokens: 30, cached_tokens: 3500, cache_write_tokens: 300 },
        },
      ),
    );
    const { token, id, events } = await converse('anthropic-task@acme.example', 'Create made.txt', 'FINISHED');

    const kinds = events
      .filter((e) => !e.status_update && e.observation !== 'agent_state_changed')
      .map((e) => e.action ?? e.observation);
    // The agent's system event and the user's first message race at start; either may come first.
    expect(kinds.slice(0, 2).sort()).toEqual(['message', 'system']);
    expect(kinds.slice(2)).toEqual(['recall', 'run', 'run', 'finish']);
    expect(events.find((e) => e.observation === 'run')).toMatchObject({
      content: 'made',
      extras: { metadata: { exit_code: 0 } },
    });

    // claude-sonnet-4 per million tokens: $3 input, $0.30 cache reads, $3.75 cache writes, $15 output.
    const firstStep = 500 * 3 + 3500 * 3.75 + 50 * 15;
    const secondStep = 500 * 3 + 3500 * 0.3 + 300 * 3.75 + 30 * 15;
    const expectedCost = (firstStep + secondStep) / 1_000_000;
    const metrics = events.find((e) => e.action === 'finish')?.llm_metrics;
    expect(metrics?.accumulated_token_usage).toEqual({
      prompt_tokens: 8300,
      completion_tokens: 80,
      cache_read_tokens: 3500,
      cache_write_tokens: 3800,
      per_turn_token: 4330,
      context_window: 200_000,
    });
    expect(metrics?.accumulated_cost).toBeCloseTo(expectedCost, 9);
    await waitFor(
      () => call(saas.app, 'GET', `/api/conversations/${id}`, { token }),
      (r) => r.body?.title === 'Made file',
      10_000,
      'the title',
    );
    expect((await call(saas.app, 'GET', '/api/auth/credits', { token })).body?.balance).toBeCloseTo(
      10 - expectedCost,
      9,
    );

    const requests = llm.messageRequests.slice(-3);
    // The title is asked for like a step, streamed, but without tools.
    expect(requests.filter(withoutTools).map((request) => [request.model, request.stream])).toEqual([[MODEL, true]]);
    const steps = requests.filter(withTools);
    expect(steps.map((request) => [request.model, request.stream])).toEqual([
      [MODEL, true],
      [MODEL, true],
    ]);
    const second = steps[1];
    expect(second?.system).toEqual([expect.objectContaining({ type: 'text', cache_control: { type: 'ephemeral' } })]);
    const last = second?.messages.at(-1);
    expect(last?.role).toBe('user');
    const results = typeof last?.content === 'string' ? [] : (last?.content ?? []);
    const toolUse = second?.messages.at(-2)?.content;
    expect(results).toEqual([
      expect.objectContaining({
        type: 'tool_result',
        tool_use_id: Array.isArray(toolUse) ? toolUse.find((block) => block.type === 'tool_use')?.id : undefined,
        cache_control: { type: 'ephemeral' },
      }),
    ]);
    expect(JSON.stringify(results[0])).toContain('made');
    expect(
      llm.requests.slice(-3).map((request) => [request.headers['x-api-key'], request.headers['anthropic-version']]),
    ).toEqual(Array.from({ length: 3 }, () => ['operator-key', '2023-06-01']));
    await call(saas.app, 'POST', `/api/conversations/${id}/stop`, { token });
  });

  it('waits in RATE_LIMITED after a 429 and after an overload inside the stream, then finishes', async () => {
    llm.enqueue(
      titleReply,
      reply.error(429, 'Number of request tokens has exceeded your per-minute rate limit', {
        when: withTools,
        headers: { 'retry-after': '1' },
      }),
      reply.error(529, 'Overloaded', { when: withTools, inStream: true }),
      reply.toolCall('finish', { message: 'Done.' }, { when: withTools }),
    );
    const { token, id, events, states } = await converse('anthropic-limited@acme.example', 'Do it', 'FINISHED');
    expect(states.slice(-6)).toEqual(['RUNNING', 'RATE_LIMITED', 'RUNNING', 'RATE_LIMITED', 'RUNNING', 'FINISHED']);
    const reasons = events.filter((e) => e.extras?.agent_state === 'RATE_LIMITED').map((e) => e.extras?.reason);
    expect(reasons).toEqual([
      'The model provider is rate limiting requests (HTTP 429): Number of request tokens has exceeded your per-minute rate limit',
      'The model provider is unavailable (HTTP 529): Overloaded',
    ]);
    await expect.poll(() => llm.remaining).toBe(0);
    await call(saas.app, 'POST', `/api/conversations/${id}/stop`, { token });
  });

  it('ends in ERROR with the reason when Anthropic rejects the API key, without retrying', async () => {
    llm.enqueue(titleReply, reply.error(401, 'invalid x-api-key', { when: withTools }));
    const { token, id, events, states } = await converse('anthropic-key@acme.example', 'Do it', 'ERROR');
    const reason = 'The model provider rejected the API key (HTTP 401): invalid x-api-key';
    expect(events.find((e) => e.extras?.agent_state === 'ERROR')?.extras?.reason).toBe(reason);
    expect(events.find((e) => e.status_update && e.type === 'error')).toMatchObject({
      status_id: 'STATUS$ERROR_LLM_AUTHENTICATION',
      message: reason,
    });
    expect(states).not.toContain('RATE_LIMITED');
    await call(saas.app, 'POST', `/api/conversations/${id}/stop`, { token });
  });
});
