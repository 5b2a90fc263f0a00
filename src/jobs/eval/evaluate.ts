/**
 * The evaluation engine: every scorer ranks every labeled query over the same
 * dynamic tools, and the rankings are scored with the metrics of
 * `metrics.ts`. Returns plain data; rendering is elsewhere.
 */
import { DEFAULT_MAX_RESULTS, type EngineParams, type ToolInfo } from '../../core/index.js';
import type { OpenOptions } from '../engines/engine.js';
import { aggregate, EVAL_DEPTH, firstRelevantRank } from './metrics.js';
import { createScorer, type ScorerName } from './scorers/index.js';
import type { EvalReport, LabeledQuery, Miss, QueryField, QueryResult, ScorerReport } from './types.js';

export interface EvaluateOptions {
  /** The catalog's dynamic tools (what the reference searches). */
  readonly tools: readonly ToolInfo[];
  readonly queries: readonly LabeledQuery[];
  readonly scorers: readonly ScorerName[];
  /** Which text the scorers receive (default `query`). */
  readonly field?: QueryField;
  readonly catalogSource: string;
  readonly queriesFile: string;
  /** Told after each query a scorer ranked (scorer, queries done, all queries): the CLI's progress line. */
  readonly onProgress?: (scorer: string, done: number, total: number) => void;
  /** The engines' parameters (Mastra's minScore, …). */
  readonly engineParams?: EngineParams;
  /** How a module engine is run (its timeout, the directory its path is relative to). */
  readonly engineOptions?: OpenOptions;
}

/** Runs the evaluation. */
export async function evaluate(options: EvaluateOptions): Promise<EvalReport> {
  const field = options.field ?? 'query';
  const textOf = (q: LabeledQuery): string => (field === 'request' ? (q.request ?? '') : q.query);
  const rankings = new Map<ScorerName, string[][]>();
  const reports: ScorerReport[] = [];
  for (const name of options.scorers) {
    const scorer = await createScorer(name, options.tools, options.engineParams, options.engineOptions);
    const total = options.queries.length;
    const ranked: string[][] = [];
    try {
      for (const [i, q] of options.queries.entries()) {
        const r = scorer.rank(textOf(q), EVAL_DEPTH);
        ranked.push(Array.isArray(r) ? r : await r);
        options.onProgress?.(name, i + 1, total);
      }
    } finally {
      await scorer.close?.();
    }
    rankings.set(name, ranked);
    const misses: Miss[] = [];
    options.queries.forEach((q, i) => {
      const r = ranked[i]!;
      const rank = firstRelevantRank(r, q.relevant);
      if (rank === null || rank > DEFAULT_MAX_RESULTS) {
        misses.push({
          line: q.line,
          query: textOf(q),
          relevant: q.relevant,
          got: r.slice(0, DEFAULT_MAX_RESULTS),
          first_relevant_rank: rank,
        });
      }
    });
    const invalid: Array<{ line: number; query: string; reason: string }> = [];
    for (const q of options.queries) {
      const reason = scorer.rejects?.(textOf(q)) ?? null;
      if (reason !== null) invalid.push({ line: q.line, query: textOf(q), reason });
    }
    reports.push({
      name,
      summary: scorer.summary,
      ...(scorer.params !== undefined && Object.keys(scorer.params).length > 0 ? { params: scorer.params } : {}),
      metrics: aggregate(options.queries.map((q, i) => ({ ranked: ranked[i]!, relevant: q.relevant }))),
      misses,
      invalid,
    });
  }
  const perQuery: QueryResult[] = options.queries.map((q, i) => {
    const results: Record<string, { ranked: readonly string[]; first_relevant_rank: number | null }> = {};
    for (const name of options.scorers) {
      const r = rankings.get(name)![i]!;
      results[name] = { ranked: r, first_relevant_rank: firstRelevantRank(r, q.relevant) };
    }
    return { line: q.line, query: q.query, request: q.request, relevant: q.relevant, results };
  });
  return {
    catalog: { source: options.catalogSource, dynamic: options.tools.length },
    queries: { file: options.queriesFile, count: options.queries.length, field },
    depth: EVAL_DEPTH,
    miss_cutoff: DEFAULT_MAX_RESULTS,
    scorers: reports,
    per_query: perQuery,
  };
}
