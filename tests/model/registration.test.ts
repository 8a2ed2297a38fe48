import { afterAll, describe, expect, it } from 'vitest';
import { initialTransition, type AnyEventObject, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { getPathsFromEvents, getSimplePaths, type StatePath } from 'xstate/graph';
import { registrationMachine, type RegistrationEvent, type RegistrationRequest } from '../../machines/registration.ts';
import { emailError } from '../../machines/validation.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  serializeEvent,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });

const fill = (field: 'name' | 'email' | 'password', value: string): RegistrationEvent => ({
  type: 'FIELD_CHANGED',
  field,
  value,
});

const events: (RegistrationEvent | AnyEventObject)[] = [
  fill('name', 'Ada Lovelace'),
  fill('email', 'ada@'),
  fill('email', 'ada@gmail.com'),
  fill('password', 'correct horse battery'),
  { type: 'SUBMIT' },
  { type: 'xstate.done.actor.register', output: { id: null, personal_email_detected: true } },
  { type: 'xstate.done.actor.register', output: { id: 'u-1', personal_email_detected: false } },
  { type: 'xstate.done.actor.register', output: { id: null, personal_email_detected: false } },
  { type: 'xstate.error.actor.register', error: refusal(409, 'An account with this email already exists.') },
  { type: 'xstate.error.actor.register', error: refusal(500, '') },
  { type: 'xstate.error.actor.register', error: new TypeError('Failed to fetch') },
  { type: 'CONTINUE_WITH_PERSONAL_EMAIL' },
  { type: 'USE_COMPANY_EMAIL' },
  { type: 'xstate.done.actor.logIn', output: { token: 'token-1', rememberMe: true } },
  { type: 'xstate.error.actor.logIn', error: refusal(429, 'Too many attempts') },
];

const input = { affiliateCode: 'FRIEND-42' };

/** States differ by their value and by what the context decides. */
const summarize = (snapshot: AnyMachineSnapshot) => ({
  value: snapshot.value,
  name: snapshot.context.name !== '',
  email: emailError(snapshot.context.email) ?? 'valid',
  password: snapshot.context.password !== '',
  errors: Object.keys(snapshot.context.errors).sort(),
  isPersonal: snapshot.context.isPersonal,
  failure: snapshot.context.failure?.kind ?? null,
});

const fakes: FakeSideEffects = {
  promises: ['register', 'logIn'],
  callbacks: {},
  actions: ['signIn', 'closeDialog', 'showDashboard'],
};

function expectSideEffects({ event, before, after, effects, started }: StepRecord) {
  if (event.type === 'xstate.done.actor.logIn') {
    expect(effects).toEqual(['signIn', 'closeDialog', 'showDashboard']);
  } else {
    expect(effects).toEqual([]);
  }
  for (const { src, input: sent } of started) {
    if (src === 'register') {
      const request = sent as RegistrationRequest;
      expect(request).toEqual({
        name: before.context.name.trim(),
        email: before.context.email.trim(),
        password: before.context.password,
        affiliate_code: 'FRIEND-42',
        // Registering again after 'Continue with Personal Email' is a personal registration.
        is_personal: event.type === 'CONTINUE_WITH_PERSONAL_EMAIL' || before.context.isPersonal,
      });
    }
    if (src === 'logIn') {
      expect(sent).toEqual({ email: after.context.email, password: after.context.password, rememberMe: true });
    }
  }
  // Choosing the company email empties the address field for it.
  if (event.type === 'USE_COMPANY_EMAIL') expect(after.context.email).toBe('');
  if (event.type === 'SUBMIT' && after.matches('editing')) {
    expect(Object.keys(after.context.errors).length).toBeGreaterThan(0);
  }
}

const coverage = new Coverage(registrationMachine);
let pathCount = 0;

describe('registration machine, every edge of its graph', () => {
  const paths = withoutPrefixPaths(pathsThroughEveryEdge(registrationMachine, { events, input, summarize }));
  pathCount += paths.length;
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(registrationMachine, path, { fakes, input, coverage, expectStep: expectSideEffects });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('registration journeys: every simple path from a filled form to an ending', () => {
  const filled = [
    fill('name', 'Ada Lovelace'),
    fill('email', 'ada@gmail.com'),
    fill('password', 'correct horse battery'),
  ];
  // getPathsFromEvents ignores `input` for its start, so the start is given explicitly.
  const [initial] = initialTransition(registrationMachine, input);
  const [fillingIn] = getPathsFromEvents(registrationMachine, filled, { fromState: initial, serializeEvent });
  if (!fillingIn) throw new Error('the form cannot be filled in');
  const journeyEvents = events.filter((event) => event.type !== 'FIELD_CHANGED');
  const journeys = getSimplePaths(registrationMachine, {
    input,
    fromState: fillingIn.state,
    serializeEvent,
    serializeState: (snapshot) =>
      JSON.stringify({
        value: snapshot.value,
        isPersonal: snapshot.context.isPersonal,
        failure: snapshot.context.failure,
      }),
    events: (snapshot) =>
      journeyEvents.filter((event) => snapshot.can(event as RegistrationEvent)) as RegistrationEvent[],
    toState: (snapshot) => snapshot.status === 'done',
  }).map((journey) => ({
    // Like joinPaths, which refuses when the graph's map replaced the start snapshot by an equal one.
    state: journey.state,
    steps: [...fillingIn.steps, ...journey.steps.slice(1)],
    weight: fillingIn.weight + journey.weight,
  })) as StatePath<AnyMachineSnapshot, EventObject>[];

  it('include both endings', () => {
    expect(journeys.some((path) => path.state.matches('signedIn'))).toBe(true);
    expect(journeys.some((path) => path.state.matches('signInFailed'))).toBe(true);
  });

  it.each(journeys.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    const reached = await runPath(registrationMachine, path, { fakes, input, coverage, expectStep: expectSideEffects });
    expect(reached.status).toBe('done');
  });
});
