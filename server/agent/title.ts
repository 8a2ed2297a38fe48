/** A conversation's title: at most 60 characters, one line, without the quotes models like to add. */
export const TITLE_LIMIT = 60;
const FALLBACK_LIMIT = 50;

export const TITLE_INSTRUCTIONS =
  'Write a short title (at most 6 words) for a conversation that starts with the user message below. ' +
  'Answer with the title only: no quotes, no trailing punctuation.';

export function cleanTitle(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const unquoted = line
    .replace(/^(title:\s*)/i, '')
    .replace(/^["'`*#\s]+|["'`*\s]+$/g, '')
    .replace(/[.!]+$/, '')
    .trim();
  return unquoted.length > TITLE_LIMIT ? `${unquoted.slice(0, TITLE_LIMIT - 1).trimEnd()}…` : unquoted;
}

/** The title when the model cannot give one: the message's first line, cut at 50 characters. */
export function fallbackTitle(message: string): string {
  const line = message.trim().split('\n')[0]?.trim() ?? '';
  return line.length > FALLBACK_LIMIT ? `${line.slice(0, FALLBACK_LIMIT - 1).trimEnd()}…` : line;
}
