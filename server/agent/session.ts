import type { ModelMessage } from 'ai';
import { createActor, fromPromise } from 'xstate';
import { agentControllerMachine, agentStateOf } from './controller.ts';
import { type AgentState, type ModelStep, type Problem } from './controller-types.ts';
import { ActionRunner } from './actions.ts';
import { Condenser, estimateTokens, type CondenserLimits } from './context/condenser.ts';
import { ContextUnits } from './context/units.ts';
import { EventLog } from './event-log.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './llm/backoff.ts';
import { ModelCallError } from './llm/errors.ts';
import { MetricsTracker } from './metrics.ts';
import { ModelGateway } from './model-gateway.ts';
import { systemPrompt } from './prompts/system-prompt.ts';
import { Recall } from './recall/workspace-context.ts';
import { cleanTitle, fallbackTitle, TITLE_INSTRUCTIONS } from './title.ts';
import { connectMcpServers, type McpConnections, type StdioLauncher } from './tools/mcp.ts';
import { BUILT_IN_TOOL_NAMES, BUILT_IN_TOOLS, ToolRegistry } from './tools/index.ts';
import type { AgentHost, AgentSession, NewEvent } from './types.ts';
import { agentStateEvent } from './state-event.ts';
import { userChanges } from '../runtime/types.ts';
import type { ClientAction } from '../../openapi/types.ts';

export interface AgentOptions {
  retryPolicy?: RetryPolicy;
  /**
   * Condense when the prompt passes this fraction of the context window (default 0.75 with
   * the default condenser on; 0.95, just short of failing, with it off).
   */
  condenseAt?: number;
  /** Overrides the model's context window (tests use a small one). */
  contextWindow?: number;
  now?: () => Date;
}

const PLATFORM_VERSION = '1.0.0';
/** Tokens kept free for the model's answer. */
const OUTPUT_RESERVE = 8_000;

/** oss mode (no credits to charge) has one local user, who may run processes on the host; saas users only inside their sandbox. */
function stdioLauncher(host: AgentHost): StdioLauncher {
  if (host.charge === undefined) return { kind: 'host' };
  const { runtime } = host;
  if (!runtime.sandboxed) return { kind: 'refused' };
  const launch = (argv: string[]) => {
    const process = runtime.sandboxedProcess(argv);
    if (!process) throw new Error('the workspace sandbox is not available');
    return process;
  };
  return { kind: 'sandbox', launch };
}

/** The agent of one conversation: the controller statechart with its side effects wired to the host. */
export function createAgentSession(host: AgentHost, options: AgentOptions = {}): AgentSession {
  const metrics = new MetricsTracker(host.settings.llm?.model ?? '', () => host.settings.maxBudgetPerTask);
  const log = new EventLog(host, () => metrics.snapshot());
  const recall = new Recall(host);
  const lifetime = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  let tools = new ToolRegistry(BUILT_IN_TOOLS);
  let mcp: McpConnections | null = null;
  let gateway: ModelGateway | null = null;
  let system = '';
  /** What every model call sends besides the conversation; fixed once the session is prepared. */
  let modelTools = tools.forModel();
  let fixedTokens = 0;
  let takenUpTo = -1;

  const condenser = new Condenser((): CondenserLimits => {
    const window = options.contextWindow ?? metrics.price.contextWindow;
    const fraction = options.condenseAt ?? (host.settings.enableDefaultCondenser ? 0.75 : 0.95);
    const limitTokens = Math.max(
      1_000,
      Math.floor(window * fraction) - Math.min(OUTPUT_RESERVE, Math.floor(window / 4)),
    );
    return { limitTokens, targetTokens: Math.floor(limitTokens / 2) };
  });
  const contextUnits = new ContextUnits();
  const actions = new ActionRunner(host, log, () => tools);
  const emit = (event: NewEvent) => void log.emit(event).catch(() => undefined);
  const track = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => undefined);
    return promise;
  };
  const requireGateway = () => {
    if (!gateway) throw new Error('The agent is not prepared yet');
    return gateway;
  };

  // The user's messages go into the log after the system event that preparing emits: a message that
  // arrives while the MCP servers connect waits for it, so the history always starts with the system prompt.
  let markPrepared = () => {};
  const prepared = new Promise<void>((resolve) => (markPrepared = resolve));

  async function prepare(): Promise<void> {
    try {
      await prepareOnce();
    } finally {
      markPrepared();
    }
  }

  async function prepareOnce(): Promise<void> {
    await log.load();
    metrics.restore(log.events);
    recall.restore(
      log.events.flatMap((event) => (event.observation === 'recall' && event.extras ? [event.extras] : [])),
    );
    takenUpTo = log.lastId;
    gateway = new ModelGateway(host, metrics, log.lastId + 1);
    mcp = await connectMcpServers(host.settings.mcpConfig, {
      cwd: host.runtime.workspaceDir,
      reservedNames: BUILT_IN_TOOL_NAMES,
      stdio: stdioLauncher(host),
      fetch: host.outboundFetch,
    });
    for (const failure of mcp.failures) {
      emit({
        source: 'agent',
        status_update: true,
        type: 'error',
        status_id: 'STATUS$ERROR_MCP_SERVER',
        message: `The MCP server ${failure.server} could not be used: ${failure.reason}`,
      });
    }
    tools = new ToolRegistry([...BUILT_IN_TOOLS, ...mcp.tools]);
    system = systemPrompt({
      runtime: host.runtime,
      runtimeHosts: host.runtimeHosts,
      mcpTools: mcp.tools.map((tool) => tool.name),
      repository: host.settings.repository,
    });
    modelTools = tools.forModel();
    fixedTokens = estimateTokens(system) + estimateTokens(tools.specs());
    if (!log.events.some((event) => event.action === 'system')) {
      emit({
        source: 'agent',
        action: 'system',
        message: system,
        args: {
          content: system,
          tools: tools.specs(),
          agent_class: host.settings.agent,
          platform_version: PLATFORM_VERSION,
        },
      });
    }
    // Without a model the agent cannot work: say so now, not after the user's first message.
    gateway.currentModel();
  }

  async function generateTitle(message: string): Promise<void> {
    let title = '';
    try {
      const limits = await requireGateway().checkLimits();
      if (limits.ok)
        title = cleanTitle(
          await requireGateway().complete({ system: TITLE_INSTRUCTIONS, prompt: message, signal: lifetime.signal }),
        );
    } catch {
      // The fallback below is good enough: a title is not worth failing the conversation for.
    }
    if (lifetime.signal.aborted) return;
    await host.setTitle(title || fallbackTitle(message));
  }

  /** Recall for the user messages that arrived since the last step; the first message of the conversation also gets a title. */
  async function takeUserMessages(): Promise<void> {
    // From the newest back to the last taken (ids ascend): a step does not walk the whole history.
    const fresh: typeof log.events = [];
    for (let i = log.events.length - 1; i >= 0; i--) {
      const event = log.events[i];
      if (!event || event.id <= takenUpTo) break;
      if (event.source === 'user' && event.action === 'message') fresh.unshift(event);
    }
    takenUpTo = log.lastId;
    for (const message of fresh) {
      const content = message.args?.content ?? '';
      const hasContext = log.events.some(
        (event) => event.observation === 'recall' && event.extras?.recall_type === 'workspace_context',
      );
      const isFirstMessage = !log.events.some(
        (event) => event.source === 'user' && event.action === 'message' && event.id < message.id,
      );
      if (isFirstMessage) void track(generateTitle(content));
      const extras = hasContext
        ? await recall.knowledgeFor(content)
        : await recall.workspaceContext(content, options.now?.() ?? new Date());
      if (extras) {
        await log.emit({
          source: 'agent',
          observation: 'recall',
          cause: message.id,
          content: '',
          message: hasContext ? 'Added microagent knowledge' : 'Added workspace context',
          extras,
        });
      }
    }
  }

  async function callModel(signal: AbortSignal): Promise<ModelStep> {
    const model = requireGateway();
    const units = contextUnits.of(log.events);
    const request = (messages: ModelMessage[]) => model.step({ system, messages, tools: modelTools, signal });
    let response;
    try {
      response = await request(condenser.messages(units, fixedTokens).messages);
    } catch (error) {
      // The estimate was too optimistic for this provider's tokenizer: cut harder once.
      if (!(error instanceof ModelCallError && error.contextExceeded)) throw error;
      response = await request(condenser.forceCondense(units, fixedTokens));
    }
    const planned = actions.plan(response);
    return { text: response.text, actions: planned };
  }

  function announceState(state: AgentState, problem: Problem | null): void {
    if (problem && (state === 'ERROR' || state === 'PAUSED')) {
      emit({
        source: 'agent',
        status_update: true,
        type: 'error',
        status_id: problem.errorId,
        message: problem.reason,
      });
    }
    emit(agentStateEvent(state, problem?.reason));
  }

  const machine = agentControllerMachine.provide({
    actors: {
      prepare: fromPromise(() => prepare()),
      takeUserMessages: fromPromise(() => takeUserMessages()),
      checkLimits: fromPromise(() => requireGateway().checkLimits()),
      callModel: fromPromise(({ signal }) => callModel(signal)),
      announceAction: fromPromise(
        async ({
          input,
          signal,
        }: {
          input: { actionId: string; awaitingConfirmation: boolean };
          signal: AbortSignal;
        }) => ({
          eventId: await actions.announce(input.actionId, input.awaitingConfirmation, signal),
        }),
      ),
      runAction: fromPromise(
        ({ input, signal }: { input: { actionId: string; eventId: number }; signal: AbortSignal }) =>
          track(actions.run(input.actionId, input.eventId, signal)),
      ),
    },
    actions: {
      announceState: ({ context }, params) => announceState(params.state, context.problem),
      sayToUser: (_, params) =>
        emit({
          source: 'agent',
          action: 'message',
          message: params.text,
          args: { content: params.text || 'The model returned an empty reply.', wait_for_response: true },
        }),
      restateAction: ({ context }, params) => {
        const current = context.pending[0];
        if (current) actions.restate(current.id, params.confirmation);
      },
      rejectAction: ({ context }) => {
        if (context.currentEventId !== null) actions.reject(context.currentEventId);
      },
      abandonAction: ({ context }) => {
        if (context.currentEventId !== null) actions.abandon(context.currentEventId);
      },
    },
  });

  const actor = createActor(machine, {
    input: { maxIterations: host.settings.maxIterations, retryPolicy: options.retryPolicy ?? DEFAULT_RETRY_POLICY },
  });
  actor.start();

  function handleMessage(args: { content: string; image_urls?: string[]; file_urls?: string[] }): void {
    const event: NewEvent = {
      source: 'user',
      action: 'message',
      message: args.content,
      args: { content: args.content, image_urls: args.image_urls ?? [], file_urls: args.file_urls ?? [] },
    };
    void prepared
      .then(async () => log.emit({ ...event, ...(await userChanges(host.runtime, log.lastId)) }))
      .then(
        () => actor.send({ type: 'USER_MESSAGE' }),
        () => undefined,
      );
  }

  const STATE_REQUESTS = {
    PAUSED: 'PAUSE',
    STOPPED: 'STOP',
    RUNNING: 'RESUME',
    USER_CONFIRMED: 'CONFIRM',
    USER_REJECTED: 'REJECT',
  } as const;

  return {
    get state() {
      return agentStateOf(actor.getSnapshot());
    },
    handle(action: ClientAction): void {
      if (action.action === 'message') handleMessage(action.args);
      else if (action.action === 'change_agent_state') {
        const request = STATE_REQUESTS[action.args.agent_state as keyof typeof STATE_REQUESTS];
        if (request) actor.send({ type: request });
      }
    },
    async stop(): Promise<void> {
      lifetime.abort();
      actor.stop();
      await Promise.allSettled([...inFlight]);
      await mcp?.close();
      await log.drain();
    },
  };
}
