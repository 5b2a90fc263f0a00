/**
 * Keyword scoring (SPEC §3), with an index built once per catalog.
 *
 * The reference re-splits and re-lower-cases every tool for every query; the
 * index does that work once. The score of a keyword is computed in exactly one
 * place ({@link ToolIndex.scoreKeyword}); explanations read what that
 * computation found, so they can never disagree with the score.
 */
import { splitToolName } from './names.js';
import { compareGo, goFields, goToLower, toLowerCodePoint } from './text.js';
import type { ToolInfo } from './types.js';

/** The scoring rules, strongest first; a keyword scores the maximum rule that holds (not the sum). */
export const RULES = {
  'exact-part': { points: 10, summary: 'keyword equals a name part' },
  'part-substring': { points: 5, summary: 'keyword is inside a name part' },
  'name-substring': { points: 3, summary: 'keyword is inside the full name' },
  description: { points: 2, summary: 'keyword is inside the description' },
  none: { points: 0, summary: 'no rule holds' },
} as const;

/** Which rule decided a keyword's score. */
export type Rule = keyof typeof RULES;

/** A parsed query keyword. */
export interface Keyword {
  /** The keyword as written, without its `+`. */
  readonly word: string;
  /** Go-lower-cased `word`, what is matched. */
  readonly lower: string;
  /** Written with a leading `+`: a tool must match it to be returned. */
  readonly required: boolean;
}

/**
 * Splits a query into keywords: Go `strings.Fields`; a leading `+` marks a
 * required keyword and exactly one `+` is removed (`++x` is the required
 * keyword `+x`); a lone `+` is dropped.
 */
export function parseKeywords(query: string): Keyword[] {
  const out: Keyword[] = [];
  for (const field of goFields(query)) {
    if (field.startsWith('+')) {
      const word = field.slice(1);
      if (word !== '') out.push({ word, lower: goToLower(word), required: true });
    } else {
      out.push({ word: field, lower: goToLower(field), required: false });
    }
  }
  return out;
}

/** How one keyword scored against one tool. */
export interface KeywordScore {
  readonly keyword: string;
  readonly required: boolean;
  readonly rule: Rule;
  /** The name part the rule hit (as written in the name), for `exact-part` and `part-substring`; otherwise null. */
  readonly part: string | null;
  readonly points: number;
}

/** A scored tool; `explain` is present when asked for. */
export interface ScoredTool {
  readonly name: string;
  readonly score: number;
  readonly explain?: readonly KeywordScore[];
}

/** The full account of one tool against one query, whether or not it is returned. */
export interface ToolExplanation {
  readonly name: string;
  /** Sum of the keyword points (0 when excluded). */
  readonly score: number;
  /** A required keyword scored 0: the reference drops the tool whatever its other points. */
  readonly excludedBy: string | null;
  readonly keywords: readonly KeywordScore[];
}

/**
 * How a {@link ToolIndex} finds the tools a keyword can match before scoring
 * them. None of these changes a result, only how many tools are looked at:
 * - `auto` (default): scan every tool for small catalogs and for the first
 *   search; from the second keyword search on a catalog of at least
 *   {@link PREFILTER_MIN_TOOLS} tools, build the trigram index once and use it;
 * - `always`: build the trigram index at the first keyword search, whatever the size;
 * - `never`: always scan every tool.
 */
export type PrefilterMode = 'auto' | 'always' | 'never';

/** Options of a {@link ToolIndex}. */
export interface ToolIndexOptions {
  readonly prefilter?: PrefilterMode;
}

/** Catalog size from which `prefilter: 'auto'` builds the trigram index. */
export const PREFILTER_MIN_TOOLS = 1000;

interface IndexedTool {
  readonly info: ToolInfo;
  /**
   * Go-lower-cased name, a line feed, Go-lower-cased description: the one
   * string a keyword is searched in. A keyword never contains a line feed (it
   * is Go white space), so an occurrence lies wholly in the name (it starts
   * before {@link nameLength}) or wholly in the description.
   */
  readonly text: string;
  /** Length of the lower-cased name in `text`. */
  readonly nameLength: number;
  /** Name parts as written, and lower-cased; split on first use. */
  parts: readonly string[] | null;
  partsLower: readonly string[] | null;
  /** Position of the name in Go (UTF-8 byte) order, so ties sort by an integer compare. */
  rank: number;
}

function hasNonAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return true;
  return false;
}

/**
 * `goToLower` as one flat string: for ASCII text Go's `strings.ToLower` and
 * JavaScript's `toLowerCase` agree (A–Z only); otherwise each code point is
 * mapped by Go's simple mapping, as `goToLower` does.
 */
function lowerFlat(s: string): string {
  if (!hasNonAscii(s)) return s.toLowerCase();
  const units: number[] = [];
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    const lc = toLowerCodePoint(cp);
    if (lc > 0xffff) units.push(0xd800 + ((lc - 0x10000) >> 10), 0xdc00 + ((lc - 0x10000) & 0x3ff));
    else units.push(lc);
    i += cp > 0xffff ? 2 : 1;
  }
  let out = '';
  for (let i = 0; i < units.length; i += 4096) out += String.fromCharCode(...units.slice(i, i + 4096));
  return out;
}

// Trigram index. Text code units map to 6-bit symbols: 0 for a unit that
// occurs in no tool, END past the end of a text, the 61 most frequent units
// their own symbol, and every other unit one shared symbol. Sharing only
// makes candidate sets larger, never smaller: a candidate set always holds
// every tool whose text contains the keyword, and scoreKeyword decides.
const SYM_BITS = 6;
const SYM_COUNT = 1 << SYM_BITS;
const SYM_END = 1;
const SYM_SHARED = SYM_COUNT - 1;
const GRAM_KEYS = 1 << (3 * SYM_BITS);

/** Posting lists, per trigram of symbols, of the tools (ascending index) whose text contains it. */
class TrigramIndex {
  readonly sym = new Uint8Array(0x10000);
  /** postings[offsets[k] .. offsets[k + 1]) lists the tools holding trigram k. */
  readonly offsets = new Int32Array(GRAM_KEYS + 1);
  readonly postings: Int32Array;

  constructor(texts: readonly string[]) {
    const freq = new Float64Array(0x10000);
    for (const s of texts) for (let i = 0; i < s.length; i++) freq[s.charCodeAt(i)]!++;
    const seenUnits: number[] = [];
    for (let u = 0; u < 0x10000; u++) if (freq[u]! > 0) seenUnits.push(u);
    seenUnits.sort((a, b) => freq[b]! - freq[a]! || a - b);
    seenUnits.forEach((u, i) => {
      this.sym[u] = i < SYM_SHARED - 2 ? i + 2 : SYM_SHARED;
    });
    // Each text contributes one trigram per position (padded with END), so
    // every substring of length 1 or 2 is also the start of some trigram.
    const offsets = this.offsets;
    const seen = new Int32Array(GRAM_KEYS).fill(-1);
    this.forEachGram(texts, seen, 0, texts.length, 1, (key) => {
      offsets[key]!++;
    });
    let sum = 0;
    for (let k = 0; k < GRAM_KEYS; k++) {
      sum += offsets[k]!;
      offsets[k] = sum;
    }
    offsets[GRAM_KEYS] = sum;
    const postings = new Int32Array(sum);
    seen.fill(-1);
    // Filling backwards leaves every list ascending and offsets[k] at its start.
    this.forEachGram(texts, seen, texts.length - 1, -1, -1, (key, t) => {
      postings[--offsets[key]!] = t;
    });
    this.postings = postings;
  }

  private forEachGram(
    texts: readonly string[],
    seen: Int32Array,
    from: number,
    to: number,
    step: number,
    visit: (key: number, tool: number) => void,
  ): void {
    const sym = this.sym;
    for (let t = from; t !== to; t += step) {
      const s = texts[t]!;
      const len = s.length;
      let x = len > 0 ? sym[s.charCodeAt(0)]! : SYM_END;
      let y = len > 1 ? sym[s.charCodeAt(1)]! : SYM_END;
      for (let i = 0; i < len; i++) {
        const z = i + 2 < len ? sym[s.charCodeAt(i + 2)]! : SYM_END;
        const key = (x << (2 * SYM_BITS)) | (y << SYM_BITS) | z;
        if (seen[key] !== t) {
          seen[key] = t;
          visit(key, t);
        }
        x = y;
        y = z;
      }
    }
  }
}

/** Where the tools a keyword can match are: nowhere, anywhere, or postings[start..end) (possibly with repeats). */
const CAND_NONE = 0;
const CAND_ALL = 1;
const CAND_LIST = 2;

/**
 * A catalog prepared for keyword search: names split and lower-cased, and
 * descriptions lower-cased, once. Immutable after construction. Names must
 * be unique (the reference keys its tools by name).
 *
 * Keyword search looks only at the tools that can match (a trigram index
 * over the lower-cased texts, built on demand, see {@link PrefilterMode}),
 * scores them with the one scoring computation, and keeps the best
 * `maxResults` without sorting everything. Results are exactly those of
 * scoring every tool.
 */
export class ToolIndex {
  private readonly entries: IndexedTool[];
  private readonly byName: Map<string, number>;
  /** Entry index by rank. */
  private readonly byRank: Int32Array;
  private readonly prefilter: PrefilterMode;
  private keywordSearches = 0;
  private grams: TrigramIndex | null = null;
  // Per-search scratch, allocated on first use of the trigram index.
  private stamp: Int32Array | null = null;
  private bits: Int32Array | null = null;
  private cands: Int32Array | null = null;
  private scratch: Int32Array | null = null;
  private keys: Float64Array | null = null;
  private epoch = 0;
  // Output of candidatesOf: kind, and the list when CAND_LIST.
  private candKind = CAND_NONE;
  private candArr: Int32Array = new Int32Array(0);
  private candStart = 0;
  private candEnd = 0;
  // Scratch output of scoreKeyword: index of the part that decided the rule (-1 for none).
  private hitPart = -1;

  constructor(tools: readonly ToolInfo[], options: ToolIndexOptions = {}) {
    this.entries = [];
    this.byName = new Map();
    this.prefilter = options.prefilter ?? 'auto';
    let surrogates = false;
    for (const info of tools) {
      if (this.byName.has(info.name)) throw new Error(`duplicate dynamic tool name: ${info.name}`);
      this.byName.set(info.name, this.entries.length);
      const nameLower = lowerFlat(info.name);
      const descLower = lowerFlat(info.description);
      if (!surrogates && hasSurrogateOrAbove(info.name)) surrogates = true;
      this.entries.push({
        info,
        text: `${nameLower}\n${descLower}`,
        nameLength: nameLower.length,
        parts: null,
        partsLower: null,
        rank: 0,
      });
    }
    const n = this.entries.length;
    const byRank = new Int32Array(n);
    if (surrogates) {
      const order = this.entries.map((_, i) => i).sort((a, b) => compareGo(this.entries[a]!.info.name, this.entries[b]!.info.name));
      order.forEach((entry, rank) => {
        byRank[rank] = entry;
      });
    } else {
      // Without code units from U+D800 on, UTF-16 order is code point order:
      // the built-in sort (no callback) gives Go's order.
      const names = this.entries.map((e) => e.info.name).sort();
      names.forEach((name, rank) => {
        byRank[rank] = this.byName.get(name)!;
      });
    }
    for (let r = 0; r < n; r++) this.entries[byRank[r]!]!.rank = r;
    this.byRank = byRank;
  }

  /** Number of tools in the index. */
  get size(): number {
    return this.entries.length;
  }

  /** The tools in catalog order. */
  tools(): ToolInfo[] {
    return this.entries.map((e) => e.info);
  }

  /** Whether a tool of exactly this name (case-sensitive) is indexed. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The tool of exactly this name, if any. */
  get(name: string): ToolInfo | undefined {
    const i = this.byName.get(name);
    return i === undefined ? undefined : this.entries[i]!.info;
  }

  /** The name parts of a tool, as the scorer sees them. */
  partsOf(name: string): readonly string[] | undefined {
    const i = this.byName.get(name);
    if (i === undefined) return undefined;
    const e = this.entries[i]!;
    if (e.parts === null) this.splitParts(e);
    return e.parts!;
  }

  private splitParts(t: IndexedTool): readonly string[] {
    const parts = splitToolName(t.info.name);
    t.parts = parts;
    t.partsLower = parts.map(lowerFlat);
    return t.partsLower;
  }

  /**
   * The one scoring computation: points of keyword `kw` (already lower-cased)
   * against tool `t`, and in {@link hitPart} the part that decided it.
   */
  private scoreKeyword(t: IndexedTool, kw: string): number {
    this.hitPart = -1;
    const at = kw === '' || kw.includes('\n') ? -2 : t.text.indexOf(kw);
    if (at === -1) return 0;
    // Every lower-cased name part is a substring of the lower-cased name, so
    // when the name does not contain the keyword no name rule can hold.
    if (at >= 0 ? at < t.nameLength : t.text.slice(0, t.nameLength).includes(kw)) {
      const parts = t.partsLower ?? this.splitParts(t);
      let substringPart = -1;
      for (let p = 0; p < parts.length; p++) {
        const part = parts[p]!;
        if (part === kw) {
          this.hitPart = p;
          return 10;
        }
        if (substringPart < 0 && part.includes(kw)) substringPart = p;
      }
      if (substringPart >= 0) {
        this.hitPart = substringPart;
        return 5;
      }
      return 3;
    }
    // The first occurrence is past the name, so it is in the description;
    // for keywords the fast path cannot take, test the description itself.
    if (at >= 0) return 2;
    const desc = t.text.slice(t.nameLength + 1);
    return desc !== '' && desc.includes(kw) ? 2 : 0;
  }

  private keywordScore(t: IndexedTool, kw: Keyword, points: number): KeywordScore {
    const rule: Rule = points === 10 ? 'exact-part' : points === 5 ? 'part-substring' : points === 3 ? 'name-substring' : points === 2 ? 'description' : 'none';
    return {
      keyword: kw.word,
      required: kw.required,
      rule,
      part: this.hitPart >= 0 ? t.parts![this.hitPart]! : null,
      points,
    };
  }

  /**
   * Keyword search (SPEC §3): tools scored by the sum of their keywords'
   * points, tools failing a required keyword or scoring 0 dropped, ordered by
   * score descending then name in Go byte order, the first `maxResults` kept.
   */
  search(keywords: readonly Keyword[], maxResults: number, options: { explain?: boolean } = {}): ScoredTool[] {
    if (keywords.length === 0) return [];
    const n = this.entries.length;
    if (n === 0) return [];
    // Array.prototype.slice(0, maxResults) semantics: NaN keeps everything.
    const limit = Number.isNaN(maxResults) ? Infinity : Math.max(0, Math.trunc(maxResults));
    const grams = this.gramsFor();
    const keys = this.keys ?? (this.keys = new Float64Array(n));
    const count = grams === null ? this.scoreAll(keywords, keys) : this.scoreCandidates(grams, keywords, keys);
    const top = selectTop(keys, count, limit);
    const out: ScoredTool[] = [];
    for (const key of top) {
      const score = Math.floor(key / n);
      const e = this.entries[this.byRank[n - 1 - (key - score * n)]!]!;
      out.push(options.explain ? { name: e.info.name, score, explain: this.explainEntry(e, keywords).keywords } : { name: e.info.name, score });
    }
    return out;
  }

  /** The trigram index when this search should use it (building it the first time). */
  private gramsFor(): TrigramIndex | null {
    this.keywordSearches++;
    if (this.grams !== null) return this.grams;
    const build =
      this.prefilter === 'always' ||
      (this.prefilter === 'auto' && this.entries.length >= PREFILTER_MIN_TOOLS && this.keywordSearches >= 2);
    if (!build) return null;
    const n = this.entries.length;
    this.grams = new TrigramIndex(this.entries.map((e) => e.text));
    this.stamp = new Int32Array(n);
    this.bits = new Int32Array(n);
    this.cands = new Int32Array(n);
    this.scratch = new Int32Array(n);
    return this.grams;
  }

  /** Sort key of a kept tool: higher is earlier (score, then Go name order). */
  private keyOf(e: IndexedTool, score: number): number {
    return score * this.entries.length + (this.entries.length - 1 - e.rank);
  }

  /** Scores every tool; writes the keys of the kept ones; returns their count. */
  private scoreAll(keywords: readonly Keyword[], keys: Float64Array): number {
    const entries = this.entries;
    let count = 0;
    outer: for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      let total = 0;
      for (let k = 0; k < keywords.length; k++) {
        const kw = keywords[k]!;
        const pts = this.scoreKeyword(e, kw.lower);
        if (pts === 0 && kw.required) continue outer;
        total += pts;
      }
      if (total > 0) keys[count++] = this.keyOf(e, total);
    }
    return count;
  }

  /**
   * Sets candKind (and the list) to the tools that can contain `kw`: every
   * tool whose text contains it is in the list (which may hold more, and
   * repeats). Returns an estimate of the list's length.
   */
  private candidatesOf(g: TrigramIndex, kw: string, intersect: boolean): number {
    const len = kw.length;
    const n = this.entries.length;
    if (len === 0 || kw.includes('\n')) {
      this.candKind = CAND_ALL;
      return n;
    }
    const sym = g.sym;
    for (let i = 0; i < len; i++) {
      if (sym[kw.charCodeAt(i)] === 0) {
        this.candKind = CAND_NONE;
        return 0;
      }
    }
    const off = g.offsets;
    if (len <= 2) {
      // Every occurrence starts a trigram: the lists of all trigrams with
      // this prefix lie side by side.
      const lo = len === 1 ? sym[kw.charCodeAt(0)]! << (2 * SYM_BITS) : (sym[kw.charCodeAt(0)]! << (2 * SYM_BITS)) | (sym[kw.charCodeAt(1)]! << SYM_BITS);
      const hi = lo + (len === 1 ? 1 << (2 * SYM_BITS) : 1 << SYM_BITS);
      const size = off[hi]! - off[lo]!;
      if (size > 8 * n) {
        this.candKind = CAND_ALL;
        return n;
      }
      this.candKind = CAND_LIST;
      this.candArr = g.postings;
      this.candStart = off[lo]!;
      this.candEnd = off[hi]!;
      return size;
    }
    // The two rarest trigrams of the keyword: their lists intersected.
    let best = -1;
    let bestSize = Infinity;
    let second = -1;
    let secondSize = Infinity;
    let x = sym[kw.charCodeAt(0)]!;
    let y = sym[kw.charCodeAt(1)]!;
    for (let i = 2; i < len; i++) {
      const z = sym[kw.charCodeAt(i)]!;
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
    this.candKind = CAND_LIST;
    this.candArr = g.postings;
    this.candStart = off[best]!;
    this.candEnd = off[best + 1]!;
    if (!intersect || second < 0 || bestSize < 16) return bestSize;
    // Merge (or gallop when the second list is much longer) into scratch.
    const p = g.postings;
    const out = this.scratch!;
    let m = 0;
    let i = off[best]!;
    const iEnd = off[best + 1]!;
    let j = off[second]!;
    const jEnd = off[second + 1]!;
    if (secondSize > 16 * bestSize) {
      for (; i < iEnd; i++) {
        const t = p[i]!;
        let lo = j;
        let hi = jEnd;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (p[mid]! < t) lo = mid + 1;
          else hi = mid;
        }
        j = lo;
        if (j < jEnd && p[j] === t) out[m++] = t;
      }
    } else {
      while (i < iEnd && j < jEnd) {
        const a = p[i]!;
        const b = p[j]!;
        if (a === b) {
          out[m++] = a;
          i++;
          j++;
        } else if (a < b) i++;
        else j++;
      }
    }
    this.candArr = out;
    this.candStart = 0;
    this.candEnd = m;
    return m;
  }

  /** Scores only the tools the trigram index allows; writes the keys of the kept ones; returns their count. */
  private scoreCandidates(g: TrigramIndex, keywords: readonly Keyword[], keys: Float64Array): number {
    const n = this.entries.length;
    const stamp = this.stamp!;
    const cands = this.cands!;
    if (++this.epoch === 0x7fffffff) {
      stamp.fill(0);
      this.epoch = 1;
    }
    const epoch = this.epoch;
    let nc = 0;

    // A required keyword bounds the result: score only the tools that can
    // contain the rarest one (every keyword scored by scoreKeyword).
    let req = -1;
    let reqSize = Infinity;
    for (let k = 0; k < keywords.length; k++) {
      if (!keywords[k]!.required) continue;
      const size = this.candidatesOf(g, keywords[k]!.lower, false);
      if (this.candKind === CAND_NONE) return 0;
      if (this.candKind === CAND_LIST && size < reqSize) {
        req = k;
        reqSize = size;
      }
    }
    if (req >= 0) {
      this.candidatesOf(g, keywords[req]!.lower, true);
      const arr = this.candArr;
      for (let i = this.candStart; i < this.candEnd; i++) {
        const t = arr[i]!;
        if (stamp[t] === epoch) continue;
        stamp[t] = epoch;
        cands[nc++] = t;
      }
      return this.scoreList(keywords, cands, nc, null, 0, keys);
    }

    // Otherwise a tool must contain at least one keyword: the union of the
    // keywords' candidates, with a bit per keyword saying "may contain it"
    // (a keyword whose bit is clear scores 0 without looking at the text).
    const bits = this.bits!;
    let listMask = 0;
    let all = false;
    for (let k = 0; k < keywords.length; k++) {
      this.candidatesOf(g, keywords[k]!.lower, true);
      if (this.candKind === CAND_ALL) {
        all = true;
        continue;
      }
      if (this.candKind === CAND_NONE && keywords.length > 30) continue;
      const bit = k < 30 ? 1 << k : 0;
      listMask |= bit;
      if (this.candKind === CAND_NONE) continue;
      const arr = this.candArr;
      for (let i = this.candStart; i < this.candEnd; i++) {
        const t = arr[i]!;
        if (stamp[t] !== epoch) {
          stamp[t] = epoch;
          bits[t] = bit;
          cands[nc++] = t;
        } else bits[t]! |= bit;
      }
    }
    if (all) {
      for (let t = 0; t < n; t++) if (stamp[t] !== epoch) bits[t] = 0;
      for (let t = 0; t < n; t++) cands[t] = t;
      nc = n;
      for (let t = 0; t < n; t++) stamp[t] = epoch;
    }
    return this.scoreList(keywords, cands, nc, bits, listMask, keys);
  }

  /** Scores the listed tools; a keyword in `listMask` whose bit in `bits` is clear scores 0 unseen. */
  private scoreList(
    keywords: readonly Keyword[],
    list: Int32Array,
    count: number,
    bits: Int32Array | null,
    listMask: number,
    keys: Float64Array,
  ): number {
    const entries = this.entries;
    let kept = 0;
    outer: for (let c = 0; c < count; c++) {
      const t = list[c]!;
      const e = entries[t]!;
      const b = bits === null ? 0 : bits[t]!;
      let total = 0;
      for (let k = 0; k < keywords.length; k++) {
        const kw = keywords[k]!;
        const bit = k < 30 ? 1 << k : 0;
        const pts = (listMask & bit) !== 0 && (b & bit) === 0 ? 0 : this.scoreKeyword(e, kw.lower);
        if (pts === 0 && kw.required) continue outer;
        total += pts;
      }
      if (total > 0) keys[kept++] = this.keyOf(e, total);
    }
    return kept;
  }

  private explainEntry(e: IndexedTool, keywords: readonly Keyword[]): ToolExplanation {
    const out: KeywordScore[] = [];
    let total = 0;
    let excludedBy: string | null = null;
    for (const kw of keywords) {
      const pts = this.scoreKeyword(e, kw.lower);
      out.push(this.keywordScore(e, kw, pts));
      if (pts === 0 && kw.required && excludedBy === null) excludedBy = kw.word;
      total += pts;
    }
    return { name: e.info.name, score: excludedBy === null ? total : 0, excludedBy, keywords: out };
  }

  /** Why a tool scores what it does for these keywords (for any tool, returned or not); undefined for an unknown name. */
  explainTool(name: string, keywords: readonly Keyword[]): ToolExplanation | undefined {
    const i = this.byName.get(name);
    return i === undefined ? undefined : this.explainEntry(this.entries[i]!, keywords);
  }

  /**
   * The full ranking: every tool with a positive score, in result order,
   * without the `maxResults` cut (for "at which rank would it appear?").
   */
  rankAll(keywords: readonly Keyword[]): ScoredTool[] {
    return this.search(keywords, Number.MAX_SAFE_INTEGER);
  }
}

function hasSurrogateOrAbove(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0xd800) return true;
  return false;
}

/** The `limit` largest of keys[0..count), largest first, without sorting them all when few are wanted. */
function selectTop(keys: Float64Array, count: number, limit: number): number[] {
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
