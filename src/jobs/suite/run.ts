/**
 * The suite runner: loads what the suites reference (catalogs, transcripts),
 * runs every case through the core (search, select) or the simulation
 * engine, checks the expectations, and returns a {@link TestRun}: the
 * report, and the suite texts `--update` rewrites (the CLI writes them).
 *
 * Everything a suite names is loaded and validated before its first case
 * runs: a suite that is invalid (or names an input that cannot be loaded) is
 * reported as an errored suite, never run in part, and the others still run.
 *
 * Over 400 lines because loading, running and updating share the loaded
 * suites' documents and positions (every failure points into them); the
 * checks (check.ts), parsing (parse.ts) and the text edits (update.ts) live
 * apart.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  createMiddleware,
  MiddlewareConfigError,
  runToolSearch,
  searchDecoded,
  TOOL_SEARCH_NAME,
  type ToolIndex,
  type ToolSearchOutcome,
} from '../../core/index.js';
import type { JsonValue } from '../../core/types.js';
import { InputError, quote } from '../../io/errors.js';
import { loadCatalogFiles, loadTranscriptFile } from '../../formats/index.js';
import { errorAt, type ParsedDocument, toJsonValue } from '../../io/nodes.js';
import { parseFile, parseText } from '../../io/parse.js';
import type { Limits } from '../../io/read.js';
import type { Catalog, Transcript, TranscriptFormat } from '../../formats/types.js';
import { catalogInputs } from '../../formats/mcp/catalog-inputs.js';
import { isLiveSpec, isMcpSpec } from '../../formats/mcp/catalog-spec.js';
import { simulate } from '../simulate/engine.js';
import * as engineArgs from '../search/engine-args.js';
import { checkResult, checkSimulation } from './check.js';
import { editDistance } from '../../io/edit-distance.js';
import { SuiteParser } from './parse.js';
import { createEngine, type EngineOutcome, type MastraEngine, type SearchEngine } from '../../core/engines/index.js';
import { openEngine, type OpenEngine } from '../engines/engine.js';
import { chooseEngine } from '../simulate/engines.js';
import type {
  CaseResult,
  CatalogRef,
  EngineRef,
  ToolStanding,
  Failure,
  ListAt,
  NameRef,
  SearchGot,
  SimulateCase,
  Suite,
  SuiteCase,
  SuiteError,
  SuiteResult,
  TestReport,
} from './types.js';
import type { RunInput } from '../../io/output.js';
import { applyExactUpdates, type ExactUpdate } from './update.js';

export interface RunOptions {
  /** Write the current results into `exact` of `record: true` cases. */
  readonly update?: boolean;
  readonly limits?: Partial<Limits>;
  /**
   * Time allowed per live MCP server of an `mcp:` catalog, in milliseconds (default 30 000; {@link runSuitesAsync}
   * only).
   */
  readonly mcpTimeoutMs?: number;
  /**
   * Told of every file the run reads, as soon as it is known: each suite
   * before it is read, then the catalog files and transcripts it names, all
   * before any server starts or case runs. The CLI checks its outputs here
   * (src/io/output.ts); an error thrown stops the run.
   */
  readonly onInput?: (input: RunInput) => void;
  /** Catalog files (or specs, as `-c` takes them) every case with a catalog uses instead of its own (`test -c`). */
  readonly catalog?: readonly string[];
  /** Only the cases whose name matches (`test --grep`); suites with none are left out. */
  readonly grep?: RegExp;
  /** `test --engine`: the engine of every case that names none (its suite neither). */
  readonly engine?: EngineRef;
  /** How module engines run (their timeout; {@link runSuitesAsync} only). */
  readonly engineTimeoutMs?: number;
}

/** What module engines answered, by case (computed by {@link runSuitesAsync} before the cases run). */
type ModuleAnswers = Map<SuiteCase, EngineOutcome | InputError>;

/** A suite file that could not be read, kept as an error for the report. */
interface InvalidSuite {
  readonly file: string;
  readonly error: InputError;
}

/** A suite file's new text, written by `--update` (the host writes it: an engine writes no files). */
export interface SuiteRewrite {
  readonly file: string;
  readonly text: string;
}

/** What a run returns: the report, and the suite files `--update` rewrites. */
export interface TestRun {
  readonly report: TestReport;
  readonly rewrites: readonly SuiteRewrite[];
}

/** A catalog ready for cases: the loaded data and the reference's index over its dynamic tools. */
interface LoadedCatalog {
  readonly catalog: Catalog;
  readonly index: ToolIndex;
}

/** A suite and the document it was read from (for located errors and `--update`). */
export interface LoadedSuite {
  readonly suite: Suite;
  readonly doc: ParsedDocument;
}

/** Loads inputs once per run, whoever asks for them. */
class Inputs {
  private readonly catalogs = new Map<string, LoadedCatalog>();
  private readonly transcripts = new Map<string, Transcript>();
  /** Catalogs with live MCP servers, read before the run (see {@link readServers}). */
  private readonly live = new Map<string, Catalog>();

  constructor(private readonly limits: Partial<Limits> | undefined) {}

  private static key(ref: CatalogRef): string {
    return JSON.stringify([ref.files, ref.format, ref.prefix]);
  }

  /**
   * Reads every catalog of the cases that names a live MCP server (`mcp:`),
   * through the loader `-c mcp:…` uses; servers run in parallel, each one
   * ended before this returns. A failure is reported at the reference in
   * the first suite that names it.
   */
  async readServers(loaded: readonly LoadedSuite[], timeoutMs: number | undefined): Promise<void> {
    const wanted = new Map<string, { ref: CatalogRef; doc: ParsedDocument }>();
    for (const { suite, doc } of loaded) {
      for (const c of suite.cases) {
        const ref = c.catalog;
        if (ref && !wanted.has(Inputs.key(ref)) && !this.live.has(Inputs.key(ref)) && this.isLive(ref))
          wanted.set(Inputs.key(ref), { ref, doc });
      }
    }
    if (wanted.size === 0) return;
    const { loadCatalogSpecs } = await import('../../formats/mcp/catalog-spec.js');
    const entries = [...wanted];
    const settled = await Promise.allSettled(
      entries.map(([, { ref }]) =>
        loadCatalogSpecs(ref.files, {
          format: ref.format,
          ...(ref.prefix !== null ? { prefix: ref.prefix } : {}),
          ...(this.limits ? { limits: this.limits } : {}),
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        }),
      ),
    );
    for (const [i, r] of settled.entries()) {
      const [key, { ref, doc }] = entries[i]!;
      if (r.status === 'fulfilled') this.live.set(key, r.value);
      else {
        // Reported by every suite that names it (see `catalog`), the others still run.
        try {
          atReference(doc, ref.offset, 'catalog', () => {
            throw r.reason;
          });
        } catch (err) {
          this.failedLive.set(key, err);
        }
      }
    }
  }

  private readonly liveRefs = new Map<string, boolean>();
  /** Live catalogs that failed to load, by reference. */
  private readonly failedLive = new Map<string, unknown>();

  /** Whether a catalog reference names a live server (mcp:, or an MCP client config), looked at once per reference. */
  private isLive(ref: CatalogRef): boolean {
    const key = Inputs.key(ref);
    let live = this.liveRefs.get(key);
    if (live === undefined) this.liveRefs.set(key, (live = ref.files.some(isLiveSpec)));
    return live;
  }

  catalog(ref: CatalogRef, doc: ParsedDocument): LoadedCatalog {
    const key = Inputs.key(ref);
    let c = this.catalogs.get(key);
    if (!c) {
      let catalog: Catalog;
      if (this.isLive(ref)) {
        if (this.failedLive.has(key)) throw this.failedLive.get(key);
        const live = this.live.get(key);
        if (!live)
          throw errorAt(
            doc,
            ref.offset,
            'cannot load the catalog: a live MCP server (mcp:) is read by runSuitesAsync, not runSuites',
          );
        catalog = live;
      } else {
        catalog = atReference(doc, ref.offset, 'catalog', () =>
          loadCatalogFiles(ref.files, {
            format: ref.format,
            ...(ref.prefix !== null ? { prefix: ref.prefix } : {}),
            ...(this.limits ? { limits: this.limits } : {}),
          }),
        );
      }
      let index: ToolIndex;
      try {
        index = createMiddleware({ dynamicTools: catalog.tools.filter((t) => !t.static) }).index;
      } catch (err) {
        // "tools is required": the reference refuses a catalog without dynamic tools.
        if (err instanceof MiddlewareConfigError)
          throw errorAt(doc, ref.offset, `${ref.files.join(', ')}: ${err.message}`);
        throw err;
      }
      c = { catalog, index };
      this.catalogs.set(key, c);
    }
    return c;
  }

  transcript(file: string, format: TranscriptFormat | 'auto', doc: ParsedDocument, offset: number): Transcript {
    const key = JSON.stringify([file, format]);
    let t = this.transcripts.get(key);
    if (!t) {
      t = atReference(doc, offset, 'transcript', () =>
        loadTranscriptFile(file, { format, ...(this.limits ? { limits: this.limits } : {}) }),
      );
      this.transcripts.set(key, t);
    }
    return t;
  }
}

/** Up to 3 known names close to `name` (same up to case, or a few edits away). */
function suggestion(name: string, known: ReadonlySet<string>): string {
  const lower = name.toLowerCase();
  const limit = Math.max(1, Math.min(3, Math.floor(name.length / 5)));
  const near = [...known]
    .map((k) => ({
      k,
      d:
        k.toLowerCase() === lower
          ? 0
          : Math.abs(k.length - name.length) > limit
            ? Infinity
            : editDistance(lower, k.toLowerCase()),
    }))
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((x) => x.k);
  return near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : '';
}

/**
 * A referenced file that cannot be read at all (missing, a directory, empty)
 * is reported at the reference in the suite; a problem inside the file keeps
 * its own position, which says more.
 */
function atReference<T>(doc: ParsedDocument, offset: number, what: string, load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (err instanceof InputError && (err.location === undefined || err.location.line === 0)) {
      throw errorAt(doc, offset, `cannot load the ${what}: ${err.headline}`);
    }
    throw err;
  }
}

/** A tool name an expectation writes, with the expectation's key. */
interface NamedIn {
  readonly key: string;
  readonly ref: NameRef;
}

/**
 * Why `name` is not one of `known`: a static tool (never searched), or no
 * tool of `catalog` (`the catalog`, `the candidate catalog (-c)`) at all, with did-you-mean.
 */
function unknownName(
  name: string,
  known: ReadonlySet<string>,
  staticNames: ReadonlySet<string>,
  catalog = 'the catalog',
): string {
  return staticNames.has(name)
    ? `${quote(name)} is a static tool${catalog === 'the catalog' ? '' : ` of ${catalog}`}; ` +
        'static tools are never searched'
    : `${quote(name)} is not a tool of ${catalog}${suggestion(name, known)}`;
}

/**
 * Tool names in expectations must exist: a typo in `excludes` would
 * otherwise pass forever. The error points at the name in the suite.
 */
function checkNames(
  doc: ParsedDocument,
  refs: readonly NamedIn[],
  known: ReadonlySet<string>,
  where: string,
  staticNames: ReadonlySet<string>,
): void {
  for (const { ref: r } of refs) {
    if (known.has(r.name)) continue;
    throw errorAt(doc, r.offset, `${where}: ${unknownName(r.name, known, staticNames)}`);
  }
}

/**
 * `test -c`: a name the suite expects that the candidate catalog does not
 * have is no error in the suite (it names a tool of its own catalog) but an
 * expectation that does not hold against the candidate: one failure per
 * name, and the case still runs (its other expectations are checked as usual).
 */
function candidateFailures(
  refs: readonly NamedIn[],
  known: ReadonlySet<string>,
  staticNames: ReadonlySet<string>,
): Failure[] {
  const out: Failure[] = [];
  const seen = new Set<string>();
  for (const { key, ref } of refs) {
    if (known.has(ref.name) || seen.has(`${key}\u0000${ref.name}`)) continue;
    seen.add(`${key}\u0000${ref.name}`);
    out.push({
      expectation: key,
      message: unknownName(ref.name, known, staticNames, 'the candidate catalog (-c)'),
      expected: ref.name,
      actual: null,
      standings: [],
      notes: [],
    });
  }
  return out;
}

function expectationNames(c: SuiteCase): NamedIn[] {
  const tag = (key: string, refs: readonly NameRef[] | undefined): NamedIn[] =>
    (refs ?? []).map((ref) => ({ key, ref }));
  if (c.kind === 'simulate') {
    const lists = (key: string, at: readonly ListAt[]): NamedIn[] =>
      at.flatMap((l) => [...tag(key, l.includes), ...tag(key, l.excludes), ...tag(key, l.exact)]);
    return [...lists('visible_at', c.expect.visible_at), ...lists('deferred_at', c.expect.deferred_at)];
  }
  const e = c.expect;
  // A recorded `exact` may name tools that were renamed since: it fails (or --update rewrites it).
  return [
    ...tag('includes', e.includes),
    ...tag('excludes', e.excludes),
    ...(c.record ? [] : tag('exact', e.exact)),
    ...tag('first', e.first ? [e.first] : []),
    ...tag(
      'rank_at_most',
      (e.rank_at_most ?? []).map((r) => r.tool),
    ),
  ];
}

/** A case with everything it needs loaded. */
type Prepared =
  | {
      readonly kind: 'result';
      readonly c: Exclude<SuiteCase, SimulateCase>;
      readonly cat: LoadedCatalog;
      /** `test -c`: the names the candidate catalog lacks, as failures. */
      readonly missing: readonly Failure[];
    }
  | {
      readonly kind: 'simulate';
      readonly c: SimulateCase;
      readonly cat: LoadedCatalog | null;
      readonly transcript: Transcript;
      readonly missing: readonly Failure[];
    };

/**
 * Loads what each case needs. `candidate`: the catalogs are `test -c`'s, so
 * a name the catalog lacks is a failure of the case, not an invalid suite.
 */
function prepare(inputs: Inputs, { suite, doc }: LoadedSuite, candidate: boolean): Prepared[] {
  return suite.cases.map((c): Prepared => {
    const where = `case ${quote(c.name)}`;
    if (c.kind !== 'simulate') {
      const cat = inputs.catalog(c.catalog!, doc);
      const dynamic = new Set(cat.index.tools().map((t) => t.name));
      const statics = new Set(cat.catalog.tools.filter((t) => t.static).map((t) => t.name));
      if (candidate)
        return { kind: 'result', c, cat, missing: candidateFailures(expectationNames(c), dynamic, statics) };
      checkNames(doc, expectationNames(c), dynamic, where, statics);
      return { kind: 'result', c, cat, missing: [] };
    }
    const cat = c.catalog ? inputs.catalog(c.catalog, doc) : null;
    const transcript = inputs.transcript(c.transcript, c.format, doc, c.transcriptOffset);
    const tools = cat ? cat.catalog.tools : transcript.tools;
    if (!tools)
      throw errorAt(
        doc,
        c.offset,
        `${where}: no catalog, and ${c.transcript} carries no tools: add "catalog:" to the suite or the case`,
      );
    const all = new Set(tools.map((t) => t.name));
    const statics = c.static.map((ref) => ({ key: 'static', ref }));
    if (candidate && cat) {
      // The case's static names the candidate lacks are failures too (and are left out of the replay).
      const missing = candidateFailures(statics, all, new Set());
      all.add(TOOL_SEARCH_NAME);
      missing.push(...candidateFailures(expectationNames(c), all, new Set()));
      return { kind: 'simulate', c, cat, transcript, missing };
    }
    checkNames(doc, statics, all, `${where}, static`, new Set());
    all.add(TOOL_SEARCH_NAME);
    checkNames(doc, expectationNames(c), all, where, new Set());
    return { kind: 'simulate', c, cat, transcript, missing: [] };
  });
}

function searchGot(outcome: ToolSearchOutcome, index: ToolIndex): SearchGot {
  if (!outcome.ok)
    return {
      engine: 'eino',
      mode: 'error',
      query: null,
      max_results: null,
      matches: [],
      scores: null,
      total_matches: null,
      error: outcome.error,
    };
  if (outcome.mode === 'select') {
    return {
      engine: 'eino',
      mode: 'select',
      query: outcome.query,
      max_results: null,
      matches: [...outcome.matches],
      scores: null,
      total_matches: null,
      error: null,
    };
  }
  return {
    engine: 'eino',
    mode: 'keyword',
    query: outcome.query,
    max_results: outcome.maxResults,
    matches: [...outcome.matches],
    scores: outcome.results.map((r) => r.score),
    total_matches: index.rankAll(outcome.keywords).length,
    error: null,
  };
}

function sameList(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((n, i) => n === b[i]);
}

/** The engine of a case: its own, its suite's, `test --engine`'s, or none (the reference). */
function engineOf(c: SuiteCase, options: RunOptions): EngineRef | null {
  if (c.engine !== null) return c.engine;
  const given = options.engine ?? null;
  // `test --engine ai-sdk` (or a module): its select cases stay the reference's, as those engines have no
  // direct selection; a simulation replays a built-in engine's rule only.
  if (given !== null && c.kind === 'select' && !(given.spec.kind === 'builtin' && given.spec.id === 'mastra'))
    return null;
  if (given !== null && c.kind === 'simulate' && given.spec.kind === 'module') return null;
  return given;
}

/** Built-in engines over a catalog's dynamic tools, built once per run, catalog and parameters. */
type EngineCache = Map<LoadedCatalog, Map<string, SearchEngine>>;

function builtinEngine(engines: EngineCache, cat: LoadedCatalog, ref: EngineRef): SearchEngine {
  let byKey = engines.get(cat);
  if (!byKey) engines.set(cat, (byKey = new Map()));
  const key = JSON.stringify([ref.name, ref.params]);
  let e = byKey.get(key);
  if (!e && ref.spec.kind === 'builtin') {
    e = createEngine(ref.spec.id, cat.index.tools(), ref.params);
    byKey.set(key, e);
  }
  return e!;
}

/**
 * A search or select case run by another engine: its outcome in the reference's shape (for the checks),
 * what it got, and where each tool stands in that engine's ranking.
 */
function runEngineCase(
  rc: Exclude<SuiteCase, SimulateCase>,
  cat: LoadedCatalog,
  ref: EngineRef,
  answers: ModuleAnswers | undefined,
  engines: EngineCache,
): { outcome: ToolSearchOutcome; got: SearchGot; standing: (name: string) => ToolStanding } {
  const none = (name: string, status: ToolStanding['status']): ToolStanding => ({
    name,
    status,
    rank: null,
    score: null,
    excluded_by: null,
  });
  if (rc.kind === 'select') {
    const mastra = builtinEngine(engines, cat, ref) as MastraEngine;
    const { output, loaded } = mastra.loadTool({ toolNames: rc.names }, new Set());
    const outcome: ToolSearchOutcome = {
      ok: true,
      mode: 'select',
      query: `load_tool ${JSON.stringify({ toolNames: rc.names })}`,
      requestedMaxResults: null,
      requested: [...rc.names],
      unknown: [...(output.notFound ?? [])],
      matches: loaded,
    };
    const got: SearchGot = {
      engine: ref.name,
      mode: 'select',
      query: outcome.query,
      max_results: null,
      matches: loaded,
      scores: null,
      total_matches: null,
      error: null,
    };
    const standing = (name: string): ToolStanding => {
      const at = loaded.indexOf(name);
      return at >= 0 ? { ...none(name, 'selected'), rank: at + 1 } : none(name, 'not-selected');
    };
    return { outcome, got, standing };
  }
  let query: string;
  if ('args' in rc.input) {
    const { decodeEngineArgs } = engineArgs;
    const d = decodeEngineArgs(ref.name, rc.input.args);
    if (!d.ok) {
      const outcome: ToolSearchOutcome = { ok: false, error: d.error };
      return {
        outcome,
        got: {
          engine: ref.name,
          mode: 'error',
          query: null,
          max_results: null,
          matches: [],
          scores: null,
          total_matches: null,
          error: d.error,
        },
        standing: (name) => none(name, 'no-result'),
      };
    }
    query = d.query;
  } else query = rc.input.query;
  const builtin = ref.spec.kind === 'builtin' ? builtinEngine(engines, cat, ref) : null;
  const limit = 'query' in rc.input && rc.input.maxResults !== null ? rc.input.maxResults : null;
  let answer: EngineOutcome | InputError;
  if (builtin) answer = limit === null ? builtin.search(query) : builtin.searchWithLimit(query, limit);
  else {
    const a = answers?.get(rc);
    if (a === undefined)
      throw new InputError(`${ref.name}: a module engine runs in toolsearch test (the asynchronous runner)`);
    answer = a;
  }
  if (answer instanceof InputError) throw answer;
  if (!answer.ok) {
    return {
      outcome: answer,
      got: {
        engine: ref.name,
        mode: 'error',
        query,
        max_results: null,
        matches: [],
        scores: null,
        total_matches: null,
        error: answer.error,
      },
      standing: (name) => none(name, 'no-result'),
    };
  }
  const ok = answer;
  const outcome: ToolSearchOutcome = {
    ok: true,
    mode: 'keyword',
    query,
    requestedMaxResults: limit,
    maxResults: ok.limit,
    keywords: [],
    matches: ok.matches,
    results: ok.matches.map((name, i) => ({ name, score: ok.scores?.[i] ?? 0 })),
  };
  const got: SearchGot = {
    engine: ref.name,
    mode: 'keyword',
    query,
    max_results: ok.limit,
    matches: [...ok.matches],
    scores: ok.scores === null ? null : [...ok.scores],
    total_matches: ok.total,
    error: null,
  };
  let ranking: ReadonlyArray<{ name: string; score: number }> | null = null;
  const standing = (name: string): ToolStanding => {
    const at = ok.matches.indexOf(name);
    if (at >= 0) return { name, status: 'returned', rank: at + 1, score: ok.scores?.[at] ?? null, excluded_by: null };
    if (builtin === null) return none(name, 'no-match');
    ranking ??= builtin.rankAll(query);
    const r = ranking.findIndex((h) => h.name === name);
    if (r < 0) return { ...none(name, 'no-match'), score: 0 };
    return { name, status: 'beyond-limit', rank: r + 1, score: ranking[r]!.score, excluded_by: null };
  };
  return { outcome, got, standing };
}

function runCase(
  p: Prepared,
  update: boolean,
  options: RunOptions = {},
  answers?: ModuleAnswers,
  engines: EngineCache = new Map(),
): { result: CaseResult; update: ExactUpdate | null } {
  const { c } = p;
  const base = { name: c.name, kind: c.kind, location: c.location };
  if (c.skip !== null) {
    return {
      result: {
        ...base,
        status: 'skipped',
        skip_reason: c.skip,
        duration_ms: 0,
        failures: [],
        got: null,
        updated: false,
      },
      update: null,
    };
  }
  const start = performance.now();
  if (p.kind === 'simulate') {
    const lacking = new Set(p.missing.filter((f) => f.expectation === 'static').map((f) => f.expected));
    const ref = engineOf(p.c, options);
    const chosen = chooseEngine(ref?.spec.kind === 'builtin' ? ref.spec.id : undefined, p.transcript);
    const report = simulate({
      transcript: p.transcript,
      catalog: p.cat ? p.cat.catalog : null,
      engine: chosen.engine,
      ...(ref !== null ? { engineParams: ref.params } : {}),
      engineChoice: { by: chosen.by, evidence: chosen.evidence },
      mode: p.c.mode,
      staticNames: p.c.static.map((s) => s.name).filter((n) => !lacking.has(n)),
      replay: p.c.expect.same_as_recorded,
    });
    const failures = [...p.missing, ...checkSimulation(p.c, report)];
    const got = {
      engine: report.engine.name,
      mode: report.mode,
      calls: report.summary.calls,
      errors: report.summary.errors,
      warnings: report.summary.warnings,
      replay_differences: report.replay ? report.replay.differences : null,
    };
    return {
      result: {
        ...base,
        status: failures.length > 0 ? 'failed' : 'passed',
        skip_reason: null,
        duration_ms: performance.now() - start,
        failures,
        got,
        updated: false,
      },
      update: null,
    };
  }
  const rc = p.c;
  const index = p.cat.index;
  const ref = engineOf(rc, options);
  const other = ref !== null && !(ref.spec.kind === 'builtin' && ref.spec.id === 'eino');
  const viaEngine = other ? runEngineCase(rc, p.cat, ref, answers, engines) : null;
  const outcome =
    viaEngine !== null
      ? viaEngine.outcome
      : rc.kind === 'select'
        ? searchDecoded(index, { query: `select:${rc.names.join(',')}`, maxResults: null })
        : 'args' in rc.input
          ? runToolSearch(index, rc.input.args)
          : searchDecoded(index, { query: rc.input.query, maxResults: rc.input.maxResults });
  const got = viaEngine !== null ? viaEngine.got : searchGot(outcome, index);
  let expect = rc.expect;
  let upd: ExactUpdate | null = null;
  if (update && rc.record && outcome.ok) {
    if (
      !sameList(
        expect.exact?.map((n) => n.name),
        got.matches,
      )
    )
      upd = { index: rc.index, exact: got.matches };
    expect = { ...expect, exact: got.matches.map((name) => ({ name, location: rc.location, offset: rc.offset })) };
  }
  const failures: Failure[] = [...p.missing, ...checkResult(expect, outcome, index, viaEngine?.standing)];
  if (rc.record && !update && expect.exact === undefined) {
    failures.push({
      expectation: 'record',
      message: 'nothing recorded yet: run `toolsearch test --update` to write the current result into "exact"',
      expected: null,
      actual: [...got.matches],
      standings: [],
      notes: [],
    });
  }
  return {
    result: {
      ...base,
      status: failures.length > 0 ? 'failed' : 'passed',
      skip_reason: null,
      duration_ms: performance.now() - start,
      failures,
      got,
      updated: upd !== null,
    },
    update: upd,
  };
}

/** Reads and validates a suite file, keeping its parsed document for located errors. */
export function loadSuite(
  file: string,
  limits?: Partial<Limits>,
  doc: ParsedDocument = parseFile(file, limits ? { limits } : {}),
): LoadedSuite {
  if (doc.syntax === 'jsonl') throw errorAt(doc, 0, 'a suite is one JSON or YAML document, not JSON lines');
  return { suite: new SuiteParser(doc).suite(), doc };
}

/**
 * The files a suite names: catalog files and transcripts, and what its MCP
 * catalogs make a run read — the files an `mcp:` command line names, a client
 * config and the files its servers' command lines name (see
 * src/formats/mcp/catalog-inputs.ts).
 */
export function suiteInputs(suite: Suite, limits?: Partial<Limits>): RunInput[] {
  const out: RunInput[] = [];
  const catalog = (ref: CatalogRef | null) => {
    if (ref) out.push(...catalogInputs(ref.files, limits ? { limits } : {}));
  };
  catalog(suite.catalog);
  for (const c of suite.cases) {
    catalog(c.catalog);
    if (c.kind === 'simulate') out.push({ kind: 'transcript', path: c.transcript });
  }
  return out;
}

/**
 * Every file a suite that did not validate might have read: each string in
 * it that is an `mcp:` catalog or names an existing file (against the
 * suite's directory, as the suite's own paths are), with what a catalog of
 * that name would read. An over-approximation on purpose: an output that is
 * any of them is refused, so a suite with a typo never loses its catalog.
 */
function namedFiles(doc: ParsedDocument, limits?: Partial<Limits>): RunInput[] {
  const out: RunInput[] = [];
  const dir = dirname(doc.file);
  const stack: JsonValue[] = [toJsonValue(doc.root)];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (typeof v === 'string') {
      if (v === '' || v === '-') continue;
      const spec = isMcpSpec(v) ? v : isAbsolute(v) ? v : join(dir, v);
      try {
        if (isMcpSpec(spec) || statSync(spec).isFile())
          out.push(
            ...catalogInputs([spec], { kind: 'file named by the invalid suite', ...(limits ? { limits } : {}) }),
          );
      } catch {
        // neither a file nor a server: nothing it could read
      }
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) stack.push(key, item);
    }
  }
  return out;
}

/**
 * Loads the suites in order, telling `onInput` of each file as soon as it is
 * known. A suite that is invalid is kept as an error, and the others still
 * load (an error of `onInput` stops the run).
 */
function loadSuites(files: readonly string[], options: RunOptions): Array<LoadedSuite | InvalidSuite> {
  return files.map((f) => {
    options.onInput?.({ kind: 'suite', path: f });
    let l: LoadedSuite;
    let doc: ParsedDocument | null = null;
    try {
      doc = parseFile(f, options.limits ? { limits: options.limits } : {});
      l = withOptions(loadSuite(f, options.limits, doc), options);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      // An invalid suite still names the files it would have read: none of them may be an output.
      if (options.onInput && doc !== null) for (const i of namedFiles(doc, options.limits)) options.onInput(i);
      return { file: f, error: err };
    }
    if (options.onInput) for (const i of suiteInputs(l.suite, options.limits)) options.onInput(i);
    return l;
  });
}

function isInvalid(s: LoadedSuite | InvalidSuite): s is InvalidSuite {
  return 'error' in s;
}

/** A suite with `test -c` (every catalog replaced) and `test --grep` (only the matching cases) applied. */
function withOptions(l: LoadedSuite, options: RunOptions): LoadedSuite {
  const { catalog, grep } = options;
  if (catalog === undefined && grep === undefined) return l;
  const swap = (ref: CatalogRef | null): CatalogRef | null =>
    ref && catalog !== undefined ? { ...ref, files: [...catalog], format: 'auto', prefix: null } : ref;
  const cases = l.suite.cases
    .filter((c) => grep === undefined || grep.test(c.name))
    .map((c) => (c.catalog ? ({ ...c, catalog: swap(c.catalog) } as SuiteCase) : c));
  return { doc: l.doc, suite: { ...l.suite, catalog: swap(l.suite.catalog), cases } };
}

/**
 * Runs suite files (already expanded from globs), in order. Catalogs that
 * name a live MCP server (`catalog: "mcp:npx -y some-server"`) need
 * {@link runSuitesAsync}.
 */
export function runSuites(files: readonly string[], options: RunOptions = {}): TestRun {
  const started = performance.now();
  const inputs = new Inputs(options.limits);
  const loaded = loadSuites(files, options);
  return runLoaded(inputs, loaded, options, started);
}

/**
 * Every search case a module engine runs, answered by its module (one worker per module and catalog), before
 * the cases run; a module that fails makes its suite an errored suite.
 */
async function moduleAnswers(
  inputs: Inputs,
  loaded: ReadonlyArray<LoadedSuite | InvalidSuite>,
  options: RunOptions,
): Promise<ModuleAnswers> {
  const answers: ModuleAnswers = new Map();
  const open = new Map<string, Promise<OpenEngine>>();
  try {
    for (const l of loaded) {
      if (isInvalid(l)) continue;
      for (const c of l.suite.cases) {
        const ref = engineOf(c, options);
        if (ref === null || ref.spec.kind !== 'module' || c.kind !== 'search' || c.skip !== null || !c.catalog)
          continue;
        if (!('query' in c.input)) continue;
        try {
          const cat = inputs.catalog(c.catalog, l.doc);
          const key = `${ref.spec.path}\u0000${c.catalog.files.join('\u0000')}`;
          let engine = open.get(key);
          if (!engine) {
            engine = openEngine(
              ref.spec,
              cat.index.tools(),
              {},
              {
                ...(options.engineTimeoutMs !== undefined ? { timeoutMs: options.engineTimeoutMs } : {}),
              },
            );
            open.set(key, engine);
          }
          const e = await engine;
          answers.set(c, await e.search(c.input.query, c.input.maxResults ?? undefined));
        } catch (err) {
          if (!(err instanceof InputError)) throw err;
          answers.set(c, err);
        }
      }
    }
  } finally {
    for (const e of open.values())
      await e.then(
        (x) => x.close(),
        () => {},
      );
  }
  return answers;
}

/**
 * Runs suite files (already expanded from globs), in order, reading the
 * live MCP servers their catalogs name (`mcp:<command line>` or
 * `mcp:<url>`, as `-c` accepts) first: every suite is validated before any
 * server starts, and every server has ended before the first case runs.
 */
export async function runSuitesAsync(files: readonly string[], options: RunOptions = {}): Promise<TestRun> {
  const started = performance.now();
  const inputs = new Inputs(options.limits);
  const loaded = loadSuites(files, options);
  await inputs.readServers(
    loaded.filter((l): l is LoadedSuite => !isInvalid(l)),
    options.mcpTimeoutMs,
  );
  return runLoaded(inputs, loaded, options, started, await moduleAnswers(inputs, loaded, options));
}

function suiteError(err: InputError, file: string): SuiteError {
  return { message: err.message, location: err.location ?? { file, line: 0, column: 0 }, excerpt: err.excerpt ?? null };
}

function runLoaded(
  inputs: Inputs,
  loaded: ReadonlyArray<LoadedSuite | InvalidSuite>,
  options: RunOptions,
  started: number,
  answers?: ModuleAnswers,
): TestRun {
  // Everything a suite names is loaded before its first case runs: a suite that cannot be prepared does not run at all.
  const prepared = loaded.map((l): Prepared[] | InputError => {
    if (isInvalid(l)) return l.error;
    try {
      return prepare(inputs, l, options.catalog !== undefined);
    } catch (err) {
      if (err instanceof InputError) return err;
      throw err;
    }
  });
  const rewrites: SuiteRewrite[] = [];
  const suites: SuiteResult[] = [];
  const engines: EngineCache = new Map();
  loaded.forEach((l, si) => {
    const p = prepared[si]!;
    if (p instanceof InputError) {
      const file = isInvalid(l) ? l.file : l.suite.file;
      const name = isInvalid(l) ? l.file : l.suite.name;
      suites.push({ file, name, catalog: null, duration_ms: 0, cases: [], error: suiteError(p, file), updated: false });
      return;
    }
    const ok = l as LoadedSuite;
    if (options.grep !== undefined && ok.suite.cases.length === 0) return;
    const t0 = performance.now();
    let ran: Array<ReturnType<typeof runCase>>;
    try {
      ran = p.map((c) => runCase(c, options.update === true, options, answers, engines));
    } catch (err) {
      // A module engine that failed: the suite is an errored suite, as one whose input cannot be loaded.
      if (!(err instanceof InputError)) throw err;
      suites.push({
        file: ok.suite.file,
        name: ok.suite.name,
        catalog: null,
        duration_ms: 0,
        cases: [],
        error: suiteError(err, ok.suite.file),
        updated: false,
      });
      return;
    }
    const updates = ran.map((r) => r.update).filter((u): u is ExactUpdate => u !== null);
    if (updates.length > 0) rewrites.push(rewrite(ok, updates, options.limits));
    suites.push({
      file: ok.suite.file,
      name: ok.suite.name,
      catalog: ok.suite.catalog ? ok.suite.catalog.files.join(', ') : null,
      duration_ms: performance.now() - t0,
      cases: ran.map((r) => r.result),
      error: null,
      updated: updates.length > 0,
    });
  });
  const all = suites.flatMap((s) => s.cases);
  const report: TestReport = {
    suites,
    summary: {
      total: all.length,
      passed: all.filter((c) => c.status === 'passed').length,
      failed: all.filter((c) => c.status === 'failed').length,
      skipped: all.filter((c) => c.status === 'skipped').length,
      errors: suites.filter((x) => x.error !== null).length,
      updated: all.filter((c) => c.updated).length,
      duration_ms: performance.now() - started,
    },
  };
  return { report, rewrites };
}

/** Whether the file on disk starts with a UTF-8 byte-order mark (the parsed text no longer has it). */
function hasBom(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(3);
    return readSync(fd, b, 0, 3, 0) === 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
  } finally {
    closeSync(fd);
  }
}

/** The suite's text with the updates applied, checked to read back as the same suite with the new lists. */
function rewrite(l: LoadedSuite, updates: readonly ExactUpdate[], limits: Partial<Limits> | undefined): SuiteRewrite {
  const text = applyExactUpdates(l.doc.text, updates, l.suite.syntax);
  // Never write a file that does not read back as the same suite with the new lists.
  let reread: Suite;
  try {
    reread = new SuiteParser(
      parseText(l.doc.file, text, { syntax: l.doc.syntax, ...(limits ? { limits } : {}) }),
    ).suite();
  } catch (err) {
    const why = err instanceof InputError ? err.headline : String(err);
    throw new Error(`--update produced an invalid suite for ${l.suite.file}; the file was left unchanged (${why})`);
  }
  for (const u of updates) {
    const c = reread.cases[u.index];
    const exact = c && c.kind !== 'simulate' ? c.expect.exact?.map((n) => n.name) : undefined;
    if (!sameList(exact, u.exact))
      throw new Error(
        `--update could not write "exact" of case ${u.index + 1} in ${l.suite.file}; the file was left unchanged`,
      );
  }
  return { file: l.suite.file, text: hasBom(l.suite.file) ? `\uFEFF${text}` : text };
}
