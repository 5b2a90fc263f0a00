/**
 * Scores a whole query over bitsets and selects the best `limit` tools,
 * exactly as scoring every tool would.
 *
 * Each tool's total is kept bit-sliced: plane i holds bit i of every tool's
 * score, 32 tools per word (the planes of a word side by side), so adding one keyword's points to every tool is a
 * ripple-carry add of a few words per 32 tools, whatever the number of tools
 * the keyword matches (a keyword in every description costs what a rare one
 * costs). The best `limit` are then found by a radix select over the planes
 * (bit by bit from the top, counting candidates), ties by id, which is name
 * order. Points come from `RULES`: the bits of each rule's points say which
 * planes the rule's tools add to.
 */
import { RULES, type Keyword } from '../scorer.js';
import { lowestId, popcount, wordsFor } from './bitsets.js';
import type { KeywordSetFinder, KeywordSets } from './keyword-sets.js';

const EXACT = RULES['exact-part'].points;
const PART = RULES['part-substring'].points;
const NAME = RULES['name-substring'].points;
const DESC = RULES.description.points;
const MAX_POINTS = Math.max(EXACT, PART, NAME, DESC);
/** Bits of a keyword's points. */
const ADD_BITS = 32 - Math.clz32(MAX_POINTS);
/** Per plane, all ones when the rule's points have that bit. */
const mask = (points: number) => Int32Array.from({ length: ADD_BITS }, (_, i) => ((points >> i) & 1 ? -1 : 0));
const SEL_EXACT = mask(EXACT);
const SEL_PART = mask(PART);
const SEL_NAME = mask(NAME);
const SEL_DESC = mask(DESC);
/**
 * A keyword adds at most four planes' worth of points (MAX_POINTS < 16): the
 * add below is written out for planes 0–3, with each plane's addend a fixed
 * combination of the rule sets (all-ones or zero masks from the points).
 */
const UNROLLED = ADD_BITS <= 4;
const m4 = (sel: Int32Array, i: number): number => (i < sel.length ? sel[i]! : 0);
const E0 = m4(SEL_EXACT, 0);
const E1 = m4(SEL_EXACT, 1);
const E2 = m4(SEL_EXACT, 2);
const E3 = m4(SEL_EXACT, 3);
const P0 = m4(SEL_PART, 0);
const P1 = m4(SEL_PART, 1);
const P2 = m4(SEL_PART, 2);
const P3 = m4(SEL_PART, 3);
const N0 = m4(SEL_NAME, 0);
const N1 = m4(SEL_NAME, 1);
const N2 = m4(SEL_NAME, 2);
const N3 = m4(SEL_NAME, 3);
const D0 = m4(SEL_DESC, 0);
const D1 = m4(SEL_DESC, 1);
const D2 = m4(SEL_DESC, 2);
const D3 = m4(SEL_DESC, 3);

export class SlicedScorer {
  private readonly words: number;
  private planes = new Uint32Array(0);
  private readonly required: Uint32Array;
  private readonly pos: Uint32Array;
  private readonly greater: Uint32Array;
  /** Words (of 32 tools) some keyword added points to in this search, as a bitset; their planes are cleared after. */
  private readonly touched: Uint32Array;
  /** The touched words, ascending. */
  private readonly active: Int32Array;
  private readonly live: Int32Array;
  /** Per word, the tools some keyword matches (name or description): those that score above 0. */
  private readonly hits: Uint32Array;
  /** Scratch for whole rankings: every scoring tool and its score, in id order (made at the first). */
  private found: { readonly ids: Int32Array; readonly scores: Int32Array } | null = null;

  constructor(
    private readonly finder: KeywordSetFinder,
    n: number,
  ) {
    this.words = wordsFor(n);
    this.required = new Uint32Array(this.words);
    this.pos = new Uint32Array(this.words);
    this.greater = new Uint32Array(this.words);
    this.touched = new Uint32Array(wordsFor(this.words));
    this.active = new Int32Array(this.words);
    this.live = new Int32Array(this.words);
    this.hits = new Uint32Array(this.words);
  }

  /** The best `limit` tools as [id, score] pairs, in result order (score descending, then id). */
  search(keywords: readonly Keyword[], limit: number): Array<[number, number]> {
    return this.run(keywords, (bits, hasRequired) => this.select(bits, hasRequired, limit), []);
  }

  /**
   * Every tool with a positive score, in result order, as two typed arrays
   * (ids and scores): no object per tool, for whole rankings of large catalogs.
   */
  rankAll(keywords: readonly Keyword[]): { readonly ids: Int32Array; readonly scores: Int32Array } {
    return this.run(keywords, (bits, hasRequired) => this.collect(bits, hasRequired), {
      ids: new Int32Array(0),
      scores: new Int32Array(0),
    });
  }

  private run<T>(keywords: readonly Keyword[], finish: (bits: number, hasRequired: boolean) => T, none: T): T {
    const W = this.words;
    const bits = 32 - Math.clz32(MAX_POINTS * keywords.length);
    if (this.planes.length < bits * W) this.planes = new Uint32Array(bits * W);
    const planes = this.planes;
    const touched = this.touched;
    try {
      return this.score(keywords, bits, finish, none);
    } finally {
      // Leave the planes zero for the next search: only the touched words can hold bits
      // (one fill when most are: a fill per word costs more than clearing them all).
      let words = 0;
      for (let t = 0; t < touched.length; t++) if (touched[t] !== 0) words += popcount(touched[t]!);
      if (words * 4 > W) {
        planes.fill(0, 0, W * bits);
        touched.fill(0);
        this.hits.fill(0);
      } else
        for (let t = 0; t < touched.length; t++) {
          for (let word = touched[t]!; word !== 0; word &= word - 1) {
            const w = lowestId(t, word);
            planes.fill(0, w * bits, (w + 1) * bits);
            this.hits[w] = 0;
          }
          touched[t] = 0;
        }
    }
  }

  private score<T>(
    keywords: readonly Keyword[],
    bits: number,
    finish: (bits: number, hasRequired: boolean) => T,
    none: T,
  ): T {
    const W = this.words;
    const planes = this.planes;
    const touched = this.touched;
    const hits = this.hits;
    // Required keywords first: every later one skips the words they exclude.
    // Equal keywords side by side: the second one reuses the sets of the first.
    const order = keywords
      .slice()
      .sort((a, b) =>
        a.required !== b.required ? (a.required ? -1 : 1) : a.lower < b.lower ? -1 : a.lower > b.lower ? 1 : 0,
      );
    const hasRequired = order.length > 0 && order[0]!.required;
    const req = this.required;
    if (hasRequired) req.fill(-1);
    let sets: KeywordSets | null = null;
    for (let k = 0; k < order.length; k++) {
      const kw = order[k]!;
      if (sets === null || kw.lower !== order[k - 1]!.lower)
        sets = this.finder.find(kw.lower, hasRequired ? req : null);
      const { exact, part, name, desc } = sets;
      if (kw.required) {
        let any = 0;
        for (let w = 0; w < W; w++) any |= req[w]! &= name[w]! | desc[w]!;
        if (any === 0) return none;
      }
      for (let w = 0; w < W; w++) {
        const nw = name[w]!;
        const dw = desc[w]!;
        if ((nw | dw) === 0 || (hasRequired && req[w] === 0)) continue;
        touched[w >>> 5]! |= 1 << (w & 31);
        hits[w]! |= nw | dw;
        const e = exact[w]!;
        const pw = part[w]!;
        const p = pw & ~e;
        const nm = nw & ~pw;
        const d = dw & ~nw;
        if (UNROLLED) {
          // planes[at + i] += addend i, with the carry: a ripple-carry add of 32 tools at once.
          const at = w * bits;
          const a0 = (e & E0) | (p & P0) | (nm & N0) | (d & D0);
          const a1 = (e & E1) | (p & P1) | (nm & N1) | (d & D1);
          const a2 = (e & E2) | (p & P2) | (nm & N2) | (d & D2);
          const a3 = (e & E3) | (p & P3) | (nm & N3) | (d & D3);
          let x = planes[at]!;
          planes[at] = x ^ a0;
          let c = x & a0;
          x = planes[at + 1]!;
          let t = x ^ a1;
          planes[at + 1] = t ^ c;
          c = (x & a1) | (c & t);
          x = planes[at + 2]!;
          t = x ^ a2;
          planes[at + 2] = t ^ c;
          c = (x & a2) | (c & t);
          x = planes[at + 3]!;
          t = x ^ a3;
          planes[at + 3] = t ^ c;
          c = (x & a3) | (c & t);
          for (let i = 4; c !== 0 && i < bits; i++) {
            x = planes[at + i]!;
            planes[at + i] = x ^ c;
            c &= x;
          }
          continue;
        }
        let c = 0;
        for (let i = 0; i < bits; i++) {
          const a =
            i < ADD_BITS ? (e & SEL_EXACT[i]!) | (p & SEL_PART[i]!) | (nm & SEL_NAME[i]!) | (d & SEL_DESC[i]!) : 0;
          if (a === 0 && c === 0) {
            if (i >= ADD_BITS) break;
            continue;
          }
          const at = w * bits + i;
          const x = planes[at]!;
          planes[at] = x ^ a ^ c;
          c = (x & a) | (c & (x ^ a));
        }
      }
    }
    return finish(bits, hasRequired);
  }

  /** Every tool scoring above 0, by score descending then id: a counting sort on the scores. */
  private collect(bits: number, hasRequired: boolean): { ids: Int32Array; scores: Int32Array } {
    const touched = this.touched;
    const hits = this.hits;
    // One walk over the scoring tools (ids ascending), each score read once; then a counting sort.
    const found = (this.found ??= { ids: new Int32Array(this.words * 32), scores: new Int32Array(this.words * 32) });
    const byScore = new Int32Array((1 << bits) + 1);
    let total = 0;
    for (let t = 0; t < touched.length; t++) {
      for (let tw = touched[t]!; tw !== 0; tw &= tw - 1) {
        const w = lowestId(t, tw);
        const word = hasRequired ? hits[w]! & this.required[w]! : hits[w]!;
        for (let x = word; x !== 0; x &= x - 1) {
          const id = lowestId(w, x);
          const v = this.valueOf(id, bits);
          found.ids[total] = id;
          found.scores[total++] = v;
          byScore[v]!++;
        }
      }
    }
    // Where each score's tools start: the highest score first.
    let at = 0;
    for (let v = byScore.length - 1; v >= 0; v--) {
      const c = byScore[v]!;
      byScore[v] = at;
      at += c;
    }
    const ids = new Int32Array(total);
    const scores = new Int32Array(total);
    for (let k = 0; k < total; k++) {
      const v = found.scores[k]!;
      const i = byScore[v]!++;
      ids[i] = found.ids[k]!;
      scores[i] = v;
    }
    return { ids, scores };
  }

  private valueOf(id: number, bits: number): number {
    const w = id >>> 5;
    const b = id & 31;
    let v = 0;
    for (let i = 0; i < bits; i++) v |= ((this.planes[w * bits + i]! >>> b) & 1) << i;
    return v;
  }

  private select(bits: number, hasRequired: boolean, limit: number): Array<[number, number]> {
    const planes = this.planes;
    const pos = this.pos;
    const active = this.active;
    const touched = this.touched;
    let n = 0;
    for (let t = 0; t < touched.length; t++)
      for (let word = touched[t]!; word !== 0; word &= word - 1) active[n++] = lowestId(t, word);
    let count = 0;
    // The highest plane holding a bit of a candidate: the radix select starts there.
    let top = -1;
    for (let k = 0; k < n; k++) {
      const w = active[k]!;
      let any = this.hits[w]!;
      if (hasRequired) any &= this.required[w]!;
      pos[w] = any;
      if (any === 0) continue;
      count += popcount(any);
      for (let i = bits - 1; i > top; i--) {
        if ((planes[w * bits + i]! & any) !== 0) {
          top = i;
          break;
        }
      }
    }
    const out: Array<[number, number]> = [];
    const take = (w: number, word: number, max: number): void => {
      while (word !== 0 && out.length < max) {
        const id = lowestId(w, word);
        out.push([id, this.valueOf(id, bits)]);
        word &= word - 1;
      }
    };
    if (count <= limit) {
      for (let k = 0; k < n; k++) if (pos[active[k]!] !== 0) take(active[k]!, pos[active[k]!]!, Infinity);
    } else {
      // Radix select: `pos` narrows to the tools whose score has the high bits
      // of the limit-th best; `greater` collects those known to be above it.
      // `live` (the first `m` of `active`, ascending) keeps the words with candidates left.
      const greater = this.greater;
      const live = this.live;
      let m = 0;
      for (let k = 0; k < n; k++) {
        greater[active[k]!] = 0;
        if (pos[active[k]!] !== 0) live[m++] = active[k]!;
      }
      let need = limit;
      for (let i = top; i >= 0; i--) {
        let ones = 0;
        for (let k = 0; k < m; k++) {
          const w = live[k]!;
          ones += popcount(pos[w]! & planes[w * bits + i]!);
        }
        let kept = 0;
        for (let k = 0; k < m; k++) {
          const w = live[k]!;
          const pw = pos[w]!;
          const hi = pw & planes[w * bits + i]!;
          if (ones >= need) pos[w] = hi;
          else {
            greater[w]! |= hi;
            pos[w] = pw & ~hi;
          }
          if (pos[w] !== 0) live[kept++] = w;
        }
        m = kept;
        if (ones < need) need -= ones;
      }
      for (let k = 0; k < n; k++) if (greater[active[k]!] !== 0) take(active[k]!, greater[active[k]!]!, Infinity);
      // Ties at the limit-th score: the lowest ids, which come first in name order.
      const max = out.length + need;
      for (let k = 0; k < m && out.length < max; k++) take(live[k]!, pos[live[k]!]!, max);
    }
    return out.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  }
}
