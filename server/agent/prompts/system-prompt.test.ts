import { describe, expect, it } from 'vitest';
import { systemPrompt } from './system-prompt.ts';

const facts = {
  runtime: { workspaceDir: '/w', ports: [50001, 50002] as const, sandboxed: true },
  runtimeHosts: [],
  mcpTools: [],
};

describe('systemPrompt', () => {
  it('names the two app ports the user sees, and says no other port is shown', () => {
    const prompt = systemPrompt(facts);
    expect(prompt).toContain('serve it on port 50001 (reachable by the user at http://localhost:50001) or port 50002');
    expect(prompt).toContain('Only these two ports are shown to the user');
  });

  it('tells the agent how to push and open a pull request on the repository’s host, with the token’s variable', () => {
    const prompt = systemPrompt({
      ...facts,
      repository: {
        name: 'octo/widgets',
        gitHost: { provider: 'github', apiUrl: 'https://git.acme.dev/api/v3', tokenVariable: 'GITHUB_TOKEN' },
      },
    });
    expect(prompt).toContain('<GIT_HOST>');
    expect(prompt).toContain('https://git.acme.dev/api/v3/repos/octo/widgets/pulls');
    expect(prompt).toContain('Authorization: Bearer $GITHUB_TOKEN');
  });

  it('names each host’s own call: a GitLab merge request, a Bitbucket pull request', () => {
    const gitlab = systemPrompt({
      ...facts,
      repository: {
        name: 'group/sub/app',
        gitHost: { provider: 'gitlab', apiUrl: 'https://gitlab.com/api/v4', tokenVariable: 'GITLAB_TOKEN' },
      },
    });
    expect(gitlab).toContain('https://gitlab.com/api/v4/projects/group%2Fsub%2Fapp/merge_requests');
    const bitbucket = systemPrompt({
      ...facts,
      repository: {
        name: 'team/app',
        gitHost: { provider: 'bitbucket', apiUrl: 'https://api.bitbucket.org/2.0', tokenVariable: 'BITBUCKET_TOKEN' },
      },
    });
    expect(bitbucket).toContain('https://api.bitbucket.org/2.0/repositories/team/app/pullrequests');
  });

  it('says nothing of a git host without a repository or a token for it', () => {
    expect(systemPrompt(facts)).not.toContain('<GIT_HOST>');
    expect(systemPrompt({ ...facts, repository: { name: 'octo/widgets', gitHost: null } })).not.toContain('<GIT_HOST>');
  });
});
