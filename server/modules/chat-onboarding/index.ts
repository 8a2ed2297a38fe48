import { answerOnce } from '../../agent/index.ts';
import type { Db } from '../../db/index.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { INACTIVE_ACCOUNT } from '../../shared/domain-errors.ts';
import type { AuthUser } from '../../shared/operations.ts';
import { createChatFiles } from './files.ts';
import type { OnboardingFlowContext } from './flow.ts';
import { createChatRunner } from './runner.ts';
import { chatOnboardingHandlers } from './handlers.ts';
import { createChatOnboardingService, type ChatOnboardingDeps } from './service.ts';
import type { LlmSettings } from '../../agent/index.ts';
import type { WorkspaceFile } from '../../runtime/types.ts';

/** How long a free question may take the model. */
const ANSWER_TIMEOUT_MS = 60_000;

const onboardingInstructions = (step: string) =>
  "You are Atelier's onboarding assistant: Atelier builds software by talking to an AI agent that works in a " +
  'sandboxed workspace with a terminal, browser, editor, notebook and git. Answer the visitor in two or three ' +
  `short sentences, then bring them back to the current step (${step}). Never write text in square brackets.`;

/** The full conversation's first message: what the visitor described, and the files they gave. */
export const upgradeMessage = (flow: OnboardingFlowContext) =>
  [flow.project.join('\n\n'), flow.files.length ? `My project files: ${flow.files.join(', ')}` : '']
    .filter(Boolean)
    .join('\n\n');

export interface ChatOnboardingModuleDeps extends ChatOnboardingDeps {
  db: Db;
  bus: EventBus;
  /** The operator's model, which answers visitors (who have no settings of their own). */
  operatorModel: () => LlmSettings | null;
  /** Creates a conversation of the account with its first message and its workspace's files; answers its id. */
  createConversation: (user: AuthUser, firstMessage: string, files: WorkspaceFile[]) => Promise<string>;
  /** Where uploads are spooled while they arrive. */
  dataDir: string;
  findUser: (userId: string) => Promise<AuthUser | null>;
}

export function createChatOnboardingModule(deps: ChatOnboardingModuleDeps) {
  const chats = createChatOnboardingService(deps.db, deps);
  const files = createChatFiles(deps.db);
  const runner = createChatRunner({
    db: deps.db,
    answer: (question, step) =>
      answerOnce({
        llm: deps.operatorModel(),
        system: onboardingInstructions(step),
        prompt: question,
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      }),
    async upgrade(chatId, userId, flow) {
      const user = await deps.findUser(userId);
      if (!user) throw new Error('The chat has no account.');
      // As at the edge: an account reaches a runtime once its registration onboarding is done.
      if (!user.isActive) throw new Error(INACTIVE_ACCOUNT);
      // The files are read here and then dropped: the new runtime writes them into its workspace.
      const conversationId = await deps.createConversation(user, upgradeMessage(flow), await files.contents(chatId));
      await files.remove(chatId);
      return conversationId;
    },
    storedFiles: files.paths,
    publish: (chatId, event) => void deps.bus.publish(chatId, event),
  });
  return {
    handlers: chatOnboardingHandlers(chats, files, deps.dataDir),
    /** Retention of ended sessions and waiting files (service.ts); run hourly. */
    sweep: chats.sweep,
    /** What the socket needs in chat-only mode. */
    socket: {
      opens: async (chatId: string, token: string) => (await chats.open(chatId, token)) !== null,
      greet: async (chatId: string) => void (await runner.handle(chatId, null)),
      act: runner.act,
      events: { after: runner.after, latestId: runner.latestId },
    },
  };
}
