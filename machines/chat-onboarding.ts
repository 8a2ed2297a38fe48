import { assign, fromCallback, sendTo, setup, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import type { ClientAction } from '../openapi/types.ts';
import { LETS_GO, LOGIN_PROMPT, SIGNUP_PROMPT, UPLOAD_PROMPT } from '../openapi/chat-onboarding.ts';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';
import { isServerRejection, messageNotice, serverNotice, type Notice } from './notice.ts';

// The chat-only onboarding page (/onboarding, spec §4): an anonymous visitor's chat with the
// server's onboarding agent, over the socket in chat_only_mode with the chat's own token.
//
// - The chat is opened once (or reopened from the url's chat id with the token this tab keeps).
// - The agent's latest message decides the inline form (signup, login, upload panel); the form
//   runs here: signup registers, logs in automatically, binds the chat to the account, reconnects
//   and then notifies user_authenticated (auth_method signup); login binds and notifies (login);
//   the upload sends the files with the chat's token, then files_uploaded. Cancelling a form sends
//   generic_rewind with a reason; rewind_success refetches (100 ms waits), rewind_error says so.
// - Let's go! waits for the upgrade, which opens the new conversation; an agent message instead
//   means it failed ('Failed to start new conversation.').
// - The loading-messages flag is on while events arrive less than 250 ms apart (spec §9).

export type UploadResult = components['schemas']['UploadResult'];

export interface OnboardingChat {
  id: string;
  token: string;
}
export interface SignUpDetails {
  name: string;
  email: string;
  password: string;
}
export interface LogInDetails {
  email: string;
  password: string;
}
export type ChatForm = 'signup' | 'login' | 'upload';
/** What user_authenticated tells the agent about the account (its language). */
export type UserPreferences = Record<string, unknown>;

const authenticated = (authMethod: 'signup' | 'login', preferences: UserPreferences): ClientAction => ({
  action: 'user_authenticated',
  args: { auth_method: authMethod, user_preferences: preferences },
});

export type ChatOnboardingMessage =
  | 'initFailed'
  | 'sendFailed'
  | 'notifyFailed'
  | 'signupFailed'
  | 'loginFailed'
  | 'uploadFailed'
  | 'rewindFailed'
  | 'startFailed';
export type ChatOnboardingNotice = Notice<ChatOnboardingMessage>;

/** Which action the chat sent last: a refusal from the server is about it. */
type SentAction = 'message' | 'user_authenticated' | 'files_uploaded' | 'generic_rewind';

/** What the chat's socket reports. */
export type ChatSocketReport =
  /** Any event arrived (for the loading flag). */
  | { type: 'EVENT_ARRIVED' }
  | { type: 'AGENT_MESSAGE' }
  | { type: 'REWOUND' }
  | { type: 'REWIND_FAILED' }
  | { type: 'UPGRADED'; conversationId: string }
  /** The server refused an action (an error frame), with its words. */
  | { type: 'REFUSED'; text: string };

/** What the machine tells the chat's socket. */
export type ChatSocketCommand = { type: 'TRANSMIT'; action: ClientAction } | { type: 'REFETCH' };

export type ChatOnboardingEvent =
  | { type: 'SEND'; text: string }
  | { type: 'SIGN_UP'; details: SignUpDetails }
  | { type: 'LOG_IN'; details: LogInDetails }
  | { type: 'UPLOAD'; files: readonly File[] }
  | { type: 'CANCEL_FORM'; form: ChatForm }
  | { type: 'DISMISS_NOTICE' }
  | ChatSocketReport;

interface ChatOnboardingContext {
  /** The chat named by the url, to reopen. */
  chatId: string | null;
  chat: OnboardingChat | null;
  lastSent: SentAction | null;
  /** The visitor is waiting for the agent ('Agent is typing...'). */
  awaitingReply: boolean;
  notice: ChatOnboardingNotice | null;
}

/** The timings of spec §9. */
export const CHAT_ONBOARDING_DELAYS = { loadingThreshold: 250, refetchWait: 100 } as const;

/** The generic_rewind reason of each form. */
export const REWIND_REASONS: Record<ChatForm, string> = {
  signup: 'signup_cancelled',
  login: 'login_cancelled',
  upload: 'upload_cancelled',
};

/** The inline form the agent's latest message asks for, if any (spec §4's trigger phrases). */
export function formOf(message: string | null): ChatForm | null {
  if (message === null) return null;
  if (message.includes(SIGNUP_PROMPT)) return 'signup';
  if (message.includes(LOGIN_PROMPT)) return 'login';
  if (message.includes(UPLOAD_PROMPT)) return 'upload';
  return null;
}

/** The server's words when it gave some, else the product's message. */
function failureNotice(error: unknown, fallback: ChatOnboardingMessage): ChatOnboardingNotice {
  return isServerRejection(error) && error.message !== '' ? serverNotice(error.message) : messageNotice(fallback);
}

const message = (content: string): ClientAction => ({
  action: 'message',
  args: { content, image_urls: [], file_urls: [] },
});

export const chatOnboardingMachine = setup({
  types: {
    context: {} as ChatOnboardingContext,
    events: {} as ChatOnboardingEvent,
    input: {} as { chatId: string | null },
  },
  actors: {
    /** Opens a new chat, or the url's chat with the token this tab kept. */
    openChat: notProvidedPromise<OnboardingChat, { chatId: string | null }>('openChat'),
    /** The chat's socket: reports its events, and takes TRANSMIT and REFETCH. */
    chatSocket: fromCallback<ChatSocketCommand, { chat: OnboardingChat }, ChatSocketReport>(() => {
      throw new Error('"chatSocket" is a side effect: supply it with machine.provide()');
    }),
    /** Registers, signs in (the session keeps the token) and binds the chat to the account. */
    signUp: notProvidedPromise<UserPreferences, { chat: OnboardingChat; details: SignUpDetails }>('signUp'),
    /** Signs in and binds the chat to the account; answers the account's preferences for the agent. */
    logIn: notProvidedPromise<UserPreferences, { chat: OnboardingChat; details: LogInDetails }>('logIn'),
    uploadFiles: notProvidedPromise<UploadResult, { chat: OnboardingChat; files: readonly File[] }>('uploadFiles'),
  },
  actions: {
    /** Puts the chat's id in the url, so that a reload reopens it. */
    rememberChat: notProvidedAction<OnboardingChat>('rememberChat'),
    /** Opens the upgraded conversation's workspace. */
    openConversation: notProvidedAction<string>('openConversation'),
    transmit: sendTo('chatSocket', (_, action: ClientAction): ChatSocketCommand => ({ type: 'TRANSMIT', action })),
    refetch: sendTo('chatSocket', { type: 'REFETCH' } satisfies ChatSocketCommand),
    keepChat: assign((_, chat: OnboardingChat) => ({ chat, chatId: chat.id })),
    sent: assign((_, { kind, awaitsReply }: { kind: SentAction; awaitsReply: boolean }) => ({
      lastSent: kind,
      awaitingReply: awaitsReply,
      notice: null,
    })),
    replied: assign({ awaitingReply: false }),
    showNotice: assign((_, notice: ChatOnboardingNotice) => ({ notice, awaitingReply: false })),
    dismissNotice: assign({ notice: null }),
  },
  guards: {
    hasText: (_, text: string) => text.trim() !== '',
    isLetsGo: (_, text: string) => text.trim() === LETS_GO,
    answersRewind: ({ context }) => context.lastSent === 'generic_rewind',
  },
  delays: CHAT_ONBOARDING_DELAYS,
}).createMachine({
  id: 'chatOnboarding',
  context: ({ input }) => ({ chatId: input.chatId, chat: null, lastSent: null, awaitingReply: false, notice: null }),
  initial: 'opening',
  states: {
    opening: {
      invoke: {
        id: 'openChat',
        src: 'openChat',
        input: ({ context }) => ({ chatId: context.chatId }),
        onDone: {
          target: 'chatting',
          actions: [
            { type: 'keepChat', params: ({ event }) => event.output },
            { type: 'rememberChat', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'failed', actions: { type: 'showNotice', params: messageNotice('initFailed') } },
      },
    },
    failed: {},
    chatting: {
      type: 'parallel',
      invoke: { id: 'chatSocket', src: 'chatSocket', input: ({ context }) => ({ chat: context.chat! }) },
      on: {
        AGENT_MESSAGE: { actions: 'replied' },
        // The answers to this page's own rewind (not those replayed when the chat reopens).
        REWOUND: { guard: 'answersRewind', target: '.steps.refetching' },
        REWIND_FAILED: {
          guard: 'answersRewind',
          actions: { type: 'showNotice', params: messageNotice('rewindFailed') },
        },
        REFUSED: {
          actions: {
            type: 'showNotice',
            params: ({ context }) =>
              messageNotice(
                context.lastSent === 'user_authenticated'
                  ? 'notifyFailed'
                  : context.lastSent === 'generic_rewind'
                    ? 'rewindFailed'
                    : 'sendFailed',
              ),
          },
        },
        UPGRADED: {
          target: 'upgraded',
          actions: { type: 'openConversation', params: ({ event }) => event.conversationId },
        },
        DISMISS_NOTICE: { actions: 'dismissNotice' },
      },
      states: {
        steps: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                SEND: [
                  {
                    guard: { type: 'isLetsGo', params: ({ event }) => event.text },
                    target: 'awaitingUpgrade',
                    actions: [
                      { type: 'transmit', params: ({ event }) => message(event.text.trim()) },
                      { type: 'sent', params: { kind: 'message', awaitsReply: true } },
                    ],
                  },
                  {
                    guard: { type: 'hasText', params: ({ event }) => event.text },
                    actions: [
                      { type: 'transmit', params: ({ event }) => message(event.text.trim()) },
                      { type: 'sent', params: { kind: 'message', awaitsReply: true } },
                    ],
                  },
                ],
                SIGN_UP: 'signingUp',
                LOG_IN: 'loggingIn',
                UPLOAD: 'uploading',
                CANCEL_FORM: {
                  actions: [
                    {
                      type: 'transmit',
                      params: ({ event }) => ({
                        action: 'generic_rewind',
                        args: { reason: REWIND_REASONS[event.form] },
                      }),
                    },
                    { type: 'sent', params: { kind: 'generic_rewind', awaitsReply: true } },
                  ],
                },
              },
            },
            signingUp: {
              invoke: {
                id: 'signUp',
                src: 'signUp',
                input: ({ context, event }) => ({
                  chat: context.chat!,
                  details: (event as Extract<ChatOnboardingEvent, { type: 'SIGN_UP' }>).details,
                }),
                // Signed up and in: the socket reconnects as the account's, then the agent is told.
                onDone: {
                  target: 'idle',
                  actions: [
                    'refetch',
                    { type: 'transmit', params: ({ event }) => authenticated('signup', event.output) },
                    { type: 'sent', params: { kind: 'user_authenticated', awaitsReply: true } },
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: { type: 'showNotice', params: ({ event }) => failureNotice(event.error, 'signupFailed') },
                },
              },
            },
            loggingIn: {
              invoke: {
                id: 'logIn',
                src: 'logIn',
                input: ({ context, event }) => ({
                  chat: context.chat!,
                  details: (event as Extract<ChatOnboardingEvent, { type: 'LOG_IN' }>).details,
                }),
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'transmit', params: ({ event }) => authenticated('login', event.output) },
                    { type: 'sent', params: { kind: 'user_authenticated', awaitsReply: true } },
                  ],
                },
                // The spec's words: a wrong password is not explained further.
                onError: { target: 'idle', actions: { type: 'showNotice', params: messageNotice('loginFailed') } },
              },
            },
            uploading: {
              invoke: {
                id: 'uploadFiles',
                src: 'uploadFiles',
                input: ({ context, event }) => ({
                  chat: context.chat!,
                  files: (event as Extract<ChatOnboardingEvent, { type: 'UPLOAD' }>).files,
                }),
                onDone: {
                  target: 'idle',
                  actions: [
                    {
                      type: 'transmit',
                      params: ({ event }) => ({
                        action: 'files_uploaded',
                        args: {
                          uploaded_files: event.output.uploaded_files,
                          skipped_files: event.output.skipped_files,
                        },
                      }),
                    },
                    { type: 'sent', params: { kind: 'files_uploaded', awaitsReply: true } },
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: { type: 'showNotice', params: ({ event }) => failureNotice(event.error, 'uploadFailed') },
                },
              },
            },
            /** Let's go! was sent: the upgrade opens the workspace; an agent message instead is a failure. */
            awaitingUpgrade: {
              on: {
                AGENT_MESSAGE: {
                  target: 'idle',
                  actions: { type: 'showNotice', params: messageNotice('startFailed') },
                },
              },
            },
            /** rewind_success: wait, fetch what the server holds again, wait (spec §9's 100 ms steps). */
            refetching: { after: { refetchWait: { target: 'refetched', actions: 'refetch' } } },
            refetched: { after: { refetchWait: 'idle' } },
          },
        },
        messages: {
          initial: 'quiet',
          states: {
            quiet: { on: { EVENT_ARRIVED: 'arriving' } },
            arriving: {
              on: { EVENT_ARRIVED: { target: 'arriving', reenter: true } },
              after: { loadingThreshold: 'quiet' },
            },
          },
        },
      },
    },
    upgraded: { type: 'final' },
  },
});

type ChatOnboardingSnapshot = SnapshotFrom<typeof chatOnboardingMachine>;

export const selectIsOpening = (snapshot: ChatOnboardingSnapshot) => snapshot.matches('opening');
export const selectFailedToOpen = (snapshot: ChatOnboardingSnapshot) => snapshot.matches('failed');
export const selectIsUpgraded = (snapshot: ChatOnboardingSnapshot) => snapshot.matches('upgraded');
/** 'Agent is typing...' while a reply is awaited. */
export const selectIsTyping = (snapshot: ChatOnboardingSnapshot) =>
  snapshot.context.awaitingReply || snapshot.matches({ chatting: { steps: 'awaitingUpgrade' } });
export const selectIsLoadingMessages = (snapshot: ChatOnboardingSnapshot) =>
  snapshot.matches({ chatting: { messages: 'arriving' } });
/** Which form is being submitted, if any. */
export const selectSubmitting = (snapshot: ChatOnboardingSnapshot): ChatForm | null =>
  snapshot.matches({ chatting: { steps: 'signingUp' } })
    ? 'signup'
    : snapshot.matches({ chatting: { steps: 'loggingIn' } })
      ? 'login'
      : snapshot.matches({ chatting: { steps: 'uploading' } })
        ? 'upload'
        : null;
/** The visitor may write, choose or fill a form: the chat is idle and no reply is awaited. */
export const selectCanAct = (snapshot: ChatOnboardingSnapshot) =>
  snapshot.matches({ chatting: { steps: 'idle' } }) && !snapshot.context.awaitingReply;
