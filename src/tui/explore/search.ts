/**
 * What explore shows for a query: the reference's own `tool_search` run
 * (`searchDecoded`, so trimming, `select:`, `+required` and the max_results
 * rule are exactly the reference's) plus, for keyword queries, the full
 * ranking (how many tools match, and each tool's rank for the comparison with
 * the baseline).
 */
import type { ToolIndex } from '../../core/index/tool-index.js';
import { type Keyword, type KeywordScore } from '../../core/scorer.js';
import { searchDecoded } from '../../core/toolsearch.js';

export interface KeywordRow {
  readonly name: string;
  readonly score: number;
  readonly description: string;
  readonly explain: readonly KeywordScore[];
}

export type ExploreResult =
  /** Nothing typed yet. */
  | { readonly kind: 'empty' }
  /** The reference's error (e.g. `query is required` for a query of white space). */
  | { readonly kind: 'error'; readonly message: string }
  | {
      readonly kind: 'select';
      /** Requested names that are not dynamic tools (skipped by the reference). */
      readonly unknown: readonly string[];
      readonly rows: ReadonlyArray<{ readonly name: string; readonly description: string }>;
    }
  | {
      readonly kind: 'keyword';
      readonly keywords: readonly Keyword[];
      /** The limit applied. */
      readonly maxResults: number;
      /** Tools with a positive score (before the limit). */
      readonly total: number;
      readonly rows: readonly KeywordRow[];
      /** 1-based rank of a tool in the full ranking (undefined: not returned at any max_results). */
      readonly rankOf: (name: string) => number | undefined;
    };

/**
 * Runs a query as the reference does. One scoring pass: the reference's
 * search with no limit gives the full ranking (for the counts and the
 * comparison with the baseline); the result is its first `maxResults`
 * entries, which is exactly how the reference cuts (sort, then slice).
 * `maxResults` is at least 1 here (the keys keep it so), so the reference's
 * "not positive means 5" rule never applies.
 */
export function exploreSearch(index: ToolIndex, query: string, maxResults: number): ExploreResult {
  if (query === '') return { kind: 'empty' };
  const out = searchDecoded(index, { query, maxResults: Number.MAX_SAFE_INTEGER });
  if (!out.ok) return { kind: 'error', message: out.error };
  const description = (name: string): string => index.get(name)?.description ?? '';
  if (out.mode === 'select') {
    return {
      kind: 'select',
      unknown: out.unknown,
      rows: out.matches.map((name) => ({ name, description: description(name) })),
    };
  }
  const limit = Math.max(1, maxResults);
  // Built on first use: only the comparison with the baseline needs it.
  let ranks: Map<string, number> | null = null;
  const rankOf = (name: string): number | undefined => {
    if (ranks === null) {
      ranks = new Map();
      out.results.forEach((r, i) => ranks!.set(r.name, i + 1));
    }
    return ranks.get(name);
  };
  const rows = out.results.slice(0, limit).map((r) => ({
    name: r.name,
    score: r.score,
    description: description(r.name),
    explain: index.explainTool(r.name, out.keywords)?.keywords ?? [],
  }));
  return { kind: 'keyword', keywords: out.keywords, maxResults: limit, total: out.results.length, rows, rankOf };
}

/** The query as the baseline gets it: the keywords without their `+` (fuse.js has no required words). */
export function baselineQuery(keywords: readonly Keyword[]): string {
  return keywords.map((k) => k.word).join(' ');
}

/**
 * How the baseline ranks a tool compared with the reference: `=`, `↑n` (n places higher), `↓n`, or `new` (the reference
 * does not return it).
 */
export function rankDelta(referenceRank: number | undefined, baselineRank: number): string {
  if (referenceRank === undefined) return 'new';
  if (referenceRank === baselineRank) return '=';
  return referenceRank > baselineRank ? `↑${referenceRank - baselineRank}` : `↓${baselineRank - referenceRank}`;
}

/**
 * Runs a few queries before the screen appears: the index prepares its
 * lookups on the first query and V8 compiles the scoring on the first few,
 * which would otherwise make the first keystrokes take several frames
 * (measured on 5,000 tools: ~200 ms for the first key without this).
 */
export function warmUpSearch(index: ToolIndex): void {
  for (const query of ['e', 'a', 'get list', '+create item', 'xyz']) exploreSearch(index, query, 5);
}
