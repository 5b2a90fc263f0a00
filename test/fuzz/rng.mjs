/**
 * A small seeded PRNG (mulberry32) and helpers. Every iteration of the
 * fuzzer draws from its own generator, seeded from (seed, iteration), so an
 * iteration can be replayed alone and the pool's scheduling never changes
 * what is generated.
 */

/** FNV-1a over a string: a 32-bit seed. */
export function hash32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export class Rng {
  /** @param {number} seed a 32-bit integer */
  constructor(seed) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next() {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n) {
    return n <= 0 ? 0 : Math.floor(this.next() * n);
  }

  /** An integer in [lo, hi]. */
  range(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }

  /** True with probability p. */
  chance(p) {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick(items) {
    return items[this.int(items.length)];
  }

  /** One element, by weight: `[[weight, value], ...]`. */
  weighted(entries) {
    const total = entries.reduce((a, [w]) => a + w, 0);
    let r = this.next() * total;
    for (const [w, v] of entries) {
      r -= w;
      if (r < 0) return v;
    }
    return entries[entries.length - 1][1];
  }
}

/** The generator of one iteration. */
export function iterationRng(seed, iteration) {
  return new Rng(hash32(`${seed}:${iteration}`));
}
