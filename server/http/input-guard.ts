import { ValidationFailure } from '../shared/domain-errors.ts';

// Text the database or the operating system cannot hold never gets past the edge: a NUL
// character (PostgreSQL refuses it in text, a process refuses it in its environment) or half of
// a surrogate pair (not valid UTF-8, so it cannot be stored either). Every string of the path,
// the query and a JSON body is checked before any handler or query runs, and a body nested
// deeper than any operation takes is refused before something recurses through it.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** No operation's body comes near it; JSON.parse takes far deeper, the code after it may not. */
export const MAX_DEPTH = 64;
/** A request with more problems than this is told the first ones: the answer stays small. */
export const MAX_PROBLEMS_TOLD = 20;

function problemOf(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(text)) return 'must not contain an unpaired surrogate (invalid Unicode)';
  return null;
}

type Item = { loc: (string | number)[]; msg: string; type: string };
/** A value still to look at, and the way to it (kept as links, so a walk costs what the body holds). */
type Visit = { value: unknown; key: string | number; parent: Visit | null; depth: number };

const locOf = (visit: Visit): (string | number)[] => {
  const loc: (string | number)[] = [];
  for (let at: Visit | null = visit; at; at = at.parent) loc.push(at.key);
  return loc.reverse();
};

/** The strings in `value` (keys too) that cannot be stored, with where each is, and a nesting past MAX_DEPTH. */
export function unstorableStrings(value: unknown, where: string): Item[] {
  const items: Item[] = [];
  const report = (visit: Visit, text: string, name: string | number) => {
    const problem = problemOf(text);
    if (problem) items.push({ loc: locOf(visit), msg: `${String(name)} ${problem}`, type: 'value_error' });
  };
  const stack: Visit[] = [{ value, key: where, parent: null, depth: 0 }];
  while (stack.length > 0 && items.length < MAX_PROBLEMS_TOLD) {
    const visit = stack.pop() as Visit;
    const { value: current, depth } = visit;
    // An object's keys are text the server stores too.
    if (visit.parent && typeof visit.key === 'string') report(visit, visit.key, visit.key);
    if (typeof current === 'string') {
      report(visit, current, visit.parent ? visit.key : where);
    } else if (current !== null && typeof current === 'object') {
      if (depth >= MAX_DEPTH) {
        items.push({
          loc: locOf(visit),
          msg: `${where} is nested more than ${MAX_DEPTH} levels deep`,
          type: 'value_error',
        });
        break;
      }
      const entries: [string | number, unknown][] = Array.isArray(current)
        ? [...current.entries()]
        : Object.entries(current);
      // Pushed last first, so problems are told in the body's order.
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, item] = entries[index] as [string | number, unknown];
        const child: Visit = { value: item, key, parent: visit, depth: depth + 1 };
        stack.push(child);
      }
    }
  }
  return items.slice(0, MAX_PROBLEMS_TOLD);
}

/** Refuses the request (422, naming each field) when a part of it holds unstorable text or nests too deep. */
export function refuseUnstorable(parts: Record<string, unknown>): void {
  const items = Object.entries(parts).flatMap(([where, value]) => unstorableStrings(value, where));
  if (items.length > 0) throw new ValidationFailure(items);
}
