// Escape sequences a terminal interprets: CSI (colours, cursor moves), OSC (titles, links), and the two-byte ones (charset, keypad modes).
// eslint-disable-next-line no-control-regex -- matching terminal control characters is the point
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[@-Z\\^_=>]/g;
// Other C0 controls (bell, shift-in/out, NUL, a stray ESC) print nothing useful; tab, newline and carriage return are kept.
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * What a terminal would leave on screen for line-oriented output: escapes removed, CRLF as
 * '\n', and a bare '\r' overwriting its line the way progress bars expect, so a download
 * meter counts as its last state rather than hundreds of copies.
 */
export function terminalText(raw: string): string {
  return raw
    .replace(ESCAPES, '')
    .replace(CONTROLS, '')
    .replace(/\r+\n/g, '\n')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r').filter((part) => part !== '');
      return parts.length ? parts[parts.length - 1] : '';
    })
    .join('\n');
}

/** Length of `raw` without a trailing escape sequence that has not fully arrived, so it is cleaned whole on the next read. */
export function completeLength(raw: string): number {
  const lastEscape = raw.lastIndexOf('\x1b');
  // Past a few hundred bytes it is no escape still arriving but a stray ESC: let it through.
  if (lastEscape === -1 || raw.length - lastEscape > 256) return raw.length;
  const tail = raw.slice(lastEscape);
  ESCAPES.lastIndex = 0;
  const match = ESCAPES.exec(tail);
  ESCAPES.lastIndex = 0;
  return match && match.index === 0 ? raw.length : lastEscape;
}

/**
 * Keeps the head and the tail of a long text with a note of what was cut (what runCommand
 * gives back is bounded). `alreadyCut` counts characters dropped earlier from the middle.
 */
export function capText(text: string, limit: number, alreadyCut = 0): string {
  if (text.length <= limit && alreadyCut === 0) return text;
  const keep = Math.min(Math.floor(limit / 2), Math.floor(text.length / 2));
  const cut = text.length - 2 * keep + alreadyCut;
  return `${text.slice(0, keep)}\n[… ${cut} characters cut from the middle of the output …]\n${text.slice(text.length - keep)}`;
}
