/**
 * A trigram index over a vocabulary of short strings: which strings may
 * contain a given substring, without testing them all.
 */

// Trigram index over the vocabulary. Code units map to 5-bit symbols: 0 for
// a unit in no string, END past the end of a string, the 29 most frequent
// units their own symbol, every other unit one shared symbol (sharing only
// makes a candidate set larger; every candidate string is checked with
// `includes`).
const SYM_BITS = 5;
const SYM_COUNT = 1 << SYM_BITS;
const SYM_END = 1;
const SYM_SHARED = SYM_COUNT - 1;
const GRAM_KEYS = 1 << (3 * SYM_BITS);

/** Posting lists, per trigram of symbols, of the strings (ascending index) that contain it. */
export class TrigramIndex {
  readonly sym = new Uint8Array(0x10000);
  /** postings[offsets[k] .. offsets[k + 1]) lists the strings holding trigram k. */
  readonly offsets = new Int32Array(GRAM_KEYS + 1);
  readonly postings: Int32Array;

  constructor(texts: readonly string[]) {
    const freq = new Map<number, number>();
    for (const s of texts)
      for (let i = 0; i < s.length; i++) freq.set(s.charCodeAt(i), (freq.get(s.charCodeAt(i)) ?? 0) + 1);
    [...freq.keys()]
      .sort((a, b) => freq.get(b)! - freq.get(a)! || a - b)
      .forEach((u, i) => {
        this.sym[u] = i < SYM_SHARED - 2 ? i + 2 : SYM_SHARED;
      });
    // One trigram per position, padded with END: every substring of length 1
    // or 2 also starts some trigram.
    const offsets = this.offsets;
    const seen = new Int32Array(GRAM_KEYS).fill(-1);
    for (let t = 0; t < texts.length; t++) this.grams(texts[t]!, t, seen, offsets, null);
    let sum = 0;
    for (let k = 0; k < GRAM_KEYS; k++) {
      sum += offsets[k]!;
      offsets[k] = sum;
    }
    offsets[GRAM_KEYS] = sum;
    this.postings = new Int32Array(sum);
    seen.fill(-1);
    // Filling backwards leaves every list ascending and offsets[k] at its start.
    for (let t = texts.length - 1; t >= 0; t--) this.grams(texts[t]!, t, seen, offsets, this.postings);
  }

  private grams(s: string, t: number, seen: Int32Array, offsets: Int32Array, fill: Int32Array | null): void {
    const sym = this.sym;
    const len = s.length;
    let x = len > 0 ? sym[s.charCodeAt(0)]! : SYM_END;
    let y = len > 1 ? sym[s.charCodeAt(1)]! : SYM_END;
    for (let i = 0; i < len; i++) {
      const z = i + 2 < len ? sym[s.charCodeAt(i + 2)]! : SYM_END;
      const key = (x << (2 * SYM_BITS)) | (y << SYM_BITS) | z;
      if (seen[key] !== t) {
        seen[key] = t;
        if (fill === null) offsets[key]!++;
        else fill[--offsets[key]!] = t;
      }
      x = y;
      y = z;
    }
  }

  /**
   * Calls `visit` with every string index whose string may contain `s`
   * (non-empty), possibly more than once; every string containing it is visited.
   */
  forCandidates(s: string, scratch: Int32Array, visit: (i: number) => void): void {
    const sym = this.sym;
    const off = this.offsets;
    const p = this.postings;
    const len = s.length;
    for (let i = 0; i < len; i++) if (sym[s.charCodeAt(i)] === 0) return;
    if (len <= 2) {
      // The lists of all trigrams with this prefix lie side by side.
      const a = sym[s.charCodeAt(0)]! << (2 * SYM_BITS);
      const lo = len === 1 ? a : a | (sym[s.charCodeAt(1)]! << SYM_BITS);
      const hi = lo + (len === 1 ? 1 << (2 * SYM_BITS) : 1 << SYM_BITS);
      for (let i = off[lo]!; i < off[hi]!; i++) visit(p[i]!);
      return;
    }
    // The two rarest trigrams: their lists intersected.
    let best = -1;
    let bestSize = Infinity;
    let second = -1;
    let secondSize = Infinity;
    let x = sym[s.charCodeAt(0)]!;
    let y = sym[s.charCodeAt(1)]!;
    for (let i = 2; i < len; i++) {
      const z = sym[s.charCodeAt(i)]!;
      const key = (x << (2 * SYM_BITS)) | (y << SYM_BITS) | z;
      const size = off[key + 1]! - off[key]!;
      if (size < bestSize) {
        second = best;
        secondSize = bestSize;
        best = key;
        bestSize = size;
      } else if (size < secondSize && key !== best) {
        second = key;
        secondSize = size;
      }
      x = y;
      y = z;
    }
    let i = off[best]!;
    const iEnd = off[best + 1]!;
    if (second < 0 || bestSize < 8) {
      for (; i < iEnd; i++) visit(p[i]!);
      return;
    }
    let j = off[second]!;
    const jEnd = off[second + 1]!;
    let m = 0;
    while (i < iEnd && j < jEnd) {
      const a = p[i]!;
      const b = p[j]!;
      if (a === b) {
        scratch[m++] = a;
        i++;
        j++;
      } else if (a < b) i++;
      else j++;
    }
    for (let k = 0; k < m; k++) visit(scratch[k]!);
  }
}
