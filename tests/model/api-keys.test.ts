import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import {
  apiKeysMachine,
  selectBusy,
  selectCopy,
  selectCreatedKey,
  selectDialog,
  selectFailure,
  selectNameMissing,
  selectRevoking,
  type ApiKeysEvent,
} from '../../machines/api-keys.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const key = {
  id: 'k-1',
  name: 'Nightly build',
  prefix: 'atl_12345678',
  created_at: '2026-01-01T00:00:00Z',
  last_used_at: null,
};
const created = { ...key, key: 'atl_12345678secretpart' };
const refused = Object.assign(new Error('Too many API keys.'), { status: 400 });
const events: (ApiKeysEvent | AnyEventObject)[] = [
  { type: 'CREATE' },
  { type: 'NAME_CHANGED', name: '  Nightly build ' },
  { type: 'NAME_CHANGED', name: '   ' },
  { type: 'SUBMIT' },
  { type: 'COPY' },
  { type: 'REVOKE', key },
  { type: 'CONFIRM' },
  { type: 'CLOSE' },
  { type: 'xstate.done.actor.createKey', output: created },
  { type: 'xstate.error.actor.createKey', error: refused },
  { type: 'xstate.done.actor.writeClipboard' },
  { type: 'xstate.error.actor.writeClipboard', error: new DOMException('Write permission denied.', 'NotAllowedError') },
  { type: 'xstate.done.actor.revokeKey' },
  { type: 'xstate.error.actor.revokeKey', error: refused },
];
const fakes: FakeSideEffects = { promises: ['createKey', 'revokeKey', 'writeClipboard'], callbacks: {}, actions: [] };

function expectStep({ event, before, after, started }: StepRecord) {
  for (const { src, input } of started) {
    // The name as typed, trimmed; the key revoked by its id; the new key, whole, to the clipboard.
    if (src === 'createKey') expect(input).toBe('Nightly build');
    if (src === 'revokeKey') expect(input).toBe(key.id);
    if (src === 'writeClipboard') expect(input).toBe(created.key);
  }
  // An empty name creates nothing and says so.
  if (event.type === 'SUBMIT' && before.context.name.trim() === '') {
    expect(started).toEqual([]);
    expect(selectNameMissing(after)).toBe(true);
  }
  if (event.type === 'CREATE') expect(selectNameMissing(after)).toBe(false);
  // The key is shown only in the dialog that follows its creation, and forgotten when that closes.
  expect(selectCreatedKey(after)).toBe(after.matches('showingKey') ? created.key : null);
  if (after.matches('showingKey')) expect(selectDialog(after)).toBe('created');
  // 'Copied' once the clipboard took the key, until the dialog closes or the next press.
  const copy =
    event.type === 'xstate.done.actor.writeClipboard'
      ? 'copied'
      : event.type === 'xstate.error.actor.writeClipboard'
        ? 'refused'
        : event.type === 'COPY' || !before.matches('showingKey') || !after.matches('showingKey')
          ? 'ready'
          : selectCopy(before);
  expect(selectCopy(after)).toBe(copy);
  // A refusal stays in its dialog with the server's words; a new attempt hides them.
  if (event.type === 'xstate.error.actor.createKey') expect(selectDialog(after)).toBe('create');
  if (event.type === 'xstate.error.actor.revokeKey') expect(selectDialog(after)).toBe('revoke');
  if (/^xstate\.error\.actor\.(createKey|revokeKey)$/.test(event.type)) expect(selectFailure(after)).toBe(refused);
  if (selectBusy(after) || ['CREATE', 'REVOKE'].includes(event.type)) expect(selectFailure(after)).toBeNull();
  expect(selectRevoking(after)).toBe(selectDialog(after) === 'revoke' ? key : null);
  expect(selectBusy(after)).toBe(after.matches('creating') || after.matches('revoking'));
}

const coverage = new Coverage(apiKeysMachine);
let pathCount = 0;

describe('API keys machine, every edge of its graph', () => {
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(apiKeysMachine, { events }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(apiKeysMachine, path, { fakes, coverage, expectStep });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});
