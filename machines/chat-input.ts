import { and, assign, not, setup, type SnapshotFrom } from 'xstate';
import { CRITICAL_BALANCE } from './agent.ts';
import { notProvidedAction } from './not-provided.ts';
import type { Event } from '../openapi/types.ts';

// The chat's message box and the user messages shown before the server has them.
//
// - Empty or whitespace-only text is not sent. Enter sends, Shift+Enter is a newline (left to
//   the text area), Enter during IME composition is ignored (between compositionstart and
//   compositionend, or when the key event itself says isComposing).
// - Nothing is sent while the agent is busy (LOADING, RUNNING, AWAITING_USER_CONFIRMATION) or a
//   file upload runs; with a balance below $0.1 sending is blocked with 'Insufficient credits.
//   Please add more credits to continue chatting.'
// - Images picked or dropped wait in the box and go with the next message the box sends.
// - A suggestion (SUBMIT_TEXT) sends its own text under the same rules and leaves the user's
//   draft (and its images) in the box.
// - A sent message is shown at once (optimistic) and stays pending until the server's echo, the
//   user `message` event, arrives: see `isEchoOf` for how an echo is recognised.
// - The box's text is its draft: it starts as the draft kept from an earlier visit, and every
//   change (a send empties it) is kept, so a reload or a crash loses nothing typed.

/** A user message shown before its echo arrived. */
export interface PendingMessage {
  /** Client-side id, sent as the action's `id`; the server echoes it as args.client_id. */
  id: string;
  content: string;
  /** When it was sent (ISO 8601). */
  timestamp: string;
}

/** An image waiting for the next message, as a data URL. */
export interface AttachedImage {
  name: string;
  url: string;
}

/** What goes over the socket for one send: the message and the images that go with it. */
export interface OutgoingMessage {
  message: PendingMessage;
  images: readonly AttachedImage[];
}

/** How much earlier than the sending time an echo's server timestamp may be (clocks differ). */
export const ECHO_CLOCK_SKEW_MS = 60_000;

/**
 * Whether `event` is the server's echo of the pending message. The rule:
 * 1. only a user `message` event can be an echo;
 * 2. when the event carries args.client_id (this server always does), it is the echo exactly
 *    when the id is the pending message's;
 * 3. otherwise (a server that does not echo ids) it is the echo when its content equals the
 *    pending content and its timestamp is not more than ECHO_CLOCK_SKEW_MS before the time the
 *    message was sent (an older message with the same words is history, not the echo).
 * Echoes settle pending messages oldest first, so sending the same words twice needs two echoes.
 */
export function isEchoOf(event: Event, pending: PendingMessage): boolean {
  if (event.source !== 'user' || event.action !== 'message') return false;
  const clientId = event.args?.['client_id'];
  if (typeof clientId === 'string') return clientId === pending.id;
  const content = event.args?.content ?? event.message ?? '';
  if (content !== pending.content) return false;
  const echoed = Date.parse(event.timestamp);
  const sent = Date.parse(pending.timestamp);
  return Number.isNaN(echoed) || Number.isNaN(sent) || echoed >= sent - ECHO_CLOCK_SKEW_MS;
}

/** The pending messages left once `event` arrived: the oldest one it echoes is settled. */
export function settleEcho(pending: readonly PendingMessage[], event: Event): PendingMessage[] {
  const index = pending.findIndex((message) => isEchoOf(event, message));
  return index === -1 ? [...pending] : [...pending.slice(0, index), ...pending.slice(index + 1)];
}

export type EnterIntent = 'send' | 'newline' | 'ignore';

/** What Enter does: ignored while composing, a newline with Shift, otherwise send (the view prevents the default only for 'send'). */
export function enterKeyIntent(key: { shiftKey: boolean; isComposing: boolean }): EnterIntent {
  if (key.isComposing) return 'ignore';
  return key.shiftKey ? 'newline' : 'send';
}

export const insufficientCredits = (balance: number | null) => balance !== null && balance < CRITICAL_BALANCE;

export type ChatInputNotice = 'insufficientCredits';

export interface ChatInputContext {
  text: string;
  images: AttachedImage[];
  pending: PendingMessage[];
  /** Dollars; null when there are no credits (oss mode). */
  balance: number | null;
  /** The agent is busy or an upload runs. */
  busy: boolean;
  /** Messages sent so far (the next id's number). */
  sent: number;
  idPrefix: string;
  notice: ChatInputNotice | null;
}

export interface ChatInputInput {
  /** Unique per page load, so ids do not repeat across visits. */
  idPrefix: string;
  /** The draft kept from an earlier visit. */
  draft?: string;
}

export type ChatInputEvent =
  | { type: 'TEXT_CHANGED'; text: string }
  | { type: 'IMAGES_ATTACHED'; images: readonly AttachedImage[] }
  | { type: 'IMAGE_REMOVED'; url: string }
  | { type: 'COMPOSITION_START' }
  | { type: 'COMPOSITION_END' }
  | { type: 'KEY_ENTER'; shiftKey: boolean; isComposing: boolean; at: string }
  | { type: 'SUBMIT'; at: string }
  /** Sends `text` instead of the box's text, which stays as it is (a suggestion's prompt). */
  | { type: 'SUBMIT_TEXT'; text: string; at: string }
  | { type: 'EVENT_RECEIVED'; event: Event }
  /** The socket refused the message. */
  | { type: 'SEND_FAILED'; id: string }
  | { type: 'CREDITS_CHANGED'; balance: number | null }
  | { type: 'BUSY_CHANGED'; busy: boolean };

/** The message a send creates: the next id, the trimmed text (the event's own, else the box's), the time of the key press or click. */
const sent = ({
  context,
  event,
}: {
  context: ChatInputContext;
  event: { at: string; text?: string };
}): PendingMessage => ({
  id: `${context.idPrefix}-${context.sent + 1}`,
  content: (event.text ?? context.text).trim(),
  timestamp: event.at,
});
/** The box's message goes with the box's images; a suggestion's goes alone. */
const outgoing = (args: { context: ChatInputContext; event: { at: string; text?: string } }): OutgoingMessage => ({
  message: sent(args),
  images: args.event.text === undefined ? args.context.images : [],
});

export const chatInputMachine = setup({
  types: { context: {} as ChatInputContext, events: {} as ChatInputEvent, input: {} as ChatInputInput },
  actions: {
    /** Sends the message action (with the message's id and timestamp) over the socket. */
    sendMessage: notProvidedAction<OutgoingMessage>('sendMessage'),
    /** Toast 'Insufficient credits. Please add more credits to continue chatting.' */
    announceInsufficientCredits: notProvidedAction('announceInsufficientCredits'),
    /** Toast 'Failed to send message. Please try again.' */
    announceSendFailure: notProvidedAction('announceSendFailure'),
    /** Keeps the box's text (empty: none) where the next visit finds it. */
    keepDraft: notProvidedAction<string>('keepDraft'),
    setText: assign((_, text: string) => ({ text })),
    addPending: assign(({ context }, message: PendingMessage) => ({
      pending: [...context.pending, message],
      sent: context.sent + 1,
      notice: null,
    })),
    clearBox: assign({ text: '', images: [] }),
    attachImages: assign(({ context }, images: readonly AttachedImage[]) => ({
      images: [...context.images, ...images],
    })),
    removeImage: assign(({ context }, url: string) => ({
      images: context.images.filter((image) => image.url !== url),
    })),
    settleEcho: assign(({ context }, event: Event) => ({ pending: settleEcho(context.pending, event) })),
    dropPending: assign(({ context }, id: string) => ({
      pending: context.pending.filter((message) => message.id !== id),
    })),
    setBalance: assign(({ context }, balance: number | null) => ({
      balance,
      notice: insufficientCredits(balance) ? context.notice : null,
    })),
    setBusy: assign((_, busy: boolean) => ({ busy })),
    blockForCredits: assign({ notice: 'insufficientCredits' as const }),
  },
  guards: {
    /** Enter without Shift and outside a composition, or the send button; with text. */
    wantsToSend: ({ context, event }) =>
      event.type === 'SUBMIT_TEXT'
        ? event.text.trim() !== ''
        : context.text.trim() !== '' &&
          (event.type === 'SUBMIT' || (event.type === 'KEY_ENTER' && enterKeyIntent(event) === 'send')),
    lacksCredits: ({ context }) => insufficientCredits(context.balance),
    isBusy: ({ context }) => context.busy,
    echoesPending: ({ context }, event: Event) => context.pending.some((message) => isEchoOf(event, message)),
    isPending: ({ context }, id: string) => context.pending.some((message) => message.id === id),
  },
}).createMachine({
  id: 'chatInput',
  context: ({ input }) => ({
    text: input.draft ?? '',
    images: [],
    pending: [],
    balance: null,
    busy: false,
    sent: 0,
    idPrefix: input.idPrefix,
    notice: null,
  }),
  initial: 'editing',
  on: {
    TEXT_CHANGED: {
      actions: [
        { type: 'setText', params: ({ event }) => event.text },
        { type: 'keepDraft', params: ({ event }) => event.text },
      ],
    },
    IMAGES_ATTACHED: { actions: { type: 'attachImages', params: ({ event }) => event.images } },
    IMAGE_REMOVED: { actions: { type: 'removeImage', params: ({ event }) => event.url } },
    EVENT_RECEIVED: {
      guard: { type: 'echoesPending', params: ({ event }) => event.event },
      actions: { type: 'settleEcho', params: ({ event }) => event.event },
    },
    SEND_FAILED: {
      guard: { type: 'isPending', params: ({ event }) => event.id },
      actions: [{ type: 'dropPending', params: ({ event }) => event.id }, 'announceSendFailure'],
    },
    CREDITS_CHANGED: { actions: { type: 'setBalance', params: ({ event }) => event.balance } },
    BUSY_CHANGED: { actions: { type: 'setBusy', params: ({ event }) => event.busy } },
  },
  states: {
    editing: {
      on: {
        COMPOSITION_START: { target: 'composing' },
        // Shift+Enter: the text area adds the newline itself.
        KEY_ENTER: [
          { guard: and(['wantsToSend', 'lacksCredits']), actions: ['blockForCredits', 'announceInsufficientCredits'] },
          {
            guard: and(['wantsToSend', not('isBusy')]),
            actions: [
              { type: 'sendMessage', params: outgoing },
              { type: 'addPending', params: sent },
              'clearBox',
              { type: 'keepDraft', params: '' },
            ],
          },
        ],
        SUBMIT: [
          { guard: and(['wantsToSend', 'lacksCredits']), actions: ['blockForCredits', 'announceInsufficientCredits'] },
          {
            guard: and(['wantsToSend', not('isBusy')]),
            actions: [
              { type: 'sendMessage', params: outgoing },
              { type: 'addPending', params: sent },
              'clearBox',
              { type: 'keepDraft', params: '' },
            ],
          },
        ],
        SUBMIT_TEXT: [
          { guard: and(['wantsToSend', 'lacksCredits']), actions: ['blockForCredits', 'announceInsufficientCredits'] },
          {
            guard: and(['wantsToSend', not('isBusy')]),
            actions: [
              { type: 'sendMessage', params: outgoing },
              { type: 'addPending', params: sent },
            ],
          },
        ],
      },
    },
    /** IME composition: Enter confirms the composition, it does not send. */
    composing: { on: { COMPOSITION_END: { target: 'editing' } } },
  },
});

type ChatInputSnapshot = SnapshotFrom<typeof chatInputMachine>;

export const selectText = (snapshot: ChatInputSnapshot) => snapshot.context.text;
export const selectImages = (snapshot: ChatInputSnapshot) => snapshot.context.images;
export const selectPending = (snapshot: ChatInputSnapshot) => snapshot.context.pending;
export const selectHasPending = (snapshot: ChatInputSnapshot) => snapshot.context.pending.length > 0;
export const selectCanSend = (snapshot: ChatInputSnapshot) =>
  snapshot.context.text.trim() !== '' && !snapshot.context.busy && !insufficientCredits(snapshot.context.balance);
/** The red banner: 'Insufficient Credits: Your balance is $X…' shows while the balance is critical. */
export const selectInsufficientCredits = (snapshot: ChatInputSnapshot) => insufficientCredits(snapshot.context.balance);
export const selectBalance = (snapshot: ChatInputSnapshot) => snapshot.context.balance;
export const selectNotice = (snapshot: ChatInputSnapshot) => snapshot.context.notice;
