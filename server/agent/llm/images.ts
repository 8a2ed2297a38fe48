import type { ModelMessage } from 'ai';

/**
 * Model families known to take images (as LiteLLM's `supports_vision` lists them, which
 * OpenHands reads). A model outside them is sent a note instead: an image sent to a text-only
 * model fails the whole call, while a vision model that is not listed only misses the picture.
 */
const TAKES_IMAGES = [
  /claude-(3|opus|sonnet|haiku)/,
  /gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-4-vision|gpt-5|chatgpt-4o/,
  /(^|[/.-])o[134](-pro)?($|-(?!mini))|(^|[/.-])o4-mini/,
  /gemini|gemma-3/,
  /pixtral|mistral-(medium|small)-(2505|3)|magistral/,
  /llava|bakllava|moondream|minicpm-v|-vl\b|-vl-|vision|qvq/,
  /grok-(2-vision|4)/,
  /llama-?4|llama-3\.2-(11|90)b/,
];

/** Whether the model (`provider/model` or the bare id) takes images. */
export function takesImages(model: string): boolean {
  const id = model.toLowerCase();
  return TAKES_IMAGES.some((family) => family.test(id));
}

/**
 * The messages with every image replaced by a note saying so, for a model that does not take
 * images (a user's pasted picture, a tool's image result).
 */
export function withoutImages(messages: readonly ModelMessage[]): ModelMessage[] {
  return messages.map((message) => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    if (!message.content.some((part) => part.type === 'image')) return message;
    const content = message.content.map((part) =>
      part.type === 'image'
        ? { type: 'text' as const, text: '[An image is not shown: this model does not take images.]' }
        : part,
    );
    return { ...message, content };
  });
}
