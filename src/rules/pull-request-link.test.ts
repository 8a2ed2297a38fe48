import { describe, expect, it } from 'vitest';
import { findPullRequestLink } from './pull-request-link.ts';

describe('findPullRequestLink', () => {
  it.each([
    ['Opened https://github.com/octo/widgets/pull/12.', 'https://github.com/octo/widgets/pull/12', 'github'],
    [
      'GHES: https://git.acme.dev/octo/widgets/pull/7/files',
      'https://git.acme.dev/octo/widgets/pull/7/files',
      'github',
    ],
    [
      'MR: https://gitlab.com/group/sub/app/-/merge_requests/3',
      'https://gitlab.com/group/sub/app/-/merge_requests/3',
      'gitlab',
    ],
    [
      'See (https://bitbucket.org/team/app/pull-requests/45)',
      'https://bitbucket.org/team/app/pull-requests/45',
      'bitbucket',
    ],
    [
      'https://dev.azure.com/org/project/_git/repo/pullrequest/99',
      'https://dev.azure.com/org/project/_git/repo/pullrequest/99',
      'azure-devops',
    ],
    [
      'https://acme.visualstudio.com/project/_git/repo/pullrequest/5',
      'https://acme.visualstudio.com/project/_git/repo/pullrequest/5',
      'azure-devops',
    ],
    ['Gitea: http://127.0.0.1:3000/octo/widgets/pulls/8!', 'http://127.0.0.1:3000/octo/widgets/pulls/8', 'generic'],
  ])('finds the link in %j', (text, url, host) => {
    expect(findPullRequestLink(text)).toEqual({ url, host });
  });

  it('takes the first pull-request link, past other links', () => {
    expect(
      findPullRequestLink(
        'Docs at https://github.com/octo/widgets/blob/main/README.md; PR https://github.com/octo/widgets/pull/2 and https://github.com/octo/widgets/pull/3',
      ),
    ).toEqual({ url: 'https://github.com/octo/widgets/pull/2', host: 'github' });
  });

  it.each([
    'No link here.',
    'https://github.com/octo/widgets',
    'https://github.com/octo/widgets/pulls',
    'https://github.com/octo/widgets/pull/new/feature',
    'https://gitlab.com/group/app/-/merge_requests/new',
    'https://github.com/octo/widgets/issues/4',
  ])('finds none in %j', (text) => {
    expect(findPullRequestLink(text)).toBeNull();
  });
});
