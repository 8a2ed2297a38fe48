import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { createActor, fromPromise, waitFor, type Snapshot } from 'xstate';
import type { ClientAction, Event } from '../../../openapi/types.ts';
import type { Db } from '../../db/index.ts';
import { onboardingChatEvents, onboardingChats } from '../../db/schema.ts';
import { Conflict, InvalidInput, NotFound } from '../../shared/domain-errors.ts';
import { onboardingFlowMachine, type OnboardingFlowContext, type OnboardingFlowEvent } from './flow.ts';

export type NewChatEvent = Omit<Event, 'id' | 'timestamp'>;

export interface ChatRunnerDeps {
  db: Db;
  /** The language model's answer to a visitor's free question, in the step's context. */
  answer: (question: string, step: string) => Promise<string>;
  /** Creates the account's full conversation from what the visitor gave; answers its id. */
  upgrade: (chatId: string, userId: string, flow: OnboardingFlowContext) => Promise<string>;
  /** The files the chat holds (what was uploaded, not what the client says it uploaded). */
  storedFiles: (chatId: string) => Promise<string[]>;
  /** Each stored event, for the chat's sockets. */
  publish?: (chatId: string, event: Event) => void;
}

const agentMessage = (text: string): NewChatEvent => ({
  source: 'agent',
  action: 'message',
  message: text,
  args: { content: text },
});
const userMessage = (text: string): NewChatEvent => ({
  source: 'user',
  action: 'message',
  message: text,
  args: { content: text },
});

/**
 * Runs each chat's onboarding flow one event at a time: the flow is restored from its persisted
 * snapshot, takes the event, runs its step (a model answer, the upgrade) to the end, and is
 * persisted again with the events it caused (the visitor's message, what the agent said).
 */
export function createChatRunner(deps: ChatRunnerDeps) {
  const { db } = deps;
  // One event at a time per chat, in the order they came.
  const queues = new Map<string, Promise<unknown>>();

  async function append(chatId: string, events: NewChatEvent[]): Promise<Event[]> {
    if (events.length === 0) return [];
    const [row] = await db
      .update(onboardingChats)
      .set({ nextEventId: sql`${onboardingChats.nextEventId} + ${events.length}` })
      .where(eq(onboardingChats.id, chatId))
      .returning({ next: onboardingChats.nextEventId });
    const first = row!.next - events.length;
    const timestamp = new Date().toISOString();
    const stored = events.map((event, i) => ({ ...event, id: first + i, timestamp }) as Event);
    await db.insert(onboardingChatEvents).values(stored.map((data) => ({ chatId, id: data.id, data })));
    for (const event of stored) deps.publish?.(chatId, event);
    return stored;
  }

  async function step(chatId: string, event: OnboardingFlowEvent | null): Promise<Event[]> {
    const [chat] = await db.select().from(onboardingChats).where(eq(onboardingChats.id, chatId));
    if (!chat) throw new NotFound('Onboarding chat not found');
    // Opening the chat greets it once.
    if (event === null && chat.flowState !== null) return [];
    const said: string[] = [];
    let upgradedTo: string | null = null;
    const actor = createActor(
      onboardingFlowMachine.provide({
        actions: {
          say: (_, text: string) => void said.push(text),
          announceUpgrade: (_, conversationId: string) => void (upgradedTo = conversationId),
        },
        actors: {
          answer: fromPromise(({ input }) => deps.answer(input.question, input.step)),
          upgrade: fromPromise(({ input }) => deps.upgrade(chatId, chat.userId ?? '', input)),
        },
      }),
      {
        input: { userId: chat.userId },
        ...(chat.flowState ? { snapshot: chat.flowState as Snapshot<unknown> } : {}),
      },
    );
    actor.start();
    // A restored snapshot does not run its entry again: only a new chat greets.
    const before = event?.type === 'MESSAGE' ? [userMessage(event.text)] : [];
    // A rewind the step does not take (no form was open) fails, as the spec's rewind_error.
    const rewound = event?.type === 'REWIND' ? actor.getSnapshot().can(event) : null;
    if (event) actor.send(event);
    await waitFor(actor, (s) => !s.matches({ choosingAccount: 'answering' }) && !s.matches('upgrading'));
    const flowState = actor.getPersistedSnapshot();
    actor.stop();
    await db.update(onboardingChats).set({ flowState }).where(eq(onboardingChats.id, chatId));
    const rewind: NewChatEvent[] =
      rewound === null
        ? []
        : [
            {
              source: 'environment',
              status_update: true,
              type: rewound ? 'info' : 'error',
              status_id: rewound ? 'rewind_success' : 'rewind_error',
            },
          ];
    const upgraded: NewChatEvent[] = upgradedTo
      ? [
          {
            source: 'environment',
            status_update: true,
            type: 'info',
            status_id: 'ONBOARDING$UPGRADED',
            message: upgradedTo,
          },
        ]
      : [];
    return append(chatId, [...before, ...said.map(agentMessage), ...rewind, ...upgraded]);
  }

  /** Takes one event of the visitor (null: the chat opened; a new chat is greeted). */
  function handle(chatId: string, event: OnboardingFlowEvent | null): Promise<Event[]> {
    const previous = queues.get(chatId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => step(chatId, event));
    queues.set(chatId, next);
    void next.finally(() => queues.get(chatId) === next && queues.delete(chatId)).catch(() => undefined);
    return next;
  }

  return {
    handle,

    /**
     * A socket frame of the chat, as the flow's event. Only the onboarding's own actions are
     * taken: nothing a visitor sends reaches a runtime.
     */
    async act(chatId: string, action: ClientAction): Promise<void> {
      switch (action.action) {
        case 'message':
          await handle(chatId, { type: 'MESSAGE', text: action.args.content });
          return;
        case 'user_authenticated': {
          const [chat] = await db.select().from(onboardingChats).where(eq(onboardingChats.id, chatId));
          if (!chat?.userId) throw new Conflict('Sign up or log in first: the chat has no account yet.');
          await handle(chatId, { type: 'AUTHENTICATED', userId: chat.userId });
          return;
        }
        case 'files_uploaded':
          await handle(chatId, { type: 'FILES_UPLOADED', files: await deps.storedFiles(chatId) });
          return;
        case 'generic_rewind':
          await handle(chatId, { type: 'REWIND', reason: action.args.reason });
          return;
        default:
          throw new InvalidInput(`The onboarding chat does not take ${action.action} actions.`);
      }
    },

    /** The newest event id of the chat, -1 when there is none. */
    async latestId(chatId: string): Promise<number> {
      const [chat] = await db
        .select({ next: onboardingChats.nextEventId })
        .from(onboardingChats)
        .where(eq(onboardingChats.id, chatId));
      return (chat?.next ?? 0) - 1;
    },

    /** The chat's events after `afterId`, oldest first. */
    async after(chatId: string, afterId: number, limit: number): Promise<Event[]> {
      const rows = await db
        .select({ data: onboardingChatEvents.data })
        .from(onboardingChatEvents)
        .where(and(eq(onboardingChatEvents.chatId, chatId), gt(onboardingChatEvents.id, afterId)))
        .orderBy(asc(onboardingChatEvents.id))
        .limit(limit);
      return rows.map((row) => row.data as Event);
    },
  };
}

export type ChatRunner = ReturnType<typeof createChatRunner>;
