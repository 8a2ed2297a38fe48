import { streamText, type LanguageModel, type LanguageModelUsage, type ModelMessage, type ToolSet } from 'ai';
import type { CallUsage } from '../metrics.ts';
import { classifyModelError } from './errors.ts';
import { withCacheBreakpoints } from './prompt-cache.ts';

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
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
}

export function toCallUsage(usage: LanguageModelUsage | undefined): CallUsage {
  return {
    promptTokens: usage?.inputTokens ?? 0,
    completionTokens: usage?.outputTokens ?? 0,
    cacheReadTokens: usage?.inputTokenDetails.cacheReadTokens ?? 0,
    cacheWriteTokens: usage?.inputTokenDetails.cacheWriteTokens ?? 0,
  };
}

/**
 * One streamed model call (one agent step). Tools have no `execute` here: the SDK returns the
 * calls and the agent runs them itself, one action event at a time. Retries are the agent
 * controller's (so the user sees RATE_LIMITED while it waits), hence `maxRetries: 0`.
 * Failures are thrown as ModelCallError.
 */
export async function streamModelCall(request: ModelRequest): Promise<ModelResponse> {
  const result = streamText({
    model: request.model,
    ...withCacheBreakpoints(request.system, request.messages),
    tools: request.tools,
    maxRetries: 0,
    abortSignal: request.signal,
    // The error also arrives as a stream part, handled below; the SDK's default handler would only log it.
    onError: () => undefined,
  });
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let usage: LanguageModelUsage | undefined;
  let responseId: string | null = null;
  try {
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          text += part.text;
          break;
        case 'tool-call':
          toolCalls.push({
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
            invalidReason: part.invalid ? invalidReason(part.error) : null,
          });
          break;
        case 'finish-step':
          usage = part.usage;
          responseId = part.response.id || null;
          break;
        case 'error':
          throw part.error;
        case 'abort':
          throw request.signal.reason ?? new DOMException('The model call was aborted', 'AbortError');
      }
    }
  } catch (error) {
    if (request.signal.aborted) throw error;
    throw classifyModelError(error);
  }
  return { text: text.trim(), toolCalls, usage: toCallUsage(usage), responseId };
}

function invalidReason(error: unknown): string {
  return error instanceof Error ? error.message : 'The tool call could not be parsed.';
}
