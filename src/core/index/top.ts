/** Selecting the best keys without sorting them all. */

/** The `limit` largest of keys[0..count), largest first, without sorting them all when few are wanted. */
export function selectTop(keys: Float64Array, count: number, limit: number): number[] {
  const k = Math.min(limit, count);
  if (k === 0) return [];
  if (k <= 64 && count > 4 * k) {
    // Insertion into a small descending array; most keys fail the first test.
    const top: number[] = [];
    for (let i = 0; i < count; i++) {
      const v = keys[i]!;
      if (top.length === k) {
        if (v <= top[k - 1]!) continue;
        top.pop();
      }
      let j = top.length;
      top.push(v);
      while (j > 0 && top[j - 1]! < v) {
        top[j] = top[j - 1]!;
        j--;
      }
      top[j] = v;
    }
    return top;
  }
  const sorted = keys.subarray(0, count).sort();
  const out: number[] = [];
  for (let i = count - 1; i >= count - k; i--) out.push(sorted[i]!);
  return out;
}
