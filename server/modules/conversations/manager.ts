import { randomBytes } from 'node:crypto';
import { agentStateEvent } from '../../agent/state-event.ts';
import type { AgentFactory, AgentSettings } from '../../agent/types.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import {
  IsolationUnavailableError,
  type RepositorySource,
  type Runtime,
  type RuntimeSession,
  type WorkspaceFile,
  type WorkspaceSnapshot,
  userChanges,
} from '../../runtime/types.ts';
import type { ServedApp } from '../../runtime/served-apps.ts';
import { Conflict } from '../../shared/domain-errors.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { ActiveConversation } from './active.ts';
import type { AppProxy } from './app-proxy.ts';
import { disposition, messageEvent, runEvent } from './actions.ts';
import type { EventStore, NewEvent } from './events.ts';
import { createAgentHost, type HostDeps, type ModelSettings } from './host.ts';
import type { Inbox } from './inbox.ts';
import { replayTrajectory } from './replay.ts';
import { LimitStatus, Status, statusUpdate } from './status.ts';
import type { ConversationRow, ConversationStore } from './store.ts';
import { runUserCommand } from './terminal.ts';
import type { Logger } from '../../shared/logger.ts';
import type { ClientAction, Event } from '../../../openapi/types.ts';
import { countRunningConversations } from '../../shared/metrics.ts';

export interface StartOptions {
  /** Git providers whose tokens the runtime gets (all the user has when absent). */
  providers?: string[] | undefined;
  /** A recorded trajectory to replay through the runtime before the agent starts. */
  replay?: Event[] | undefined;
  /** The first user message, handed to the agent once it runs. */
  initialMessage?: Extract<ClientAction, { action: 'message' }>['args'] | undefined;
  /** Files written into the new workspace before the agent starts (an onboarding chat's uploads). */
  files?: WorkspaceFile[] | undefined;
  /** The most conversations its owner may have running besides this one (RunningLimitError beyond). */
  runningLimit?: number | undefined;
}

export interface ManagerDeps {
  nodeId: string;
  /** Where other nodes reach this one (recorded with each claim). */
  nodeUrl: string;
  /** A node holds a running conversation for this long without renewing; renewals come three times as often. */
  leaseMs: number;
  conversations: ConversationStore;
  events: EventStore;
  inbox: Inbox;
  bus: EventBus;
  runtime: Runtime;
  agentFactory: AgentFactory | undefined;
  /** For requests made on the user's behalf (remote MCP servers): guarded in saas mode. */
  outboundFetch: typeof fetch;
  box: SecretBox;
  /** The runtime environment (secrets, git identity and tokens, the latter also apart) and agent settings of a start. */
  prepare(
    row: ConversationRow,
    providers: string[] | undefined,
  ): Promise<{
    env: Record<string, string>;
    gitTokens: Record<string, string>;
    settings: AgentSettings;
    repository: RepositorySource | null;
  }>;
  /** The runtime's variables of the user's git tokens as they are now (refreshed first when they expire soon). */
  gitTokens(userId: string, providers: string[] | undefined): Promise<Record<string, string>>;
  /** The user's model settings as saved now (the agent reads them again before each step). */
  modelSettings(userId: string): Promise<ModelSettings>;
  /** saas: the owner's credits; null in oss mode. */
  credits: ((userId: string, conversationId: string) => NonNullable<HostDeps['credits']>) | null;
  /** Serves each running conversation's app ports to its owner (app-proxy.ts). */
  apps: Pick<AppProxy, 'open' | 'close'>;
  log: Logger;
}

/**
 * Owns, per conversation this node runs, the runtime session and the agent session:
 * STOPPED → STARTING (claim, runtime start, replay) → RUNNING (agent ready) → STOPPED.
 * Client actions reach the owner node directly, or through the inbox table and an `inbox`
 * signal when a socket on another node received them.
 */
export class ConversationManager {
  private readonly active = new Map<string, ActiveConversation>();
  private readonly uncount: () => void;
  private readonly renewal: NodeJS.Timeout;
  private renewingGitTokens = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: ManagerDeps) {
    this.renewal = setInterval(() => {
      void this.renewLeases();
      void this.renewGitTokens();
    }, deps.leaseMs / 3).unref();
    this.unsubscribe = deps.bus.onSignal((id, message) => void this.onSignal(id, message));
    this.uncount = countRunningConversations(() => this.active.size);
  }

  /** Persists an event, then tells every node (and so every socket) about it. */
  async emit(conversationId: string, event: NewEvent): Promise<Event> {
    const [stored] = await this.deps.events.append(conversationId, [event]);
    if (!stored) throw new Error('append returned no event');
    await this.deps.bus.publish(conversationId, stored);
    return stored;
  }

  /** The runtime session when this node runs the conversation and its runtime is up. */
  session(conversationId: string) {
    return this.active.get(conversationId)?.session ?? null;
  }

  /**
   * Where another node runs this conversation's runtime, for calls that need it; null when it
   * runs here, is stopped, or its owner stopped renewing the lease.
   */
  async ownerElsewhere(conversationId: string): Promise<string | null> {
    if (this.active.has(conversationId)) return null;
    const row = await this.deps.conversations.find(conversationId);
    if (!row || row.status === 'STOPPED' || !row.ownerUrl || row.ownerNode === this.deps.nodeId) return null;
    return (row.leaseExpiresAt?.getTime() ?? 0) > Date.now() ? row.ownerUrl : null;
  }

  /** Marks conversations whose processes died with an earlier process of this node (or a dead node) as stopped. */
  async recover(everyone: boolean) {
    const stopped = await this.deps.conversations.stopOrphans(this.deps.nodeId, everyone);
    for (const { id } of stopped) await this.announceStopped(id, 'The server restarted; the conversation was stopped.');
    if (stopped.length)
      this.deps.log.info({ count: stopped.length }, 'conversations left running by a previous process are now stopped');
  }

  /** Starts the runtime (and then the agent) unless it runs already; answers the row, STARTING or RUNNING. */
  async start(row: ConversationRow, options: StartOptions = {}): Promise<ConversationRow> {
    const message = options.initialMessage && ({ action: 'message', args: options.initialMessage } as const);
    const running = this.active.get(row.id);
    if (running) {
      // Started a moment ago: the message goes to the run under way.
      if (message) this.deliver(running, message);
      return (await this.deps.conversations.find(row.id)) ?? row;
    }
    // Registered before the first await, so a second start of the same conversation waits on this one.
    const active = new ActiveConversation(row.id, row.userId);
    this.active.set(row.id, active);
    const key = randomBytes(24).toString('base64url');
    const limit = options.runningLimit === undefined ? undefined : { userId: row.userId, most: options.runningLimit };
    const claimed = await this.deps.conversations
      .claim(
        row.id,
        this.deps.nodeId,
        this.deps.leaseMs,
        {
          status: 'STARTING',
          ownerUrl: this.deps.nodeUrl,
          runtimeStatus: Status.STARTING_RUNTIME,
          sessionApiKey: this.deps.box.encrypt(key),
        },
        limit,
      )
      .catch((error: unknown) => {
        this.active.delete(row.id);
        throw error;
      });
    if (!claimed) {
      // Another node holds a live lease: it runs the conversation, and gets the message through the inbox.
      this.active.delete(row.id);
      if (message) await this.pushToOwner(row.id, message);
      return (await this.deps.conversations.find(row.id)) ?? row;
    }
    active.claimed = true;
    active.ready = this.boot(active, claimed, options);
    return claimed;
  }

  private async boot(active: ActiveConversation, row: ConversationRow, options: StartOptions): Promise<boolean> {
    const { id } = active;
    try {
      await this.emit(id, statusUpdate(Status.STARTING_RUNTIME, 'Starting the runtime…'));
      const { env, gitTokens, settings: prepared, repository } = await this.deps.prepare(row, options.providers);
      const session = await this.deps.runtime.start(id, { env });
      active.session = session;
      // An app port taken meanwhile leaves the app unreachable, not the conversation stopped.
      await this.deps.apps
        .open(id, active.userId, session)
        .catch((error: unknown) =>
          this.deps.log.warn({ err: error, conversationId: id }, 'the app ports could not be served'),
        );
      // Told to the user as it happens; the agent reads it in its next observation.
      session.onLimit(
        (hit) => void this.emit(id, statusUpdate(LimitStatus[hit.kind], hit.message, 'error')).catch(() => {}),
      );
      active.gitTokens = { providers: options.providers, values: gitTokens };
      if (active.stopping) return false;
      const settings =
        repository && !(await this.checkout(id, session, repository, row.selectedRepository ?? repository.url))
          ? { ...prepared, repository: null }
          : prepared;
      if (active.stopping) return false;
      for (const file of options.files ?? []) await session.putFile(file.path, file.content);
      await this.deps.conversations.update(id, { runtimeStatus: Status.RUNTIME_STARTED });
      if (options.replay?.length) {
        await this.emit(id, statusUpdate(Status.REPLAYING, `Replaying ${options.replay.length} recorded events…`));
        await replayTrajectory(
          options.replay,
          session,
          (event) => this.emit(id, event),
          () => active.stopping,
        );
        if (active.stopping) return false;
      }
      if (this.deps.agentFactory) {
        const credits = this.deps.credits?.(active.userId, id);
        active.agent = this.deps.agentFactory(
          createAgentHost(id, session, settings, {
            emit: (event) => this.emit(id, event),
            history: () => this.deps.events.all(id),
            setTitle: (title) => this.setTitle(id, title),
            modelSettings: () => this.deps.modelSettings(active.userId),
            outboundFetch: this.deps.outboundFetch,
            ...(credits && { credits }),
          }),
        );
      }
      await this.deps.conversations.update(id, { status: 'RUNNING', runtimeStatus: Status.READY });
      await this.emit(id, statusUpdate(Status.READY, 'Ready'));
      if (options.initialMessage) this.deliver(active, { action: 'message', args: options.initialMessage });
      return true;
    } catch (error) {
      this.deps.log.error({ err: error, conversationId: id }, 'conversation failed to start');
      await this.emit(
        id,
        error instanceof IsolationUnavailableError
          ? statusUpdate(Status.SANDBOX_UNAVAILABLE, error.message, 'error')
          : statusUpdate(Status.ERROR, `The runtime could not start: ${(error as Error).message}`, 'error'),
      ).catch(() => {});
      void this.stop(id, Status.ERROR);
      return false;
    }
  }

  /** The conversation's repository in its workspace (on first start); false, with an error in the chat, when it could not be checked out. */
  private async checkout(
    id: string,
    session: RuntimeSession,
    repository: RepositorySource,
    name: string,
  ): Promise<boolean> {
    try {
      if (await session.checkoutRepository(repository))
        await this.emit(id, statusUpdate(Status.REPOSITORY_READY, `Checked out ${name}.`));
      return true;
    } catch (error) {
      const reason = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
      await this.emit(
        id,
        statusUpdate(Status.REPOSITORY_FAILED, `The repository ${name} could not be checked out: ${reason}`, 'error'),
      );
      return false;
    }
  }

  /**
   * Stops the agent and the runtime's processes; the workspace and history stay. A
   * conversation another node runs is marked stopped here and its owner told to stop it.
   */
  async stop(conversationId: string, runtimeStatus: string = Status.STOPPED): Promise<void> {
    const stopped = {
      status: 'STOPPED',
      runtimeStatus,
      sessionApiKey: null,
      ownerNode: null,
      ownerUrl: null,
      leaseExpiresAt: null,
    } as const;
    if (this.active.has(conversationId)) {
      await this.release(conversationId);
      await this.deps.conversations.update(conversationId, stopped);
      await this.announceStopped(conversationId, 'The conversation was stopped.');
      return;
    }
    const row = await this.deps.conversations.find(conversationId);
    if (!row || row.status === 'STOPPED') return;
    await this.deps.conversations.update(conversationId, stopped);
    await this.deps.bus.signal(conversationId, 'stop');
    await this.announceStopped(conversationId, 'The conversation was stopped.');
  }

  /** However it stopped, its agent is stopped too: the chat shows no agent at work beside a stopped conversation. */
  private async announceStopped(conversationId: string, message: string) {
    await this.emit(conversationId, agentStateEvent('STOPPED'));
    await this.emit(conversationId, statusUpdate(Status.STOPPED, message));
  }

  /** The new conversation `targetId`'s workspace as `sourceId`'s was at `snapshot` (see Runtime.fork). */
  forkWorkspace(sourceId: string, targetId: string, snapshot: WorkspaceSnapshot, throughEventId: number) {
    return this.deps.runtime.fork(sourceId, targetId, snapshot, throughEventId);
  }

  /** Stops the conversation and has every node delete its workspace; the caller deletes the row (and with it the events). */
  async remove(conversationId: string) {
    await this.stop(conversationId);
    await this.deps.runtime.remove(conversationId);
    await this.deps.bus.signal(conversationId, 'delete');
  }

  /** A client action on a conversation the caller may use (see actions.ts for what each does). */
  async handle(row: ConversationRow, action: ClientAction): Promise<void> {
    const what = disposition(action);
    if (what.kind === 'ignore') return;
    if (what.kind === 'record') {
      await this.emit(row.id, what.event);
      return;
    }
    const active = this.active.get(row.id);
    if (active) return this.deliver(active, what.action);
    const runsElsewhere =
      row.status !== 'STOPPED' && row.ownerNode !== null && (row.leaseExpiresAt?.getTime() ?? 0) > Date.now();
    if (!runsElsewhere) throw new Conflict('The conversation is stopped; start it first.');
    await this.pushToOwner(row.id, what.action);
  }

  private async pushToOwner(conversationId: string, action: ClientAction) {
    await this.deps.inbox.push(conversationId, action);
    await this.deps.bus.signal(conversationId, 'inbox');
  }

  async setTitle(conversationId: string, title: string) {
    const clean = title.trim().slice(0, 200);
    if (!clean) return;
    await this.deps.conversations.update(conversationId, { title: clean });
    await this.emit(conversationId, statusUpdate(Status.TITLE_UPDATED, clean, 'info', { conversation_title: clean }));
  }

  /** Graceful shutdown: every conversation this node runs is stopped (a restart leaves them STOPPED). */
  async shutdown() {
    clearInterval(this.renewal);
    this.unsubscribe();
    this.uncount();
    await Promise.all(
      [...this.active.keys()].map((id) =>
        this.stop(id).catch((error: unknown) => this.deps.log.error({ err: error, conversationId: id }, 'stop failed')),
      ),
    );
    await this.deps.runtime.stopAll();
  }

  /**
   * Carries out a client action once start-up is over, in arrival order: every call waits on
   * the same promise first, so `await active.ready` must stay the first suspension point.
   */
  private deliver(active: ActiveConversation, action: ClientAction) {
    const run = async () => {
      if (!(await active.ready) || active.stopping) return;
      if (action.action === 'run') {
        const session = active.session;
        if (!session) return;
        await active.inTerminal(async () => {
          const recorded = await this.emit(active.id, runEvent(action.args));
          await this.emit(active.id, await runUserCommand(session, recorded, active.terminalState));
        });
      } else if (active.agent) active.agent.handle(action);
      else if (action.action === 'message') {
        const changes = await userChanges(active.session, await this.deps.events.latestId(active.id));
        await this.emit(active.id, { ...messageEvent(action.args), ...changes });
      }
    };
    run().catch((error: unknown) =>
      this.deps.log.error({ err: error, conversationId: active.id }, 'acting on a client action failed'),
    );
  }

  /**
   * Keeps what serves each app port now, for "Start the app again" after a restart; a port
   * nothing serves keeps what served it last.
   */
  async rememberServedApps(conversationId: string, session: RuntimeSession): Promise<ServedApp[]> {
    const now = await session.servedApps().catch(() => []);
    const row = await this.deps.conversations.find(conversationId);
    if (!row) return [];
    const kept = row.servedApps.filter((app) => !now.some((serving) => serving.slot === app.slot));
    const apps = [...now, ...kept].sort((a, b) => a.slot - b.slot);
    if (JSON.stringify(apps) !== JSON.stringify(row.servedApps))
      await this.deps.conversations.rememberServedApps(conversationId, apps);
    return apps;
  }

  /** Ends this node's part: agent and processes stop, the entry goes; the row is the caller's business. */
  private async release(conversationId: string) {
    const active = this.active.get(conversationId);
    if (!active) return;
    active.stopping = true;
    await active.ready;
    if (active.session) await this.rememberServedApps(conversationId, active.session);
    try {
      await active.agent?.stop();
    } finally {
      await this.deps.apps.close(conversationId);
      await active.session?.stop();
      if (this.active.get(conversationId) === active) this.active.delete(conversationId);
      await this.deps.inbox.clear(conversationId);
    }
  }

  private async onSignal(conversationId: string, message: string) {
    const active = this.active.get(conversationId);
    try {
      if (message === 'stop') await this.release(conversationId);
      // Every node removes its copy: the owner may have released the conversation on `stop` already.
      else if (message === 'delete') {
        await this.release(conversationId);
        await this.deps.runtime.remove(conversationId);
      } else if (active && message === 'inbox') {
        // Taken in a chain per conversation: two signals must not reorder what they take.
        const take = async () => {
          for (const action of await this.deps.inbox.take(conversationId)) this.deliver(active, action);
        };
        active.inbox = active.inbox.then(take, take);
        await active.inbox;
      }
    } catch (error) {
      this.deps.log.error({ err: error, conversationId, message }, 'acting on a signal failed');
    }
  }

  /**
   * Keeps this node's claims alive; a conversation stopped or deleted elsewhere is released
   * here, and one whose node died (its lease ran out) is marked stopped.
   */
  private async renewLeases() {
    const claimed = [...this.active.values()].filter((a) => a.claimed && !a.stopping).map((a) => a.id);
    try {
      const held = new Set(await this.deps.conversations.renewLeases(this.deps.nodeId, claimed, this.deps.leaseMs));
      for (const id of claimed.filter((c) => !held.has(c))) {
        const gone = !(await this.deps.conversations.find(id));
        await this.release(id);
        if (gone) await this.deps.runtime.remove(id);
      }
      for (const { id } of await this.deps.conversations.stopExpired(this.deps.nodeId))
        await this.announceStopped(
          id,
          'The server running this conversation stopped answering; the conversation was stopped.',
        );
    } catch (error) {
      this.deps.log.warn({ err: error }, 'renewing conversation leases failed');
    }
  }

  /**
   * Hands each running runtime the git tokens that changed since it got them: a sign-in token
   * refreshed before it expires (GitLab's and Bitbucket's last 2 hours), one saved meanwhile, or
   * one the user removed (then gone from the runtime too).
   */
  private async renewGitTokens() {
    if (this.renewingGitTokens) return;
    this.renewingGitTokens = true;
    try {
      for (const active of this.active.values()) {
        const { session, gitTokens } = active;
        if (!session || !gitTokens || active.stopping) continue;
        try {
          const now = await this.deps.gitTokens(active.userId, gitTokens.providers);
          const changed = [
            ...Object.entries(now).filter(([name, value]) => gitTokens.values[name] !== value),
            ...Object.keys(gitTokens.values)
              .filter((name) => !(name in now))
              .map((name) => [name, null] as const),
          ];
          if (changed.length === 0) continue;
          session.updateEnvironment(Object.fromEntries(changed));
          gitTokens.values = now;
        } catch (error) {
          this.deps.log.warn({ err: error, conversationId: active.id }, 'renewing a runtime’s git tokens failed');
        }
      }
    } finally {
      this.renewingGitTokens = false;
    }
  }
}
