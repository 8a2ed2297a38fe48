import { QueryClient } from '@tanstack/react-query';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { sessionMachine, type ClientConfig, type SessionEvent } from '../../machines/session.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const config = (mode: ClientConfig['APP_MODE']): ClientConfig => ({
  APP_MODE: mode,
  FEATURE_FLAGS: { HIDE_LLM_SETTINGS: false, HIDE_MICROAGENT_MANAGEMENT: false },
  AFFILIATE_API_URL: '',
  PUBLIC_URL: 'http://localhost:3000',
  VSCODE_URL: null,
  SUPPORT_EMAIL: 'support@atelier.test',
  BUILD_NUMBER: 'test',
  OPERATOR_MODEL: null,
  SIGN_IN_PROVIDERS: [],
  HOSTED_PAYMENTS: false,
});

/** What a server refusal looks like to the machine (the shape of src/api's ApiError). */
const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });

const events: (SessionEvent | AnyEventObject)[] = [
  { type: 'xstate.done.actor.loadConfig', output: config('saas') },
  { type: 'xstate.done.actor.loadConfig', output: config('oss') },
  { type: 'xstate.error.actor.loadConfig', error: new TypeError('Failed to fetch') },
  { type: 'RETRY' },
  { type: 'LOG_IN', credentials: { email: 'ada@atelier.test', password: 'correct horse', rememberMe: false } },
  { type: 'xstate.done.actor.logIn', output: { token: 'token-1', rememberMe: false } },
  { type: 'xstate.error.actor.logIn', error: refusal(401, 'Invalid email or password.') },
  { type: 'xstate.error.actor.logIn', error: refusal(401, '') },
  { type: 'xstate.error.actor.logIn', error: refusal(503, '') },
  { type: 'xstate.error.actor.logIn', error: new TypeError('Failed to fetch') },
  { type: 'SIGNED_IN', obtained: { token: 'token-2', rememberMe: true } },
  { type: 'USER_LOADED' },
  { type: 'USER_FAILED', unauthorized: true },
  { type: 'USER_FAILED', unauthorized: false },
  { type: 'LOG_OUT' },
  { type: 'xstate.done.actor.logOut' },
  { type: 'xstate.error.actor.logOut', error: new TypeError('Failed to fetch') },
  { type: 'SIGN_IN_WITH', provider: { identity: 'github', authorize_url: 'https://github.com/login/oauth/authorize' } },
  { type: 'OPEN_SIGN_IN' },
  { type: 'OPEN_SIGN_UP' },
  { type: 'CLOSE_DIALOG' },
];

const fakes: FakeSideEffects = {
  promises: ['loadConfig', 'logIn', 'logOut'],
  callbacks: { observeUser: ['USER_LOADED', 'USER_FAILED'] },
  actions: [
    'storeToken',
    'clearToken',
    'forgetSession',
    'reloadAtDashboard',
    'goToIdentityProvider',
    'continueAfterSignIn',
    'announceUserLoadFailure',
  ],
};

/** The side effects each kind of step must have, whatever the path. */
function expectSideEffects({ event, before, after, effects }: StepRecord) {
  const was = (state: Parameters<typeof before.matches>[0]) => before.matches(state);
  switch (event.type) {
    case 'xstate.done.actor.logIn':
      expect(effects).toEqual(['storeToken', 'continueAfterSignIn']);
      expect(after.matches({ dialog: 'closed' })).toBe(true);
      expect(after.matches({ account: { authenticated: 'loadingUser' } })).toBe(true);
      break;
    case 'xstate.error.actor.logIn':
      expect(effects).toEqual([]);
      // Switching account failed: the current user stays signed in; else the visitor stays signed out.
      expect(after.matches({ account: was({ account: 'signingIn' }) ? 'signedOut' : { authenticated: 'ready' } })).toBe(
        true,
      );
      expect(after.context.loginFailure).not.toBeNull();
      break;
    case 'xstate.done.actor.logOut':
    case 'xstate.error.actor.logOut':
      // forgetSession drops the cached user with the rest of the account's queries.
      expect(effects).toEqual(['forgetSession', 'reloadAtDashboard']);
      expect(after.matches({ account: 'signedOut' })).toBe(true);
      break;
    case 'SIGN_IN_WITH':
      // Only the sign-in form leaves for a provider; nothing else changes here.
      expect(effects).toEqual(before.matches({ dialog: 'signIn' }) ? ['goToIdentityProvider'] : []);
      expect(after.value).toEqual(before.value);
      break;
    case 'SIGNED_IN':
      if (after.matches({ account: { authenticated: 'loadingUser' } })) expect(effects).toEqual(['storeToken']);
      break;
    case 'USER_FAILED':
      if (after.matches({ account: 'signedOut' })) {
        // clearToken drops the cached user with the rest of the account's queries.
        expect(effects).toEqual(['clearToken', 'announceUserLoadFailure']);
      } else {
        expect(effects).toEqual([]);
      }
      break;
    default:
      expect(effects).toEqual([]);
  }
  if (was({ account: 'loadingConfig' }) && event.type === 'xstate.done.actor.loadConfig') {
    expect(after.context.mode).toBe(((event as AnyEventObject).output as ClientConfig).APP_MODE);
  }
}

/** States differ by their value and by what the context decides; which failure or which user does not matter. */
const summarize = (snapshot: AnyMachineSnapshot) => ({
  value: snapshot.value,
  mode: snapshot.context.mode,
  hasLoginFailure: snapshot.context.loginFailure !== null,
});

const queryClient = new QueryClient();
const starts = [
  { startedWithToken: false, queryClient },
  { startedWithToken: true, queryClient },
];
const coverage = new Coverage(sessionMachine);
let pathCount = 0;

describe('session machine, every edge of its graph', () => {
  for (const input of starts) {
    const paths = withoutPrefixPaths(pathsThroughEveryEdge(sessionMachine, { events, input, summarize }));
    pathCount += paths.length;
    describe(input.startedWithToken ? 'with a stored token' : 'without a stored token', () => {
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        const reached = await runPath(sessionMachine, path, { fakes, input, coverage, expectStep: expectSideEffects });
        expect(reached.value).toEqual(path.state.value);
      });
    });
  }

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('session rules', () => {
  it('signs in the local user without a token in oss mode and offers no sign-in', async () => {
    const oss = pathsThroughEveryEdge(sessionMachine, { events, input: { startedWithToken: false, queryClient } }).find(
      (path) => path.state.matches({ account: { authenticated: 'ready' } }) && path.state.context.mode === 'oss',
    );
    expect(oss).toBeDefined();
    expect(oss?.steps.slice(1).map((step) => step.event.type)).toEqual(['xstate.done.actor.loadConfig', 'USER_LOADED']);
    expect(oss?.state.can({ type: 'OPEN_SIGN_IN' })).toBe(false);
    expect(oss?.state.can({ type: 'LOG_OUT' })).toBe(false);
  });
});
