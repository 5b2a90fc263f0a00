/** Data of `toolsearch eval`: labeled queries in, a report out (the `--json` contract). */
import type { Metrics } from './metrics.js';
import type { ScorerName } from './scorers/types.js';

/** One labeled query of the input file. */
export interface LabeledQuery {
  /** 1-based line in the input file. */
  readonly line: number;
  /** The tool_search query text, as a model would send it. */
  readonly query: string;
  /** The tools that answer the request (all must be dynamic tools of the catalog). */
  readonly relevant: readonly string[];
  /** The user's request the query was written for, when given. */
  readonly request: string | null;
}

/** Which text of each labeled query the scorers receive. */
export type QueryField = 'query' | 'request';

/** A query for which a scorer put no relevant tool in its first 5 results. */
export interface Miss {
  readonly line: number;
  readonly query: string;
  readonly relevant: readonly string[];
  /** What the scorer returned, first 5. */
  readonly got: readonly string[];
  /** Rank of the first relevant tool within the evaluation depth (6..10), or null. */
  readonly first_relevant_rank: number | null;
}

/** Results of one scorer. */
export interface ScorerReport {
  readonly name: ScorerName;
  readonly summary: string;
  /** An engine's parameters beyond its defaults' names (Mastra: minScore, autoLoad). */
  readonly params?: Readonly<Record<string, number | boolean>>;
  readonly metrics: Metrics;
  /** Queries with no relevant tool in the first 5 results, in file order. */
  readonly misses: readonly Miss[];
  /**
   * Queries the scorer cannot take (regex: a pattern RE2 rejects, or over 200 characters), in file order; they return
   * nothing.
   */
  readonly invalid: ReadonlyArray<{ readonly line: number; readonly query: string; readonly reason: string }>;
}

/** Per query, per scorer: the ranking and the rank of the first relevant tool. */
export interface QueryResult {
  readonly line: number;
  readonly query: string;
  readonly request: string | null;
  readonly relevant: readonly string[];
  readonly results: {
    readonly [scorer: string]: { readonly ranked: readonly string[]; readonly first_relevant_rank: number | null };
  };
}

/** The whole report. */
export interface EvalReport {
  readonly catalog: { readonly source: string; readonly dynamic: number };
  readonly queries: { readonly file: string; readonly count: number; readonly field: QueryField };
  /** Results each scorer ranks per query (the deepest cut-off of any metric). */
  readonly depth: number;
  /** A query counts as missed when no relevant tool is among this many first results. */
  readonly miss_cutoff: number;
  readonly scorers: readonly ScorerReport[];
  readonly per_query: readonly QueryResult[];
}
