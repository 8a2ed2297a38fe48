import { describe, expect, it } from 'vitest';
import { snapshotSettings } from './git-config.ts';

describe('snapshot settings from git config', () => {
  it('find the excludes file, the repository overriding the global config', () => {
    const global = '[core]\n\texcludesFile = "~/global ignore" ; a comment\n';
    expect(snapshotSettings([global])).toEqual({ unsupported: null, excludesFile: '~/global ignore' });
    expect(snapshotSettings([global, '[Core]\nexcludesfile=/repo/ignore\n']).excludesFile).toBe('/repo/ignore');
  });

  it('name what changes how git records files', () => {
    expect(snapshotSettings(['[core]\n\tfilemode = no\n']).unsupported).toBe('core.filemode=no');
    expect(snapshotSettings(['[core]\n\tignorecase\n']).unsupported).toBe('core.ignorecase=');
    expect(snapshotSettings(['[include]\n\tpath = other\n']).unsupported).toBe('config includes');
    expect(snapshotSettings(['[includeIf "gitdir:~/"]\n\tpath = other\n']).unsupported).toBe('config includes');
    expect(snapshotSettings(['[extensions]\n\tobjectFormat = sha256\n']).unsupported).toBe('extensions.objectformat');
  });

  it('accept what does not', () => {
    const usual =
      '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n[remote "origin"]\n\turl = https://example.com/r.git\n[user]\n\tname = A\n[extensions]\n\tobjectformat = sha1\n';
    expect(snapshotSettings([usual])).toEqual({ unsupported: null, excludesFile: null });
  });
});
