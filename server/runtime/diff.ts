type Op = { kind: ' ' | '-' | '+'; line: string };

// Above this many cells the middle of the two texts is shown as replaced wholesale rather than aligned line by line.
const MAX_TABLE = 4_000_000;

/** Lines with their terminators, so "no newline at end of file" counts as a difference. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Longest-common-subsequence alignment of the part that differs (common head and tail lines are trimmed first). */
function align(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail])
    tail += 1;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const ops: Op[] = a.slice(0, head).map((line) => ({ kind: ' ', line }));
  const n = midA.length;
  const m = midB.length;
  if ((n + 1) * (m + 1) > MAX_TABLE) {
    ops.push(
      ...midA.map((line) => ({ kind: '-' as const, line })),
      ...midB.map((line) => ({ kind: '+' as const, line })),
    );
  } else {
    // table[i][j] = LCS length of midA[i..] and midB[j..]
    const table = new Uint32Array((n + 1) * (m + 1));
    const at = (i: number, j: number) => table[i * (m + 1) + j] ?? 0;
    for (let i = n - 1; i >= 0; i -= 1)
      for (let j = m - 1; j >= 0; j -= 1)
        table[i * (m + 1) + j] = midA[i] === midB[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        ops.push({ kind: ' ', line: midA[i] as string });
        i += 1;
        j += 1;
      } else if (i < n && (j === m || at(i + 1, j) >= at(i, j + 1))) {
        // Removals before additions on a tie, the order diff and git print.
        ops.push({ kind: '-', line: midA[i] as string });
        i += 1;
      } else {
        ops.push({ kind: '+', line: midB[j] as string });
        j += 1;
      }
    }
  }
  ops.push(...a.slice(a.length - tail).map((line) => ({ kind: ' ' as const, line })));
  return ops;
}

function render(op: Op): string {
  return op.line.endsWith('\n') ? `${op.kind}${op.line}` : `${op.kind}${op.line}\n\\ No newline at end of file\n`;
}

/** A hunk side as diff writes it: an empty side is numbered by the line before it, and a count of 1 is left out. */
function range(linesBefore: number, count: number): string {
  if (count === 0) return `${linesBefore},0`;
  return count === 1 ? `${linesBefore + 1}` : `${linesBefore + 1},${count}`;
}

/** A unified diff (as `diff -u` / git print it) of one file; null stands for "the file does not exist". Empty when nothing changed. */
export function unifiedDiff(file: string, before: string | null, after: string | null, context = 3): string {
  const ops = align(splitLines(before ?? ''), splitLines(after ?? ''));
  const changes = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  if (changes.length === 0) return '';
  const out = [
    `--- ${before === null ? '/dev/null' : `a/${file}`}\n`,
    `+++ ${after === null ? '/dev/null' : `b/${file}`}\n`,
  ];
  let groupStart = 0;
  while (groupStart < changes.length) {
    // Changes closer than two contexts apart share a hunk.
    let groupEnd = groupStart;
    while (
      groupEnd + 1 < changes.length &&
      (changes[groupEnd + 1] as number) - (changes[groupEnd] as number) <= 2 * context
    )
      groupEnd += 1;
    const from = Math.max(0, (changes[groupStart] as number) - context);
    const to = Math.min(ops.length, (changes[groupEnd] as number) + context + 1);
    const preceding = ops.slice(0, from);
    const hunk = ops.slice(from, to);
    const oldStart = preceding.filter((op) => op.kind !== '+').length;
    const newStart = preceding.filter((op) => op.kind !== '-').length;
    const oldCount = hunk.filter((op) => op.kind !== '+').length;
    const newCount = hunk.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n`);
    out.push(...hunk.map(render));
    groupStart = groupEnd + 1;
  }
  return out.join('');
}
