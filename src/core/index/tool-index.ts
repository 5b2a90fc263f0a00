/**
 * {@link ToolIndex}: a catalog prepared for keyword search (SPEC §3). It
 * decides which tools to look at; every point comes from the rules in
 * `scorer.ts`, so results are exactly those of scoring every tool.
 */
import {
  explainTool,
  prepareTool,
  scoreKeyword,
  type Keyword,
  type PreparedTool,
  type ScoredTool,
  type ToolExplanation,
} from '../scorer.js';
import { compareGo } from '../text.js';
import type { ToolInfo } from '../types.js';
import { KeywordSetFinder } from './keyword-sets.js';
import { ShortIndex } from './short-index.js';
import { SlicedScorer } from './sliced-scorer.js';
import { TokenIndex } from './token-index.js';
import { selectTop } from './top.js';

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
  /**
   * Posting lists and short substrings this frequent get bitsets (default:
   * the larger of 64 and 1/16 of the tools). Tests lower it to reach the
   * bitset paths on small catalogs; it never changes a result.
   */
  readonly denseMinimum?: number;
}

/**
 * Tools scanned by keyword searches after which `prefilter: 'auto'` builds the token index (about what building it
 * costs).
 */
export const PREFILTER_SCAN_BUDGET = 20_000;

/**
 * A one- or two-unit substring occurring this often, and a posting list this
 * long (and at least n/16 in both cases) get bitsets: below that, merging
 * their lists costs less than a bitset's n/32 words (short-index.ts, keyword-sets.ts).
 */
const DENSE_MIN = 64;

const SURROGATE_OR_ABOVE = /[\ud800-\uffff]/;

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
  private readonly entries: PreparedTool[];
  private readonly byName: Map<string, number>;
  /** Entry index by rank (position of the name in Go byte order). */
  private readonly byRank: Int32Array;
  /** Rank by entry index, so ties sort by an integer compare. */
  private readonly rank: Int32Array;
  private readonly prefilter: PrefilterMode;
  private readonly denseMinimum: number | undefined;
  /** Tools scanned by keyword searches so far (prefilter `auto`). */
  private scanned = 0;
  private scorer: SlicedScorer | null = null;
  private keys: Float64Array | null = null;

  constructor(tools: readonly ToolInfo[], options: ToolIndexOptions = {}) {
    this.entries = [];
    this.byName = new Map();
    this.prefilter = options.prefilter ?? 'auto';
    this.denseMinimum = options.denseMinimum;
    let surrogates = false;
    for (const info of tools) {
      if (this.byName.has(info.name)) throw new Error(`duplicate dynamic tool name: ${info.name}`);
      this.byName.set(info.name, this.entries.length);
      if (!surrogates && SURROGATE_OR_ABOVE.test(info.name)) surrogates = true;
      this.entries.push(prepareTool(info));
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
    this.rank = new Int32Array(n);
    for (let r = 0; r < n; r++) this.rank[byRank[r]!] = r;
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
    const scorer = this.slicedScorer();
    const out: ScoredTool[] = [];
    const emit = (e: PreparedTool, score: number): void => {
      out.push(
        options.explain
          ? { name: e.info.name, score, explain: explainTool(e, keywords).keywords }
          : { name: e.info.name, score },
      );
    };
    if (scorer !== null) {
      // Ids of the index are ranks.
      for (const [rank, score] of scorer.search(keywords, limit)) emit(this.entries[this.byRank[rank]!]!, score);
      return out;
    }
    const keys = this.keys ?? (this.keys = new Float64Array(n));
    let count = 0;
    this.scoreAll(keywords, (t, score) => {
      keys[count++] = score * n + (n - 1 - this.rank[t]!);
    });
    for (const key of selectTop(keys, count, limit)) {
      const score = Math.floor(key / n);
      emit(this.entries[this.byRank[n - 1 - (key - score * n)]!]!, score);
    }
    return out;
  }

  /** The indexed scorer when this search should use it (building it the first time). */
  private slicedScorer(): SlicedScorer | null {
    if (this.scorer !== null) return this.scorer;
    const n = this.entries.length;
    const build = this.prefilter === 'always' || (this.prefilter === 'auto' && this.scanned >= PREFILTER_SCAN_BUDGET);
    if (!build) {
      this.scanned += n;
      return null;
    }
    // In rank order, so that every id of the index is a rank: bit order is name order.
    const ranked = Array.from(this.byRank, (i) => this.entries[i]!);
    const tokens = new TokenIndex(ranked, (t) => t.partsLower);
    const min = Math.max(1, this.denseMinimum ?? Math.max(DENSE_MIN, n >> 4));
    this.scorer = new SlicedScorer(new KeywordSetFinder(ranked, tokens, new ShortIndex(ranked, min), min), n);
    return this.scorer;
  }

  /** Scores every tool; calls `keep` for the kept ones. */
  private scoreAll(keywords: readonly Keyword[], keep: (tool: number, score: number) => void): void {
    const entries = this.entries;
    outer: for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      let total = 0;
      for (let k = 0; k < keywords.length; k++) {
        const kw = keywords[k]!;
        const pts = scoreKeyword(e, kw.lower).points;
        if (pts === 0 && kw.required) continue outer;
        total += pts;
      }
      if (total > 0) keep(i, total);
    }
  }

  /**
   * Why a tool scores what it does for these keywords (for any tool, returned or not); undefined for an unknown name.
   */
  explainTool(name: string, keywords: readonly Keyword[]): ToolExplanation | undefined {
    const i = this.byName.get(name);
    return i === undefined ? undefined : explainTool(this.entries[i]!, keywords);
  }

  /**
   * The full ranking: every tool with a positive score, in result order,
   * without the `maxResults` cut (for "at which rank would it appear?").
   */
  rankAll(keywords: readonly Keyword[]): ScoredTool[] {
    const { tools, scores } = this.rankAllIds(keywords);
    const out: ScoredTool[] = new Array(tools.length);
    for (let i = 0; i < tools.length; i++) out[i] = { name: this.entries[tools[i]!]!.info.name, score: scores[i]! };
    return out;
  }

  /**
   * {@link rankAll} as two typed arrays: each tool as its position in the
   * catalog order the index was built from, and its score. No object per
   * tool: a ranking of 100,000 tools is 800 kB, not tens of megabytes.
   */
  rankAllIds(keywords: readonly Keyword[]): { readonly tools: Int32Array; readonly scores: Int32Array } {
    const n = this.entries.length;
    if (keywords.length === 0 || n === 0) return { tools: new Int32Array(0), scores: new Int32Array(0) };
    const scorer = this.slicedScorer();
    if (scorer !== null) {
      const { ids, scores } = scorer.rankAll(keywords);
      // Ids of the index are ranks.
      for (let i = 0; i < ids.length; i++) ids[i] = this.byRank[ids[i]!]!;
      return { tools: ids, scores };
    }
    const found: Array<[number, number]> = [];
    this.scoreAll(keywords, (t, score) => found.push([t, score]));
    found.sort((a, b) => b[1] - a[1] || this.rank[a[0]]! - this.rank[b[0]]!);
    return { tools: Int32Array.from(found, (f) => f[0]), scores: Int32Array.from(found, (f) => f[1]) };
  }
}
