export const REPEAT_WINDOW_MS = 3000;

/** Wraps `show` so that a text already shown in the last 3 seconds is not shown again. */
export function withoutRepeats(show: (text: string) => void): (text: string) => void {
  const recent = new Set<string>();
  return (text) => {
    if (recent.has(text)) return;
    recent.add(text);
    setTimeout(() => recent.delete(text), REPEAT_WINDOW_MS);
    show(text);
  };
}
