/** The interface every scorer of `toolsearch eval` implements. */
import type { ToolInfo } from '../../../core/index.js';

/** Names of the scorers, in display order. */
export const SCORER_NAMES = ['spec', 'fuse', 'bm25', 'regex'] as const;

export type ScorerName = (typeof SCORER_NAMES)[number];

/** A ranking function built once over a catalog's dynamic tools. */
export interface Scorer {
  readonly name: ScorerName;
  /** One line on what it does (shown in reports). */
  readonly summary: string;
  /** The names of the best `limit` tools for a query, best first; [] when nothing matches. */
  rank(query: string, limit: number): string[];
  /** Why the scorer cannot take a query at all (an invalid pattern), or null; counted in the report. */
  rejects?(query: string): string | null;
}

/** Builds a scorer over tools (async: some load their library lazily). */
export type ScorerFactory = (tools: readonly ToolInfo[]) => Scorer | Promise<Scorer>;
