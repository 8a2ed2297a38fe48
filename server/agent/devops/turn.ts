import type { ModelMessage } from 'ai';
import { asProviderModel } from '../llm/provider-prompt.ts';
import { createLanguageModel } from '../llm/provider.ts';
import { streamModelCall, type ModelToolCall } from '../llm/stream-call.ts';
import { costMicros } from '../metrics.ts';
import { priceOf } from '../prices.ts';
import { ToolRegistry } from '../tools/index.ts';
import { ToolInputError } from '../tools/tool.ts';
import { devopsSystemPrompt } from './prompt.ts';
import { devopsTools } from './tools.ts';
import type { DevopsHost, DevopsReply, DevopsTurn } from './types.ts';

/** Model calls in one turn before the agent hands back to the user. */
export const DEVOPS_STEP_LIMIT = 25;

const toolResult = (call: ModelToolCall, value: string): ModelMessage => ({
  role: 'tool',
  content: [
    {
      type: 'tool-result',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: 'text', value },
    },
  ],
});

/**
 * One turn of the DevOps agent: the user's message, then model calls and their tools until the
 * model answers in words (a reply) or completes the workflow. Throws ModelCallError when a call fails.
 */
export async function runDevopsTurn(host: DevopsHost, turn: DevopsTurn): Promise<DevopsReply> {
  const model = asProviderModel(createLanguageModel(host.llm));
  const registry = new ToolRegistry(devopsTools(host, turn.context));
  const system = devopsSystemPrompt(host);
  const price = priceOf(host.llm?.model ?? '').price;
  const messages: ModelMessage[] = [{ role: 'user', content: turn.message }];
  for (let step = 0; step < DEVOPS_STEP_LIMIT; step++) {
    const response = await streamModelCall({
      model,
      system,
      messages: [...turn.context, ...messages],
      tools: registry.forModel(),
      signal: turn.signal,
    });
    const cost = costMicros(price, response.usage);
    if (host.charge && cost > 0n) await host.charge(cost, `devops:${turn.id}:${step}`);
    if (response.toolCalls.length === 0) {
      const text = response.text || 'I have nothing to add. What would you like to deploy?';
      messages.push({ role: 'assistant', content: text });
      return { text, isComplete: false, messages };
    }
    messages.push({
      role: 'assistant',
      content: [
        ...(response.text ? [{ type: 'text' as const, text: response.text }] : []),
        ...response.toolCalls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.input,
        })),
      ],
    });
    let completion: string | null = null;
    for (const call of response.toolCalls) {
      const { value, ends } = await runTool(registry, call, host, turn.signal);
      messages.push(toolResult(call, value));
      if (ends) completion = value;
    }
    if (completion !== null) return { text: completion, isComplete: true, messages };
  }
  const text = `I stopped after ${DEVOPS_STEP_LIMIT} steps without finishing. Tell me how to go on.`;
  messages.push({ role: 'assistant', content: text });
  return { text, isComplete: false, messages };
}

/** How much of a step's description the tab shows: its first line, at most this long. */
const STEP_LINE_CHARS = 160;

function stepLine(description: string): string {
  const first = description.split('\n')[0]?.trim() ?? '';
  return first.length > STEP_LINE_CHARS ? `${first.slice(0, STEP_LINE_CHARS - 1)}…` : first;
}

/** A tool call's result for the model; wrong arguments and failures go back to it as text. */
async function runTool(
  registry: ToolRegistry,
  call: ModelToolCall,
  host: DevopsHost,
  signal: AbortSignal,
): Promise<{ value: string; ends: boolean }> {
  const tool = registry.get(call.toolName);
  if (call.invalidReason || !tool) return { value: call.invalidReason ?? 'Unknown tool.', ends: false };
  try {
    const input = tool.parse(call.input) as never;
    // The tool without `run` ends the workflow; its message is the final answer.
    if (!tool.run) return { value: tool.describe(input).message, ends: true };
    // Each step shows in the DevOps tab as it starts, as the chat shows the agent's.
    await host.progress(stepLine(tool.describe(input).message));
    return { value: (await tool.run(input, { runtime: host.runtime, signal })).content, ends: false };
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof ToolInputError) return { value: error.message, ends: false };
    return { value: `Failed: ${error instanceof Error ? error.message : String(error)}`, ends: false };
  }
}
