import { afterAll, describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { signInMachine, type SignInEvent } from '../../machines/sign-in.ts';
import { emailError } from '../../machines/validation.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const events: SignInEvent[] = [
  { type: 'FIELD_CHANGED', field: 'email', value: 'ada@atelier' },
  { type: 'FIELD_CHANGED', field: 'email', value: ' ada@atelier.test ' },
  { type: 'FIELD_CHANGED', field: 'password', value: 'correct horse' },
  { type: 'REMEMBER_ME_CHANGED', rememberMe: false },
  { type: 'SUBMIT' },
];

const summarize = (snapshot: AnyMachineSnapshot) => ({
  email: emailError(snapshot.context.email) ?? 'valid',
  password: snapshot.context.password !== '',
  rememberMe: snapshot.context.rememberMe,
  errors: snapshot.context.errors,
});

const fakes: FakeSideEffects = { promises: [], callbacks: {}, actions: ['submitCredentials'] };

function expectSideEffects({ event, before, after, effects }: StepRecord) {
  if (event.type !== 'SUBMIT') {
    expect(effects).toEqual([]);
    return;
  }
  const valid = emailError(before.context.email) === undefined && before.context.password !== '';
  expect(effects).toEqual(valid ? ['submitCredentials'] : []);
  expect(Object.keys(after.context.errors).length > 0).toBe(!valid);
}

const coverage = new Coverage(signInMachine);
const paths = withoutPrefixPaths(pathsThroughEveryEdge(signInMachine, { events, summarize }));

describe('sign-in form machine, every edge of its graph', () => {
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    await runPath(signInMachine, path, { fakes, coverage, expectStep: expectSideEffects });
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(paths.length)));
});

describe('sign-in form rules', () => {
  const start = () => createActor(signInMachine.provide({ actions: { submitCredentials: () => {} } })).start();

  it('keeps me signed in by default', () => {
    expect(start().getSnapshot().context.rememberMe).toBe(true);
  });

  it('names the errors of an empty form and of an invalid email, and clears an error when its field is edited', () => {
    const form = start();
    form.send({ type: 'SUBMIT' });
    expect(form.getSnapshot().context.errors).toEqual({ email: 'emailRequired', password: 'passwordRequired' });
    form.send({ type: 'FIELD_CHANGED', field: 'password', value: 'x' });
    expect(form.getSnapshot().context.errors).toEqual({ email: 'emailRequired' });
    form.send({ type: 'FIELD_CHANGED', field: 'email', value: 'ada@atelier' });
    form.send({ type: 'SUBMIT' });
    expect(form.getSnapshot().context.errors).toEqual({ email: 'emailInvalid' });
  });
});
