import { assign, setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedPromise } from '../../../machines/not-provided.ts';
import {
  JUMP_IN_QUESTION,
  LETS_GO,
  LOGIN_PROMPT,
  SIGNUP_PROMPT,
  UPLOAD_PROMPT,
} from '../../../openapi/chat-onboarding.ts';

// The chat-only onboarding agent's steps (spec §4): greet → understand the project → sign up or
// log in → upload files → confirm → upgrade to a full conversation. The steps write the spec's
// trigger phrases (the browser shows its inline forms on them); anything else the visitor asks
// in between is answered by the language model (the `answer` actor) without leaving the step.
// Cancelling a form rewinds to the step before it: signup or login back to the account choice,
// the upload on to the confirmation without files.

export const CREATE_ACCOUNT = 'Create an account';
export const HAVE_ACCOUNT = 'I have an account';
export const SKIP_UPLOAD = 'Continue without files';

export const GREETING =
  "Hi! I'm Atelier's onboarding assistant. Tell me what you would like to build, and I'll set up a workspace for it.";
export const ACCOUNT_QUESTION = `Thanks, that sounds like a great project. To build it you need an Atelier account. [${CREATE_ACCOUNT}] [${HAVE_ACCOUNT}]`;
export const uploadPrompt = () => `${UPLOAD_PROMPT} [${SKIP_UPLOAD}]`;
export const confirmation = (project: string, files: readonly string[]) =>
  [
    `Here is what I will set up: a workspace for "${project}"`,
    files.length ? ` with ${files.length === 1 ? '1 file' : `${files.length} files`} (${files.join(', ')}).` : '.',
    ` ${JUMP_IN_QUESTION} [${LETS_GO}]`,
  ].join('');
export const answered = (answer: string) => `${answer.trim()} [${CREATE_ACCOUNT}] [${HAVE_ACCOUNT}]`;
export const ANSWER_FAILED = `I could not answer that just now. [${CREATE_ACCOUNT}] [${HAVE_ACCOUNT}]`;
/** The upgrade failed: the reason (e.g. the account has no credit yet) and the choice to try again. */
export const upgradeFailed = (reason: string) => `I could not create your workspace: ${reason} [${LETS_GO}]`;

export interface OnboardingFlowContext {
  /** What the visitor said about the project, in order (the full conversation's first message). */
  project: string[];
  /** Workspace paths of the visitor's uploaded files. */
  files: string[];
  /** The signed-in account, once there is one. */
  userId: string | null;
}

export type OnboardingFlowEvent =
  | { type: 'MESSAGE'; text: string }
  | { type: 'AUTHENTICATED'; userId: string }
  | { type: 'FILES_UPLOADED'; files: string[] }
  | { type: 'REWIND'; reason: string };

const said = (text: string, phrase: string) => text.trim().toLowerCase() === phrase.toLowerCase();

export const onboardingFlowMachine = setup({
  types: {
    context: {} as OnboardingFlowContext,
    events: {} as OnboardingFlowEvent,
    input: {} as { userId: string | null },
  },
  actors: {
    /** The language model answers a free question in the current step's context. */
    answer: notProvidedPromise<string, { question: string; step: string }>('answer'),
    /** Creates the full conversation with the files and the project as its first message; answers its id. */
    upgrade: notProvidedPromise<string, OnboardingFlowContext>('upgrade'),
  },
  actions: {
    /** The agent's message to the visitor. */
    say: notProvidedAction<string>('say'),
    /** Tells the browser where the full conversation is. */
    announceUpgrade: notProvidedAction<string>('announceUpgrade'),
    keepProject: assign(({ context }, text: string) => ({ project: [...context.project, text.trim()] })),
    keepFiles: assign(({ context }, files: string[]) => ({ files: [...context.files, ...files] })),
    keepUser: assign((_, userId: string) => ({ userId })),
  },
  guards: {
    isSignedIn: ({ context }) => context.userId !== null,
    choseSignup: (_, text: string) => said(text, CREATE_ACCOUNT),
    choseLogin: (_, text: string) => said(text, HAVE_ACCOUNT),
    choseSkip: (_, text: string) => said(text, SKIP_UPLOAD),
    choseGo: (_, text: string) => said(text, LETS_GO),
  },
}).createMachine({
  id: 'onboardingFlow',
  context: ({ input }) => ({ project: [], files: [], userId: input.userId }),
  initial: 'greeting',
  states: {
    greeting: {
      entry: { type: 'say', params: GREETING },
      on: {
        MESSAGE: [
          {
            guard: 'isSignedIn',
            target: 'uploading',
            actions: { type: 'keepProject', params: ({ event }) => event.text },
          },
          { target: 'choosingAccount', actions: { type: 'keepProject', params: ({ event }) => event.text } },
        ],
      },
    },
    choosingAccount: {
      entry: { type: 'say', params: ACCOUNT_QUESTION },
      on: {
        MESSAGE: [
          { guard: { type: 'choseSignup', params: ({ event }) => event.text }, target: 'signingUp' },
          { guard: { type: 'choseLogin', params: ({ event }) => event.text }, target: 'loggingIn' },
          { target: '.answering' },
        ],
        AUTHENTICATED: { target: 'uploading', actions: { type: 'keepUser', params: ({ event }) => event.userId } },
      },
      initial: 'waiting',
      states: {
        waiting: {},
        answering: {
          invoke: {
            id: 'answer',
            src: 'answer',
            input: ({ event }) => ({ question: event.type === 'MESSAGE' ? event.text : '', step: 'account' }),
            // The answer, then the step's choices again: the latest agent message is the one whose buttons work.
            onDone: { target: 'waiting', actions: { type: 'say', params: ({ event }) => answered(event.output) } },
            onError: { target: 'waiting', actions: { type: 'say', params: ANSWER_FAILED } },
          },
        },
      },
    },
    signingUp: {
      entry: { type: 'say', params: SIGNUP_PROMPT },
      on: {
        AUTHENTICATED: { target: 'uploading', actions: { type: 'keepUser', params: ({ event }) => event.userId } },
        REWIND: 'choosingAccount',
      },
    },
    loggingIn: {
      entry: { type: 'say', params: LOGIN_PROMPT },
      on: {
        AUTHENTICATED: { target: 'uploading', actions: { type: 'keepUser', params: ({ event }) => event.userId } },
        REWIND: 'choosingAccount',
      },
    },
    uploading: {
      entry: { type: 'say', params: uploadPrompt() },
      on: {
        FILES_UPLOADED: { target: 'confirming', actions: { type: 'keepFiles', params: ({ event }) => event.files } },
        REWIND: 'confirming',
        MESSAGE: [{ guard: { type: 'choseSkip', params: ({ event }) => event.text }, target: 'confirming' }],
      },
    },
    confirming: {
      entry: {
        type: 'say',
        params: ({ context }) => confirmation(context.project.join(' '), context.files),
      },
      on: {
        MESSAGE: [
          { guard: { type: 'choseGo', params: ({ event }) => event.text }, target: 'upgrading' },
          // Anything else adds to the project, and the confirmation is asked again.
          { target: 'confirming', reenter: true, actions: { type: 'keepProject', params: ({ event }) => event.text } },
        ],
      },
    },
    upgrading: {
      invoke: {
        id: 'upgrade',
        src: 'upgrade',
        input: ({ context }) => context,
        onDone: { target: 'done', actions: { type: 'announceUpgrade', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: {
            type: 'say',
            params: ({ event }) => upgradeFailed((event.error as Error | undefined)?.message || 'please try again.'),
          },
        },
      },
    },
    failed: {
      on: { MESSAGE: { guard: { type: 'choseGo', params: ({ event }) => event.text }, target: 'upgrading' } },
    },
    done: { type: 'final' },
  },
});

export type OnboardingFlowSnapshot = SnapshotFrom<typeof onboardingFlowMachine>;
