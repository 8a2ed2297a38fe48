import { ValidationFailure } from '../shared/http-error.ts';

// Text the database or the operating system cannot hold never gets past the edge: a NUL
// character (PostgreSQL refuses it in text, a process refuses it in its environment) or half of
// a surrogate pair (not valid UTF-8, so it cannot be stored either). Every string of the path,
// the query and a JSON body is checked before any handler or query runs.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOf(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(text)) return 'must not contain an unpaired surrogate (invalid Unicode)';
  return null;
}

type Item = { loc: (string | number)[]; msg: string; type: string };

/** Every string in `value` (keys too) that cannot be stored, with where it is. */
export function unstorableStrings(value: unknown, loc: (string | number)[]): Item[] {
  if (typeof value === 'string') {
    const problem = problemOf(value);
    const name = loc.length > 1 ? String(loc[loc.length - 1]) : String(loc[0]);
    return problem ? [{ loc, msg: `${name} ${problem}`, type: 'value_error' }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => unstorableStrings(item, [...loc, index]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [
      ...unstorableStrings(key, [...loc, key]),
      ...unstorableStrings(item, [...loc, key]),
    ]);
  }
  return [];
}

/** Refuses the request (422, naming each field) when a part of it holds unstorable text. */
export function refuseUnstorable(parts: Record<string, unknown>): void {
  const items = Object.entries(parts).flatMap(([where, value]) => unstorableStrings(value, [where]));
  if (items.length > 0) throw new ValidationFailure(items);
}
