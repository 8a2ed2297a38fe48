import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ScenarioFactory, type Scenario, titleReply, finishReply } from '../../../tests/agent/scenario.ts';
import { reply, withTools } from '../../../tests/support/fake-llm/index.ts';

const scenarios = new ScenarioFactory();
let scenario: Scenario | undefined;
afterEach(async () => scenario?.close());
afterAll(async () => scenarios.cleanup());

describe('the built-in tools on a real runtime', () => {
  it('leaves a long command running, polls it, and interrupts it with C-c', async () => {
    scenario = await scenarios.start({
      script: (llm) =>
        llm.enqueue(
          titleReply,
          reply.toolCall(
            'execute_bash',
            { command: 'for i in 1 2 3 4 5 6 7 8 9; do echo tick $i; sleep 1; done', timeout: 1 },
            { when: withTools },
          ),
          reply.toolCall('execute_bash', { command: '', timeout: 1 }, { when: withTools }),
          reply.toolCall('execute_bash', { command: 'C-c', is_input: true }, { when: withTools }),
          reply.toolCall('execute_bash', { command: 'echo after' }, { when: withTools }),
          finishReply,
        ),
    });
    scenario.say('Tick');
    await scenario.store.waitForState('FINISHED', { timeoutMs: 20_000 });
    const [started, polled, interrupted, after] = scenario.store.events.filter((event) => event.observation === 'run');
    expect(started?.extras?.metadata?.exit_code).toBe(-1);
    expect(started?.content).toContain('tick 1');
    expect(started?.content).toContain('The command is still running');
    expect(polled?.extras?.metadata?.exit_code).toBe(-1);
    expect(polled?.content).toMatch(/tick [2-9]/);
    expect(interrupted?.extras?.metadata?.exit_code).not.toBe(-1);
    expect(after).toMatchObject({ content: 'after', extras: { metadata: { exit_code: 0 } } });
  }, 30_000);

  it('runs Python cells, or says clearly that Python is unavailable', async () => {
    scenario = await scenarios.start({
      script: (llm) =>
        llm.enqueue(
          titleReply,
          reply.toolCall('execute_ipython_cell', { code: 'x = 6 * 7\nprint(x)' }, { when: withTools }),
          finishReply,
        ),
    });
    scenario.say('Compute');
    await scenario.store.waitForState('FINISHED', { timeoutMs: 30_000 });
    const action = scenario.store.events.find((event) => event.action === 'run_ipython');
    expect(action?.args?.code).toBe('x = 6 * 7\nprint(x)');
    const result = scenario.store.events.find((event) => event.cause === action?.id);
    const unavailable = await scenario.store.host.runtime.pythonUnavailable();
    if (unavailable === null)
      expect(result).toMatchObject({
        observation: 'run_ipython',
        content: '42',
        extras: { code: 'x = 6 * 7\nprint(x)' },
      });
    else
      expect(result).toMatchObject({
        observation: 'error',
        content: expect.stringContaining('Python (IPython) is not available'),
      });
  }, 40_000);

  it('browses an app it serves on the workspace port: navigate, fill, click, with screenshots', async () => {
    scenario = await scenarios.start();
    const { store, llm } = scenario;
    const port = store.host.runtime.ports[0];
    const page = `<title>Shop</title><h1>Hello Atelier</h1><input id="q"><button id="go" onclick="document.getElementById('out').textContent = 'You typed ' + document.getElementById('q').value">Go</button><p id="out"></p>`;
    llm.enqueue(
      titleReply,
      reply.toolCall(
        'str_replace_editor',
        { command: 'create', path: 'site/index.html', file_text: page },
        { when: withTools },
      ),
      reply.toolCall(
        'execute_bash',
        {
          command:
            'cd site && (python3 -m http.server $APP_PORT_1 --bind 0.0.0.0 > ../server.log 2>&1 &) && sleep 1 && cd ..',
        },
        { when: withTools },
      ),
      reply.toolCall('browser', { code: `goto("http://127.0.0.1:${port}/")` }, { when: withTools }),
      reply.toolCall('browser', { code: 'fill("#q", "cake")\nclick("#go")' }, { when: withTools }),
      finishReply,
    );
    scenario.say('Serve a page and try it');
    await store.waitForState('FINISHED', { timeoutMs: 40_000 });
    const browse = store.events.find((event) => event.observation === 'browse');
    expect(store.events.find((event) => event.id === browse?.cause)?.args?.url).toBe(`http://127.0.0.1:${port}/`);
    expect(browse?.extras?.url).toBe(`http://127.0.0.1:${port}/`);
    expect(browse?.extras?.screenshot).toMatch(/^data:image\/png;base64,/);
    expect(browse?.content).toContain('Hello Atelier');
    const interactive = store.events.find((event) => event.observation === 'browse_interactive');
    expect(store.events.find((event) => event.id === interactive?.cause)?.args?.browser_actions).toBe(
      'fill("#q", "cake")\nclick("#go")',
    );
    expect(interactive?.content).toContain('You typed cake');
  }, 60_000);
});
