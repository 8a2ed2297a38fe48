import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import {
  affiliateRegistrationMachine,
  registrationFailureText,
  registrationRequest,
  type AffiliateRegistrationValues,
} from '../../machines/affiliate-registration.ts';
import type { AffiliateLogin } from '../../machines/affiliate-session.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const values: AffiliateRegistrationValues = {
  full_name: ' Ada Partner ',
  email: ' ada@partners.example ',
  password: ' secret pass ',
  whatsapp: '+1 2025550123',
  telegram: '',
  website: ' https://ada.example ',
  youtube: '   ',
};
const login: AffiliateLogin = { token: 't', affiliateId: 'a1', rememberMe: true };
const refused = Object.assign(new Error('An affiliate with this email already exists.'), { status: 409 });
const events: AnyEventObject[] = [
  { type: 'SUBMIT', values },
  { type: 'SUBMIT', values: { ...values, whatsapp: '+1 123' } },
  { type: 'ACKNOWLEDGE' },
  { type: 'xstate.done.actor.register', output: { id: 'a1' } },
  { type: 'xstate.error.actor.register', error: refused },
  { type: 'xstate.done.actor.logIn', output: login },
  { type: 'xstate.error.actor.logIn', error: new TypeError('Failed to fetch') },
];
const fakes: FakeSideEffects = {
  promises: ['register', 'logIn'],
  callbacks: {},
  actions: ['storeAffiliateId', 'signIn', 'goToDashboard', 'askToLogIn'],
};

function expectSideEffects({ event, effects, effectParams, started, after }: StepRecord) {
  switch (event.type) {
    case 'SUBMIT': {
      // A number that is no phone number is not sent, and the form says so.
      const valid = (event as unknown as { values: AffiliateRegistrationValues }).values.whatsapp === values.whatsapp;
      expect(started).toEqual(valid ? [{ src: 'register', input: registrationRequest(values, 'partner-1') }] : []);
      expect(after.context.whatsappInvalid).toBe(!valid);
      break;
    }
    case 'xstate.done.actor.register':
      expect(effects).toEqual(['storeAffiliateId']);
      expect(effectParams[0]).toBe('a1');
      // The automatic login: the registered email, trimmed, and the password as typed.
      expect(started).toEqual([{ src: 'logIn', input: { email: 'ada@partners.example', password: ' secret pass ' } }]);
      break;
    case 'xstate.done.actor.logIn':
      expect(effects).toEqual(['signIn', 'goToDashboard']);
      expect(effectParams[0]).toEqual(login);
      break;
    case 'xstate.error.actor.logIn':
      expect(effects).toEqual(['askToLogIn']);
      break;
    case 'xstate.error.actor.register':
      expect(effects).toEqual([]);
      expect(after.context.failure).toBe('An affiliate with this email already exists.');
      break;
    default:
      expect(effects).toEqual([]);
  }
  // The password is held only between the submission and the login that follows it.
  if (!after.matches('registering') && !after.matches('loggingIn')) expect(after.context.credentials).toBeNull();
}

const coverage = new Coverage(affiliateRegistrationMachine);
const input = { affiliateCode: 'partner-1' };
const paths = withoutPrefixPaths(pathsThroughEveryEdge(affiliateRegistrationMachine, { events, input }));

describe('affiliate registration machine, every edge of its graph', () => {
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    await runPath(affiliateRegistrationMachine, path, { fakes, input, coverage, expectStep: expectSideEffects });
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(paths.length)));
});

describe('affiliate registration request', () => {
  it('trims the values, sends empty optional fields as absent and adds the referrer’s code', () => {
    expect(registrationRequest(values, 'partner-1')).toEqual({
      full_name: 'Ada Partner',
      email: 'ada@partners.example',
      password: ' secret pass ',
      whatsapp: '+1 2025550123',
      website: 'https://ada.example',
      affiliate_code: 'partner-1',
    });
    expect(registrationRequest({ ...values, telegram: '@ada' }, null)).not.toHaveProperty('affiliate_code');
    expect(registrationRequest({ ...values, telegram: '@ada' }, null)).toHaveProperty('telegram', '@ada');
  });

  it('explains a failure with the server’s detail, else the error’s message, else leaves it to the generic text', () => {
    expect(registrationFailureText(refused)).toBe('An affiliate with this email already exists.');
    expect(registrationFailureText(Object.assign(new Error(''), { status: 500 }))).toBeNull();
    expect(registrationFailureText(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(registrationFailureText('?')).toBeNull();
  });
});
