/**
 * What a model call costs, by model: dollars per million tokens (the unit providers publish)
 * and the context window in tokens.
 *
 * Lookup rule, in order:
 *  1. the model id in lower case, without a provider prefix (`openai/`, `anthropic/`, as
 *     LiteLLM spells them), exactly as listed;
 *  2. the longest listed id that the model id starts with, followed by `-` — so dated or
 *     suffixed releases (`gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`) cost what their family costs;
 *  3. anything else is an unknown model and is priced at UNKNOWN_MODEL_PRICE, a Claude-Sonnet-level
 *     rate: metering an unknown model conservatively never turns paid usage into free usage in
 *     saas mode; in oss mode the figure is only shown, never charged.
 */
export interface ModelPrice {
  /** Dollars per million prompt tokens that were not served from the provider's cache. */
  input: number;
  output: number;
  /** Dollars per million prompt tokens read from the cache. */
  cacheRead: number;
  /** Dollars per million prompt tokens written to the cache (Anthropic charges extra; OpenAI does not). */
  cacheWrite: number;
  contextWindow: number;
}

const openai = (input: number, output: number, cacheRead: number, contextWindow: number): ModelPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite: input,
  contextWindow,
});
const anthropic = (input: number, output: number): ModelPrice => ({
  input,
  output,
  // Anthropic's published multipliers: cache reads cost a tenth, 5-minute cache writes 1.25 times the input rate.
  cacheRead: input / 10,
  cacheWrite: input * 1.25,
  contextWindow: 200_000,
});

export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': openai(1.25, 10, 0.125, 400_000),
  'gpt-5-mini': openai(0.25, 2, 0.025, 400_000),
  'gpt-5-nano': openai(0.05, 0.4, 0.005, 400_000),
  'gpt-4.1': openai(2, 8, 0.5, 1_047_576),
  'gpt-4.1-mini': openai(0.4, 1.6, 0.1, 1_047_576),
  'gpt-4.1-nano': openai(0.1, 0.4, 0.025, 1_047_576),
  'gpt-4o': openai(2.5, 10, 1.25, 128_000),
  'gpt-4o-mini': openai(0.15, 0.6, 0.075, 128_000),
  o3: openai(2, 8, 0.5, 200_000),
  'o3-mini': openai(1.1, 4.4, 0.55, 200_000),
  'o4-mini': openai(1.1, 4.4, 0.275, 200_000),
  'claude-opus-4-5': anthropic(5, 25),
  'claude-opus-4-1': anthropic(15, 75),
  'claude-opus-4': anthropic(15, 75),
  'claude-sonnet-4-5': anthropic(3, 15),
  'claude-sonnet-4': anthropic(3, 15),
  'claude-3-7-sonnet': anthropic(3, 15),
  'claude-3-5-sonnet': anthropic(3, 15),
  'claude-haiku-4-5': anthropic(1, 5),
  'claude-3-5-haiku': anthropic(0.8, 4),
};

export const UNKNOWN_MODEL_PRICE: ModelPrice = {
  input: 3,
  output: 15,
  cacheRead: 0.3,
  cacheWrite: 3.75,
  contextWindow: 128_000,
};

export function priceOf(model: string): { price: ModelPrice; known: boolean } {
  const id = model
    .trim()
    .toLowerCase()
    .replace(/^(openai|anthropic)\//, '');
  const exact = MODEL_PRICES[id];
  if (exact) return { price: exact, known: true };
  const family = Object.keys(MODEL_PRICES)
    .filter((key) => id.startsWith(`${key}-`))
    .sort((a, b) => b.length - a.length)[0];
  const price = family === undefined ? undefined : MODEL_PRICES[family];
  return price ? { price, known: true } : { price: UNKNOWN_MODEL_PRICE, known: false };
}
