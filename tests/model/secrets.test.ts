import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import {
  secretsMachine,
  selectBusy,
  selectDeleting,
  selectDialog,
  selectDraft,
  selectFailure,
  selectFieldErrors,
  selectSecret,
  type SecretsEvent,
} from '../../machines/secrets.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const secret = { name: 'DEPLOY_TOKEN', description: 'Deploys the staging site' };
const taken = Object.assign(new Error('A secret named DEPLOY_TOKEN already exists.'), { status: 409 });
const events: (SecretsEvent | AnyEventObject)[] = [
  { type: 'ADD' },
  { type: 'EDIT', secret },
  { type: 'FIELD_CHANGED', field: 'name', value: ' STAGING_TOKEN ' },
  { type: 'FIELD_CHANGED', field: 'name', value: '2FA-CODE' },
  { type: 'FIELD_CHANGED', field: 'value', value: 's3cr3t value' },
  { type: 'SUBMIT' },
  { type: 'DELETE', secret },
  { type: 'CONFIRM' },
  { type: 'CLOSE' },
  { type: 'xstate.done.actor.saveSecret' },
  { type: 'xstate.error.actor.saveSecret', error: taken },
  { type: 'xstate.done.actor.deleteSecret' },
  { type: 'xstate.error.actor.deleteSecret', error: taken },
];
const fakes: FakeSideEffects = { promises: ['saveSecret', 'deleteSecret'], callbacks: {}, actions: [] };

function expectStep({ event, before, after, started }: StepRecord) {
  for (const { src, input } of started) {
    const draft = selectDraft(after);
    if (src === 'saveSecret')
      // A new secret is sent whole; an edited one only with what changed (the value only when typed).
      expect(input).toEqual(
        selectSecret(after)
          ? {
              name: secret.name,
              update:
                draft.name.trim() === secret.name && draft.value === ''
                  ? null
                  : {
                      ...(draft.name.trim() !== secret.name && { name: draft.name.trim() }),
                      ...(draft.value !== '' && { value: draft.value }),
                    },
            }
          : { create: { name: draft.name.trim(), value: draft.value, description: null } },
      );
    if (src === 'deleteSecret') expect(input).toBe(secret.name);
  }
  // Save with a mistake in the form sends nothing and names the mistakes under their fields.
  const errors = selectFieldErrors(after);
  if (event.type === 'SUBMIT') expect(started.length === 0).toBe(Object.keys(errors).length > 0);
  if (event.type === 'ADD' || event.type === 'EDIT') expect(errors).toEqual({});
  if (after.context.submitted && selectDraft(after).name === '2FA-CODE') expect(errors.name).toBe('namePattern');
  // Adding needs a value; editing keeps the value when none is typed.
  if (after.context.submitted && selectDraft(after).value === '')
    expect(errors.value).toBe(selectSecret(after) ? undefined : 'valueRequired');
  // An edited secret's form starts from its name and description, never its value.
  if (event.type === 'EDIT') expect(selectDraft(after)).toEqual({ ...secret, value: '' });
  if (event.type === 'ADD') expect(selectDraft(after)).toEqual({ name: '', value: '', description: '' });
  // A refusal stays in its dialog with the server's words; a new attempt hides them.
  if (event.type === 'xstate.error.actor.saveSecret') expect(selectDialog(after)).toBe('edit');
  if (event.type === 'xstate.error.actor.deleteSecret') expect(selectDialog(after)).toBe('delete');
  if (/^xstate\.error\.actor\./.test(event.type)) expect(selectFailure(after)).toBe(taken);
  if (selectBusy(after) || ['ADD', 'EDIT', 'DELETE'].includes(event.type)) expect(selectFailure(after)).toBeNull();
  expect(selectDeleting(after)).toBe(selectDialog(after) === 'delete' ? secret : null);
  expect(selectBusy(after)).toBe(after.matches('saving') || after.matches('deleting'));
  if (before.matches('idle')) expect(event.type).toMatch(/^(ADD|EDIT|DELETE)$/);
}

const coverage = new Coverage(secretsMachine);
let pathCount = 0;

describe('secrets machine, every edge of its graph', () => {
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(secretsMachine, { events }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(secretsMachine, path, { fakes, coverage, expectStep });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});
