/**
 * Bitsets over tool ids (ids are positions in Go name order, so bit order is
 * result order for ties): one bit per tool, 32 per word.
 */

/** Words of a bitset of `n` bits. */
export function wordsFor(n: number): number {
  return (n + 31) >>> 5;
}

/** Number of set bits of a 32-bit word. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Sets the bits of the ids list[from..to). */
export function setAll(bits: Uint32Array, list: Int32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const t = list[i]!;
    bits[t >>> 5]! |= 1 << (t & 31);
  }
}

export function hasBit(bits: Uint32Array, t: number): boolean {
  return (bits[t >>> 5]! & (1 << (t & 31))) !== 0;
}

/** The id of the lowest set bit of word `w` (non-zero) at word index `i`. */
export function lowestId(i: number, w: number): number {
  return (i << 5) + 31 - Math.clz32(w & -w);
}
