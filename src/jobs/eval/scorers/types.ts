/** The interface every scorer of `toolsearch eval` implements. */
import type { ToolInfo } from '../../../core/index.js';

/** Names of the baseline scorers and the reference, in display order (the default list). */
export const SCORER_NAMES = ['spec', 'fuse', 'bm25', 'regex'] as const;

/** The engines that can be scored too (`--engine eino,ai-sdk,mastra,fuse,bm25`); `eino` is `spec` by its name. */
export const ENGINE_SCORER_NAMES = ['eino', 'ai-sdk', 'mastra'] as const;

export type BaselineName = (typeof SCORER_NAMES)[number];

/** A scorer: a baseline, the reference (`spec` or `eino`), an engine, or a module path (`./my-search.js`). */
export type ScorerName = string;

/** A ranking function built once over a catalog's dynamic tools. */
export interface Scorer {
  readonly name: ScorerName;
  /** One line on what it does (shown in reports). */
  readonly summary: string;
  /** The engine's parameters (an engine scorer), for the report. */
  readonly params?: Readonly<Record<string, number | boolean>>;
  /** The names of the best `limit` tools for a query, best first; [] when nothing matches. A module answers later. */
  rank(query: string, limit: number): string[] | Promise<string[]>;
  /** Why the scorer cannot take a query at all (an invalid pattern), or null; counted in the report. */
  rejects?(query: string): string | null;
  /** Ends what the scorer started (a module's worker). */
  close?(): Promise<void>;
}

/** Builds a scorer over tools (async: some load their library lazily). */
export type ScorerFactory = (tools: readonly ToolInfo[]) => Scorer | Promise<Scorer>;
