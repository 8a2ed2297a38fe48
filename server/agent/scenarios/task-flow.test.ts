import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ScenarioFactory, type Scenario } from '../../../tests/agent/scenario.ts';
import { reply, withTools, withoutTools } from '../../../tests/support/fake-llm/index.ts';

const scenarios = new ScenarioFactory();
let scenario: Scenario | undefined;
afterEach(async () => scenario?.close());
afterAll(async () => scenarios.cleanup());

describe('a task from message to finish', () => {
  it('runs a command, edits a file and finishes, with every result linked to its action and metered', async () => {
    scenario = await scenarios.start({
      script: (llm) =>
        llm.enqueue(
          reply.text('Greeting file', { when: withoutTools }),
          reply.toolCall(
            'execute_bash',
            { command: 'echo hello > hello.txt && cat hello.txt', security_risk: 'LOW' },
            { text: 'I will create the file.', when: withTools },
          ),
          reply.toolCall(
            'str_replace_editor',
            {
              command: 'str_replace',
              path: 'hello.txt',
              old_str: 'hello',
              new_str: 'hello world',
              security_risk: 'LOW',
            },
            { when: withTools },
          ),
          reply.toolCall(
            'finish',
            { message: 'hello.txt now says hello world.', task_completed: 'true' },
            { when: withTools },
          ),
        ),
    });
    const { store, llm } = scenario;
    await store.waitForState('AWAITING_USER_INPUT');
    scenario.say('Create hello.txt saying hello world');
    await store.waitForState('FINISHED', { timeoutMs: 20_000 });

    const kinds = store.events
      .filter((event) => event.observation !== 'agent_state_changed')
      .map((event) => event.action ?? event.observation);
    expect(kinds).toEqual(['system', 'message', 'recall', 'run', 'run', 'edit', 'edit', 'finish']);
    expect(store.states).toEqual(['LOADING', 'AWAITING_USER_INPUT', 'RUNNING', 'FINISHED']);

    const byKind = (kind: string, role: 'action' | 'observation') =>
      store.events.filter((event) => event[role] === kind);
    const [message] = byKind('message', 'action');
    const [recall] = byKind('recall', 'observation');
    expect(recall?.cause).toBe(message?.id);
    expect(recall?.extras).toMatchObject({
      recall_type: 'workspace_context',
      runtime_hosts: { 'http://localhost:51001': expect.any(Number) },
    });

    const [runAction] = byKind('run', 'action');
    const [runResult] = byKind('run', 'observation');
    expect(runAction?.args).toMatchObject({
      command: 'echo hello > hello.txt && cat hello.txt',
      thought: 'I will create the file.',
      security_risk: 0,
    });
    expect(runResult).toMatchObject({ cause: runAction?.id, content: 'hello', extras: { metadata: { exit_code: 0 } } });
    const [editAction] = byKind('edit', 'action');
    const [editResult] = byKind('edit', 'observation');
    expect(editResult?.cause).toBe(editAction?.id);
    expect(editResult?.extras?.diff).toContain('+hello world');
    expect(byKind('finish', 'action')[0]?.args).toMatchObject({
      final_thought: 'hello.txt now says hello world.',
      task_completed: 'success',
    });
    expect(await store.host.runtime.readFile('hello.txt')).toBe('hello world\n');

    for (const event of store.events.filter((event) => event.source === 'agent'))
      expect(event.llm_metrics, `event ${event.id}`).toBeTruthy();
    const final = store.events.at(-1)?.llm_metrics;
    const steps = llm.completions.filter(withTools);
    expect(steps).toHaveLength(3);
    expect(final?.accumulated_cost).toBeGreaterThan(0);
    expect(final?.accumulated_token_usage.context_window).toBe(128_000);

    // The model saw the workspace, the ports and its earlier call with the result.
    const system = steps[0]?.messages[0];
    expect(system?.role).toBe('system');
    expect(String(system?.content)).toContain(store.host.runtime.workspaceDir);
    expect(String(system?.content)).toContain(String(store.host.runtime.ports[0]));
    const toolMessage = steps[1]?.messages.find((entry) => entry.role === 'tool');
    expect(toolMessage).toMatchObject({ content: 'hello' });
    expect(toolMessage?.tool_call_id).toBe(
      (runAction?.args?.tool_call_metadata as { tool_call_id: string }).tool_call_id,
    );

    expect(store.titles).toEqual(['Greeting file']);
    expect(llm.remaining).toBe(0);
  });
});
