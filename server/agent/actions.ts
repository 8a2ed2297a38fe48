import { createHash, randomUUID } from 'node:crypto';
import { type PlannedAction } from './controller-types.ts';
import type { ToolCallMetadata } from './context/units.ts';
import type { EventLog } from './event-log.ts';
import type { ModelResponse, ModelToolCall } from './llm/stream-call.ts';
import { assessRisk, modelRisk, requiresConfirmation, type RiskLevel } from './security-analyzer.ts';
import type { StepSignature } from './stuck-detector.ts';
import { ToolInputError, type AgentTool, type ToolOutcome, type ToolRegistry } from './tools/index.ts';
import type { ActionDescription } from './tools/tool.ts';
import type { AgentHost } from './types.ts';
import { withSnapshot } from '../runtime/types.ts';

/** A tool call of the model's reply, with everything needed to announce and run it. */
interface ToolCallPlan {
  call: ModelToolCall;
  /** The model's text before its calls, carried by the first call's action. */
  thought: string;
  responseId: string;
  tool: AgentTool | undefined;
  /** The validated arguments, or why they are not valid. */
  parsed: { ok: true; input: unknown } | { ok: false; reason: string };
  risk: RiskLevel;
}

/** The actions whose steps may change the workspace's files: a fork from after them needs a snapshot. */
const FILE_CHANGING = new Set(['run', 'run_ipython', 'edit', 'call_tool_mcp']);

const NOT_RUN = 'This action was not run: the agent was paused or stopped before it started.';

const fingerprint = (text: string) => createHash('sha256').update(text).digest('base64url');

function argumentsObject(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/**
 * Turns the model's tool calls into action events, runs them and emits their observations,
 * in the event shapes of the spec (OpenHands-compatible args, extras and tool_call_metadata).
 */
export class ActionRunner {
  private readonly plans = new Map<string, ToolCallPlan>();

  constructor(
    private readonly host: AgentHost,
    private readonly log: EventLog,
    private readonly tools: () => ToolRegistry,
  ) {}

  plan(response: ModelResponse): PlannedAction[] {
    const responseId = response.responseId ?? randomUUID();
    this.plans.clear();
    return response.toolCalls.map((call, index) => {
      const tool = this.tools().get(call.toolName);
      const parsed = this.parse(call, tool);
      const input = argumentsObject(call.input);
      const risk =
        tool && tool.actionKind !== 'call_tool_mcp' ? assessRisk(call.toolName, input) : modelRisk(input.security_risk);
      this.plans.set(call.toolCallId, {
        call,
        thought: index === 0 ? response.text : '',
        responseId,
        tool,
        parsed,
        risk,
      });
      return {
        id: call.toolCallId,
        needsConfirmation: parsed.ok && requiresConfirmation(this.host.settings, call.toolName, risk),
        finishes: parsed.ok && call.toolName === 'finish',
      };
    });
  }

  private parse(call: ModelToolCall, tool: AgentTool | undefined): ToolCallPlan['parsed'] {
    if (call.invalidReason !== null && tool)
      return { ok: false, reason: `The arguments of ${call.toolName} are not valid JSON: ${call.invalidReason}` };
    if (!tool)
      return {
        ok: false,
        reason: `There is no tool named ${call.toolName}. The tools are: ${this.tools().names.join(', ')}.`,
      };
    try {
      return { ok: true, input: tool.parse(call.input) };
    } catch (error) {
      if (error instanceof ToolInputError) return { ok: false, reason: error.message };
      throw error;
    }
  }

  private planOf(actionId: string): ToolCallPlan {
    const plan = this.plans.get(actionId);
    if (!plan) throw new Error(`No planned action ${actionId}`);
    return plan;
  }

  private description(plan: ToolCallPlan): ActionDescription {
    if (plan.parsed.ok && plan.tool) return plan.tool.describe(plan.parsed.input);
    const input = argumentsObject(plan.call.input);
    if (!plan.tool)
      return {
        action: 'call_tool_mcp',
        message: `Calling unknown tool ${plan.call.toolName}`,
        args: { name: plan.call.toolName, arguments: input },
      };
    return { action: plan.tool.actionKind, message: `Invalid call of ${plan.call.toolName}`, args: { ...input } };
  }

  private actionEvent(plan: ToolCallPlan, confirmation: 'awaiting_confirmation' | 'confirmed' | 'rejected' | null) {
    const description = this.description(plan);
    const metadata: ToolCallMetadata = {
      function_name: plan.call.toolName,
      tool_call_id: plan.call.toolCallId,
      model_response_id: plan.responseId,
      arguments: argumentsObject(plan.call.input),
    };
    return {
      source: 'agent' as const,
      action: description.action,
      message: description.message,
      args: {
        ...description.args,
        thought: plan.thought,
        security_risk: plan.risk,
        ...(confirmation ? { confirmation_state: confirmation } : {}),
        tool_call_metadata: metadata,
      },
    };
  }

  /**
   * Emits the action event before anything runs; in confirmation mode it says whether it
   * awaits the user. When the user paused or stopped the agent meanwhile, the action will
   * never run, and an observation says so at once.
   */
  async announce(actionId: string, awaitingConfirmation: boolean, signal: AbortSignal): Promise<number> {
    const confirmation = awaitingConfirmation
      ? 'awaiting_confirmation'
      : this.host.settings.confirmationMode
        ? 'confirmed'
        : null;
    const event = await this.log.emit(this.actionEvent(this.planOf(actionId), confirmation));
    if (signal.aborted) this.abandon(event.id);
    return event.id;
  }

  /** Answers an announced action that will not run (the agent was paused or stopped first). */
  abandon(actionEventId: number): void {
    void this.log
      .emit({
        source: 'agent',
        observation: 'error',
        cause: actionEventId,
        content: NOT_RUN,
        message: NOT_RUN,
        extras: {},
      })
      .catch(() => undefined);
  }

  /** The user's decision on an awaiting action, as a new statement of the action (the security log merges them). */
  restate(actionId: string, confirmation: 'confirmed' | 'rejected'): void {
    void this.log.emit(this.actionEvent(this.planOf(actionId), confirmation)).catch(() => undefined);
  }

  reject(actionEventId: number): void {
    void this.log
      .emit({
        source: 'agent',
        observation: 'user_rejected',
        cause: actionEventId,
        content: 'The user rejected this action.',
        message: 'Action rejected',
        extras: {},
      })
      .catch(() => undefined);
  }

  /** Runs the action and emits its observation, also when it fails or is interrupted. */
  async run(actionId: string, actionEventId: number, signal: AbortSignal): Promise<StepSignature> {
    const plan = this.planOf(actionId);
    let outcome: ToolOutcome;
    if (!plan.parsed.ok || !plan.tool?.run) {
      outcome = {
        observation: 'error',
        content: plan.parsed.ok ? `${plan.call.toolName} cannot be run.` : plan.parsed.reason,
        extras: {},
        error: true,
      };
    } else {
      try {
        outcome = await plan.tool.run(plan.parsed.input, { runtime: this.host.runtime, signal });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        outcome = {
          observation: 'error',
          content: signal.aborted ? `Interrupted: ${reason}` : `ERROR: ${reason}`,
          extras: {},
          error: true,
        };
      }
    }
    // Also after a failed step: a command that failed may have changed files all the same.
    const changedFiles = plan.parsed.ok && plan.tool?.run && FILE_CHANGING.has(this.description(plan).action);
    await this.log.emit({
      source: 'agent',
      observation: outcome.observation,
      cause: actionEventId,
      content: outcome.content,
      message: outcome.message ?? '',
      extras: changedFiles ? await withSnapshot(this.host.runtime, actionEventId, outcome.extras) : outcome.extras,
    });
    return {
      action: fingerprint(`${plan.call.toolName} ${JSON.stringify(plan.call.input)}`),
      observation: fingerprint(outcome.content),
      error: outcome.error === true,
    };
  }
}
