import { afterAll, describe, expect, it } from 'vitest';
import { fromCallback, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import {
  chatOnboardingMachine,
  CHAT_ONBOARDING_DELAYS,
  formOf,
  type ChatSocketCommand,
  type ChatSocketReport,
  type OnboardingChat,
} from '../../machines/chat-onboarding.ts';
import { LOGIN_PROMPT, SIGNUP_PROMPT, UPLOAD_PROMPT } from '../../openapi/chat-onboarding.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

// The chat-only onboarding page: every state and transition, with what each step sends on the
// chat's socket and which of the spec's texts it shows.

const chat: OnboardingChat = { id: 'chat-1', token: 'chat-token' };
const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });
const file = new File(['export const x = 1;'], 'app.ts');
const after = (delay: string, state: string) => ({ type: `xstate.after.${delay}.chatOnboarding.chatting.${state}` });

const settled: AnyEventObject[] = [
  { type: 'xstate.done.actor.openChat', output: chat },
  { type: 'xstate.error.actor.openChat', error: new TypeError('Failed to fetch') },
  { type: 'xstate.done.actor.signUp', output: { language: 'en' } },
  { type: 'xstate.error.actor.signUp', error: refusal(400, 'Email already registered') },
  { type: 'xstate.done.actor.logIn', output: { language: 'de' } },
  { type: 'xstate.error.actor.logIn', error: refusal(401, 'Invalid credentials') },
  { type: 'xstate.done.actor.uploadFiles', output: { uploaded_files: ['app.ts'], skipped_files: [] } },
  { type: 'xstate.error.actor.uploadFiles', error: new TypeError('Failed to fetch') },
  after('refetchWait', 'steps.refetching'),
  after('refetchWait', 'steps.refetched'),
];
const visitorAndSocket: AnyEventObject[] = [
  { type: 'SEND', text: 'A todo app for my team' },
  { type: 'SEND', text: "  Let's go! " },
  { type: 'SIGN_UP', details: { name: 'Ada', email: 'ada@acme.example', password: 'long enough' } },
  { type: 'LOG_IN', details: { email: 'ada@acme.example', password: 'long enough' } },
  { type: 'UPLOAD', files: [file] },
  { type: 'CANCEL_FORM', form: 'signup' },
  { type: 'AGENT_MESSAGE' },
  { type: 'REWOUND' },
  { type: 'REWIND_FAILED' },
  { type: 'UPGRADED', conversationId: 'conv-9' },
  { type: 'REFUSED', text: 'The onboarding chat does not take run actions.' },
];
const arrivals: AnyEventObject[] = [{ type: 'EVENT_ARRIVED' }, after('loadingThreshold', 'messages.arriving')];

// A bounded graph: once a notice shows, a path goes on only to dismiss it (before anything was
// sent) or to settle what runs; the loading flag is independent of the steps and is walked
// before anything was sent.
const events = (snapshot: AnyMachineSnapshot): AnyEventObject[] => {
  const { notice, lastSent } = snapshot.context as { notice: unknown; lastSent: string | null };
  if (notice !== null) return [...settled, ...(lastSent === null ? [{ type: 'DISMISS_NOTICE' }] : [])];
  return [...settled, ...visitorAndSocket, ...(lastSent === null ? arrivals : [])];
};

// The socket is the machine's own fake: the reports above are sent as events; what the machine tells it is recorded.
let commands: ChatSocketCommand[] = [];
const machine = chatOnboardingMachine.provide({
  // Time passes only by the paths' own xstate.after steps.
  delays: { loadingThreshold: 1e9, refetchWait: 1e9 },
  actors: {
    chatSocket: fromCallback<ChatSocketCommand, { chat: OnboardingChat }, ChatSocketReport>(({ receive }) =>
      receive((command) => void commands.push(command)),
    ),
  },
});
const fakes: FakeSideEffects = {
  promises: ['openChat', 'signUp', 'logIn', 'uploadFiles'],
  callbacks: {},
  actions: ['rememberChat', 'openConversation'],
};

/** The steps that write on the socket; no other does. */
const TRANSMITTING = [
  'SEND',
  'CANCEL_FORM',
  'xstate.done.actor.signUp',
  'xstate.done.actor.logIn',
  'xstate.done.actor.uploadFiles',
  'xstate.after.refetchWait.chatOnboarding.chatting.steps.refetching',
];

const transmitted = () => commands.map((command) => (command.type === 'TRANSMIT' ? command.action : 'REFETCH'));

function expectStep({ event, before, after, effects, effectParams, started }: StepRecord) {
  const sent = transmitted();
  commands = [];
  const notice = after.context.notice as unknown;
  switch (event.type) {
    case 'xstate.done.actor.openChat':
      expect(effects).toEqual(['rememberChat']);
      expect(effectParams).toEqual([chat]);
      break;
    case 'xstate.error.actor.openChat':
      expect(notice).toEqual({ kind: 'message', message: 'initFailed' });
      break;
    case 'SEND':
      expect(sent).toEqual([
        { action: 'message', args: { content: (event as AnyEventObject).text.trim(), image_urls: [], file_urls: [] } },
      ]);
      expect(after.context.awaitingReply).toBe(true);
      break;
    case 'SIGN_UP':
    case 'LOG_IN':
    case 'UPLOAD': {
      const details = (event as AnyEventObject).details ?? undefined;
      const files = (event as AnyEventObject).files ?? undefined;
      expect(started).toEqual([
        { src: started[0]?.src, input: { chat, ...(details && { details }), ...(files && { files }) } },
      ]);
      break;
    }
    case 'CANCEL_FORM':
      expect(sent).toEqual([{ action: 'generic_rewind', args: { reason: 'signup_cancelled' } }]);
      break;
    case 'xstate.done.actor.signUp':
      // Signed in: the socket reconnects as the account's before the agent is told.
      expect(sent).toEqual([
        'REFETCH',
        { action: 'user_authenticated', args: { auth_method: 'signup', user_preferences: { language: 'en' } } },
      ]);
      break;
    case 'xstate.done.actor.logIn':
      expect(sent).toEqual([
        { action: 'user_authenticated', args: { auth_method: 'login', user_preferences: { language: 'de' } } },
      ]);
      break;
    case 'xstate.done.actor.uploadFiles':
      expect(sent).toEqual([{ action: 'files_uploaded', args: { uploaded_files: ['app.ts'], skipped_files: [] } }]);
      break;
    case 'xstate.error.actor.signUp':
      expect(notice).toEqual({ kind: 'server', text: 'Email already registered' });
      break;
    case 'xstate.error.actor.logIn':
      expect(notice).toEqual({ kind: 'message', message: 'loginFailed' });
      break;
    case 'xstate.error.actor.uploadFiles':
      expect(notice).toEqual({ kind: 'message', message: 'uploadFailed' });
      break;
    case 'REWIND_FAILED':
      expect(notice).toEqual({ kind: 'message', message: 'rewindFailed' });
      break;
    case 'REFUSED': {
      const byLastSent = { user_authenticated: 'notifyFailed', generic_rewind: 'rewindFailed' } as Record<
        string,
        string
      >;
      expect(notice).toEqual({ kind: 'message', message: byLastSent[before.context.lastSent] ?? 'sendFailed' });
      expect(after.context.awaitingReply).toBe(false);
      break;
    }
    case 'AGENT_MESSAGE':
      expect(after.context.awaitingReply).toBe(false);
      if (before.matches({ chatting: { steps: 'awaitingUpgrade' } }))
        expect(notice).toEqual({ kind: 'message', message: 'startFailed' });
      break;
    case 'UPGRADED':
      expect(effects).toEqual(['openConversation']);
      expect(effectParams).toEqual(['conv-9']);
      break;
    case 'xstate.after.refetchWait.chatOnboarding.chatting.steps.refetching':
      expect(sent).toEqual(['REFETCH']);
      break;
  }
  if (!TRANSMITTING.includes(event.type)) expect(sent).toEqual([]);
  if (!['xstate.done.actor.openChat', 'UPGRADED'].includes(event.type)) expect(effects).toEqual([]);
}

const input = { chatId: null };
const coverage = new Coverage(chatOnboardingMachine);
const paths = withoutPrefixPaths(pathsThroughEveryEdge(machine, { events, input }));

describe('chat-only onboarding page machine, every edge of its graph', () => {
  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
    commands = [];
    const reached = await runPath(machine, path, { fakes, input, coverage, expectStep });
    expect(reached.value).toEqual(path.state.value);
  });

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(paths.length)));
});

describe('chat-only onboarding texts and timings', () => {
  it('shows the form the agent’s latest message asks for', () => {
    expect(formOf(SIGNUP_PROMPT)).toBe('signup');
    expect(formOf(LOGIN_PROMPT)).toBe('login');
    expect(formOf(`${UPLOAD_PROMPT} [Continue without files]`)).toBe('upload');
    expect(formOf('What would you like to build?')).toBeNull();
    expect(formOf(null)).toBeNull();
  });

  it('waits 250 ms between messages for the loading flag and 100 ms between refetch steps (spec §9)', () => {
    expect(CHAT_ONBOARDING_DELAYS).toEqual({ loadingThreshold: 250, refetchWait: 100 });
    expect(chatOnboardingMachine.implementations.delays).toEqual(CHAT_ONBOARDING_DELAYS);
  });
});
