/**
 * The suite runner: loads what the suites reference (catalogs, transcripts),
 * runs every case through the core (search, select) or the simulation
 * engine, checks the expectations, and returns a {@link TestReport}.
 *
 * Everything a suite names is loaded and validated before the first case
 * runs, so an invalid suite (exit 2) never produces a partial report.
 */
import { performance } from 'node:perf_hooks';
import {
  createMiddleware,
  MiddlewareConfigError,
  runToolSearch,
  searchDecoded,
  TOOL_SEARCH_NAME,
  type ToolIndex,
  type ToolSearchOutcome,
} from '../core/index.js';
import { InputError } from '../errors.js';
import { loadCatalogFiles, loadTranscriptFile } from '../formats/index.js';
import { errorAt, formatLocation, type ParsedDocument } from '../formats/nodes.js';
import { parseFile } from '../formats/parse.js';
import type { Limits } from '../formats/read.js';
import type { Catalog, Transcript } from '../formats/types.js';
import { simulate } from '../simulate/engine.js';
import { checkResult, checkSimulation } from './check.js';
import { SuiteParser } from './parse.js';
import type { CaseResult, CatalogRef, NameRef, SearchGot, Suite, SuiteCase, SuiteResult, TestReport } from './types.js';
import { applyExactUpdates, writeFileAtomic, type ExactUpdate } from './update.js';

export interface RunOptions {
  /** Write the current results into `exact` of `record: true` cases. */
  readonly update?: boolean;
  readonly limits?: Partial<Limits>;
}

/** A catalog ready for cases: the loaded data and the reference's index over its dynamic tools. */
interface LoadedCatalog {
  readonly catalog: Catalog;
  readonly index: ToolIndex;
  readonly source: string;
}

interface LoadedSuite {
  readonly suite: Suite;
  readonly doc: ParsedDocument;
}

function catalogKey(ref: CatalogRef): string {
  return JSON.stringify([ref.files, ref.format, ref.prefix]);
}

/** Loads inputs once per run, whoever asks for them. */
class Inputs {
  private readonly catalogs = new Map<string, LoadedCatalog>();
  private readonly transcripts = new Map<string, Transcript>();

  constructor(private readonly limits: Partial<Limits> | undefined) {}

  catalog(ref: CatalogRef, doc: ParsedDocument, offset: number): LoadedCatalog {
    const key = catalogKey(ref);
    let c = this.catalogs.get(key);
    if (!c) {
      const catalog = loadCatalogFiles(ref.files, {
        format: ref.format,
        ...(ref.prefix !== null ? { prefix: ref.prefix } : {}),
        ...(this.limits ? { limits: this.limits } : {}),
      });
      let index: ToolIndex;
      try {
        index = createMiddleware({ dynamicTools: catalog.tools.filter((t) => !t.static) }).index;
      } catch (err) {
        // "tools is required": the reference refuses a catalog without dynamic tools.
        if (err instanceof MiddlewareConfigError) throw errorAt(doc, offset, `${ref.files.join(', ')}: ${err.message}`);
        throw err;
      }
      c = { catalog, index, source: ref.files.join(', ') };
      this.catalogs.set(key, c);
    }
    return c;
  }

  transcript(file: string, format: Parameters<typeof loadTranscriptFile>[1] extends infer O ? O : never): Transcript {
    const key = JSON.stringify([file, format]);
    let t = this.transcripts.get(key);
    if (!t) {
      t = loadTranscriptFile(file, format);
      this.transcripts.set(key, t);
    }
    return t;
  }
}

function offsetOf(doc: ParsedDocument, ref: { readonly location: { readonly line: number; readonly column: number } }): number {
  // Locations were made from offsets of this document; walk back to the offset.
  const { line, column } = ref.location;
  let lineStart = 0;
  for (let l = 1; l < line; l++) {
    const n = doc.text.indexOf('\n', lineStart);
    if (n < 0) break;
    lineStart = n + 1;
  }
  let off = lineStart;
  for (let c = 1; c < column && off < doc.text.length; c++) off += doc.text.codePointAt(off)! > 0xffff ? 2 : 1;
  return off;
}

/** Names of tools in `refs` that are not in `known`, as a located error on the first. */
function checkNames(doc: ParsedDocument, refs: readonly NameRef[], known: ReadonlySet<string>, what: string, staticNames: ReadonlySet<string>): void {
  for (const r of refs) {
    if (known.has(r.name)) continue;
    const hint = staticNames.has(r.name) ? ' (it is a static tool: static tools are never searched)' : suggestion(r.name, known);
    throw errorAt(doc, offsetOf(doc, r), `${what}: "${r.name}" is not ${staticNames.has(r.name) ? 'a dynamic tool' : 'a tool of the catalog'}${hint}`);
  }
}

function suggestion(name: string, known: ReadonlySet<string>): string {
  const lower = name.toLowerCase();
  const near = [...known].filter((k) => k.toLowerCase() === lower || (lower.length >= 4 && k.toLowerCase().includes(lower))).slice(0, 3);
  return near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : '';
}

function resultNames(c: SuiteCase): NameRef[] {
  if (c.kind === 'simulate') return [...c.expect.visible_at, ...c.expect.deferred_at].flatMap((l) => [...(l.includes ?? []), ...(l.excludes ?? []), ...(l.exact ?? [])]);
  const e = c.expect;
  return [...(e.includes ?? []), ...(e.excludes ?? []), ...(e.exact ?? []), ...(e.first ? [e.first] : []), ...(e.rank_at_most ?? []).map((r) => r.tool)];
}

/** A case with everything it needs loaded. */
type Prepared =
  | { readonly c: Extract<SuiteCase, { kind: 'search' | 'select' }>; readonly cat: LoadedCatalog }
  | { readonly c: Extract<SuiteCase, { kind: 'simulate' }>; readonly cat: LoadedCatalog | null; readonly transcript: Transcript };

function prepare(inputs: Inputs, { suite, doc }: LoadedSuite): Prepared[] {
  return suite.cases.map((c): Prepared => {
    const catOffset = c.catalog ? offsetOf(doc, c.catalog) : 0;
    if (c.kind !== 'simulate') {
      const cat = inputs.catalog(c.catalog!, doc, catOffset);
      const dynamic = new Set(cat.index.tools().map((t) => t.name));
      const statics = new Set(cat.catalog.tools.filter((t) => t.static).map((t) => t.name));
      checkNames(doc, resultNames(c), dynamic, `case "${c.name}"`, statics);
      return { c, cat };
    }
    const cat = c.catalog ? inputs.catalog(c.catalog, doc, catOffset) : null;
    const transcript = inputs.transcript(c.transcript, { format: c.format });
    const tools = cat ? cat.catalog.tools : transcript.tools;
    if (!tools) {
      throw errorAt(doc, offsetOf(doc, c), `case "${c.name}": no catalog, and ${c.transcript} carries no tools: add "catalog:" to the suite or the case`);
    }
    const all = new Set(tools.map((t) => t.name));
    for (const s of c.static) {
      if (!all.has(s)) throw errorAt(doc, offsetOf(doc, c), `case "${c.name}": static names "${s}", which is not a tool of the catalog${suggestion(s, all)}`);
    }
    all.add(TOOL_SEARCH_NAME);
    checkNames(doc, resultNames(c), all, `case "${c.name}"`, new Set());
    return { c, cat, transcript };
  });
}

function searchGot(outcome: ToolSearchOutcome): SearchGot {
  if (!outcome.ok) return { mode: 'error', query: null, max_results: null, matches: [], scores: null, total_matches: null, error: outcome.error };
  if (outcome.mode === 'select') {
    return { mode: 'select', query: outcome.query, max_results: null, matches: [...outcome.matches], scores: null, total_matches: null, error: null };
  }
  return {
    mode: 'keyword',
    query: outcome.query,
    max_results: outcome.maxResults,
    matches: [...outcome.matches],
    scores: outcome.results.map((r) => r.score),
    total_matches: null,
    error: null,
  };
}

function runCase(p: Prepared, update: boolean): { result: CaseResult; update: ExactUpdate | null } {
  const { c } = p;
  const base = { name: c.name, kind: c.kind, location: c.location, skip_reason: null };
  if (c.skip !== null) {
    return { result: { ...base, status: 'skipped', skip_reason: c.skip, duration_ms: 0, failures: [], got: null, updated: false }, update: null };
  }
  const start = performance.now();
  if (p.c.kind === 'simulate') {
    const sc = p.c;
    const report = simulate({
      transcript: (p as Extract<Prepared, { transcript: Transcript }>).transcript,
      catalog: p.cat ? p.cat.catalog : null,
      mode: sc.mode,
      staticNames: sc.static,
      replay: sc.expect.same_as_recorded,
    });
    const failures = checkSimulation(sc, report);
    const got = {
      mode: report.mode,
      calls: report.summary.calls,
      errors: report.summary.errors,
      warnings: report.summary.warnings,
      replay_differences: report.replay ? report.replay.differences : null,
    };
    const status = failures.length > 0 ? 'failed' : 'passed';
    return { result: { ...base, status, duration_ms: performance.now() - start, failures, got, updated: false }, update: null };
  }
  const rc = p.c;
  const index = p.cat!.index;
  const outcome =
    rc.kind === 'select'
      ? searchDecoded(index, { query: `select:${rc.names.join(',')}`, maxResults: null })
      : 'args' in rc.input
        ? runToolSearch(index, rc.input.args)
        : searchDecoded(index, { query: rc.input.query, maxResults: rc.input.maxResults });
  let got = searchGot(outcome);
  if (outcome.ok && outcome.mode === 'keyword') got = { ...got, total_matches: index.rankAll(outcome.keywords).length };
  let expect = rc.expect;
  let upd: ExactUpdate | null = null;
  if (update && rc.record && outcome.ok) {
    const old = expect.exact?.map((n) => n.name);
    const now = got.matches;
    if (!old || old.length !== now.length || old.some((n, i) => n !== now[i])) upd = { index: rc.index, exact: now };
    expect = { ...expect, exact: now.map((name) => ({ name, location: rc.location })) };
  }
  const failures = checkResult(rc, expect, outcome, index);
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
  const status = failures.length > 0 ? 'failed' : 'passed';
  return { result: { ...base, status, duration_ms: performance.now() - start, failures, got, updated: upd !== null }, update: upd };
}

/** Reads and validates a suite file, keeping its parsed document for located errors. */
function loadSuite(file: string, limits: Partial<Limits> | undefined): LoadedSuite {
  const doc = parseFile(file, limits ? { limits } : {});
  if (doc.syntax === 'jsonl') throw errorAt(doc, 0, 'a suite is one JSON or YAML document, not JSON lines');
  return { suite: new SuiteParser(doc).suite(), doc };
}

/** Runs suite files (already expanded from globs), in order. */
export function runSuites(files: readonly string[], options: RunOptions = {}): TestReport {
  const started = performance.now();
  const inputs = new Inputs(options.limits);
  const loaded = files.map((f) => loadSuite(f, options.limits));
  const prepared = loaded.map((l) => prepare(inputs, l));
  const suites: SuiteResult[] = loaded.map((l, si) => {
    const t0 = performance.now();
    const ran = prepared[si]!.map((p) => runCase(p, options.update === true));
    const updates = ran.map((r) => r.update).filter((u): u is ExactUpdate => u !== null);
    if (updates.length > 0) writeUpdates(l, updates, options.limits);
    return {
      file: l.suite.file,
      name: l.suite.name,
      catalog: l.suite.catalog ? l.suite.catalog.files.join(', ') : null,
      duration_ms: performance.now() - t0,
      cases: ran.map((r) => r.result),
      updated: updates.length > 0,
    };
  });
  const all = suites.flatMap((s) => s.cases);
  return {
    suites,
    summary: {
      total: all.length,
      passed: all.filter((c) => c.status === 'passed').length,
      failed: all.filter((c) => c.status === 'failed').length,
      skipped: all.filter((c) => c.status === 'skipped').length,
      updated: all.filter((c) => c.updated).length,
      duration_ms: performance.now() - started,
    },
  };
}

function writeUpdates(l: LoadedSuite, updates: readonly ExactUpdate[], limits: Partial<Limits> | undefined): void {
  const text = applyExactUpdates(l.doc.text, updates, l.suite.syntax);
  // Never write a file we could not read back as the same suite.
  let reread: Suite;
  try {
    reread = new SuiteParser(parseTextLike(l.doc, text, limits)).suite();
  } catch (err) {
    const why = err instanceof InputError ? err.headline : String(err);
    throw new Error(`--update produced an invalid suite for ${l.suite.file}; the file was left unchanged (${why})`);
  }
  for (const u of updates) {
    const c = reread.cases[u.index];
    const exact = c && c.kind !== 'simulate' ? c.expect.exact?.map((n) => n.name) : undefined;
    if (!exact || exact.length !== u.exact.length || exact.some((n, i) => n !== u.exact[i])) {
      throw new Error(`--update could not write "exact" of case ${u.index + 1} in ${l.suite.file}; the file was left unchanged`);
    }
  }
  writeFileAtomic(l.suite.file, l.doc.text.startsWith('\uFEFF') ? text : text);
}

function parseTextLike(doc: ParsedDocument, text: string, limits: Partial<Limits> | undefined): ParsedDocument {
  // Same syntax as the original, from the same file name.
  return parseTextImpl(doc.file, text, doc.syntax === 'yaml' ? 'yaml' : 'json', limits);
}

import { parseText as parseTextImpl0 } from '../formats/parse.js';
function parseTextImpl(file: string, text: string, syntax: 'json' | 'yaml', limits: Partial<Limits> | undefined): ParsedDocument {
  return parseTextImpl0(file, text, { syntax, ...(limits ? { limits } : {}) });
}

export { formatLocation };
