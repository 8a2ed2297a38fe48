/**
 * gitignore(5) rules as git applies them while it walks a work tree: the last matching line of a
 * file decides, a negated line re-includes, a pattern with a slash is matched against the path
 * from the file's directory and one without against the name alone, globs are wildmatch's.
 * Whether a parent directory was excluded is the walker's business (git never descends into one).
 */
export interface IgnoreRule {
  regex: RegExp;
  negative: boolean;
  /** A trailing slash: matches directories only. */
  directoryOnly: boolean;
  /** No slash but a trailing one: matched against the last path segment. */
  basename: boolean;
}

/** POSIX bracket classes wildmatch knows, as JavaScript class contents. */
const POSIX_CLASSES: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '\\x21-\\x7e',
  lower: 'a-z',
  print: '\\x20-\\x7e',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\n\\r\\f\\v',
  upper: 'A-Z',
  xdigit: '0-9a-fA-F',
};

const escapeForClass = (char: string) => (/[\\\]^-]/.test(char) ? `\\${char}` : char);
const escapeLiteral = (char: string) => char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A bracket expression starting at `start` (the '['), as a class that never matches '/', and
 * where it ends; null when it is not closed (wildmatch then matches nothing at all).
 */
function bracket(pattern: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  let negated = false;
  if (pattern[i] === '!' || pattern[i] === '^') {
    negated = true;
    i += 1;
  }
  let body = '';
  let first = true;
  while (i < pattern.length) {
    let char = pattern[i] as string;
    if (char === ']' && !first) {
      return { source: negated ? `[^/${body}]` : `(?!/)[${body}]`, end: i };
    }
    first = false;
    if (char === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      if (close < 0) return null;
      const named = POSIX_CLASSES[pattern.slice(i + 2, close)];
      if (named === undefined) return null;
      body += named;
      i = close + 2;
      continue;
    }
    if (char === '\\') {
      i += 1;
      if (i >= pattern.length) return null;
      char = pattern[i] as string;
    }
    if (pattern[i + 1] === '-' && pattern[i + 2] !== undefined && pattern[i + 2] !== ']') {
      let last = pattern[i + 2] as string;
      let skip = 2;
      if (last === '\\') {
        last = pattern[i + 3] ?? '';
        skip = 3;
        if (!last) return null;
      }
      body += `${escapeForClass(char)}-${escapeForClass(last)}`;
      i += skip + 1;
      continue;
    }
    body += escapeForClass(char);
    i += 1;
  }
  return null;
}

/**
 * A wildmatch pattern (with WM_PATHNAME) as an anchored regular expression; null when it can
 * match nothing. `literalPrefix` is where git's literal comparison ends: a `**` right there
 * counts as starting the pattern, as git strips that prefix before it calls wildmatch.
 */
function wildmatch(pattern: string, literalPrefix: number): RegExp | null {
  let source = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i] as string;
    if (char === '*') {
      let run = i;
      while (pattern[run] === '*') run += 1;
      const atStart = i === 0 || pattern[i - 1] === '/' || i === literalPrefix;
      const rest = pattern.slice(run);
      const atEnd = rest === '' || rest.startsWith('/') || rest.startsWith('\\/');
      if (run - i >= 2 && atStart && atEnd) {
        if (rest === '') {
          source += '.*';
          i = run;
        } else {
          // `**/`: zero or more whole directories.
          source += '(?:.*/)?';
          i = run + (rest.startsWith('/') ? 1 : 2);
        }
      } else {
        source += '[^/]*';
        i = run;
      }
      continue;
    }
    if (char === '?') {
      source += '[^/]';
      i += 1;
      continue;
    }
    if (char === '[') {
      const found = bracket(pattern, i);
      if (!found) return null;
      source += found.source;
      i = found.end + 1;
      continue;
    }
    if (char === '\\') {
      if (i + 1 >= pattern.length) return null;
      source += escapeLiteral(pattern[i + 1] as string);
      i += 2;
      continue;
    }
    source += escapeLiteral(char);
    i += 1;
  }
  return new RegExp(`^${source}$`, 's');
}

/** Trailing spaces go unless escaped with a backslash (git's trim_trailing_spaces). */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') {
    let backslashes = 0;
    while (end - 2 - backslashes >= 0 && line[end - 2 - backslashes] === '\\') backslashes += 1;
    if (backslashes % 2 === 1) break;
    end -= 1;
  }
  return line.slice(0, end);
}

/** The rules of one ignore file's text, in file order. */
export function parseIgnoreRules(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split('\n')) {
    if (raw === '' || raw.startsWith('#')) continue;
    let pattern = trimTrailingSpaces(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    const negative = pattern.startsWith('!');
    if (negative) pattern = pattern.slice(1);
    const directoryOnly = pattern.endsWith('/');
    if (directoryOnly) pattern = pattern.slice(0, -1);
    if (pattern === '') continue;
    const basename = !pattern.includes('/');
    if (pattern.startsWith('/')) pattern = pattern.slice(1);
    const literal = pattern.search(/[*?[\\]/);
    const regex = wildmatch(pattern, literal < 0 ? pattern.length : literal);
    if (regex) rules.push({ regex, negative, directoryOnly, basename });
  }
  return rules;
}

/**
 * What the last rule matching `relative` (a path from the rules' directory, '/'-separated)
 * says: true excluded, false re-included, null no rule matched it.
 */
export function matchIgnoreRules(rules: readonly IgnoreRule[], relative: string, isDirectory: boolean): boolean | null {
  const name = relative.slice(relative.lastIndexOf('/') + 1);
  for (let i = rules.length - 1; i >= 0; i -= 1) {
    const rule = rules[i] as IgnoreRule;
    if (rule.directoryOnly && !isDirectory) continue;
    if (rule.regex.test(rule.basename ? name : relative)) return !rule.negative;
  }
  return null;
}
