/**
 * Engines of tool search: the reference (Eino) and the ports of other
 * stacks' tool search (the Vercel AI SDK 7's, Mastra's) behind one small
 * interface — rank a query over a catalog, and say what a search result
 * loads and when a tool becomes visible. Each port is pure and is proven
 * against its real package by a differential test (test/core/engines/).
 */

/** The built-in engines; `eino` is the reference and the default. */
export const ENGINE_IDS = ['eino', 'ai-sdk', 'mastra'] as const;

export type EngineId = (typeof ENGINE_IDS)[number];

/** Whether a string names a built-in engine. */
export function isEngineId(s: string): s is EngineId {
  return (ENGINE_IDS as readonly string[]).includes(s);
}

/** A tool as every engine sees it: a unique name and a description (may be empty). */
export interface EngineTool {
  readonly name: string;
  readonly description: string;
}

/** One tool of a ranking and its score (the engine's own unit: points, or BM25 plus boosts). */
export interface EngineHit {
  readonly name: string;
  readonly score: number;
}

/** The contribution of one query term to one tool's score (what `--explain` shows). */
export interface TermScore {
  /** The query term as the engine tokenized it. */
  readonly term: string;
  /** What matched: `name`, `description`, `name+description`, `bm25`, `name-equal`, `name-substring`, `none`. */
  readonly rule: string;
  readonly points: number;
}

/** What one search gives the model, and the ranking behind it. */
export type EngineOutcome =
  | {
      readonly ok: true;
      /** The names returned, in order. */
      readonly matches: readonly string[];
      /** The score of each match (same indexes), as the engine computed it; null when it gives none (a module). */
      readonly scores: readonly number[] | null;
      /** The tool result as the model receives it (JSON). */
      readonly result: unknown;
      /** Tools the engine would return with no limit (its whole ranking). */
      readonly total: number;
      /** The limit that cut the result. */
      readonly limit: number;
    }
  | { readonly ok: false; readonly error: string };

/**
 * How an engine makes tools callable:
 * - `eino`: a `tool_search` result (`{"matches": [...]}`) loads its tools for
 *   the rest of the conversation, from the next model call on (forward
 *   selection over the history); `select:a,b` selects directly;
 * - `ai-sdk`: a search result (`{tools: [{name, description}]}`) adds its
 *   tools to the generation's discovered set, visible from the next step of
 *   the same generation; a new generation starts with none; no direct selection;
 * - `mastra`: `search_tools` only lists tools (unless `autoLoad`); `load_tool`
 *   loads them, visible from the next step, kept for the thread until the TTL
 *   passes without access.
 */
export interface LoadingRule {
  /** The shape of a search result: `matches`, `tools` or `results`. */
  readonly resultShape: 'matches' | 'tools' | 'results';
  /** What makes a tool callable. */
  readonly loadsBy: 'search' | 'load_tool';
  /** When a loaded tool is visible. */
  readonly visibleFrom: 'next-call';
  /** How long it stays: the conversation, the generation, or a time-to-live. */
  readonly keeps: 'conversation' | 'generation' | 'ttl';
  /** Direct loading by name, or null when the engine has none. */
  readonly directSelection: 'select:' | 'load_tool' | null;
}

/** A built engine over one catalog. */
export interface SearchEngine {
  readonly id: EngineId;
  readonly loading: LoadingRule;
  /** The default limit of a search (max_results, maxResults, topK). */
  readonly limit: number;
  /** One line on what it does and its parameters. */
  readonly summary: string;
  /** Runs a search as the model's tool call runs it (the query text; the limit as configured). */
  search(query: string): EngineOutcome;
  /** The search with another limit (eval ranks to its depth, explore to its max_results). */
  searchWithLimit(query: string, limit: number): EngineOutcome;
  /** Every tool the query ranks with no cut, best first (for `--why`, lint and explore). */
  rankAll(query: string): EngineHit[];
  /** Per query term, how it scored on the tool (`--explain`); [] for a tool that is not in the catalog. */
  explain(query: string, name: string): TermScore[];
  /** The tokens the engine splits a tool name into (lint and `--why`). */
  nameTokens(name: string): readonly string[];
}

/**
 * The order in which JavaScript enumerates the keys of a plain object built
 * from `names` in this order (`Object.entries`, `{...spread}`): names that are
 * array indexes (`"0"`, `"12"`, below 2^32 − 1, no leading zero) come first in
 * ascending numeric order, then every other name in insertion order. Both the
 * AI SDK and Mastra keep tools in such objects, so this is their "catalog order".
 */
export function objectKeyOrder(names: readonly string[]): string[] {
  const indexes: string[] = [];
  const others: string[] = [];
  for (const n of names) (isArrayIndex(n) ? indexes : others).push(n);
  if (indexes.length === 0) return [...names];
  indexes.sort((a, b) => Number(a) - Number(b));
  return [...indexes, ...others];
}

function isArrayIndex(s: string): boolean {
  if (s === '' || s.length > 10) return false;
  if (!/^(0|[1-9][0-9]*)$/.test(s)) return false;
  return Number(s) < 4294967295;
}
