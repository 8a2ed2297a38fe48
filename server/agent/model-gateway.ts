import type { ModelMessage } from 'ai';
import { type LimitCheck } from './controller-types.ts';
import { asProviderModel, type ProviderModel, type ProviderTool } from './llm/provider-prompt.ts';
import { takesImages, withoutImages } from './llm/images.ts';
import { createLanguageModel } from './llm/provider.ts';
import { streamModelCall, type ModelResponse } from './llm/stream-call.ts';
import type { CallUsage, MetricsTracker } from './metrics.ts';
import type { AgentHost, LlmSettings } from './types.ts';
import { INSUFFICIENT_CREDITS, MINIMUM_BALANCE_MICROS } from '../shared/credit-limits.ts';
import { agentSteps, llmCostMicros, llmTokens } from '../shared/metrics.ts';

interface ModelCallRequest {
  system: string;
  messages: readonly ModelMessage[];
  tools: readonly ProviderTool[];
  signal: AbortSignal;
}

/** Whether two model settings are the same; they are read again before every step, as new objects. */
function sameModel(a: LlmSettings | null, b: LlmSettings | null): boolean {
  return (
    a === b ||
    (a !== null &&
      b !== null &&
      a.provider === b.provider &&
      a.model === b.model &&
      a.apiKey === b.apiKey &&
      a.baseUrl === b.baseUrl)
  );
}

const dollars = (micros: bigint) => `$${(Number(micros) / 1_000_000).toFixed(4)}`;

/**
 * Every model call of a session goes through here: the limits are checked before it, and
 * its tokens are metered and (in saas mode) charged after it.
 */
export class ModelGateway {
  /** Numbers the calls for the charge's idempotency key. */
  private callNumber: number;
  /** The model of the settings it was made for: built once, not on every step. */
  private model: { for: AgentHost['settings']['llm']; model: ProviderModel } | null = null;

  constructor(
    private readonly host: AgentHost,
    private readonly metrics: MetricsTracker,
    firstCallNumber: number,
  ) {
    // The session starts numbering after the history's last event id: every charged call of
    // an earlier session produced at least one event, so numbers never repeat across restarts.
    this.callNumber = firstCallNumber;
  }

  /** The settings saved now, then budget per task, then credits: before every call, so an exhausted budget sends nothing. */
  async checkLimits(): Promise<LimitCheck> {
    await this.host.refreshSettings?.();
    const budget = this.metrics.budgetMicros;
    const spent = this.metrics.accumulatedMicros;
    if (budget !== null && spent >= budget) {
      return {
        ok: false,
        problem: {
          reason: `The task reached its maximum budget of ${dollars(budget)} (spent ${dollars(spent)}). Raise the maximum budget per task in the settings to continue.`,
          errorId: 'AGENT_ERROR$BUDGET_EXCEEDED',
        },
      };
    }
    if (this.host.balance && (await this.host.balance()) < MINIMUM_BALANCE_MICROS) {
      return { ok: false, problem: { reason: INSUFFICIENT_CREDITS, errorId: 'STATUS$ERROR_LLM_OUT_OF_CREDITS' } };
    }
    return { ok: true };
  }

  private async meter(usage: CallUsage): Promise<void> {
    const cost = this.metrics.record(usage);
    llmTokens.inc({ kind: 'prompt' }, usage.promptTokens);
    llmTokens.inc({ kind: 'completion' }, usage.completionTokens);
    llmCostMicros.inc(Number(cost));
    const key = `${this.host.conversationId}:${this.callNumber++}`;
    if (this.host.charge && cost > 0n) await this.host.charge(cost, key);
  }

  /** The model for the current settings, built when they name a different one. Throws ModelCallError when none is configured. */
  currentModel(): ProviderModel {
    const llm = this.host.settings.llm;
    if (!this.model || !sameModel(this.model.for, llm))
      this.model = { for: llm, model: asProviderModel(createLanguageModel(llm)) };
    return this.model.model;
  }

  /** One agent step. Throws ModelCallError. */
  async step(request: ModelCallRequest): Promise<ModelResponse> {
    agentSteps.inc();
    return this.call(request);
  }

  /** One metered model call. */
  private async call(request: ModelCallRequest): Promise<ModelResponse> {
    const model = this.currentModel();
    const messages = takesImages(this.host.settings.llm?.model ?? '')
      ? request.messages
      : withoutImages(request.messages);
    const response = await streamModelCall({ model, ...request, messages });
    await this.meter(response.usage);
    return response;
  }

  /** A short completion without tools (the title), metered like a step. Throws ModelCallError. */
  async complete(request: { system: string; prompt: string; signal: AbortSignal }): Promise<string> {
    const response = await this.call({
      system: request.system,
      messages: [{ role: 'user', content: request.prompt }],
      tools: [],
      signal: request.signal,
    });
    return response.text;
  }
}
