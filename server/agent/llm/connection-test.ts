import type { LlmSettings } from '../types.ts';
import { classifyModelError } from './errors.ts';
import { asProviderModel } from './provider-prompt.ts';
import { createLanguageModel } from './provider.ts';
import { streamModelCall } from './stream-call.ts';

/** How long a connection test waits for the model's first answer. */
const CONNECTION_TEST_TIMEOUT_MS = 30_000;

/**
 * One tiny request with the given settings, through the same adapters and error wording as the
 * agent's steps: what the model answered, or why it could not be reached.
 */
export async function testModelConnection(
  llm: LlmSettings,
): Promise<{ ok: true; answer: string } | { ok: false; error: string }> {
  try {
    const response = await streamModelCall({
      model: asProviderModel(createLanguageModel(llm)),
      system: 'You are answering a connection test.',
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
      tools: [],
      signal: AbortSignal.timeout(CONNECTION_TEST_TIMEOUT_MS),
    });
    return { ok: true, answer: response.text.trim().slice(0, 500) };
  } catch (error) {
    return { ok: false, error: classifyModelError(error).reason };
  }
}
