/**
 * Test suites: what a suite file says (parsed, validated, paths resolved),
 * and what running it gives (plain data: the `test --reporter json` contract).
 */
import type { EngineParams, JsonValue, Mode } from '../../core/index.js';
import type { EngineSpec } from '../engines/engine.js';
import type { SourceLocation } from '../../io/errors.js';
import type { CatalogFormat, TranscriptFormat } from '../../formats/types.js';

/**
 * Catalogs a suite or a case names: files, resolved against the suite file's
 * directory, and live MCP servers (`mcp:<command line>`, `mcp:<url>`), kept
 * as written (a command line runs in the current directory, as with `-c`).
 */
export interface CatalogRef {
  readonly files: readonly string[];
  readonly format: CatalogFormat | 'auto';
  readonly prefix: string | null;
  readonly location: SourceLocation;
  /** Offset of the `catalog` value in the suite text (for located errors). */
  readonly offset: number;
}

/** A tool name written in the suite, with where it was written (to point at typos). */
export interface NameRef {
  readonly name: string;
  readonly location: SourceLocation;
  /** Offset in the suite text. */
  readonly offset: number;
}

/** Expectations on the result of a search or select case. */
export interface ResultExpectations {
  /** Each of these is returned. */
  readonly includes?: readonly NameRef[];
  /** None of these is returned. */
  readonly excludes?: readonly NameRef[];
  /** The result is exactly this ordered list. */
  readonly exact?: readonly NameRef[];
  /** This tool is returned first. */
  readonly first?: NameRef;
  /** Each tool is returned at this rank or better. */
  readonly rank_at_most?: ReadonlyArray<{ readonly tool: NameRef; readonly rank: number }>;
  /** Nothing is returned. */
  readonly none?: boolean;
  /** The reference returns an error whose text contains this (search cases only). */
  readonly error?: string;
}

/** A model call's tool lists, as `visible_at` / `deferred_at` check them. */
export interface ListAt {
  readonly call: number;
  readonly includes?: readonly NameRef[];
  readonly excludes?: readonly NameRef[];
  readonly exact?: readonly NameRef[];
  readonly location: SourceLocation;
}

/** Expectations on a simulated conversation. */
export interface SimulateExpectations {
  readonly visible_at: readonly ListAt[];
  readonly deferred_at: readonly ListAt[];
  /** No violation of severity `error` (warnings, such as a redundant select, do not count). */
  readonly no_violations: boolean;
  /** Replaying every recorded tool_search call against the catalog gives the recorded result. */
  readonly same_as_recorded: boolean;
}

interface CaseBase {
  /** 0-based index in the suite's `cases`. */
  readonly index: number;
  readonly name: string;
  readonly location: SourceLocation;
  /** Offset of the case in the suite text. */
  readonly offset: number;
  /** Null when the case runs; otherwise the reason ('' when none is given). */
  readonly skip: string | null;
  /** `record: true`: `--update` writes the current result into `exact`. */
  readonly record: boolean;
  /** The case's own catalog, overriding the suite's. */
  readonly catalog: CatalogRef | null;
  /**
   * `engine:` of the case, else of the suite: a built-in engine, or a module (its path resolved against the
   * suite's directory); null: the reference for a search or select case, the recording's engine for a simulation.
   */
  readonly engine: EngineRef | null;
}

/** An engine a suite names, with its parameters (`top_k`, `min_score` for Mastra). */
export interface EngineRef {
  readonly spec: EngineSpec;
  /** As written in the suite (a module's path as given), for reports. */
  readonly name: string;
  readonly params: EngineParams;
  readonly location: SourceLocation;
}

/** A keyword search (or any raw arguments) through `tool_search`. */
export interface SearchCase extends CaseBase {
  readonly kind: 'search';
  /** Raw arguments text (from `args`), or the query and max_results (from `query`). */
  readonly input: { readonly args: string } | { readonly query: string; readonly maxResults: number | null };
  readonly expect: ResultExpectations;
}

/** A direct selection (`select:a,b`). */
export interface SelectCase extends CaseBase {
  readonly kind: 'select';
  readonly names: readonly string[];
  readonly expect: ResultExpectations;
}

/** A recorded conversation replayed through the middleware. */
export interface SimulateCase extends CaseBase {
  readonly kind: 'simulate';
  readonly transcript: string;
  /** Offset of the `transcript` value in the suite text. */
  readonly transcriptOffset: number;
  readonly format: TranscriptFormat | 'auto';
  readonly mode: Mode;
  readonly static: readonly NameRef[];
  readonly expect: SimulateExpectations;
}

export type SuiteCase = SearchCase | SelectCase | SimulateCase;

/** A parsed suite file. */
export interface Suite {
  readonly file: string;
  /** `name:` of the suite, else the file path. */
  readonly name: string;
  readonly syntax: 'json' | 'yaml';
  readonly catalog: CatalogRef | null;
  readonly cases: readonly SuiteCase[];
}

// ---------------------------------------------------------------- results

/** Where a named tool stands in a search result. */
export interface ToolStanding {
  readonly name: string;
  readonly status:
    | 'returned'
    /** Scores above 0 but ranks past max_results. */
    | 'beyond-limit'
    /** No keyword matches it. */
    | 'no-match'
    /** A required keyword scores 0 on it. */
    | 'excluded'
    /** Direct selection: requested and returned / not requested. */
    | 'selected'
    | 'not-selected'
    /** The search itself failed (argument error). */
    | 'no-result';
  /** Rank in the result, or in the full ranking when beyond the limit. */
  readonly rank: number | null;
  readonly score: number | null;
  readonly excluded_by: string | null;
}

/** One failed expectation. */
export interface Failure {
  /** The expectation key (`includes`, `first`, `visible_at`, …). */
  readonly expectation: string;
  /** One line: what was expected and what happened. */
  readonly message: string;
  readonly expected: JsonValue;
  readonly actual: JsonValue;
  /** Where the tools the expectation names stand (search and select cases). */
  readonly standings: readonly ToolStanding[];
  /** Further lines of explanation (violations, replay differences). */
  readonly notes: readonly string[];
}

/** What a search or select case returned. */
export interface SearchGot {
  /** The engine that ran the case (`eino`, the reference, unless the case or its suite names another). */
  readonly engine: string;
  readonly mode: 'keyword' | 'select' | 'error';
  readonly query: string | null;
  /** The limit applied (keyword mode). */
  readonly max_results: number | null;
  readonly matches: readonly string[];
  /** Scores of `matches` (keyword mode), else null. */
  readonly scores: readonly number[] | null;
  /** Keyword mode: how many tools score above 0 before the limit. */
  readonly total_matches: number | null;
  /** The reference's error text (mode `error`). */
  readonly error: string | null;
}

/** What a simulate case gave. */
export interface SimulateGot {
  /** The engine whose loading rule ran. */
  readonly engine: string;
  readonly mode: Mode;
  readonly calls: number;
  readonly errors: number;
  readonly warnings: number;
  readonly replay_differences: number | null;
}

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseResult {
  readonly name: string;
  readonly kind: SuiteCase['kind'];
  readonly status: CaseStatus;
  readonly location: SourceLocation;
  /** Milliseconds spent running the case. */
  readonly duration_ms: number;
  readonly skip_reason: string | null;
  readonly failures: readonly Failure[];
  /** What the case produced (null when skipped). */
  readonly got: SearchGot | SimulateGot | null;
  /** `--update` rewrote this case's `exact`. */
  readonly updated: boolean;
}

/** Why a suite file could not run (it is invalid, or an input it names cannot be loaded). */
export interface SuiteError {
  readonly message: string;
  /** Where the problem is (line 0: the file as a whole). */
  readonly location: SourceLocation;
  /** The offending line with a caret, when known. */
  readonly excerpt: string | null;
}

export interface SuiteResult {
  readonly file: string;
  readonly name: string;
  readonly catalog: string | null;
  readonly duration_ms: number;
  readonly cases: readonly CaseResult[];
  /** The suite did not run (its cases are empty): why. */
  readonly error: SuiteError | null;
  /** `--update` rewrote the file. */
  readonly updated: boolean;
}

/** The whole run. */
export interface TestReport {
  readonly suites: readonly SuiteResult[];
  readonly summary: {
    readonly total: number;
    readonly passed: number;
    readonly failed: number;
    readonly skipped: number;
    /** Suite files that could not run (invalid, or an input they name cannot be loaded). */
    readonly errors: number;
    /** Cases whose `exact` was rewritten by `--update`. */
    readonly updated: number;
    readonly duration_ms: number;
  };
}
