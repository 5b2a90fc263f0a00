/**
 * What `search` and `select` report, as plain data: the `--json` contract,
 * where a tool stands for a query (`--why`, expectation diffs), and the
 * expectation checks. No I/O, no formatting.
 */
import { editDistance } from '../../io/edit-distance.js';
import type { TermScore } from '../../core/engines/types.js';
import type { KeywordScore, ScoredTool } from '../../core/scorer.js';
import { goToLower } from '../../core/text.js';
import type { ToolSearchSuccess } from '../../core/toolsearch.js';
import type { ToolIndex } from '../../core/index/tool-index.js';
import type { CatalogTool } from '../../formats/types.js';

/** A catalog ready to search: its dynamic and static tools, and the index a search runs over. */
export interface SearchScope {
  readonly dynamic: readonly CatalogTool[];
  readonly static: readonly CatalogTool[];
  /** Dynamic tools only (the reference), or every tool with `--all`. */
  readonly index: ToolIndex;
  readonly all: boolean;
  readonly byName: ReadonlyMap<string, CatalogTool>;
}

/** One result in `search --json`. */
export interface SearchResultJson {
  readonly name: string;
  /** The keyword score; null for a direct selection (no scoring). */
  readonly score: number | null;
  readonly description: string;
  /** With `--all` only: whether the tool is static (beyond the reference). */
  readonly static?: boolean;
  readonly explain?: readonly KeywordScore[];
}

/** `search --json`. */
export interface SearchJson {
  readonly query: string;
  readonly mode: 'keyword' | 'select';
  /** The limit applied (`max_results` when positive, else 5); null for `select:`, where no limit applies. */
  readonly max_results: number | null;
  readonly matches: readonly string[];
  readonly results: readonly SearchResultJson[];
  /** Keyword mode: how many tools score above 0 before the limit cuts. */
  readonly total_matches: number;
  /** Select mode: requested names that are not (dynamic) tools, skipped. */
  readonly unknown: readonly string[];
  /** `--all`: static tools were searched too (beyond the reference). */
  readonly static_included: boolean;
  /** `--why`: where each named tool stands. */
  readonly why?: readonly WhyReport[];
}

/** Where one tool stands for a query, returned or not. */
export type Standing =
  /** Returned by the search, at `rank` (1-based). */
  | 'returned'
  /** Scores above 0 but ranks past the limit. */
  | 'beyond-limit'
  /** No keyword matches its name or description. */
  | 'no-match'
  /** A required keyword scores 0 on it. */
  | 'excluded'
  /** A static tool: never searched by the reference (see `--all`). */
  | 'static'
  /** Not in the catalog. */
  | 'unknown'
  /** Direct selection: requested and returned. */
  | 'selected'
  /** Direct selection: the tool exists but was not requested. */
  | 'not-requested';

/** `--why <tool>`: a tool's standing, score and per-keyword account. */
export interface WhyReport {
  readonly name: string;
  readonly standing: Standing;
  /** Rank in the full ranking (before the limit), when the tool scores above 0. */
  readonly rank: number | null;
  /** Score (keyword mode, tool searched), else null. */
  readonly score: number | null;
  /** The required keyword that excluded it. */
  readonly excluded_by: string | null;
  /** The name parts the scorer matches against. */
  readonly parts: readonly string[];
  readonly keywords: readonly KeywordScore[];
  /** Catalog names close to an unknown name (case-insensitive equal, or containing it). */
  readonly suggestions: readonly string[];
  /** Another engine than the reference (`--engine`): its per-term account of the tool. */
  readonly terms?: readonly TermScore[];
}

/** The outcome of a run, with the full ranking for keyword mode. */
export interface SearchRun {
  readonly outcome: ToolSearchSuccess;
  readonly scope: SearchScope;
  /** Keyword mode: every tool scoring above 0, in result order. */
  readonly ranking: readonly ScoredTool[];
}

export function makeRun(scope: SearchScope, outcome: ToolSearchSuccess): SearchRun {
  const ranking = outcome.mode === 'keyword' ? scope.index.rankAll(outcome.keywords) : [];
  return { outcome, scope, ranking };
}

function description(scope: SearchScope, name: string): string {
  return scope.byName.get(name)?.description ?? '';
}

/** The `--json` document of a search (keys in the documented order). */
export function searchJson(run: SearchRun, why: readonly string[] | undefined): SearchJson {
  const { outcome, scope } = run;
  const staticNames = new Set(scope.static.map((t) => t.name));
  const mark = (name: string): { static?: boolean } => (scope.all ? { static: staticNames.has(name) } : {});
  const select = outcome.mode === 'select';
  const results: SearchResultJson[] = select
    ? outcome.matches.map((name) => ({ name, score: null, description: description(scope, name), ...mark(name) }))
    : outcome.results.map((r) => ({
        name: r.name,
        score: r.score,
        description: description(scope, r.name),
        ...mark(r.name),
        ...(r.explain !== undefined ? { explain: r.explain } : {}),
      }));
  return {
    query: outcome.query,
    mode: outcome.mode,
    max_results: select ? null : outcome.maxResults,
    matches: [...outcome.matches],
    results,
    total_matches: select ? outcome.matches.length : run.ranking.length,
    unknown: select ? [...outcome.unknown] : [],
    static_included: scope.all,
    ...(why !== undefined ? { why: why.map((n) => standing(run, n)) } : {}),
  };
}

/** Catalog names close to `name`: equal ignoring case, else containing it (ignoring case), at most 3. */
export function suggestions(names: Iterable<string>, name: string): string[] {
  const lower = goToLower(name);
  const all = [...names].filter((n) => n !== name);
  const same = all.filter((n) => goToLower(n) === lower);
  if (same.length > 0) return same.slice(0, 3);
  if (lower.length < 3) return [];
  return all.filter((n) => goToLower(n).includes(lower)).slice(0, 3);
}

function why(name: string, standing: Standing, fields: Partial<Omit<WhyReport, 'name' | 'standing'>> = {}): WhyReport {
  return {
    name,
    standing,
    rank: fields.rank ?? null,
    score: fields.score ?? null,
    excluded_by: fields.excluded_by ?? null,
    parts: fields.parts ?? [],
    keywords: fields.keywords ?? [],
    suggestions: fields.suggestions ?? [],
  };
}

/** Where a tool stands for the run's query. */
export function standing(run: SearchRun, name: string): WhyReport {
  const { outcome, scope } = run;
  if (!scope.index.has(name)) {
    if (scope.static.some((t) => t.name === name)) return why(name, 'static');
    return why(name, 'unknown', { suggestions: suggestions(scope.byName.keys(), name) });
  }
  const parts = scope.index.partsOf(name) ?? [];
  if (outcome.mode === 'select')
    return why(name, outcome.matches.includes(name) ? 'selected' : 'not-requested', { parts });
  const ex = scope.index.explainTool(name, outcome.keywords)!;
  const base = { parts, keywords: ex.keywords, excluded_by: ex.excludedBy, score: ex.score };
  if (ex.excludedBy !== null) return why(name, 'excluded', base);
  const at = run.ranking.findIndex((r) => r.name === name);
  if (at < 0) return why(name, 'no-match', base);
  return why(name, at < outcome.matches.length ? 'returned' : 'beyond-limit', { ...base, rank: at + 1 });
}

/** The expectations of `search`. */
export interface Expectations {
  readonly expect?: readonly string[];
  readonly expectExact?: readonly string[];
  readonly expectFirst?: string;
  readonly expectNone?: boolean;
}

/** A failed expectation. */
export type ExpectationFailure =
  | { readonly kind: 'expect'; readonly expected: readonly string[]; readonly missing: readonly string[] }
  | { readonly kind: 'expect-exact'; readonly expected: readonly string[] }
  | { readonly kind: 'expect-first'; readonly expected: string }
  | { readonly kind: 'expect-none' };

/** Checks the expectations against the returned names; an empty list means all hold. */
/** Whether any expectation was given (a report then says how they went). */
export function expectationsGiven(e: Expectations): boolean {
  return e.expect !== undefined || e.expectExact !== undefined || e.expectFirst !== undefined || e.expectNone === true;
}

export function checkExpectations(matches: readonly string[], e: Expectations): ExpectationFailure[] {
  const failures: ExpectationFailure[] = [];
  if (e.expect !== undefined) {
    const got = new Set(matches);
    const missing = e.expect.filter((n) => !got.has(n));
    if (missing.length > 0) failures.push({ kind: 'expect', expected: e.expect, missing });
  }
  if (e.expectExact !== undefined) {
    const x = e.expectExact;
    if (x.length !== matches.length || x.some((n, i) => n !== matches[i]))
      failures.push({ kind: 'expect-exact', expected: x });
  }
  if (e.expectFirst !== undefined && matches[0] !== e.expectFirst)
    failures.push({ kind: 'expect-first', expected: e.expectFirst });
  if (e.expectNone === true && matches.length > 0) failures.push({ kind: 'expect-none' });
  return failures;
}

/** Names close to `name`: {@link suggestions}, else at most 3 within a few edits (one per 5 characters, up to 3). */
export function closeNames(names: Iterable<string>, name: string): string[] {
  const all = [...names];
  const near = suggestions(all, name);
  if (near.length > 0) return near;
  const limit = Math.max(1, Math.min(3, Math.floor(name.length / 5)));
  return all
    .map((n) => ({
      n,
      d: Math.abs(n.length - name.length) > limit ? Infinity : editDistance(goToLower(n), goToLower(name)),
    }))
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((x) => x.n);
}
