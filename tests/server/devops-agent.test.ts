import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFactory } from '../../server/agent/index.ts';
import { creditLedger } from '../../server/db/schema.ts';
import { balanceMicros, chargeUsage } from '../../server/modules/credits/index.ts';
import { INSUFFICIENT_CREDITS } from '../../server/shared/credit-limits.ts';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, signUp } from '../support/conversations.ts';
import { FakeLlm, reply, type ChatRequest, type ModelRequest } from '../support/fake-llm/index.ts';

// The DevOps agent of a conversation (saas, the local deploy target), talking to a fake
// OpenAI-compatible model: it writes an app in the workspace, proposes a plan with its price,
// deploys only after the user agreed, health-checks, reports, tears down, and is charged as
// DevOps model usage; and who may talk to which session.

const llm = new FakeLlm('fake-model');
const env = {
  LLM_PROVIDER: 'openai-compatible',
  LLM_MODEL: 'fake-model',
  LLM_API_KEY: 'operator-key',
  LLM_BASE_URL: '',
};
beforeAll(async () => {
  env.LLM_BASE_URL = await llm.start();
});
afterAll(() => llm.stop());
const t = withTestApp(() => env, { agentFactory });

/** The DevOps agent's model calls (the chat agent's have other tools). */
const devops = (request: ModelRequest) => JSON.stringify(request.tools ?? []).includes('"propose_deployment"');

const execute = (token: string, sessionId: string, message: string, userId?: string) =>
  call(t.app, 'POST', '/api/devops-agent/execute', {
    token,
    body: { session_id: sessionId, user_message: message, ...(userId && { user_id: userId }) },
  });
const history = (token: string, sessionId: string) =>
  call(t.app, 'GET', `/api/devops-agent/session/${sessionId}/history`, { token });

const SERVER_JS = "require('node:http').createServer((q, s) => s.end('todo app')).listen(Number(process.env.PORT));";
const PLAN = {
  name: 'todo-staging',
  environment: 'staging',
  directory: 'app',
  start: 'node server.js',
  port: 8080,
  size: 'local',
};

describe('the DevOps agent', () => {
  it(
    'writes and inspects the app, proposes a priced plan, deploys only after the user agreed, reports the address, tears down, and charges its calls as DevOps usage',
    { timeout: 120_000 },
    async () => {
      const ada = await signUp(t.app, t.db, 'ada-devops@acme.example');
      const { conversation_id: id } = await createRunning(t.app, ada.token);

      expect((await history(ada.token, id)).body).toEqual({ messages: [], infra_hourly_cost: 0 });
      llm.enqueue(reply.text('Hello! I deploy the app in your workspace. What shall I deploy?', { when: devops }));
      const greeting = await execute(ada.token, id, 'start', ada.id);
      expect(greeting.status).toBe(200);
      expect(greeting.body).toEqual({
        display_message: 'Hello! I deploy the app in your workspace. What shall I deploy?',
        is_complete: false,
        infra_hourly_cost: 0,
      });

      llm.enqueue(
        reply.toolCall(
          'execute_bash',
          { command: `mkdir -p app && cat > app/server.js <<'JS'\n${SERVER_JS}\nJS\nls app` },
          { when: devops },
        ),
        reply.toolCall('list_sizes', {}, { when: devops }),
        reply.toolCall('propose_deployment', PLAN, { when: devops }),
        // Deploying in the same turn as the proposal is refused: the user has not answered yet.
        reply.toolCall('deploy', { name: 'todo-staging' }, { when: devops }),
        reply.text('I will run app/ as todo-staging on size local at $0.00/hour. Shall I deploy it?', { when: devops }),
      );
      const plan = await execute(ada.token, id, 'Deploy my app to staging');
      expect(plan.body).toMatchObject({ display_message: expect.stringContaining('Shall I deploy it?') });
      const toolResults = (request: ChatRequest | undefined) =>
        (request?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
      const planRequests = llm.completions.filter(devops).slice(-5);
      expect(toolResults(planRequests[1])).toEqual(['server.js']);
      expect(toolResults(planRequests[2])[1]).toMatch(/^local: \d+ vCPU, \d+ MB memory, \$0\.00\/hour, regions local$/);
      expect(toolResults(planRequests[3])[2]).toMatch(/^Plan recorded: todo-staging \(staging\) from app/);
      expect(toolResults(planRequests[4])[3]).toMatch(/^No confirmed plan named todo-staging/);
      expect((await call(t.app, 'GET', `/api/deployments/${id}`, { token: ada.token })).body?.deployments).toEqual([]);

      llm.enqueue(
        reply.toolCall('deploy', { name: 'todo-staging' }, { when: devops }),
        reply.text('todo-staging is up.', { when: devops }),
      );
      const deployed = await execute(ada.token, id, 'Yes, deploy it');
      expect(deployed.body).toEqual({
        display_message: 'todo-staging is up.',
        is_complete: false,
        infra_hourly_cost: 0,
      });
      // The deploy result the model saw: the address and a passed health check.
      const report = toolResults(llm.completions.filter(devops).at(-1)).at(-1) ?? '';
      expect(report).toMatch(
        /^Deployed todo-staging \(staging\): http:\/\/localhost:\d+, size local in local, \$0\.00\/hour, \$0\.0000 so far\. Health check: healthy \(HTTP 200\)\.$/,
      );
      const listed = await call(t.app, 'GET', `/api/deployments/${id}`, { token: ada.token });
      expect(listed.body?.deployments).toMatchObject([
        { droplet_name: 'todo-staging', environment: 'staging', size_slug: 'local', hourly_cost_usd: 0 },
      ]);
      const url = (listed.body?.deployments as { url: string }[])[0]!.url.replace('localhost', '127.0.0.1');
      expect(await (await fetch(url)).text()).toBe('todo app');

      // The earlier turns are the next turn's context: the proposal is in it.
      const lastRequest = JSON.stringify(llm.completions.filter(devops).at(-1)?.messages);
      expect(lastRequest).toContain('propose_deployment');
      expect(lastRequest).toContain('Deploy my app to staging');

      llm.enqueue(
        reply.toolCall('delete_deployment', { name: 'todo-staging' }, { when: devops }),
        reply.toolCall(
          'complete_workflow',
          { message: 'Deleted todo-staging. Nothing is running now.' },
          { when: devops },
        ),
      );
      const done = await execute(ada.token, id, 'Thanks, tear it down');
      expect(done.body).toEqual({
        display_message: 'Deleted todo-staging. Nothing is running now.',
        is_complete: true,
        infra_hourly_cost: 0,
      });
      await expect(fetch(url)).rejects.toThrow();

      const shown = (await history(ada.token, id)).body?.messages as {
        sender: string;
        text: string;
        is_complete: boolean;
      }[];
      expect(shown.map((m) => [m.sender, m.text])).toEqual([
        ['user', 'start'],
        ['agent', 'Hello! I deploy the app in your workspace. What shall I deploy?'],
        ['user', 'Deploy my app to staging'],
        // Every step of the agent's, as it started (a command by its first line).
        ['agent', "Running command: mkdir -p app && cat > app/server.js <<'JS'"],
        ['agent', 'Listing sizes'],
        ['agent', 'Planning todo-staging'],
        ['agent', 'Deploying todo-staging'],
        ['agent', 'I will run app/ as todo-staging on size local at $0.00/hour. Shall I deploy it?'],
        ['user', 'Yes, deploy it'],
        ['agent', 'Deploying todo-staging'],
        ['agent', 'Deploying todo-staging on local ($0.00/hour)…'],
        ['agent', 'todo-staging is up; checking that it answers…'],
        ['agent', 'todo-staging is up.'],
        ['user', 'Thanks, tear it down'],
        ['agent', 'Deleting todo-staging'],
        ['agent', 'Deleted todo-staging. Nothing is running now.'],
      ]);
      expect(shown.map((m) => m.is_complete)).toEqual([...Array(15).fill(false), true]);

      // Every model call of the DevOps agent was charged once, as DevOps usage of the conversation.
      const charges = await t.db
        .select()
        .from(creditLedger)
        .where(and(eq(creditLedger.userId, ada.id), eq(creditLedger.category, 'llm')));
      expect(charges.length).toBe(llm.completions.filter(devops).length);
      expect(new Set(charges.map((c) => `${c.subcategory} ${c.conversationId}`))).toEqual(new Set([`devops ${id}`]));
      expect(charges.every((c) => c.amountMicros !== 0n)).toBe(true);
    },
  );

  it('answers only its owner, one message at a time, with credits, and says why a turn failed', async () => {
    const ada = await signUp(t.app, t.db, 'ada-devops-2@acme.example');
    const eve = await signUp(t.app, t.db, 'eve-devops@acme.example');
    const { conversation_id: id } = await createRunning(t.app, ada.token);

    expect((await history(eve.token, id)).status).toBe(404);
    expect((await execute(eve.token, id, 'start')).status).toBe(404);
    expect((await execute(ada.token, 'no-such-session', 'start')).status).toBe(404);
    const impostor = await execute(ada.token, id, 'start', eve.id);
    expect(impostor).toMatchObject({ status: 403, body: { detail: 'user_id is not the signed-in user.' } });
    expect((await history(ada.token, id)).body?.messages).toEqual([]);

    llm.enqueue(reply.text('Still thinking', { when: devops, delayMs: 500 }));
    const [first, second] = await Promise.all([
      execute(ada.token, id, 'start'),
      new Promise((resolve) => setTimeout(resolve, 100)).then(() => execute(ada.token, id, 'again')),
    ]);
    expect(first.status).toBe(200);
    expect(second).toMatchObject({
      status: 409,
      body: { detail: 'The DevOps agent is still answering your previous message.' },
    });

    llm.enqueue(reply.error(400, 'model refused the request', { when: devops }));
    const failed = await execute(ada.token, id, 'Deploy');
    expect(failed.status).toBe(502);
    expect(failed.body?.detail).toMatch(/^The model call failed: .*model refused the request/);

    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: ada.token });
    const stopped = await execute(ada.token, id, 'Deploy');
    expect(stopped).toMatchObject({
      status: 409,
      body: { detail: "The conversation's runtime is not running: open the conversation, then try again." },
    });

    // Below $0.10 of credits the agent takes no message.
    const balance = await balanceMicros(t.db, ada.id);
    await chargeUsage(t.db, {
      userId: ada.id,
      amountMicros: balance - 50_000n,
      description: 'spent',
      idempotencyKey: 'drain-devops',
      conversationId: id,
      category: 'llm',
      subcategory: 'chat',
    });
    const broke = await execute(ada.token, id, 'Deploy');
    expect(broke).toMatchObject({ status: 402, body: { detail: INSUFFICIENT_CREDITS } });
  });
});
