import { randomUUID } from 'node:crypto';
import type { components } from '../../../openapi/schema.d.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { MissingWorkspaceError, type WorkspaceFile } from '../../runtime/types.ts';
import { contractValidator } from '../../shared/contract-schemas.ts';
import { INSUFFICIENT_CREDITS, MINIMUM_BALANCE_MICROS } from '../../shared/credit-limits.ts';
import {
  Conflict,
  Forbidden,
  NotFound,
  PaymentRequired,
  RateLimited,
  ValidationFailure,
} from '../../shared/domain-errors.ts';
import type { AuthUser } from '../../shared/operations.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { findUser } from '../auth/index.ts';
import { balanceMicros } from '../credits/index.ts';
import type { EventStore } from './events.ts';
import type { ConversationManager, StartOptions } from './manager.ts';
import { parseTrajectory } from './replay.ts';
import { RunningLimitError, type ConversationRow, type ConversationStore, type ShownConversation } from './store.ts';
import { suggestedTaskPrompt } from './suggested-task.ts';
import { toConversation } from './view.ts';
import type { ClientAction } from '../../../openapi/types.ts';

type CreateRequest = components['schemas']['ConversationCreateRequest'];
type ForkRequest = components['schemas']['ConversationForkRequest'];

const tooManyRunning = (error: RunningLimitError) => new RateLimited(error.message, 60);

const TITLE_MAX = 200;
const newConversationId = () => randomUUID().replaceAll('-', '');

export interface ServiceDeps {
  db: Db;
  config: Config;
  box: SecretBox;
  conversations: ConversationStore;
  events: EventStore;
  manager: ConversationManager;
}

/** The rules of conversations: who may see and change which, and what creating or starting one needs. */
/** How much of the user's message a fork's title quotes. */
const FORK_QUOTE_CHARS = 40;

/** "Fork of <title>: “<the message's first words>”", or "Fork of <title>" before any message. */
export function forkTitle(sourceTitle: string, message: string | null): string {
  const firstLine = message?.trim().split('\n')[0]?.trim() ?? '';
  if (firstLine === '') return `Fork of ${sourceTitle}`;
  const quoted =
    firstLine.length > FORK_QUOTE_CHARS ? `${firstLine.slice(0, FORK_QUOTE_CHARS - 1).trimEnd()}…` : firstLine;
  return `Fork of ${sourceTitle}: “${quoted}”`;
}

export function createConversationService(deps: ServiceDeps) {
  const { db, config, box, conversations, events, manager } = deps;
  const isEvent = contractValidator('Event');
  const view = (row: ShownConversation) => toConversation(row, config.publicUrl, box);

  /** Another user's conversation does not exist, as far as the caller can tell. */
  async function owned(user: AuthUser, id: string): Promise<ConversationRow> {
    const row = await conversations.findOwned(user.id, id);
    if (!row) throw new NotFound('Conversation not found');
    return row;
  }

  /** saas: the credits needed to run an agent; every mode: a verified email and a free slot. */
  async function mayStart(user: AuthUser) {
    const account = await findUser(db, user.id);
    if (!account?.emailVerified)
      throw new Forbidden('Please verify your email address before starting a conversation.');
    if (config.appMode === 'saas' && (await balanceMicros(db, user.id)) < MINIMUM_BALANCE_MICROS)
      throw new PaymentRequired(INSUFFICIENT_CREDITS);
    if ((await conversations.countRunning(user.id)) >= config.maxRunningConversations)
      throw tooManyRunning(new RunningLimitError(config.maxRunningConversations));
  }

  /**
   * Starts the conversation within its owner's limit of running conversations: the check above
   * answers early, this one holds when several starts race (the claim counts and starts atomically).
   * A new conversation (`isNew`) refused so is not kept.
   */
  async function startWithinLimit(row: ConversationRow, options: StartOptions = {}, isNew = false) {
    try {
      return await manager.start(row, { ...options, runningLimit: config.maxRunningConversations });
    } catch (error) {
      if (!(error instanceof RunningLimitError)) throw error;
      if (isNew) {
        await manager.remove(row.id);
        await conversations.remove(row.id);
      }
      throw tooManyRunning(error);
    }
  }

  return {
    owned,
    view,
    find: (user: Pick<AuthUser, 'id'>, id: string) => conversations.findOwned(user.id, id),

    /** `files` go into the new workspace before the agent starts. */
    async create(user: AuthUser, body: CreateRequest, files?: WorkspaceFile[]) {
      if (body.user_id && body.user_id !== user.id) throw new Forbidden('user_id must be your own id');
      const replay = body.replay_json ? parseTrajectory(body.replay_json, (e) => isEvent.is(e)) : undefined;
      if (typeof replay === 'string')
        throw new ValidationFailure([{ loc: ['body', 'replay_json'], msg: replay, type: 'value_error' }]);
      await mayStart(user);
      const id = newConversationId();
      const content =
        body.initial_user_msg?.trim() || (body.suggested_task ? suggestedTaskPrompt(body.suggested_task) : '');
      const trigger = body.create_microagent ? 'microagent_management' : body.suggested_task ? 'suggested_task' : 'gui';
      const row = await conversations.insert({
        id,
        userId: user.id,
        title: `Conversation ${id.slice(0, 5)}`,
        status: 'STOPPED',
        selectedRepository: body.repository ?? body.suggested_task?.repo ?? null,
        selectedBranch: body.selected_branch ?? null,
        gitProvider: body.git_provider ?? body.suggested_task?.git_provider ?? null,
        trigger,
        instructions: body.conversation_instructions ?? null,
      });
      const started = await startWithinLimit(
        row,
        {
          replay,
          initialMessage: content ? { content, image_urls: body.image_urls ?? [] } : undefined,
          files,
        },
        true,
      );
      const shown = view(started);
      return { conversation_id: id, url: shown.url, session_api_key: shown.session_api_key, status: shown.status };
    },

    /**
     * A new conversation with this one's history up to `event_id` and its workspace as it was
     * then, started at once (see forkConversation in the contract). The fork's title names the
     * original and the user's message it goes on from (the edited one, for edit and retry): words
     * the user wrote, where an event id would mean nothing to them.
     */
    async fork(user: AuthUser, sourceId: string, body: ForkRequest) {
      const source = await owned(user, sourceId);
      const fail = (msg: string) => new ValidationFailure([{ loc: ['body', 'event_id'], msg, type: 'value_error' }]);
      const event = await events.get(source.id, body.event_id);
      if (!event) throw fail(`This conversation has no event ${body.event_id}`);
      if (body.message !== undefined && !(event.source === 'user' && event.action === 'message'))
        throw fail('Only your own messages can be edited and sent again');
      await mayStart(user);
      // Edit and retry: the history ends just before the message, which is sent again as edited,
      // on the workspace as the user left it when they sent it (the message's own snapshot).
      const through = body.message === undefined ? body.event_id : body.event_id - 1;
      const snapshot = await events.snapshotAt(source.id, body.event_id);
      const id = newConversationId();
      const title = forkTitle(source.title, body.message ?? (await events.lastUserMessage(source.id, body.event_id)));
      const row = await conversations.insert({
        id,
        userId: user.id,
        title: title.length > TITLE_MAX ? `${title.slice(0, TITLE_MAX - 1)}…` : title,
        status: 'STOPPED',
        selectedRepository: source.selectedRepository,
        selectedBranch: source.selectedBranch,
        gitProvider: source.gitProvider,
        trigger: source.trigger,
        instructions: source.instructions,
        forkedFromId: source.id,
        forkedAtEventId: body.event_id,
        forkedFromTitle: source.title,
      });
      try {
        if (through >= 0) await events.copyPrefix(source.id, id, through);
        if (snapshot) await manager.forkWorkspace(source.id, id, snapshot, through);
      } catch (error) {
        await manager.remove(id);
        await conversations.remove(id);
        if (error instanceof MissingWorkspaceError)
          throw new Conflict('The workspace of this conversation is not on this server, so it cannot be forked.');
        throw error;
      }
      // The copied history may name the original: the fork's own title comes after it.
      await manager.setTitle(id, row.title);
      const message = body.message && { content: body.message, image_urls: event.args?.image_urls ?? [] };
      const forked = view(await startWithinLimit(row, message ? { initialMessage: message } : {}, true));
      const skipped = snapshot?.skipped ?? [];
      return skipped.length > 0 && forked.forked_from
        ? { ...forked, forked_from: { ...forked.forked_from, skipped_files: skipped } }
        : forked;
    },

    async list(
      user: AuthUser,
      query: {
        limit?: number;
        page_id?: string;
        user_id?: string;
        selected_repository?: string;
        conversation_trigger?: string;
        forked_from?: string;
      },
    ) {
      if (query.user_id && query.user_id !== user.id) throw new Forbidden('You can only list your own conversations');
      const page = await conversations.list(user.id, {
        limit: query.limit ?? 20,
        cursor: query.page_id,
        repository: query.selected_repository,
        trigger: query.conversation_trigger,
        forkedFrom: query.forked_from,
      });
      return { results: page.rows.map(view), next_page_id: page.next };
    },

    async rename(user: AuthUser, id: string, rawTitle: string) {
      await owned(user, id);
      const title = rawTitle.trim();
      if (title.length < 1 || title.length > 200)
        throw new ValidationFailure([
          {
            loc: ['body', 'title'],
            msg: 'The title must be 1 to 200 characters long (spaces at either end do not count)',
            type: 'value_error',
          },
        ]);
      await manager.setTitle(id, title);
      return view(await owned(user, id));
    },

    async remove(user: AuthUser, id: string) {
      await owned(user, id);
      await manager.remove(id);
      await conversations.remove(id);
    },

    async start(user: AuthUser, id: string, providers: string[] | undefined) {
      const row = await owned(user, id);
      if (row.status === 'STOPPED') await mayStart(user);
      return view(await startWithinLimit(row, { providers }));
    },

    async stop(user: AuthUser, id: string) {
      await owned(user, id);
      await manager.stop(id);
      return view(await owned(user, id));
    },

    /** The owner of a running conversation whose session key this is, else null. */
    async bySessionKey(id: string, key: string): Promise<AuthUser | null> {
      const row = await conversations.find(id);
      if (!row?.sessionApiKey || row.status === 'STOPPED' || !box.matches(row.sessionApiKey, key)) return null;
      const account = await findUser(db, row.userId);
      return account && { id: account.id, email: account.email, isActive: account.isActive };
    },

    async act(user: AuthUser, id: string, action: ClientAction) {
      const row = await owned(user, id);
      // A message to a stopped conversation (after a restart, say) starts it and is delivered once it runs.
      if (row.status === 'STOPPED' && action.action === 'message') {
        await mayStart(user);
        await startWithinLimit(row, { initialMessage: action.args });
        return;
      }
      await manager.handle(row, action);
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
