import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { LOGIN_PROMPT, SIGNUP_PROMPT, asksToJumpIn, choicesOf } from '../../../openapi/chat-onboarding.ts';
import {
  ACCOUNT_QUESTION,
  ANSWER_FAILED,
  CREATE_ACCOUNT,
  GREETING,
  HAVE_ACCOUNT,
  SKIP_UPLOAD,
  answered,
  upgradeFailed,
  confirmation,
  onboardingFlowMachine,
  uploadPrompt,
} from './flow.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from '../../../tests/model/model-paths.ts';

// The chat-only onboarding agent's steps: every state and transition, from a visitor without an
// account and from one already signed in, with what the agent says on each step.

// Every message but Let's go! may add to the project (the confirmation takes them so): at most two
// per run, enough for every edge, and a finite graph.
const events = (snapshot: AnyMachineSnapshot): AnyEventObject[] => [
  ...((snapshot.context.project as string[]).length < 2
    ? [
        { type: 'MESSAGE', text: 'A todo app for my team' },
        { type: 'MESSAGE', text: CREATE_ACCOUNT },
        { type: 'MESSAGE', text: HAVE_ACCOUNT.toUpperCase() },
        { type: 'MESSAGE', text: SKIP_UPLOAD },
      ]
    : []),
  { type: 'MESSAGE', text: " Let's go! " },
  { type: 'AUTHENTICATED', userId: 'u-1' },
  { type: 'FILES_UPLOADED', files: ['todo.zip'] },
  { type: 'REWIND', reason: 'signup_cancelled' },
  { type: 'xstate.done.actor.answer', output: 'Atelier runs your app in a sandbox.' },
  { type: 'xstate.error.actor.answer', error: new Error('model down') },
  { type: 'xstate.done.actor.upgrade', output: 'conv-9' },
  { type: 'xstate.error.actor.upgrade', error: new Error('runtime full') },
];

const fakes: FakeSideEffects = { promises: ['answer', 'upgrade'], callbacks: {}, actions: ['say', 'announceUpgrade'] };

/** What the agent says on entering each step. */
function expectStep({ event, before, after, effects, effectParams, started }: StepRecord) {
  const saying = effectParams.filter((_, i) => effects[i] === 'say');
  const entered = (state: string) => after.matches(state) && !before.matches(state);
  if (entered('choosingAccount')) expect(saying).toEqual([ACCOUNT_QUESTION]);
  if (entered('signingUp')) expect(saying).toEqual([SIGNUP_PROMPT]);
  if (entered('loggingIn')) expect(saying).toEqual([LOGIN_PROMPT]);
  if (entered('uploading')) expect(saying).toEqual([uploadPrompt()]);
  if (after.matches('confirming') && saying.length > 0)
    expect(saying).toEqual([confirmation((after.context.project as string[]).join(' '), after.context.files)]);
  if (entered('failed')) expect(saying).toEqual([upgradeFailed('runtime full')]);
  if (event.type === 'xstate.done.actor.answer')
    expect(saying).toEqual([answered('Atelier runs your app in a sandbox.')]);
  if (event.type === 'xstate.error.actor.answer') expect(saying).toEqual([ANSWER_FAILED]);
  if (entered('done')) expect(effectParams).toEqual(['conv-9']);
  if (entered('upgrading'))
    expect(started).toEqual([{ src: 'upgrade', input: expect.objectContaining({ project: after.context.project }) }]);
}

const coverage = new Coverage(onboardingFlowMachine);
let pathCount = 0;

describe('chat-only onboarding flow, every edge of its graph', () => {
  for (const userId of [null, 'u-0']) {
    describe(userId ? 'a signed-in visitor' : 'a visitor without an account', () => {
      const input = { userId };
      const paths = withoutPrefixPaths(pathsThroughEveryEdge(onboardingFlowMachine, { events, input }));
      pathCount += paths.length;
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        const reached = await runPath(onboardingFlowMachine, path, { fakes, input, coverage, expectStep });
        expect(reached.value).toEqual(path.state.value);
      });
    });
  }

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('the onboarding agent’s words', () => {
  it('greets, offers its choices in square brackets, and ends the confirmation with the question and Let’s go!', () => {
    expect(GREETING).toContain('what you would like to build');
    expect(choicesOf(ACCOUNT_QUESTION)).toEqual([CREATE_ACCOUNT, HAVE_ACCOUNT]);
    expect(choicesOf(uploadPrompt())).toEqual([SKIP_UPLOAD]);
    const confirm = confirmation('A todo app', ['todo.zip']);
    expect(confirm).toBe(
      'Here is what I will set up: a workspace for "A todo app" with 1 file (todo.zip). Shall we jump in? [Let\'s go!]',
    );
    expect(choicesOf(confirm)).toEqual(["Let's go!"]);
    expect(asksToJumpIn(confirm)).toBe(true);
    expect(asksToJumpIn(ACCOUNT_QUESTION)).toBe(false);
  });
});
