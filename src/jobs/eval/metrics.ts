/**
 * Retrieval metrics over one ranked result list (binary relevance), and their
 * mean over a query set. Pure functions; every formula is the textbook one so
 * figures can be checked by hand (test/jobs/eval/metrics.test.ts does).
 */

/** nDCG is reported at this cut-off (the reference's default `max_results`). */
export const NDCG_CUTOFF = 5;

/** How deep every scorer ranks: the largest cut-off any metric reads. MRR is MRR@10. */
export const EVAL_DEPTH = 10;

/**
 * The 0-based position of each distinct name's first occurrence. A name that
 * a ranking repeats (a `select:` may) counts once, at its first position.
 */
function firstPositions(ranked: readonly string[]): Map<string, number> {
  const at = new Map<string, number>();
  ranked.forEach((name, i) => {
    if (!at.has(name)) at.set(name, i);
  });
  return at;
}

/** Share of the relevant tools found in the first `k` results: |relevant ∩ top k| / |relevant|. */
export function recallAt(ranked: readonly string[], relevant: readonly string[], k: number): number {
  const rel = new Set(relevant);
  if (rel.size === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  let hits = 0;
  for (const name of rel) if (top.has(name)) hits++;
  return hits / rel.size;
}

/** 1-based rank of the first relevant result, or null when none is in the list. */
export function firstRelevantRank(ranked: readonly string[], relevant: readonly string[]): number | null {
  const rel = new Set(relevant);
  const i = ranked.findIndex((name) => rel.has(name));
  return i < 0 ? null : i + 1;
}

/** Reciprocal rank: 1 / rank of the first relevant result, 0 when there is none. */
export function reciprocalRank(ranked: readonly string[], relevant: readonly string[]): number {
  const r = firstRelevantRank(ranked, relevant);
  return r === null ? 0 : 1 / r;
}

/**
 * nDCG@k with binary relevance: DCG = Σ rel_i / log2(i + 1) over ranks
 * i = 1..k, divided by the DCG of an ideal ranking (all relevant tools first,
 * min(k, |relevant|) of them).
 */
export function ndcgAt(ranked: readonly string[], relevant: readonly string[], k: number): number {
  const rel = new Set(relevant);
  if (rel.size === 0) return 0;
  let dcg = 0;
  for (const [name, i] of firstPositions(ranked.slice(0, k))) {
    if (rel.has(name)) dcg += 1 / Math.log2(i + 2);
  }
  let ideal = 0;
  for (let i = 0; i < Math.min(k, rel.size); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

/** The metrics of one scorer over a query set (means over the queries; shares in [0, 1]). */
export interface Metrics {
  readonly recall_at_1: number;
  readonly recall_at_3: number;
  readonly recall_at_5: number;
  readonly recall_at_10: number;
  /** Mean reciprocal rank within the first {@link EVAL_DEPTH} results. */
  readonly mrr: number;
  readonly ndcg_at_5: number;
  /** Share of queries for which the scorer returned nothing at all. */
  readonly no_result: number;
}

/** The metric names in display order, with their labels. */
export const METRIC_LABELS: ReadonlyArray<readonly [keyof Metrics, string]> = [
  ['recall_at_1', 'R@1'],
  ['recall_at_3', 'R@3'],
  ['recall_at_5', 'R@5'],
  ['recall_at_10', 'R@10'],
  ['mrr', 'MRR'],
  ['ndcg_at_5', 'nDCG@5'],
  ['no_result', 'no result'],
];

/** Mean of each metric over queries, given each query's ranking and relevant set. */
export function aggregate(
  rows: ReadonlyArray<{ readonly ranked: readonly string[]; readonly relevant: readonly string[] }>,
): Metrics {
  const n = rows.length;
  const mean = (f: (r: (typeof rows)[number]) => number): number =>
    n === 0 ? 0 : rows.reduce((a, r) => a + f(r), 0) / n;
  return {
    recall_at_1: mean((r) => recallAt(r.ranked, r.relevant, 1)),
    recall_at_3: mean((r) => recallAt(r.ranked, r.relevant, 3)),
    recall_at_5: mean((r) => recallAt(r.ranked, r.relevant, 5)),
    recall_at_10: mean((r) => recallAt(r.ranked, r.relevant, 10)),
    mrr: mean((r) => reciprocalRank(r.ranked.slice(0, EVAL_DEPTH), r.relevant)),
    ndcg_at_5: mean((r) => ndcgAt(r.ranked, r.relevant, NDCG_CUTOFF)),
    no_result: mean((r) => (r.ranked.length === 0 ? 1 : 0)),
  };
}
