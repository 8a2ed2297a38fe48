import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ScenarioFactory, type Scenario, titleReply, finishReply } from '../../../tests/agent/scenario.ts';
import { reply, withTools, withoutTools, type ChatRequest } from '../../../tests/support/fake-llm/index.ts';

const scenarios = new ScenarioFactory();
let scenario: Scenario | undefined;
afterEach(async () => scenario?.close());
afterAll(async () => scenarios.cleanup());

/** On the wire: every assistant tool call is answered by the tool messages right after it, and every tool message answers such a call. */
function expectPairedToolCalls(request: ChatRequest): void {
  const messages = request.messages;
  messages.forEach((message, index) => {
    if (message.role !== 'tool') return;
    let back = index - 1;
    while (messages[back]?.role === 'tool') back--;
    const calls = (messages[back]?.tool_calls ?? []) as { id: string }[];
    expect(
      calls.map((call) => call.id),
      `tool message ${index} answers a call just before it`,
    ).toContain(message.tool_call_id);
  });
  messages.forEach((message, index) => {
    const calls = (message.tool_calls ?? []) as { id: string }[];
    const answers = messages.slice(index + 1, index + 1 + calls.length).map((next) => next.tool_call_id);
    expect(answers, `the calls of message ${index} are answered next`).toEqual(calls.map((call) => call.id));
  });
}

describe('the model context', () => {
  it('condenses a long task to fit the context window, keeping the first message, the recall and every call with its result', async () => {
    const steps = Array.from({ length: 12 }, (_, i) =>
      reply.toolCall('execute_bash', { command: `seq ${i} 600` }, { when: withTools }),
    );
    scenario = await scenarios.start({
      agent: { contextWindow: 12_000 },
      script: (llm) => llm.enqueue(titleReply, ...steps, finishReply),
    });
    scenario.say('Count a lot');
    await scenario.store.waitForState('FINISHED', { timeoutMs: 30_000 });

    const requests = scenario.llm.completions.filter(withTools);
    const condensed = requests.filter((request) =>
      request.messages.some((message) => String(message.content).includes('were condensed to fit the context window')),
    );
    expect(condensed.length).toBeGreaterThan(0);
    for (const request of requests) {
      expectPairedToolCalls(request);
      expect(request.messages[1]).toEqual({ role: 'user', content: 'Count a lot' });
      expect(String(request.messages[2]?.content)).toContain('RUNTIME_INFORMATION');
    }
    const last = requests.at(-1);
    expect(JSON.stringify(last).length).toBeLessThan(12_000 * 4);
  }, 40_000);

  it('puts a message sent while a command runs after that command’s result', async () => {
    scenario = await scenarios.start({
      script: (llm) =>
        llm.enqueue(
          titleReply,
          reply.toolCall('execute_bash', { command: 'sleep 1 && echo slept' }, { when: withTools }),
          finishReply,
        ),
    });
    const { store, llm } = scenario;
    scenario.say('Sleep');
    await store.waitFor((event) => event.action === 'run');
    scenario.say('Also, be quick');
    await store.waitForState('FINISHED');
    const second = llm.completions.filter(withTools)[1];
    expect(second?.messages.slice(-3).map((message) => message.role)).toEqual(['assistant', 'tool', 'user']);
    expect(second?.messages.at(-1)?.content).toBe('Also, be quick');
    expect(store.states).toEqual(['LOADING', 'AWAITING_USER_INPUT', 'RUNNING', 'FINISHED']);
  });

  it('recalls repository instructions and the knowledge a message triggers', async () => {
    scenario = await scenarios.start({
      settings: {
        conversationInstructions: 'Answer in French.',
        customSecretsDescriptions: { GITHUB_TOKEN: 'a GitHub token' },
        repository: { name: 'acme/shop', directory: '.', gitHost: null },
      },
      script: (llm) =>
        llm.enqueue(
          titleReply,
          reply.text('Compris.', { when: withTools }),
          reply.text('Docker, oui.', { when: withTools }),
        ),
    });
    const { store, llm } = scenario;
    const runtime = store.host.runtime;
    await runtime.writeFile('.openhands/microagents/repo.md', '# Repo\nRun tests with npm test.');
    await runtime.writeFile(
      '.openhands/microagents/docker.md',
      '---\nname: docker\ntriggers:\n  - docker\n---\nUse docker compose.',
    );
    scenario.say('Hello');
    const first = await store.waitFor((event) => event.observation === 'recall');
    expect(first.extras).toMatchObject({
      recall_type: 'workspace_context',
      repo_name: 'acme/shop',
      repo_directory: '.',
      runtime_hosts: { 'http://localhost:51001': runtime.ports[0], 'http://localhost:51002': runtime.ports[1] },
      repo_instructions: '# Repo\nRun tests with npm test.',
      additional_agent_instructions: 'Answer in French.',
      custom_secrets_descriptions: { GITHUB_TOKEN: 'a GitHub token' },
      microagent_knowledge: [],
    });
    expect(first.extras?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const answered = await store.waitForState('AWAITING_USER_INPUT', { after: first.id });
    scenario.say('Can you use Docker?');
    const knowledge = await store.waitFor((event) => event.observation === 'recall', { after: answered.id });
    expect(knowledge.extras).toEqual({
      recall_type: 'knowledge',
      microagent_knowledge: [{ name: 'docker', trigger: 'docker', content: 'Use docker compose.' }],
    });
    await store.waitForState('AWAITING_USER_INPUT', { after: knowledge.id });
    const context = JSON.stringify(llm.completions.filter(withTools)[1]?.messages);
    expect(context).toContain('acme/shop');
    expect(context).toContain('Run tests with npm test.');
    expect(context).toContain('Answer in French.');
    expect(context).toContain('Use docker compose.');
  });

  it('reads microagents again for every message: one added later, and changed instructions, count', async () => {
    scenario = await scenarios.start({
      script: (llm) =>
        llm.enqueue(
          titleReply,
          reply.text('Hello.', { when: withTools }),
          reply.text('Deploying.', { when: withTools }),
          reply.text('Noted.', { when: withTools }),
        ),
    });
    const { store, llm } = scenario;
    const runtime = store.host.runtime;
    scenario.say('Hello');
    const first = await store.waitFor((event) => event.observation === 'recall');
    expect(first.extras).toMatchObject({ repo_instructions: '', microagent_knowledge: [] });
    const answered = await store.waitForState('AWAITING_USER_INPUT', { after: first.id });

    // Added after the first message: a knowledge microagent and the repository's instructions.
    await runtime.writeFile(
      '.openhands/microagents/deploy.md',
      '---\nname: deploy\ntriggers:\n  - deploy\n---\nDeploy with make release.',
    );
    await runtime.writeFile('.openhands/microagents/repo.md', 'Use pnpm, never npm.');
    scenario.say('Please deploy it');
    const later = await store.waitFor((event) => event.observation === 'recall', { after: answered.id });
    expect(later.extras).toEqual({
      recall_type: 'knowledge',
      microagent_knowledge: [{ name: 'deploy', trigger: 'deploy', content: 'Deploy with make release.' }],
      repo_instructions: 'Use pnpm, never npm.',
    });
    const deployed = await store.waitForState('AWAITING_USER_INPUT', { after: later.id });
    expect(JSON.stringify(llm.completions.filter(withTools)[1]?.messages)).toContain(
      "The repository's instructions changed; from now on they are:\\nUse pnpm, never npm.",
    );

    // Unchanged, and already recalled: nothing is recalled again.
    scenario.say('And deploy once more');
    await store.waitForState('AWAITING_USER_INPUT', { after: deployed.id });
    expect(store.events.filter((event) => event.observation === 'recall')).toHaveLength(2);
  });

  it('falls back to the first line of the message for the title when the model cannot give one', async () => {
    scenario = await scenarios.start({
      script: (llm) =>
        llm.enqueue(
          reply.error(500, 'no titles today', { when: withoutTools }),
          reply.text('Hi.', { when: withTools }),
        ),
    });
    scenario.say('Make me a website for my bakery with online orders and delivery tracking\nIt should be pink.');
    await expect.poll(() => scenario?.store.titles).toEqual(['Make me a website for my bakery with online order…']);
  });
});
