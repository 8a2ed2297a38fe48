import { describe, expect, it } from 'vitest';
import { parseMicroagent } from './microagents.ts';

describe('microagent files', () => {
  it('reads front matter with triggers as a knowledge microagent', () => {
    const text = '---\nname: testing\ntype: knowledge\ntriggers:\n  - test\n  - vitest\n---\nRun `npm test`.\n';
    expect(parseMicroagent('testing.md', text)).toEqual({
      name: 'testing',
      type: 'knowledge',
      triggers: ['test', 'vitest'],
      content: 'Run `npm test`.',
    });
  });

  it('treats a file without front matter as a repo microagent named after the file', () => {
    expect(parseMicroagent('repo.md', '# Repo\nUse pnpm.')).toEqual({
      name: 'repo',
      type: 'repo',
      triggers: [],
      content: '# Repo\nUse pnpm.',
    });
  });
});
