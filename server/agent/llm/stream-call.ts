import type { ModelMessage } from 'ai';
import type { CallUsage } from '../metrics.ts';
import { classifyModelError } from './errors.ts';
import { withCacheBreakpoints } from './prompt-cache.ts';
import { toProviderPrompt, type ProviderModel, type ProviderTool } from './provider-prompt.ts';

export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  /** The parsed arguments; the raw text when they were not valid JSON. */
  input: unknown;
  /** Why the call cannot run (unknown tool, unparsable arguments), or null. */
  invalidReason: string | null;
}

export interface ModelResponse {
  /** What the model said besides its tool calls. */
  text: string;
  toolCalls: ModelToolCall[];
  usage: CallUsage;
  responseId: string | null;
}

export interface ModelRequest {
  model: ProviderModel;
  system: string;
  messages: readonly ModelMessage[];
  tools: readonly ProviderTool[];
  signal: AbortSignal;
}

type ProviderStreamPart =
  Awaited<ReturnType<ProviderModel['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;
type ProviderUsage = Extract<ProviderStreamPart, { type: 'finish' }>['usage'];

function providerCallUsage(usage: ProviderUsage | undefined): CallUsage {
  return {
    promptTokens: usage?.inputTokens.total ?? 0,
    completionTokens: usage?.outputTokens.total ?? 0,
    cacheReadTokens: usage?.inputTokens.cacheRead ?? 0,
    cacheWriteTokens: usage?.inputTokens.cacheWrite ?? 0,
  };
}

/** The arguments as an object; the raw text and why it cannot be read when they are not JSON. */
function parseArguments(text: string): Pick<ModelToolCall, 'input' | 'invalidReason'> {
  // Models send an empty string for a call without arguments.
  if (text.trim() === '') return { input: {}, invalidReason: null };
  try {
    return { input: JSON.parse(text) as unknown, invalidReason: null };
  } catch (error) {
    return { input: text, invalidReason: invalidReason(error) };
  }
}

function toolCallOf(
  part: Extract<ProviderStreamPart, { type: 'tool-call' }>,
  toolNames: ReadonlySet<string>,
): ModelToolCall {
  const call = { toolCallId: part.toolCallId, toolName: part.toolName, ...parseArguments(part.input) };
  // Kept as the model sent them, so the action event shows what it tried.
  if (!toolNames.has(part.toolName))
    return { ...call, invalidReason: `Model tried to call unavailable tool '${part.toolName}'.` };
  return call;
}

/**
 * One streamed model call (one agent step), made on the provider-level model: the agent owns
 * its prompt, its tool loop and its retries, so the SDK's generic layer (prompt validation,
 * tool execution, retries, telemetry) would only add work to every step. Tools are sent
 * without `execute`: the agent runs the calls itself, one action event at a time. Retries are
 * the agent controller's (so the user sees RATE_LIMITED while it waits). Failures are thrown
 * as ModelCallError.
 */
export async function streamModelCall(request: ModelRequest): Promise<ModelResponse> {
  const toolNames = new Set(request.tools.map((tool) => tool.name));
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let usage: ProviderUsage | undefined;
  let responseId: string | null = null;
  try {
    const { stream } = await request.model.doStream({
      prompt: toProviderPrompt(withCacheBreakpoints(request.system, request.messages)),
      tools: [...request.tools],
      toolChoice: { type: 'auto' },
      abortSignal: request.signal,
    });
    const reader = stream.getReader();
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case 'text-delta':
          text += part.delta;
          break;
        case 'tool-call':
          toolCalls.push(toolCallOf(part, toolNames));
          break;
        case 'response-metadata':
          responseId ??= part.id || null;
          break;
        case 'finish':
          usage = part.usage;
          break;
        case 'error':
          throw part.error;
      }
    }
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason ?? error;
    throw classifyModelError(error);
  }
  if (request.signal.aborted)
    throw request.signal.reason ?? new DOMException('The model call was aborted', 'AbortError');
  return { text: text.trim(), toolCalls, usage: providerCallUsage(usage), responseId };
}

function invalidReason(error: unknown): string {
  return error instanceof Error ? error.message : 'The tool call could not be parsed.';
}
