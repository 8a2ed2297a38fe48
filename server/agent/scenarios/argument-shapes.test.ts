import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ScenarioFactory, titleReply, type Scenario } from '../../../tests/agent/scenario.ts';
import { reply, withTools } from '../../../tests/support/fake-llm/index.ts';

// Arguments as model families trained on OpenHands send them: every optional argument present,
// unused ones as null; numbers and flags as strings; view ranges past the end of the file.

const scenarios = new ScenarioFactory();
let scenario: Scenario | undefined;
afterEach(async () => scenario?.close());
afterAll(async () => scenarios.cleanup());

/** Every argument of the editor, those unused as null. */
const editor = (args: Record<string, unknown>) => ({
  command: null,
  path: null,
  file_text: null,
  old_str: null,
  new_str: null,
  insert_line: null,
  view_range: null,
  security_risk: null,
  ...args,
});

describe('arguments in the shapes models send', () => {
  it('are taken as meant: a scripted run completes without one wasted step', async () => {
    const calls = [
      reply.toolCall(
        'str_replace_editor',
        editor({ command: 'create', path: 'notes.txt', file_text: 'alpha\nbeta\ngamma\n' }),
        { when: withTools },
      ),
      reply.toolCall('str_replace_editor', editor({ command: 'view', path: 'notes.txt', view_range: [2, 40] }), {
        when: withTools,
      }),
      reply.toolCall(
        'str_replace_editor',
        editor({ command: 'insert', path: 'notes.txt', insert_line: '1', new_str: 'between' }),
        { when: withTools },
      ),
      reply.toolCall(
        'str_replace_editor',
        editor({ command: 'str_replace', path: 'notes.txt', old_str: '  gamma\n\n', new_str: 'GAMMA' }),
        { when: withTools },
      ),
      reply.toolCall(
        'execute_bash',
        { command: 'wc -l < notes.txt', is_input: 'false', timeout: '30', security_risk: null },
        { when: withTools },
      ),
      reply.toolCall('think', { thought: 'All four lines are there.' }, { when: withTools }),
      reply.toolCall('finish', { message: 'Done.', task_completed: 'true' }, { when: withTools }),
    ];
    scenario = await scenarios.start({ script: (llm) => llm.enqueue(titleReply, ...calls) });
    scenario.say('Write the notes');
    await scenario.store.waitForState('FINISHED', { timeoutMs: 20_000 });
    const { events } = scenario.store;
    // One model call per scripted step: no call had to be repeated with corrected arguments.
    expect(scenario.llm.completions.filter(withTools)).toHaveLength(calls.length);
    expect(events.filter((event) => event.observation === 'error')).toEqual([]);
    const observations = events.filter(
      (event) => event.observation === 'read' || event.observation === 'edit' || event.observation === 'run',
    );
    expect(
      observations.map((event) => event.content).filter((content) => /Invalid arguments|ERROR/.test(content ?? '')),
    ).toEqual([]);
    // The range past the end is clamped, and the model is told so.
    const viewed = observations.find((event) => event.observation === 'read')?.content ?? '';
    expect(viewed).toContain('2\tbeta');
    expect(viewed).toContain('3\tgamma');
    expect(viewed).toMatch(/NOTE: .*3/);
    const file = await readFile(path.join(scenario.store.host.runtime.workspaceDir, 'notes.txt'), 'utf8');
    expect(file).toBe('alpha\nbetween\nbeta\nGAMMA\n');
    expect(observations.find((event) => event.observation === 'run')?.content?.trim()).toBe('4');
  }, 30_000);
});
