// Frozen copy of src/core/scorer.ts as of c63dd70 (before issue 16), kept unchanged as the
// benchmark's "index before" baseline: the query-class rows report ratios against it measured in the
// same run. Over 400 lines because it is the old single file, on purpose; never imported by src/.
/**
 * Keyword scoring (SPEC §3), with an index built once per catalog.
 *
 * The reference re-splits and re-lower-cases every tool for every query; the
 * index does that work once. The score of a keyword is computed in exactly one
 * place ({@link ToolIndex.scoreKeyword}); explanations read what that
 * computation found, so they can never disagree with the score.
 */
import { splitToolName } from '../../../src/core/names.js';
import { compareGo, goFields, goToLower, toLowerCodePoint } from '../../../src/core/text.js';
import type { ToolInfo } from '../../../src/core/types.js';

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
 * - `auto` (default): scan every tool until the keyword searches have
 *   scanned {@link PREFILTER_SCAN_BUDGET} tools in all (one search of a
 *   large catalog, a few hundred of a small one), then build the token index
 *   once and use it from then on;
 * - `always`: build the token index at the first keyword search;
 * - `never`: always scan every tool.
 */
export type PrefilterMode = 'auto' | 'always' | 'never';

/** Options of a {@link ToolIndex}. */
export interface ToolIndexOptions {
  readonly prefilter?: PrefilterMode;
}

/**
 * Tools scanned by keyword searches after which `prefilter: 'auto'` builds the token index (about what building it
 * costs).
 */
export const PREFILTER_SCAN_BUDGET = 20_000;

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
  /** Name parts as written, and lower-cased (the same array when lower-casing changes nothing). */
  readonly parts: readonly string[];
  readonly partsLower: readonly string[];
  /** Position of the name in Go (UTF-8 byte) order, so ties sort by an integer compare. */
  rank: number;
}

// Code unit classes (no `u` flag: these match UTF-16 code units).
const NON_ASCII = /[^\0-\x7f]/;
const SURROGATE_OR_ABOVE = /[\ud800-\uffff]/;

function hasNonAscii(s: string): boolean {
  return NON_ASCII.test(s);
}

function hasSurrogateOrAbove(s: string): boolean {
  return SURROGATE_OR_ABOVE.test(s);
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

/** Where a keyword occurs in a tool's text (Where.*). */
type Where = number;
const Where = {
  Unknown: 0,
  Nowhere: 1,
  /** In the lower-cased name (maybe also in the description). */
  InName: 2,
  /** In the lower-cased description and not in the name. */
  InDescriptionOnly: 3,
} as const;

// ---------------------------------------------------------------------------
// Token index.
//
// A *separator* is an ASCII code unit other than a–z and 0–9; a *token* is a
// maximal run of other code units in a lower-cased text. A keyword without
// separators that occurs in a text lies inside one token of it. So "the
// tools whose name (description) contains k" is exactly the union of the
// name (description) posting lists of the vocabulary tokens containing k,
// and the vocabulary (a few thousand short strings) is what gets searched.
// Keywords with separators use their longest separator-free piece to find
// candidates, which the full text check then decides.

const IS_SEPARATOR = new Uint8Array(0x80).map((_, c) => ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) ? 0 : 1));

function isSeparator(c: number): boolean {
  return c < 0x80 && IS_SEPARATOR[c] === 1;
}

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
class TrigramIndex {
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

/**
 * Strings interned to ids, with the tool last seen for each in two roles (to
 * list a tool once per string and role). Looked up by a slice of a text and
 * its hash, so that tokenizing allocates only the strings that are new.
 */
class Vocabulary {
  readonly strings: string[] = [];
  private hashes: Int32Array = new Int32Array(1024);
  /** Open addressing: id + 1, 0 for an empty slot. */
  private table: Int32Array = new Int32Array(2048);
  private last: Int32Array = new Int32Array(2048).fill(-1);

  /**
   * The id of `s.slice(start, end)` (whose FNV-1a hash is `hash`); -1 when already recorded for `tool` in `role` (0 or
   * 1).
   */
  idFor(s: string, start: number, end: number, hash: number, tool: number, role: number): number {
    const strings = this.strings;
    let mask = this.table.length - 1;
    let slot = hash & mask;
    let id = -1;
    for (;;) {
      const e = this.table[slot]!;
      if (e === 0) break;
      if (this.hashes[e - 1] === hash && sameText(strings[e - 1]!, s, start, end)) {
        id = e - 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (id < 0) {
      id = strings.length;
      strings.push(start === 0 && end === s.length ? s : s.slice(start, end));
      if (id === this.hashes.length) this.hashes = grow(this.hashes, 0);
      this.hashes[id] = hash;
      if (2 * id + 1 >= this.last.length) this.last = grow(this.last, -1);
      this.table[slot] = id + 1;
      if (2 * strings.length > this.table.length) {
        // Rehash into a table twice the size.
        this.table = new Int32Array(this.table.length * 2);
        mask = this.table.length - 1;
        for (let k = 0; k < strings.length; k++) {
          let j = this.hashes[k]! & mask;
          while (this.table[j] !== 0) j = (j + 1) & mask;
          this.table[j] = k + 1;
        }
      }
    }
    const at = 2 * id + role;
    if (this.last[at] === tool) return -1;
    this.last[at] = tool;
    return id;
  }

  /** Forgets which tools were recorded (for a second pass over the same tools). */
  forgetTools(): void {
    this.last.fill(-1);
  }
}

function sameText(a: string, s: string, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let i = 0; i < a.length; i++) if (a.charCodeAt(i) !== s.charCodeAt(start + i)) return false;
  return true;
}

/** 32-bit FNV-1a over the code units of s[start..end). */
function fnv1a(s: string, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * Two vocabularies with posting lists: the distinct lower-cased name parts
 * (tools having that part), and the tokens of the lower-cased texts (tools
 * with that token in the name, and in the description).
 */
class TokenIndex {
  readonly parts: string[];
  readonly partGrams: TrigramIndex;
  readonly partOff: Int32Array;
  readonly partPost: Int32Array;
  readonly tokens: string[];
  readonly tokenGrams: TrigramIndex;
  readonly nameOff: Int32Array;
  readonly namePost: Int32Array;
  readonly descOff: Int32Array;
  readonly descPost: Int32Array;
  private readonly stamp: Int32Array;
  private readonly scratch: Int32Array;
  private epoch = 0;

  constructor(entries: readonly IndexedTool[], partsOf: (t: IndexedTool) => readonly string[]) {
    const n = entries.length;
    const parts = new Vocabulary();
    const tokens = new Vocabulary();
    // Two passes over the texts, so that every posting list is allocated at
    // its exact size (growing large typed arrays costs more than scanning
    // twice). Pass 1 interns and counts; the part ids of each tool are kept
    // so that names are split once.
    let toolParts: Int32Array = new Int32Array(8 * n + 8);
    const toolPartsEnd = new Int32Array(n);
    let np = 0;
    let partCount: Int32Array = new Int32Array(1024);
    let nameCount: Int32Array = new Int32Array(1024);
    let descCount: Int32Array = new Int32Array(1024);
    for (let t = 0; t < n; t++) {
      for (const part of partsOf(entries[t]!)) {
        const id = parts.idFor(part, 0, part.length, fnv1a(part, 0, part.length), t, 0);
        if (id < 0) continue;
        if (np === toolParts.length) toolParts = grow(toolParts, 0);
        toolParts[np++] = id;
        if (id >= partCount.length) partCount = grow(partCount, 0);
        partCount[id]!++;
      }
      toolPartsEnd[t] = np;
      this.tokenize(entries[t]!, t, tokens, (id, inName) => {
        if (id >= nameCount.length) {
          nameCount = grow(nameCount, 0);
          descCount = grow(descCount, 0);
        }
        if (inName) nameCount[id]!++;
        else descCount[id]!++;
      });
    }
    this.parts = parts.strings;
    this.tokens = tokens.strings;
    const partPos = offsetsOf(partCount, this.parts.length);
    const namePos = offsetsOf(nameCount, this.tokens.length);
    const descPos = offsetsOf(descCount, this.tokens.length);
    this.partOff = partPos.slice();
    this.nameOff = namePos.slice();
    this.descOff = descPos.slice();
    this.partPost = new Int32Array(partPos[this.parts.length]!);
    this.namePost = new Int32Array(namePos[this.tokens.length]!);
    this.descPost = new Int32Array(descPos[this.tokens.length]!);
    // Pass 2: fill, in tool order.
    tokens.forgetTools();
    let from = 0;
    for (let t = 0; t < n; t++) {
      for (let i = from; i < toolPartsEnd[t]!; i++) this.partPost[partPos[toolParts[i]!]!++] = t;
      from = toolPartsEnd[t]!;
      this.tokenize(entries[t]!, t, tokens, (id, inName) => {
        if (inName) this.namePost[namePos[id]!++] = t;
        else this.descPost[descPos[id]!++] = t;
      });
    }
    this.partGrams = new TrigramIndex(this.parts);
    this.tokenGrams = new TrigramIndex(this.tokens);
    const most = Math.max(this.parts.length, this.tokens.length);
    this.stamp = new Int32Array(most);
    this.scratch = new Int32Array(most);
  }

  /** Calls `add` once per distinct token of the tool's name, and of its description. */
  private tokenize(e: IndexedTool, t: number, tokens: Vocabulary, add: (id: number, inName: boolean) => void): void {
    const s = e.text;
    const len = s.length;
    let i = 0;
    while (i < len) {
      let c = s.charCodeAt(i);
      if (c < 0x80 && IS_SEPARATOR[c] === 1) {
        i++;
        continue;
      }
      const start = i;
      let h = 0x811c9dc5 | 0;
      do {
        h = Math.imul(h ^ c, 0x01000193);
        c = ++i < len ? s.charCodeAt(i) : 0x20;
      } while (!(c < 0x80 && IS_SEPARATOR[c] === 1));
      const inName = start < e.nameLength;
      const id = tokens.idFor(s, start, i, h, t, inName ? 0 : 1);
      if (id >= 0) add(id, inName);
    }
  }

  /**
   * The ids of the strings of `vocab` that contain `kw` (non-empty), in
   * `out` (the one equal to `kw`, if any, first); returns how many tool
   * entries their posting lists hold, or -1 as soon as that exceeds `cap`.
   */
  matching(which: 'parts' | 'tokens', kw: string, out: number[], cap: number): number {
    if (++this.epoch === 0x7fffffff) {
      this.stamp.fill(0);
      this.epoch = 1;
    }
    const epoch = this.epoch;
    const stamp = this.stamp;
    const vocab = which === 'parts' ? this.parts : this.tokens;
    const grams = which === 'parts' ? this.partGrams : this.tokenGrams;
    let total = 0;
    grams.forCandidates(kw, this.scratch, (id) => {
      if (stamp[id] === epoch) return;
      stamp[id] = epoch;
      if (total < 0) return;
      const str = vocab[id]!;
      if (str === kw) out.unshift(id);
      else if (str.includes(kw)) out.push(id);
      else return;
      total +=
        which === 'parts'
          ? this.partOff[id + 1]! - this.partOff[id]!
          : this.nameOff[id + 1]! - this.nameOff[id]! + this.descOff[id + 1]! - this.descOff[id]!;
      if (total > cap) total = -1;
    });
    return total;
  }
}

function grow(a: Int32Array, fill: number): Int32Array {
  const b = new Int32Array(a.length * 2).fill(fill);
  b.set(a);
  return b;
}

/** Start offsets of consecutive lists of the given lengths, and the total at [count]. */
function offsetsOf(lengths: Int32Array, count: number): Int32Array {
  const off = new Int32Array(count + 1);
  for (let k = 0; k < count; k++) off[k + 1] = off[k]! + lengths[k]!;
  return off;
}

/** How the tools a keyword can match are found (Plan.*). */
type Plan = number;
const Plan = {
  /** Exactly the tools of the matched parts' and tokens' posting lists. */
  Tokens: 0,
  /** A superset (the tokens of a piece of the keyword); each candidate is checked on its text. */
  Candidates: 1,
  /** Every tool, each checked on its text. */
  All: 2,
} as const;

interface KeywordPlan {
  readonly kw: string;
  readonly required: boolean;
  readonly plan: Plan;
  /** Plan.Tokens: the name parts containing the keyword (the equal one first, when `exactPart`). */
  readonly parts: number[];
  readonly exactPart: boolean;
  /** The text tokens containing the keyword (Plan.Tokens) or its longest piece (Plan.Candidates). */
  readonly tokens: number[];
  /** Estimated work: posting entries, or checks of whole texts weighted as such. */
  readonly cost: number;
}

/** A whole-text check costs about this many posting-entry visits. */
const TEXT_CHECK_COST = 8;

/**
 * A catalog prepared for keyword search: names split and lower-cased, and
 * descriptions lower-cased, once. Immutable after construction (what it
 * builds on demand never changes a result). Names must be unique (the
 * reference keys its tools by name).
 *
 * Keyword search looks only at the tools that can match (an index of name
 * parts and text tokens, built on demand, see {@link PrefilterMode}), takes
 * their points from the one scoring computation, and keeps the best
 * `maxResults` without sorting everything. Results are exactly those of
 * scoring every tool.
 */
export class ToolIndex {
  private readonly entries: IndexedTool[];
  private readonly byName: Map<string, number>;
  /** Entry index by rank. */
  private readonly byRank: Int32Array;
  private readonly prefilter: PrefilterMode;
  /** Tools scanned by keyword searches so far (prefilter `auto`). */
  private scanned = 0;
  private tokens: TokenIndex | null = null;
  // Per-search scratch, allocated with the token index.
  private toolStamp: Int32Array | null = null;
  private kwStamp: Int32Array | null = null;
  private acc: Int32Array | null = null;
  private reqHits: Int32Array | null = null;
  private touched: Int32Array | null = null;
  private keys: Float64Array | null = null;
  private epoch = 0;
  private kwSerial = 0;
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
      if (!surrogates && hasSurrogateOrAbove(info.name)) surrogates = true;
      const parts = splitToolName(info.name);
      const lowered = parts.map(lowerFlat);
      this.entries.push({
        info,
        // Lower-casing maps code point by code point, so this is the lower-cased
        // name, a line feed and the lower-cased description, in one flat string.
        text: lowerFlat(`${info.name}\n${info.description}`),
        nameLength: hasNonAscii(info.name) ? lowerFlat(info.name).length : info.name.length,
        parts,
        partsLower: lowered.every((p, i) => p === parts[i]) ? parts : lowered,
        rank: 0,
      });
    }
    const n = this.entries.length;
    const byRank = new Int32Array(n);
    if (surrogates) {
      const order = this.entries
        .map((_, i) => i)
        .sort((a, b) => compareGo(this.entries[a]!.info.name, this.entries[b]!.info.name));
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
    return this.entries[i]!.parts;
  }

  /** Where keyword `kw` (already lower-cased) occurs in the text of `t`. */
  private locate(t: IndexedTool, kw: string): Where {
    if (kw === '' || kw.includes('\n')) {
      // Not a keyword the parser produces: test name and description on their own.
      if (t.text.slice(0, t.nameLength).includes(kw)) return Where.InName;
      const desc = t.text.slice(t.nameLength + 1);
      return desc !== '' && desc.includes(kw) ? Where.InDescriptionOnly : Where.Nowhere;
    }
    // The first occurrence cannot straddle the line feed after the name.
    const at = t.text.indexOf(kw);
    return at < 0 ? Where.Nowhere : at < t.nameLength ? Where.InName : Where.InDescriptionOnly;
  }

  /**
   * The one scoring computation: points of keyword `kw` (already lower-cased)
   * against tool `t`, and in {@link hitPart} the part that decided it.
   * `known` is the rule when the caller's index has already decided it
   * (then no part is recorded); otherwise `where`, when known, is where the
   * keyword occurs.
   */
  private scoreKeyword(t: IndexedTool, kw: string, where: Where = Where.Unknown, known: Rule | null = null): number {
    this.hitPart = -1;
    if (known !== null) return RULES[known].points;
    if (where === Where.Unknown) where = this.locate(t, kw);
    if (where === Where.Nowhere) return RULES.none.points;
    // Every lower-cased name part is a substring of the lower-cased name, so
    // when the name does not contain the keyword no name rule can hold.
    if (where === Where.InName) {
      const parts = t.partsLower;
      let substringPart = -1;
      for (let p = 0; p < parts.length; p++) {
        const part = parts[p]!;
        if (part === kw) {
          this.hitPart = p;
          return RULES['exact-part'].points;
        }
        if (substringPart < 0 && part.includes(kw)) substringPart = p;
      }
      if (substringPart >= 0) {
        this.hitPart = substringPart;
        return RULES['part-substring'].points;
      }
      return RULES['name-substring'].points;
    }
    return RULES.description.points;
  }

  private keywordScore(t: IndexedTool, kw: Keyword, points: number): KeywordScore {
    const rule: Rule =
      points === 10
        ? 'exact-part'
        : points === 5
          ? 'part-substring'
          : points === 3
            ? 'name-substring'
            : points === 2
              ? 'description'
              : 'none';
    return {
      keyword: kw.word,
      required: kw.required,
      rule,
      part: this.hitPart >= 0 ? t.parts[this.hitPart]! : null,
      points,
    };
  }

  /**
   * Keyword search (SPEC §3): tools scored by the sum of their keywords'
   * points, tools failing a required keyword or scoring 0 dropped, ordered by
   * score descending then name in Go byte order, the first `maxResults` kept.
   */
  search(keywords: readonly Keyword[], maxResults: number, options: { explain?: boolean } = {}): ScoredTool[] {
    const n = this.entries.length;
    if (keywords.length === 0 || n === 0) return [];
    // Array.prototype.slice(0, maxResults) semantics: NaN keeps everything.
    const limit = Number.isNaN(maxResults) ? Infinity : Math.max(0, Math.trunc(maxResults));
    const tokens = this.tokenIndex();
    const keys = this.keys ?? (this.keys = new Float64Array(n));
    const count = tokens === null ? this.scoreAll(keywords, keys) : this.scoreByTerms(tokens, keywords, keys, limit);
    const out: ScoredTool[] = [];
    for (const key of selectTop(keys, count, limit)) {
      const score = Math.floor(key / n);
      const e = this.entries[this.byRank[n - 1 - (key - score * n)]!]!;
      out.push(
        options.explain
          ? { name: e.info.name, score, explain: this.explainEntry(e, keywords).keywords }
          : { name: e.info.name, score },
      );
    }
    return out;
  }

  /** The token index when this search should use it (building it the first time). */
  private tokenIndex(): TokenIndex | null {
    if (this.tokens !== null) return this.tokens;
    const n = this.entries.length;
    const build = this.prefilter === 'always' || (this.prefilter === 'auto' && this.scanned >= PREFILTER_SCAN_BUDGET);
    if (!build) {
      this.scanned += n;
      return null;
    }
    this.tokens = new TokenIndex(this.entries, (t) => t.partsLower);
    this.toolStamp = new Int32Array(n);
    this.kwStamp = new Int32Array(n);
    this.acc = new Int32Array(n);
    this.reqHits = new Int32Array(n);
    this.touched = new Int32Array(n);
    return this.tokens;
  }

  /** Sort key of a kept tool: higher comes first (score, then Go name order). */
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

  private plan(tokens: TokenIndex, kw: Keyword): KeywordPlan {
    const s = kw.lower;
    const n = this.entries.length;
    const all: KeywordPlan = {
      kw: s,
      required: kw.required,
      plan: Plan.All,
      parts: [],
      exactPart: false,
      tokens: [],
      cost: n * TEXT_CHECK_COST,
    };
    if (s === '' || s.includes('\n')) return all;
    // The longest run without separators; the keyword itself when it has none.
    let best = '';
    let whole = true;
    for (let i = 0; i < s.length; ) {
      while (i < s.length && isSeparator(s.charCodeAt(i))) {
        whole = false;
        i++;
      }
      const start = i;
      while (i < s.length && !isSeparator(s.charCodeAt(i))) i++;
      if (i - start > best.length) best = s.slice(start, i);
    }
    if (best === '') return all;
    const ids: number[] = [];
    if (!whole) {
      const entriesIn = tokens.matching('tokens', best, ids, n);
      if (entriesIn < 0) return all;
      return { ...all, plan: Plan.Candidates, tokens: ids, cost: entriesIn * TEXT_CHECK_COST };
    }
    const parts: number[] = [];
    const inParts = tokens.matching('parts', s, parts, 16 * n);
    const inTokens = inParts < 0 ? -1 : tokens.matching('tokens', s, ids, 16 * n);
    if (inTokens < 0) return all;
    const exactPart = parts.length > 0 && tokens.parts[parts[0]!] === s;
    return { ...all, plan: Plan.Tokens, parts, exactPart, tokens: ids, cost: inParts + inTokens };
  }

  /**
   * Term at a time: each keyword adds its points to the tools it can match
   * (found through the token index), then the tools that met every required
   * keyword are kept. With required keywords, the cheapest one goes first and
   * bounds the tools every other keyword looks at.
   */
  private scoreByTerms(tokens: TokenIndex, keywords: readonly Keyword[], keys: Float64Array, limit: number): number {
    const plans = keywords.map((k) => this.plan(tokens, k));
    const requiredCount = plans.reduce((c, p) => c + (p.required ? 1 : 0), 0);
    if (requiredCount > 0) {
      // Required first, cheapest first; the rest keep their order.
      plans.sort((a, b) => (a.required === b.required ? (a.required ? a.cost - b.cost : 0) : a.required ? -1 : 1));
    }
    if (++this.epoch === 0x7fffffff) {
      this.toolStamp!.fill(0);
      this.epoch = 1;
    }
    let touched = 0;
    for (let k = 0; k < plans.length; k++) {
      const bounded = requiredCount > 0 && k > 0;
      if (bounded && touched === 0) return 0;
      touched = this.addKeyword(tokens, plans[k]!, bounded, touched, plans.length === 1 ? limit : Infinity);
    }
    const list = this.touched!;
    const acc = this.acc!;
    const reqHits = this.reqHits!;
    const entries = this.entries;
    let kept = 0;
    for (let i = 0; i < touched; i++) {
      const t = list[i]!;
      if (reqHits[t] === requiredCount && acc[t]! > 0) keys[kept++] = this.keyOf(entries[t]!, acc[t]!);
    }
    return kept;
  }

  /**
   * Adds one keyword's points to the tools it matches. When `bounded`, only
   * tools already touched count (a tool the first required keyword missed is
   * excluded anyway). With `limit` (a query of this one keyword), stops once
   * `limit` tools have the points of the lists done so far: later lists give
   * fewer. Returns the new number of touched tools.
   */
  private addKeyword(tokens: TokenIndex, p: KeywordPlan, bounded: boolean, touched: number, limit: number): number {
    const entries = this.entries;
    this.kwSerial = this.kwSerial === 0x7ffffffe ? this.resetSerial() : this.kwSerial + 1;
    // Few tools left and many postings: check those tools' texts directly.
    if (p.plan === Plan.All || (bounded && touched * TEXT_CHECK_COST < p.cost)) {
      const list = this.touched!;
      const count = bounded ? touched : entries.length;
      for (let i = 0; i < count; i++) {
        const t = bounded ? list[i]! : i;
        const pts = this.scoreKeyword(entries[t]!, p.kw);
        if (pts > 0) touched = this.addPoints(t, pts, p.required, touched);
      }
      return touched;
    }
    const { partOff, partPost, nameOff, namePost, descOff, descPost } = tokens;
    if (p.plan === Plan.Candidates) {
      for (const id of p.tokens)
        touched = this.visit(namePost, nameOff[id]!, nameOff[id + 1]!, p, -1, bounded, touched);
      for (const id of p.tokens)
        touched = this.visit(descPost, descOff[id]!, descOff[id + 1]!, p, -1, bounded, touched);
      return touched;
    }
    // Every list is exact, and a tool takes the rule of the first list it is
    // in: a part equal to the keyword, a part containing it, a name
    // containing it (no part does), a description containing it (the name
    // does not). The points of a rule come from scoreKeyword.
    // A single keyword stops between rules once `limit` tools are in.
    const some = entries[0]!;
    const ids = p.parts;
    const first = p.exactPart ? 1 : 0;
    if (p.exactPart) {
      const exact = this.scoreKeyword(some, p.kw, Where.Unknown, 'exact-part');
      touched = this.visit(partPost, partOff[ids[0]!]!, partOff[ids[0]! + 1]!, p, exact, bounded, touched);
      if (touched >= limit) return touched;
    }
    const partRule = this.scoreKeyword(some, p.kw, Where.Unknown, 'part-substring');
    for (let i = first; i < ids.length; i++)
      touched = this.visit(partPost, partOff[ids[i]!]!, partOff[ids[i]! + 1]!, p, partRule, bounded, touched);
    if (touched >= limit) return touched;
    const nameRule = this.scoreKeyword(some, p.kw, Where.Unknown, 'name-substring');
    for (const id of p.tokens)
      touched = this.visit(namePost, nameOff[id]!, nameOff[id + 1]!, p, nameRule, bounded, touched);
    if (touched >= limit) return touched;
    const descRule = this.scoreKeyword(some, p.kw, Where.Unknown, 'description');
    for (const id of p.tokens)
      touched = this.visit(descPost, descOff[id]!, descOff[id + 1]!, p, descRule, bounded, touched);
    return touched;
  }

  /** Visits post[from..to): each tool once per keyword; `pts` < 0 means score its text. */
  private visit(
    post: Int32Array,
    from: number,
    to: number,
    p: KeywordPlan,
    pts: number,
    bounded: boolean,
    touched: number,
  ): number {
    const kwStamp = this.kwStamp!;
    const toolStamp = this.toolStamp!;
    const serial = this.kwSerial;
    const epoch = this.epoch;
    for (let i = from; i < to; i++) {
      const t = post[i]!;
      if (kwStamp[t] === serial) continue;
      kwStamp[t] = serial;
      if (bounded && toolStamp[t] !== epoch) continue;
      const points = pts >= 0 ? pts : this.scoreKeyword(this.entries[t]!, p.kw);
      if (points > 0) touched = this.addPoints(t, points, p.required, touched);
    }
    return touched;
  }

  private addPoints(t: number, pts: number, required: boolean, touched: number): number {
    if (this.toolStamp![t] !== this.epoch) {
      this.toolStamp![t] = this.epoch;
      this.acc![t] = 0;
      this.reqHits![t] = 0;
      this.touched![touched++] = t;
    }
    this.acc![t]! += pts;
    if (required) this.reqHits![t]!++;
    return touched;
  }

  private resetSerial(): number {
    this.kwStamp!.fill(0);
    return 1;
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

  /**
   * Why a tool scores what it does for these keywords (for any tool, returned or not); undefined for an unknown name.
   */
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
