import { describe, expect, it } from 'vitest';
import { parseMicroagent, triggeredKnowledge } from './microagents.ts';

describe('parseMicroagent', () => {
  it('reads the name and triggers from the YAML front matter', () => {
    const text = '---\nname: docker\ntriggers:\n  - docker\n  - container\n---\nUse `docker compose up -d`.\n';
    expect(parseMicroagent('docker.md', text)).toEqual({
      name: 'docker',
      type: 'knowledge',
      triggers: ['docker', 'container'],
      content: 'Use `docker compose up -d`.',
    });
  });

  it('names a file without front matter after the file, with no triggers', () => {
    expect(parseMicroagent('repo.md', '# Repo\nRun npm test.')).toEqual({
      name: 'repo',
      type: 'repo',
      triggers: [],
      content: '# Repo\nRun npm test.',
    });
  });

  it('keeps the content when the front matter is not valid YAML', () => {
    expect(parseMicroagent('x.md', '---\ntriggers: [unclosed\n---\nBody')).toEqual({
      name: 'x',
      type: 'repo',
      triggers: [],
      content: 'Body',
    });
  });

  it('follows a declared type (or agent) over the triggers, and keeps no triggers for a repo microagent', () => {
    const declared = (header: string) =>
      parseMicroagent('Testing.MD', `---\n${header}\ntriggers: [test, ' ']\n---\nRun it.`);
    expect(declared('type: repo')).toEqual({ name: 'Testing', type: 'repo', triggers: [], content: 'Run it.' });
    expect(declared('agent: knowledge')).toMatchObject({ type: 'knowledge', triggers: ['test'] });
    expect(parseMicroagent('t.md', '---\nname: "  t  "\ntype: knowledge\n---\nX')).toEqual({
      name: 't',
      type: 'knowledge',
      triggers: [],
      content: 'X',
    });
  });
});

describe('triggeredKnowledge', () => {
  const knowledge = [
    { name: 'docker', triggers: ['docker', 'container'], content: 'D' },
    { name: 'git', triggers: ['git'], content: 'G' },
  ];

  it('matches triggers anywhere in the message, ignoring case', () => {
    expect(triggeredKnowledge(knowledge, 'Put it in a Container please')).toEqual([
      { name: 'docker', trigger: 'container', content: 'D' },
    ]);
  });

  it('lists each microagent once', () => {
    expect(triggeredKnowledge(knowledge, 'docker container with git')).toEqual([
      { name: 'docker', trigger: 'docker', content: 'D' },
      { name: 'git', trigger: 'git', content: 'G' },
    ]);
  });

  it('finds nothing when no trigger occurs', () => {
    expect(triggeredKnowledge(knowledge, 'hello')).toEqual([]);
  });
});
