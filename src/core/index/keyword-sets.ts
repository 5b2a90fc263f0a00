/**
 * The planner: for one keyword, the bitsets of the tools each rule can hold
 * for (`exact` ⊆ `part` ⊆ `name`, and `desc`), found the cheapest way:
 * - one or two frequent code units: read from the {@link ShortIndex};
 * - no separator in the keyword: the posting lists of the vocabulary parts
 *   and tokens containing it (exact: see token-index.ts);
 * - otherwise: the tools holding its longest separator-free piece (or every
 *   tool), each decided by `scoreKeyword` on its text.
 */
import { scoreKeyword, type PreparedTool, type Rule } from '../scorer.js';
import { hasBit, lowestId, popcount, setAll, wordsFor } from './bitsets.js';
import type { ShortIndex } from './short-index.js';
import { isSeparator, type TokenIndex } from './token-index.js';

export interface KeywordSets {
  readonly exact: Uint32Array;
  readonly part: Uint32Array;
  readonly name: Uint32Array;
  readonly desc: Uint32Array;
}

/** Which sets a tool joins when `scoreKeyword` gives this rule. */
const JOINS: Record<Rule, ReadonlyArray<keyof KeywordSets>> = {
  'exact-part': ['exact', 'part', 'name'],
  'part-substring': ['part', 'name'],
  'name-substring': ['name'],
  description: ['desc'],
  none: [],
};

/**
 * Posting lists as bitsets where a list is long (at least `min` tools): a
 * list of m tools costs m steps to merge, a bitset n/32 whatever it holds.
 */
class DenseLists {
  private readonly bits = new Map<number, Uint32Array>();

  constructor(post: Int32Array, off: Int32Array, count: number, words: number, min: number) {
    for (let id = 0; id < count; id++) {
      if (off[id + 1]! - off[id]! < min) continue;
      const b = new Uint32Array(words);
      setAll(b, post, off[id]!, off[id + 1]!);
      this.bits.set(id, b);
    }
  }

  /** ORs list `id` (of `post`/`off`) into `into`. */
  addTo(into: Uint32Array, id: number, post: Int32Array, off: Int32Array): void {
    const b = this.bits.get(id);
    if (b === undefined) setAll(into, post, off[id]!, off[id + 1]!);
    else for (let w = 0; w < into.length; w++) into[w]! |= b[w]!;
  }
}

function countBits(bits: Uint32Array): number {
  let n = 0;
  for (let w = 0; w < bits.length; w++) if (bits[w] !== 0) n += popcount(bits[w]!);
  return n;
}

/** Remembered vocabulary lookups: at most this many, each of at most this many ids (bounded memory). */
const MEMO_ENTRIES = 1024;
const MEMO_MAX_IDS = 4096;

export class KeywordSetFinder {
  private readonly own: { exact: Uint32Array; part: Uint32Array; name: Uint32Array; desc: Uint32Array };
  private readonly seen: Uint32Array;
  private readonly narrowed: Uint32Array;
  private readonly denseParts: DenseLists;
  private readonly denseNames: DenseLists;
  private readonly denseDescs: DenseLists;
  private readonly partMemo = new Map<string, number[]>();
  private readonly tokenMemo = new Map<string, number[]>();

  /** `tools` in id order; posting lists of at least `denseMin` tools are kept as bitsets. */
  constructor(
    private readonly tools: readonly PreparedTool[],
    private readonly tokens: TokenIndex,
    private readonly short: ShortIndex,
    denseMin: number,
  ) {
    const w = wordsFor(tools.length);
    this.own = {
      exact: new Uint32Array(w),
      part: new Uint32Array(w),
      name: new Uint32Array(w),
      desc: new Uint32Array(w),
    };
    this.seen = new Uint32Array(w);
    this.narrowed = new Uint32Array(w);
    this.denseParts = new DenseLists(tokens.partPost, tokens.partOff, tokens.parts.length, w, denseMin);
    this.denseNames = new DenseLists(tokens.namePost, tokens.nameOff, tokens.tokens.length, w, denseMin);
    this.denseDescs = new DenseLists(tokens.descPost, tokens.descOff, tokens.tokens.length, w, denseMin);
  }

  /**
   * The sets of keyword `kw` (lower-cased). Valid until the next call. When
   * `within` is given, tools outside it may be left out (they are excluded
   * by a required keyword anyway).
   */
  find(kw: string, within: Uint32Array | null): KeywordSets {
    const short = this.short.setsOf(kw);
    const own = this.own;
    own.exact.fill(0);
    if (short !== null) {
      const exact = this.short.exactOf(kw);
      if (exact !== null) setAll(own.exact, exact, 0, exact.length);
      return { exact: own.exact, part: short.part, name: short.name, desc: short.desc };
    }
    own.part.fill(0);
    own.name.fill(0);
    own.desc.fill(0);
    if (kw === '' || kw.includes('\n')) return this.checkAll(kw, within, null);
    // The longest run without separators; the keyword itself when it has none.
    let best = '';
    let whole = true;
    for (let i = 0; i < kw.length; ) {
      while (i < kw.length && isSeparator(kw.charCodeAt(i))) {
        whole = false;
        i++;
      }
      const start = i;
      while (i < kw.length && !isSeparator(kw.charCodeAt(i))) i++;
      if (i - start > best.length) best = kw.slice(start, i);
    }
    let cand: Uint32Array | null = null;
    if (!whole) {
      // Text checks ahead: the short index narrows them (a tool lacking one of
      // the keyword's frequent pairs cannot hold it) or rules every tool out.
      const narrowed = this.short.narrow(kw, this.narrowed);
      if (narrowed === 'none') return own;
      if (narrowed === 'some') cand = this.narrowed;
    }
    if (best === '') return this.checkAll(kw, within, cand);
    const t = this.tokens;
    const ids = this.vocabulary('tokens', best);
    if (!whole) {
      // Candidates: the tools holding the piece (and, when narrowed, the short
      // index's superset), the smaller of the two walked; each decided on its text.
      let postings = 0;
      for (const id of ids) postings += t.nameOff[id + 1]! - t.nameOff[id]! + t.descOff[id + 1]! - t.descOff[id]!;
      if (cand !== null && countBits(cand) < postings) return this.checkAll(kw, within, cand);
      this.seen.fill(0);
      for (const id of ids) {
        this.checkList(kw, t.namePost, t.nameOff[id]!, t.nameOff[id + 1]!, within, cand);
        this.checkList(kw, t.descPost, t.descOff[id]!, t.descOff[id + 1]!, within, cand);
      }
      return own;
    }
    // Exact lists: a part equal to the keyword, parts containing it, name and
    // description tokens containing it. A part containing the keyword lies in
    // a name token containing it, so `name` ⊇ `part` holds by itself.
    const parts = this.vocabulary('parts', kw);
    if (parts.length > 0 && t.parts[parts[0]!] === kw)
      this.denseParts.addTo(own.exact, parts[0]!, t.partPost, t.partOff);
    for (const id of parts) this.denseParts.addTo(own.part, id, t.partPost, t.partOff);
    for (const id of ids) {
      this.denseNames.addTo(own.name, id, t.namePost, t.nameOff);
      this.denseDescs.addTo(own.desc, id, t.descPost, t.descOff);
    }
    return own;
  }

  /**
   * The ids of the vocabulary strings containing `s` (the one equal to it
   * first), remembered for the next queries: keywords repeat, and finding
   * them through the trigram index is a good part of a query's work. The
   * vocabulary never changes, so a remembered answer stays right.
   */
  private vocabulary(which: 'parts' | 'tokens', s: string): readonly number[] {
    const memo = which === 'parts' ? this.partMemo : this.tokenMemo;
    const known = memo.get(s);
    if (known !== undefined) return known;
    const ids: number[] = [];
    this.tokens.matching(which, s, ids, Infinity);
    if (ids.length <= MEMO_MAX_IDS) {
      if (memo.size >= MEMO_ENTRIES) memo.clear();
      memo.set(s, ids);
    }
    return ids;
  }

  private join(id: number, kw: string): void {
    for (const set of JOINS[scoreKeyword(this.tools[id]!, kw).rule]) this.own[set][id >>> 5]! |= 1 << (id & 31);
  }

  private checkList(
    kw: string,
    post: Int32Array,
    from: number,
    to: number,
    within: Uint32Array | null,
    cand: Uint32Array | null,
  ): void {
    const seen = this.seen;
    for (let i = from; i < to; i++) {
      const id = post[i]!;
      const word = id >>> 5;
      const bit = 1 << (id & 31);
      if ((seen[word]! & bit) !== 0) continue;
      seen[word]! |= bit;
      if ((within === null || hasBit(within, id)) && (cand === null || hasBit(cand, id))) this.join(id, kw);
    }
  }

  /** Decides every tool (of `cand` when given, of `within` when given) on its text. */
  private checkAll(kw: string, within: Uint32Array | null, cand: Uint32Array | null): KeywordSets {
    if (cand === null) {
      for (let id = 0; id < this.tools.length; id++) if (within === null || hasBit(within, id)) this.join(id, kw);
      return this.own;
    }
    for (let w = 0; w < cand.length; w++) {
      for (let word = within === null ? cand[w]! : cand[w]! & within[w]!; word !== 0; word &= word - 1)
        this.join(lowestId(w, word), kw);
    }
    return this.own;
  }
}
