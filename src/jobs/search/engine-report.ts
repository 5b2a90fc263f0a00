/**
 * What `search --engine <other than eino>` reports: the same `--json`
 * contract as the reference's search (query, matches, results, total,
 * `--why`), with the engine's own scores, its per-term account (`terms`) and
 * the tool result exactly as the model receives it (`result`).
 */
import type { EngineOutcome, TermScore } from '../../core/engines/types.js';
import type { OpenEngine } from '../engines/engine.js';
import { type SearchJson, type SearchResultJson, type SearchScope, suggestions, type WhyReport } from './report.js';

/** A result of an engine search, with the engine's per-term account when asked (`--explain`). */
export interface EngineResultJson extends SearchResultJson {
  readonly terms?: readonly TermScore[];
}

/** `search --json` with an engine. */
export interface EngineSearchJson extends SearchJson {
  readonly results: readonly EngineResultJson[];
  /** The tool result as the model receives it: `{tools: [...]}` (AI SDK, a module), `{results, message}` (Mastra). */
  readonly result: unknown;
  readonly why?: readonly WhyReport[];
}

/** Builds the report of one engine search. */
export function engineSearchJson(
  engine: OpenEngine,
  scope: Pick<SearchScope, 'all' | 'byName' | 'static'>,
  query: string,
  outcome: Extract<EngineOutcome, { ok: true }>,
  options: { readonly explain?: boolean; readonly why?: readonly string[] } = {},
): EngineSearchJson {
  const staticNames = new Set(scope.static.map((t) => t.name));
  const results: EngineResultJson[] = outcome.matches.map((name, i) => ({
    name,
    score: outcome.scores === null ? null : outcome.scores[i]!,
    description: scope.byName.get(name)?.description ?? '',
    ...(scope.all ? { static: staticNames.has(name) } : {}),
    ...(options.explain === true && engine.builtin !== null ? { terms: engine.builtin.explain(query, name) } : {}),
  }));
  return {
    query,
    mode: 'keyword',
    max_results: outcome.limit,
    matches: [...outcome.matches],
    results,
    total_matches: outcome.total,
    unknown: [],
    static_included: scope.all,
    result: outcome.result,
    ...(options.why !== undefined
      ? { why: options.why.map((n) => engineStanding(engine, scope, query, outcome, n)) }
      : {}),
  };
}

function why(name: string, standing: WhyReport['standing'], fields: Partial<WhyReport> = {}): WhyReport {
  return {
    name,
    standing,
    rank: fields.rank ?? null,
    score: fields.score ?? null,
    excluded_by: null,
    parts: fields.parts ?? [],
    keywords: [],
    suggestions: fields.suggestions ?? [],
    ...(fields.terms !== undefined ? { terms: fields.terms } : {}),
  };
}

/**
 * Where a tool stands with an engine: returned (its rank in the result), or
 * where the engine's whole ranking puts it. For Mastra a tool can rank within
 * topK in the whole ranking and still not be returned: only the best `topK × 2`
 * BM25 results get the name boost (the standing says `beyond-limit` with that rank).
 */
export function engineStanding(
  engine: OpenEngine,
  scope: Pick<SearchScope, 'byName' | 'static' | 'all'>,
  query: string,
  outcome: Extract<EngineOutcome, { ok: true }>,
  name: string,
): WhyReport {
  if (!scope.byName.has(name)) return why(name, 'unknown', { suggestions: suggestions(scope.byName.keys(), name) });
  if (!scope.all && scope.static.some((t) => t.name === name)) return why(name, 'static');
  const b = engine.builtin;
  const parts = b ? b.nameTokens(name) : [];
  const terms = b ? b.explain(query, name) : undefined;
  const at = outcome.matches.indexOf(name);
  if (at >= 0)
    return why(name, 'returned', {
      rank: at + 1,
      score: outcome.scores?.[at] ?? null,
      parts,
      ...(terms ? { terms } : {}),
    });
  if (b === null) return why(name, 'no-match');
  const ranking = b.rankAll(query);
  const r = ranking.findIndex((h) => h.name === name);
  if (r < 0) return why(name, 'no-match', { score: 0, parts, ...(terms ? { terms } : {}) });
  // Mastra reports scores rounded to 2 decimals; its whole ranking keeps them exact.
  const score = engine.name === 'mastra' ? Math.round(ranking[r]!.score * 100) / 100 : ranking[r]!.score;
  return why(name, 'beyond-limit', { rank: r + 1, score, parts, ...(terms ? { terms } : {}) });
}
