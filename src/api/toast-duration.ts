const READING_SPEED_CHARS_PER_SECOND = 16.67;
const READING_TIME_FACTOR = 1.5;
const MINIMUM_MS = { error: 4000, success: 5000 } as const;
const MAXIMUM_MS = 10_000;

/** How long a toast stays: time to read the text, clamped between the kind's minimum and 10 s. */
export function toastDuration(text: string, kind: keyof typeof MINIMUM_MS): number {
  const readingMs = (text.length / READING_SPEED_CHARS_PER_SECOND) * READING_TIME_FACTOR * 1000;
  return Math.round(Math.min(Math.max(readingMs, MINIMUM_MS[kind]), MAXIMUM_MS));
}
