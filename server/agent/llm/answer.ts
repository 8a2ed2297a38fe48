import type { LlmSettings } from '../types.ts';
import { asProviderModel } from './provider-prompt.ts';
import { createLanguageModel } from './provider.ts';
import { streamModelCall } from './stream-call.ts';

/** One answer without tools (the onboarding chat's free questions). Throws ModelCallError. */
export async function answerOnce(request: {
  llm: LlmSettings | null;
  system: string;
  prompt: string;
  signal: AbortSignal;
}): Promise<string> {
  const response = await streamModelCall({
    model: asProviderModel(createLanguageModel(request.llm)),
    system: request.system,
    messages: [{ role: 'user', content: request.prompt }],
    tools: [],
    signal: request.signal,
  });
  return response.text;
}
