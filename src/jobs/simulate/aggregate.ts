/**
 * The aggregate of many simulated sessions: plain, serializable data that
 * merges. `emptyAggregate()`, `addReport(a, report)` and `mergeAggregates(a, b)`
 * are pure; every list is kept in one canonical order (counts are sums,
 * lists sorted by their key), so merging is associative and commutative and
 * any split of a run — workers, processes, machines — merges into exactly
 * the aggregate of one run. `AggregateBuilder` computes the same value in
 * place, for streams of many sessions (a test checks it against the fold).
 *
 * Beside the reference: nothing here changes a session's report. One file
 * over 400 lines on purpose: the shape, the pure operations and the builder
 * must change together (a field added to one and not the others would break
 * "a split run merges into the whole run").
 */
import { compareGo } from '../../core/text.js';
import { decodeToolSearchArgs } from '../../core/toolsearch.js';
import { InputError } from '../../io/errors.js';
import type { SimulationReport } from './report.js';

export const AGGREGATE_KIND = 'toolsearch-simulate-aggregate';
export const AGGREGATE_SCHEMA_VERSION = 1;

/** Where a session came from: a file, or one line of a JSONL file of sessions. */
export interface SessionSource {
  readonly file: string;
  /** 1-based line in a file of one session per line; null for a whole file. */
  readonly line: number | null;
}

/** A session that could not be read or simulated. */
export interface SessionFailure {
  readonly source: SessionSource;
  /** One line, `file:line:column: message` when a position is known. */
  readonly error: string;
}

/** Per tool, over all sessions (every dynamic tool of the catalogs seen, zeros included). */
export interface ToolAggregate {
  readonly name: string;
  /** Sessions where a search (client or server side) returned it. */
  readonly found_sessions: number;
  /** Sessions where it was loaded (default mode: visible at the last call; model-native: loaded by a search). */
  readonly loaded_sessions: number;
  /** Sessions where the model called it (whatever the status). */
  readonly called_sessions: number;
  /** Sessions where it was loaded and not called. */
  readonly loaded_not_called_sessions: number;
  /** Calls of it, over all sessions. */
  readonly calls: number;
  /** `not-loaded` violations for it. */
  readonly not_loaded: number;
}

export interface CountedQuery {
  readonly query: string;
  readonly count: number;
}

export interface TokenAggregate {
  /** Sessions with token accounting. */
  readonly sessions: number;
  readonly calls: number;
  readonly tools: number;
  readonly reminder: number;
  readonly loaded: number;
  readonly deferred: number;
  readonly total: number;
  readonly all_up_front: number;
  readonly saved: number;
  /** Encodings and tool formats seen (sorted; one in a single run). */
  readonly encodings: readonly string[];
  readonly tool_formats: readonly string[];
}

export interface CacheCounts {
  readonly compared: number;
  readonly hits: number;
  readonly breaks: number;
}

export interface CacheAggregate extends CacheCounts {
  readonly sessions: number;
  readonly sessions_with_breaks: number;
  /** Both modes weighed (sessions whose accounting had them). */
  readonly by_mode: { readonly sessions: number; readonly default: CacheCounts; readonly native: CacheCounts };
}

export interface Aggregate {
  readonly kind: typeof AGGREGATE_KIND;
  readonly schema_version: typeof AGGREGATE_SCHEMA_VERSION;
  /** Sessions simulated, and sessions that failed to read. */
  readonly sessions: {
    readonly replayed: number;
    readonly failed: number;
    readonly with_errors: number;
    readonly with_warnings: number;
  };
  readonly modes: { readonly default: number; readonly native: number };
  /**
   * Sessions by the engine whose loading rule replayed them (`eino`, `ai-sdk`, `mastra`: chosen by
   * `--engine` or detected from each recording; engines sorted).
   */
  readonly engines: Readonly<Record<string, number>>;
  readonly model_calls: number;
  readonly messages: number;
  readonly tool_calls: number;
  /** Warnings the recording readers gave (e.g. a tool result for an unknown call id), over all sessions. */
  readonly loader_warnings: number;
  /**
   * What the readers understood, over the replayed sessions (each session's
   * own `coverage` is in its --jsonl line; sessions that could not be read
   * at all are `sessions.failed`): items seen, read, skipped by each rule,
   * not understood or unpaired (only with --lenient), and sessions per format.
   */
  readonly coverage: {
    readonly items: number;
    readonly read: number;
    readonly unexplained: number;
    readonly unpaired: number;
    /** Items skipped, by rule (rules sorted). */
    readonly skipped: Readonly<Record<string, number>>;
    /** Sessions, by format read (formats sorted). */
    readonly formats: Readonly<Record<string, number>>;
  };
  readonly searches: {
    readonly client: number;
    readonly server: number;
    /** Searches whose result (recorded, else fresh) named no tool. */
    readonly zero_result: number;
    /** tool_search calls whose result is an error (arguments that do not decode, an empty query). */
    readonly errors: number;
    /** Recorded results that differ from a fresh run. */
    readonly differs: number;
  };
  /** The queries of zero-result searches (trimmed), most frequent first, then by Go string order. */
  readonly zero_result_queries: readonly CountedQuery[];
  /** Findings by kind, kinds sorted. */
  readonly violations: Readonly<Record<string, number>>;
  readonly tools: readonly ToolAggregate[];
  readonly tokens: TokenAggregate;
  readonly cache: CacheAggregate;
  /** Sorted by file (Go string order), then line. */
  readonly failures: readonly SessionFailure[];
}

const zeroCache = (): CacheCounts => ({ compared: 0, hits: 0, breaks: 0 });

export function emptyAggregate(): Aggregate {
  return {
    kind: AGGREGATE_KIND,
    schema_version: AGGREGATE_SCHEMA_VERSION,
    sessions: { replayed: 0, failed: 0, with_errors: 0, with_warnings: 0 },
    modes: { default: 0, native: 0 },
    engines: {},
    model_calls: 0,
    messages: 0,
    tool_calls: 0,
    loader_warnings: 0,
    coverage: { items: 0, read: 0, unexplained: 0, unpaired: 0, skipped: {}, formats: {} },
    searches: { client: 0, server: 0, zero_result: 0, errors: 0, differs: 0 },
    zero_result_queries: [],
    violations: {},
    tools: [],
    tokens: {
      sessions: 0,
      calls: 0,
      tools: 0,
      reminder: 0,
      loaded: 0,
      deferred: 0,
      total: 0,
      all_up_front: 0,
      saved: 0,
      encodings: [],
      tool_formats: [],
    },
    cache: {
      sessions: 0,
      sessions_with_breaks: 0,
      ...zeroCache(),
      by_mode: { sessions: 0, default: zeroCache(), native: zeroCache() },
    },
    failures: [],
  };
}

/** What one report contributes, before it is summed. */
interface SessionFacts {
  readonly dynamic: readonly string[];
  readonly found: ReadonlySet<string>;
  readonly loaded: ReadonlySet<string>;
  readonly calls: ReadonlyMap<string, number>;
  readonly notLoaded: ReadonlyMap<string, number>;
  readonly zeroQueries: readonly string[];
  readonly searchErrors: number;
}

function queryOf(args: string): string {
  const d = decodeToolSearchArgs(args);
  // A zero-result search decoded; keep the raw text should it not (never counted as zero-result then).
  return d.ok ? d.args.query.trim() : args;
}

function sessionFacts(report: SimulationReport, dynamicTools: readonly string[]): SessionFacts {
  const dynamic = new Set(dynamicTools);
  const found = new Set<string>();
  const calls = new Map<string, number>();
  const notLoaded = new Map<string, number>();
  const zeroQueries: string[] = [];
  let searchErrors = 0;
  for (const turn of report.turns) {
    for (const c of turn.tool_calls) if (dynamic.has(c.name)) calls.set(c.name, (calls.get(c.name) ?? 0) + 1);
    for (const s of turn.searches) {
      const got = s.recorded ?? s.replayed;
      if ('error' in got) {
        searchErrors++;
        continue;
      }
      for (const n of got.matches) if (dynamic.has(n)) found.add(n);
      if (got.matches.length === 0) zeroQueries.push(queryOf(s.arguments));
    }
    for (const s of turn.server_searches) {
      for (const n of s.loaded) if (dynamic.has(n)) found.add(n);
      if (s.loaded.length === 0) zeroQueries.push(s.query.trim());
    }
  }
  for (const v of report.violations) {
    if (v.kind === 'not-loaded' && v.tool !== null) notLoaded.set(v.tool, (notLoaded.get(v.tool) ?? 0) + 1);
  }
  let loaded: Set<string>;
  if (report.mode === 'native') loaded = found;
  else {
    const last = report.turns[report.turns.length - 1];
    loaded = new Set((last?.visible ?? []).filter((n) => dynamic.has(n)));
  }
  return { dynamic: dynamicTools, found, loaded, calls, notLoaded, zeroQueries, searchErrors };
}

function sortedUnion(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort(compareGo);
}

function compareSource(a: SessionSource, b: SessionSource): number {
  return compareGo(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0);
}

function compareQueries(a: CountedQuery, b: CountedQuery): number {
  return b.count - a.count || compareGo(a.query, b.query);
}

function addCache(a: CacheCounts, b: CacheCounts): CacheCounts {
  return { compared: a.compared + b.compared, hits: a.hits + b.hits, breaks: a.breaks + b.breaks };
}

/**
 * The in-place form: the same sums in maps, for a stream of sessions.
 * `value()` returns the plain aggregate (a new object each time).
 */
export class AggregateBuilder {
  private readonly a: { -readonly [K in keyof Aggregate]: Aggregate[K] } = emptyAggregate();
  private readonly queries = new Map<string, number>();
  private readonly violationKinds = new Map<string, number>();
  private readonly skipRules = new Map<string, number>();
  private readonly formats = new Map<string, number>();
  private readonly engineCounts = new Map<string, number>();
  private readonly toolStats = new Map<string, { -readonly [K in keyof ToolAggregate]: ToolAggregate[K] }>();
  private readonly encodings = new Set<string>();
  private readonly toolFormats = new Set<string>();
  private readonly failureList: SessionFailure[] = [];

  constructor(start?: Aggregate) {
    if (start) this.merge(start);
  }

  private tool(name: string): { -readonly [K in keyof ToolAggregate]: ToolAggregate[K] } {
    let t = this.toolStats.get(name);
    if (!t) {
      t = {
        name,
        found_sessions: 0,
        loaded_sessions: 0,
        called_sessions: 0,
        loaded_not_called_sessions: 0,
        calls: 0,
        not_loaded: 0,
      };
      this.toolStats.set(name, t);
    }
    return t;
  }

  /**
   * Adds one simulated session; `dynamicTools` are the names of its catalog's
   * dynamic tools, `loaderWarnings` the number of warnings reading it gave.
   */
  add(report: SimulationReport, dynamicTools: readonly string[], loaderWarnings = 0): this {
    const f = sessionFacts(report, dynamicTools);
    const a = this.a;
    const s = report.summary;
    a.sessions = {
      ...a.sessions,
      replayed: a.sessions.replayed + 1,
      with_errors: a.sessions.with_errors + (s.errors > 0 ? 1 : 0),
      with_warnings: a.sessions.with_warnings + (s.warnings > 0 ? 1 : 0),
    };
    a.modes = { ...a.modes, [report.mode]: a.modes[report.mode] + 1 };
    this.engineCounts.set(report.engine.name, (this.engineCounts.get(report.engine.name) ?? 0) + 1);
    a.model_calls += s.calls;
    a.messages += report.transcript.messages;
    a.tool_calls += report.turns.reduce((n, t) => n + t.tool_calls.length, 0);
    a.loader_warnings += loaderWarnings;
    const c = report.coverage;
    if (c) {
      a.coverage = {
        ...a.coverage,
        items: a.coverage.items + c.items,
        read: a.coverage.read + c.read,
        unexplained: a.coverage.unexplained + c.unexplained.length,
        unpaired: a.coverage.unpaired + c.unpaired.length,
      };
      for (const r of c.skipped) this.skipRules.set(r.rule, (this.skipRules.get(r.rule) ?? 0) + r.count);
      this.formats.set(c.format, (this.formats.get(c.format) ?? 0) + 1);
    }
    a.searches = {
      client: a.searches.client + s.searches,
      server: a.searches.server + s.server_searches,
      zero_result: a.searches.zero_result + f.zeroQueries.length,
      errors: a.searches.errors + f.searchErrors,
      differs: a.searches.differs + report.turns.reduce((n, t) => n + t.searches.filter((x) => x.differs).length, 0),
    };
    for (const q of f.zeroQueries) this.queries.set(q, (this.queries.get(q) ?? 0) + 1);
    for (const v of report.violations) this.violationKinds.set(v.kind, (this.violationKinds.get(v.kind) ?? 0) + 1);
    for (const name of f.dynamic) {
      const t = this.tool(name);
      const called = f.calls.get(name) ?? 0;
      if (f.found.has(name)) t.found_sessions++;
      if (f.loaded.has(name)) t.loaded_sessions++;
      if (called > 0) t.called_sessions++;
      if (f.loaded.has(name) && called === 0) t.loaded_not_called_sessions++;
      t.calls += called;
      t.not_loaded += f.notLoaded.get(name) ?? 0;
    }
    const tokens = s.tokens;
    if (tokens) {
      const t = a.tokens;
      a.tokens = {
        sessions: t.sessions + 1,
        calls: t.calls + tokens.calls,
        tools: t.tools + tokens.tools,
        reminder: t.reminder + tokens.reminder,
        loaded: t.loaded + tokens.loaded,
        deferred: t.deferred + tokens.deferred,
        total: t.total + tokens.total,
        all_up_front: t.all_up_front + tokens.all_up_front,
        saved: t.saved + tokens.saved,
        encodings: [],
        tool_formats: [],
      };
      this.encodings.add(tokens.encoding);
      this.toolFormats.add(tokens.tool_format);
    }
    const cache = s.cache;
    if (cache) {
      const c = a.cache;
      const byMode = cache.by_mode;
      a.cache = {
        sessions: c.sessions + 1,
        sessions_with_breaks: c.sessions_with_breaks + (cache.breaks > 0 ? 1 : 0),
        ...addCache(c, cache),
        by_mode: byMode
          ? {
              sessions: c.by_mode.sessions + 1,
              default: addCache(c.by_mode.default, byMode.default),
              native: addCache(c.by_mode.native, byMode.native),
            }
          : c.by_mode,
      };
    }
    return this;
  }

  /** Adds a session that could not be read or simulated. */
  addFailure(failure: SessionFailure): this {
    this.a.sessions = { ...this.a.sessions, failed: this.a.sessions.failed + 1 };
    this.failureList.push({ source: { file: failure.source.file, line: failure.source.line }, error: failure.error });
    return this;
  }

  /** Adds a whole aggregate (a part built elsewhere). */
  merge(b: Aggregate): this {
    const a = this.a;
    a.sessions = {
      replayed: a.sessions.replayed + b.sessions.replayed,
      failed: a.sessions.failed + b.sessions.failed,
      with_errors: a.sessions.with_errors + b.sessions.with_errors,
      with_warnings: a.sessions.with_warnings + b.sessions.with_warnings,
    };
    a.modes = { default: a.modes.default + b.modes.default, native: a.modes.native + b.modes.native };
    for (const [k, n] of Object.entries(b.engines)) this.engineCounts.set(k, (this.engineCounts.get(k) ?? 0) + n);
    a.model_calls += b.model_calls;
    a.messages += b.messages;
    a.tool_calls += b.tool_calls;
    a.loader_warnings += b.loader_warnings;
    a.coverage = {
      ...a.coverage,
      items: a.coverage.items + b.coverage.items,
      read: a.coverage.read + b.coverage.read,
      unexplained: a.coverage.unexplained + b.coverage.unexplained,
      unpaired: a.coverage.unpaired + b.coverage.unpaired,
    };
    for (const [k, n] of Object.entries(b.coverage.skipped)) this.skipRules.set(k, (this.skipRules.get(k) ?? 0) + n);
    for (const [k, n] of Object.entries(b.coverage.formats)) this.formats.set(k, (this.formats.get(k) ?? 0) + n);
    a.searches = {
      client: a.searches.client + b.searches.client,
      server: a.searches.server + b.searches.server,
      zero_result: a.searches.zero_result + b.searches.zero_result,
      errors: a.searches.errors + b.searches.errors,
      differs: a.searches.differs + b.searches.differs,
    };
    for (const q of b.zero_result_queries) this.queries.set(q.query, (this.queries.get(q.query) ?? 0) + q.count);
    for (const [k, n] of Object.entries(b.violations))
      this.violationKinds.set(k, (this.violationKinds.get(k) ?? 0) + n);
    for (const bt of b.tools) {
      const t = this.tool(bt.name);
      t.found_sessions += bt.found_sessions;
      t.loaded_sessions += bt.loaded_sessions;
      t.called_sessions += bt.called_sessions;
      t.loaded_not_called_sessions += bt.loaded_not_called_sessions;
      t.calls += bt.calls;
      t.not_loaded += bt.not_loaded;
    }
    const t = a.tokens;
    a.tokens = {
      sessions: t.sessions + b.tokens.sessions,
      calls: t.calls + b.tokens.calls,
      tools: t.tools + b.tokens.tools,
      reminder: t.reminder + b.tokens.reminder,
      loaded: t.loaded + b.tokens.loaded,
      deferred: t.deferred + b.tokens.deferred,
      total: t.total + b.tokens.total,
      all_up_front: t.all_up_front + b.tokens.all_up_front,
      saved: t.saved + b.tokens.saved,
      encodings: [],
      tool_formats: [],
    };
    for (const e of b.tokens.encodings) this.encodings.add(e);
    for (const e of b.tokens.tool_formats) this.toolFormats.add(e);
    const c = a.cache;
    a.cache = {
      sessions: c.sessions + b.cache.sessions,
      sessions_with_breaks: c.sessions_with_breaks + b.cache.sessions_with_breaks,
      ...addCache(c, b.cache),
      by_mode: {
        sessions: c.by_mode.sessions + b.cache.by_mode.sessions,
        default: addCache(c.by_mode.default, b.cache.by_mode.default),
        native: addCache(c.by_mode.native, b.cache.by_mode.native),
      },
    };
    for (const f of b.failures) this.failureList.push(f);
    return this;
  }

  /** The aggregate so far, in canonical order. */
  value(): Aggregate {
    const value = this.plain();
    const past = inexactCount(value, '');
    if (past !== null)
      throw new InputError(
        `the merged count ${past.path} would be more than ${Number.MAX_SAFE_INTEGER} (2^53 − 1), past which counts ` +
          'are not exact: these aggregates cannot be merged',
      );
    return value;
  }

  private plain(): Aggregate {
    const violations: Record<string, number> = Object.create(null) as Record<string, number>;
    for (const k of [...this.violationKinds.keys()].sort(compareGo)) violations[k] = this.violationKinds.get(k)!;
    const sorted = (m: Map<string, number>): Record<string, number> => {
      const out = Object.create(null) as Record<string, number>;
      for (const k of [...m.keys()].sort(compareGo)) out[k] = m.get(k)!;
      return { ...out };
    };
    return {
      ...this.a,
      engines: sorted(this.engineCounts),
      coverage: { ...this.a.coverage, skipped: sorted(this.skipRules), formats: sorted(this.formats) },
      zero_result_queries: [...this.queries].map(([query, count]) => ({ query, count })).sort(compareQueries),
      violations: { ...violations },
      tools: [...this.toolStats.values()].map((t) => ({ ...t })).sort((x, y) => compareGo(x.name, y.name)),
      tokens: {
        ...this.a.tokens,
        encodings: sortedUnion([...this.encodings], []),
        tool_formats: sortedUnion([...this.toolFormats], []),
      },
      failures: [...this.failureList].sort((x, y) => compareSource(x.source, y.source) || compareGo(x.error, y.error)),
    };
  }
}

/**
 * The first number of `v` past 2^53 − 1, with its path. Every count is a sum of counts ≥ 0, so a sum that went
 * past it anywhere (where adding stops being exact, and merging stops being associative) leaves its total past it
 * too: checking the result is enough.
 */
function inexactCount(v: unknown, path: string): { path: string } | null {
  if (typeof v === 'number') return v > Number.MAX_SAFE_INTEGER ? { path } : null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = inexactCount(v[i], `${path}[${i}]`);
      if (r) return r;
    }
    return null;
  }
  if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const r = inexactCount(x, path === '' ? k : `${path}.${k}`);
      if (r) return r;
    }
  }
  return null;
}

/** The aggregate with one more session (pure). */
export function addReport(
  a: Aggregate,
  report: SimulationReport,
  dynamicTools: readonly string[],
  loaderWarnings = 0,
): Aggregate {
  return new AggregateBuilder(a).add(report, dynamicTools, loaderWarnings).value();
}

/** The aggregate with one more failed session (pure). */
export function addFailure(a: Aggregate, failure: SessionFailure): Aggregate {
  return new AggregateBuilder(a).addFailure(failure).value();
}

/** Two aggregates as one (pure, associative and commutative). */
export function mergeAggregates(a: Aggregate, b: Aggregate): Aggregate {
  return new AggregateBuilder(a).merge(b).value();
}

/** Derived views for renderers: nothing here is stored, so merging never has to agree on them. */
export function aggregateViews(a: Aggregate): {
  readonly loadedNeverCalled: readonly ToolAggregate[];
  readonly neverFound: readonly string[];
  readonly notLoadedByTool: ReadonlyArray<{ readonly tool: string; readonly count: number }>;
  readonly savedPercent: number;
} {
  return {
    loadedNeverCalled: a.tools.filter((t) => t.loaded_sessions > 0 && t.called_sessions === 0),
    neverFound: a.tools.filter((t) => t.found_sessions === 0).map((t) => t.name),
    notLoadedByTool: a.tools
      .filter((t) => t.not_loaded > 0)
      .map((t) => ({ tool: t.name, count: t.not_loaded }))
      .sort((x, y) => y.count - x.count || compareGo(x.tool, y.tool)),
    savedPercent: a.tokens.all_up_front > 0 ? Math.round((a.tokens.saved / a.tokens.all_up_front) * 1000) / 10 : 0,
  };
}
