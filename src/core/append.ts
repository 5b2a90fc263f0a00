/**
 * Adding many items to an array, and the largest or smallest of many numbers, without passing them as
 * arguments: `out.push(...items)` and `Math.max(...values)` put every item on the stack, which overflows
 * past about 100,000 of them (issue 27, finding 4: a message of 300,000 blocks, a search naming 200,000 tools).
 * test/core/spreads.test.ts holds src/ to these.
 */

/** Appends `items` to `out`, in order; returns `out`. */
export function append<T>(out: T[], items: Iterable<T>): T[] {
  for (const item of items) out.push(item);
  return out;
}

/** Puts `items` before the first item of `out`, in their order (`out.unshift(...items)`); returns `out`. */
export function prepend<T>(out: T[], items: readonly T[]): T[] {
  const rest = out.splice(0, out.length);
  append(out, items);
  return append(out, rest);
}

/** `Math.max(...values)`: the largest, -Infinity when there is none (NaN when any is NaN). */
export function largest(values: Iterable<number>): number {
  let m = Number.NEGATIVE_INFINITY;
  for (const v of values) m = Math.max(m, v);
  return m;
}

/** `Math.min(...values)`: the smallest, Infinity when there is none (NaN when any is NaN). */
export function smallest(values: Iterable<number>): number {
  let m = Number.POSITIVE_INFINITY;
  for (const v of values) m = Math.min(m, v);
  return m;
}
