import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { affiliateSessionMachine, type Affiliate, type AffiliateLogin } from '../../machines/affiliate-session.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const affiliate: Affiliate = {
  id: 'a1',
  full_name: 'Partner',
  email: 'partner@partners.example',
  is_verified: false,
  status: 'pending',
  created_at: '2026-11-25T00:00:00Z',
};
const login: AffiliateLogin = { token: 't', affiliateId: 'a1', rememberMe: false };
const refused = Object.assign(new Error('Invalid email or password.'), { status: 401 });
const events: AnyEventObject[] = [
  { type: 'LOG_IN', credentials: { email: 'partner@partners.example', password: 'pw', rememberMe: false } },
  { type: 'SIGNED_IN', login },
  { type: 'LOG_OUT' },
  { type: 'UNAUTHORIZED' },
  { type: 'OPEN_LOGIN' },
  { type: 'CLOSE_LOGIN' },
  { type: 'xstate.done.actor.loadAffiliate', output: affiliate },
  { type: 'xstate.error.actor.loadAffiliate', error: refused },
  { type: 'xstate.done.actor.logIn', output: login },
  { type: 'xstate.error.actor.logIn', error: refused },
  { type: 'xstate.done.actor.logOut' },
  { type: 'xstate.error.actor.logOut', error: new TypeError('Failed to fetch') },
];
const fakes: FakeSideEffects = {
  promises: ['loadAffiliate', 'logIn', 'logOut'],
  callbacks: {},
  actions: ['storeLogin', 'clearStoredLogin', 'announceFetchFailure', 'announceLoginFailure', 'goToAffiliatePage'],
};

/** What each step must do to the outside world (spec §4). */
function expectSideEffects({ event, effects, effectParams, after }: StepRecord) {
  switch (event.type) {
    case 'xstate.error.actor.loadAffiliate':
      expect(effects).toEqual(['clearStoredLogin', 'announceFetchFailure']);
      expect(after.context.affiliate).toBeNull();
      break;
    case 'xstate.done.actor.logIn':
    case 'SIGNED_IN':
      expect(effects).toEqual(['storeLogin']);
      expect(effectParams[0]).toEqual(login);
      break;
    case 'xstate.error.actor.logIn':
      expect(effects).toEqual(['announceLoginFailure']);
      expect(after.context.loginFailed).toBe(true);
      break;
    case 'UNAUTHORIZED':
      expect(effects).toEqual(['clearStoredLogin']);
      expect(after.context.affiliate).toBeNull();
      break;
    case 'xstate.done.actor.logOut':
    case 'xstate.error.actor.logOut':
      // Whatever the server answered, this browser forgets the session and shows /affiliate.
      expect(effects).toEqual(['clearStoredLogin', 'goToAffiliatePage']);
      expect(after.context.affiliate).toBeNull();
      break;
    default:
      expect(effects).toEqual([]);
  }
  // A signed-in affiliate never has the login dialog open.
  if (after.context.affiliate) expect(after.matches({ loginDialog: 'closed' })).toBe(true);
}

const coverage = new Coverage(affiliateSessionMachine);
let pathCount = 0;

describe('affiliate session machine, every edge of its graph', () => {
  for (const startedWithToken of [true, false]) {
    describe(startedWithToken ? 'with a stored token' : 'without a stored token', () => {
      const input = { startedWithToken };
      const paths = withoutPrefixPaths(pathsThroughEveryEdge(affiliateSessionMachine, { events, input }));
      pathCount += paths.length;
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        await runPath(affiliateSessionMachine, path, { fakes, input, coverage, expectStep: expectSideEffects });
      });
    });
  }

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});
