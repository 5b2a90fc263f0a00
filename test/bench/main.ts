/**
 * `npm run bench`: the benchmark suite (see test/bench/README.md).
 *
 *   npm run bench                      full run (a few minutes)
 *   npm run bench -- --quick           1k and 10k catalogs, fewer repeats, no 100k
 *   npm run bench -- --only query,cli  sections: query, classes, build, simulate, startup, cli, rss, bulk, jobs,
 *                                      lint, watch
 *   npm run bench -- --only jobs --jobs-rounds 7  --jobs 1, 2 and the default side by side, 7 interleaved rounds
 *   npm run bench -- --json out.json   also write the results
 *   npm run bench -- --compare old.json  print new/old per row
 *   npm run bench -- --no-build        do not run `npm run build` before the CLI sections
 *   npm run bench -- --only startup --nodes /path/node22,/path/node24  start-up on these Nodes too
 *   npm run bench -- --only startup --startup-rounds 75  more rounds: a narrower interval on a noisy machine
 *
 * Every ratio is measured in the same run. Every benchmark query is also
 * checked against the naive model of SPEC §3 (speed never changes an
 * answer); a difference fails the run (exit 1).
 *
 * Over 400 lines: every section shares the run (inputs, rows, the naive-model checks); one function each.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import Fuse from 'fuse.js';
import {
  beforeModelCall,
  createMiddleware,
  agentTools,
  type ModelCallState,
  type RunLocal,
} from '../../src/core/middleware.js';
import { AgentRun } from '../../src/core/run.js';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { parseKeywords } from '../../src/core/scorer.js';
import { goTrimSpace } from '../../src/core/text.js';
import {
  decodeToolSearchArgs,
  runToolSearch,
  searchDecoded,
  type ToolSearchArgs,
  type ToolSearchOutcome,
} from '../../src/core/toolsearch.js';
import type { Message, ToolInfo } from '../../src/core/types.js';
import { JSON_SCHEMA_VERSION } from '../../src/io/schema-version.js';
import { naiveKeywordSearch } from '../core/naive-model.js';
import { benchBulk, benchBulkJobs } from './bulk.js';
import { benchBuildVsBefore, benchQueryClasses, CLASS_SIZES, mixedBatchLines } from './query-classes.js';
import {
  chunksByModelCall,
  generateCatalog,
  generateLintCatalog,
  generateQueries,
  generateTranscript,
  LINT_SHAPES,
  Rng,
  toEinoJson,
  type BenchQuery,
} from './generate.js';

// ---------------------------------------------------------------------------
// Options

const argv = process.argv.slice(2);
const flag = (name: string): boolean => argv.includes(name);
const option = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const QUICK = flag('--quick');
const ONLY = new Set(
  (option('--only') ?? 'query,classes,build,simulate,startup,cli,rss,bulk,jobs,lint,watch').split(','),
);
const JSON_OUT = option('--json');
/** Checked before anything runs: a bad value is a usage error, not a failure after the build. */
const STARTUP_ROUNDS = startupRounds();
const COMPARE = option('--compare');
const NO_BUILD = flag('--no-build');
const SEED = Number(option('--seed') ?? 1);

// run.mjs starts this bundle with the repository as the working directory.
const REPO = process.cwd();
const WORK = join(REPO, 'node_modules', '.cache', 'toolsearch-bench', 'data');
mkdirSync(WORK, { recursive: true });

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

// ---------------------------------------------------------------------------
// Results

interface Row {
  readonly id: string;
  readonly section: string;
  readonly label: string;
  readonly value: number;
  readonly unit: string;
  /** Which direction is an improvement (for --compare). */
  readonly better: 'lower' | 'higher';
  readonly spread?: string;
  readonly target?: string;
  readonly ok?: boolean;
  readonly note?: string;
}

const rows: Row[] = [];
let failures = 0;

function add(row: Row): void {
  rows.push(row);
  if (row.ok === false) failures++;
  const status = row.ok === undefined ? '' : row.ok ? '  ok' : '  MISSED';
  const spread = row.spread ? `  (${row.spread})` : '';
  const target = row.target ? `  target ${row.target}` : '';
  console.log(
    `  ${row.label.padEnd(58)} ${fmt(row.value).padStart(10)} ${row.unit.padEnd(8)}` +
      `${spread}${target}${status}${row.note ? `  ${row.note}` : ''}`,
  );
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 1000) return v.toFixed(0);
  if (a >= 100) return v.toFixed(1);
  if (a >= 10) return v.toFixed(2);
  if (a >= 1) return v.toFixed(3);
  return v.toFixed(4);
}

function section(title: string): void {
  console.log(`\n${title}`);
}

// ---------------------------------------------------------------------------
// Statistics

function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}
const median = (xs: readonly number[]): number => quantile(xs, 0.5);
const range = (xs: readonly number[]): string => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
const spreadOf = (xs: readonly number[]): string => `runs ${range(xs)}, n=${xs.length}`;

/**
 * How far the ratio median(num) / median(den) of paired rounds moves with the rounds drawn: the 5th and
 * 95th percentiles of it over `draws` resamples of the rounds with replacement (pairs kept together, as
 * the rounds were interleaved), with a fixed seed. A target missed or met inside this interval is
 * within the run-to-run noise.
 */
function ratioInterval(num: readonly number[], den: readonly number[], draws = 2000): [number, number] {
  const rng = new Rng(SEED);
  const n = Math.min(num.length, den.length);
  const ratios: number[] = [];
  for (let d = 0; d < draws; d++) {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < n; i++) {
      const k = Math.floor(rng.next() * n);
      a.push(num[k]!);
      b.push(den[k]!);
    }
    ratios.push(median(a) / median(b));
  }
  return [quantile(ratios, 0.05), quantile(ratios, 0.95)];
}

/** CPU time (user + system) since `since`, in ms. */
function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

// ---------------------------------------------------------------------------
// Baselines

/** The reference's select: pieces trimmed, empty or unknown names skipped, order and duplicates kept. */
function naiveSelect(query: string, tools: readonly ToolInfo[]): string[] {
  const names = new Set(tools.map((t) => t.name));
  const out: string[] = [];
  for (const piece of query.slice('select:'.length).split(',')) {
    const name = goTrimSpace(piece);
    if (name !== '' && names.has(name)) out.push(name);
  }
  return out;
}

/**
 * The whole tool_search of SPEC §2 on decoded arguments, with the naive scorer: [name, score] pairs (score 0 for
 * select).
 */
function naiveToolSearch(args: ToolSearchArgs, tools: readonly ToolInfo[]): Array<[string, number]> | string {
  const query = goTrimSpace(args.query);
  if (query === '') return 'query is required';
  if (query.startsWith('select:')) return naiveSelect(query, tools).map((n) => [n, 0]);
  const max = args.maxResults !== null && args.maxResults > 0 ? args.maxResults : 5;
  return naiveKeywordSearch(query, max, tools);
}

function ourPairs(r: ToolSearchOutcome): Array<[string, number]> | string {
  if (!r.ok) return r.error;
  if (r.mode === 'select') return r.matches.map((n) => [n, 0]);
  return r.results.map((x) => [x.name, x.score]);
}

/**
 * Reference-style agent loop: the state persists between calls, and every call runs the pure middleware over the whole
 * history.
 */
function referenceRun(
  mw: ReturnType<typeof createMiddleware>,
  staticTools: readonly ToolInfo[],
  chunks: readonly Message[][],
): string[] {
  const full = agentTools(mw, staticTools);
  let state: ModelCallState = { messages: [], toolInfos: null, deferredToolInfos: null };
  let local: RunLocal = { initialized: false };
  for (const chunk of chunks) {
    state = { ...state, messages: [...state.messages, ...chunk], toolInfos: state.toolInfos ?? full };
    const r = beforeModelCall(mw, state, local);
    state = r.state;
    local = r.runLocal;
  }
  return (state.toolInfos ?? []).map((t) => t.name);
}

function ourRun(
  mw: ReturnType<typeof createMiddleware>,
  staticTools: readonly ToolInfo[],
  chunks: readonly Message[][],
): string[] {
  const run = new AgentRun(mw, staticTools);
  let visible: readonly ToolInfo[] = [];
  for (const chunk of chunks) visible = run.modelCall(chunk).visible;
  return visible.map((t) => t.name);
}

// ---------------------------------------------------------------------------
// Data

function flatCatalog(size: number): ToolInfo[] {
  // Through JSON, as a loaded catalog would be (flat strings, plain objects).
  return JSON.parse(JSON.stringify(generateCatalog(size, SEED))) as ToolInfo[];
}

function writeCatalogFile(size: number, tools: readonly ToolInfo[]): string {
  const file = join(WORK, `catalog-${size}-seed${SEED}.json`);
  if (!existsSync(file)) writeFileSync(file, JSON.stringify({ tools }));
  return file;
}

function writeLines(name: string, lines: readonly string[]): string {
  const file = join(WORK, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

interface Demo {
  readonly dynamic: ToolInfo[];
  readonly static: ToolInfo[];
  readonly source: string;
}

async function loadDemo(): Promise<Demo> {
  const file = join(REPO, 'fixtures/catalogs/demo.yaml');
  if (existsSync(file)) {
    const { parse } = await import('yaml');
    const doc = parse(readFileSync(file, 'utf8')) as
      | { tools?: Array<ToolInfo & { static?: boolean }> }
      | Array<ToolInfo & { static?: boolean }>;
    const list = Array.isArray(doc) ? doc : (doc.tools ?? []);
    const tools = list.map((t) => ({
      name: t.name,
      description: t.description ?? '',
      parameters: t.parameters,
      static: t.static === true,
    }));
    return {
      dynamic: tools.filter((t) => !t.static).map(({ static: _s, ...t }) => t),
      static: tools.filter((t) => t.static).map(({ static: _s, ...t }) => t),
      source: 'fixtures/catalogs/demo.yaml',
    };
  }
  return { dynamic: flatCatalog(125), static: [], source: 'generated 125-tool catalog (demo.yaml not found)' };
}

// ---------------------------------------------------------------------------
// 1. Query latency

const SIZES = QUICK ? [1000, 10_000] : [1000, 10_000, 100_000];
const QUERY_COUNT: Record<number, number> = { 1000: 300, 10_000: 200, 100_000: 100 };
const ROUNDS = QUICK ? 5 : 9;
const FUSE_QUERIES: Record<number, number> = { 1000: 60, 10_000: 30, 100_000: 8 };

function isKeyword(q: BenchQuery): boolean {
  return !goTrimSpace(q.query).startsWith('select:');
}

function benchQueries(size: number): void {
  const label = size.toLocaleString('en-US');
  section(`Query latency, ${label}-tool catalog (in-process, per query)`);
  const tools = flatCatalog(size);
  const queries = generateQueries(tools, QUERY_COUNT[size] ?? 100, SEED);
  const args = queries.map((q) => {
    const d = decodeToolSearchArgs(q.args);
    if (!d.ok) throw new Error(`benchmark query does not decode: ${q.args}`);
    return d.args;
  });
  const index = new ToolIndex(tools);

  // Correctness against the naive model (timed: that is the naive baseline).
  const naiveMs: number[] = [];
  let naiveCpu = 0;
  let mismatches = 0;
  for (let i = 0; i < queries.length; i++) {
    let expected: ReturnType<typeof naiveToolSearch> = [];
    const c0 = process.cpuUsage();
    naiveMs.push(time(() => (expected = naiveToolSearch(args[i]!, tools))));
    naiveCpu += cpuMs(c0);
    const got = ourPairs(searchDecoded(index, args[i]!));
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      mismatches++;
      if (mismatches <= 3)
        console.log(
          `  MISMATCH ${queries[i]!.args}\n    ours:  ${JSON.stringify(got)}\n    naive: ${JSON.stringify(expected)}`,
        );
    }
  }
  add({
    id: `query.${size}.identical`,
    section: 'query',
    label: `results identical to the naive model (${queries.length} queries)`,
    value: queries.length - mismatches,
    unit: `/${queries.length}`,
    better: 'higher',
    ok: mismatches === 0,
  });

  // Ours: warmed up above; R rounds, per-query median.
  const perQuery: number[][] = queries.map(() => []);
  const roundMedians: number[] = [];
  const roundCpu: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const ts: number[] = [];
    const c0 = process.cpuUsage();
    for (let i = 0; i < queries.length; i++) {
      const t = time(() => searchDecoded(index, args[i]!));
      perQuery[i]!.push(t);
      ts.push(t);
    }
    roundCpu.push(cpuMs(c0));
    roundMedians.push(median(ts));
  }
  const ours = perQuery.map(median);
  const kwIdx = queries.map((q, i) => (isKeyword(q) ? i : -1)).filter((i) => i >= 0);
  const oursMedian = median(ours);
  const oursKw = median(kwIdx.map((i) => ours[i]!));
  const target = size === 10_000 ? 0.3 : size === 100_000 ? 5 : undefined;
  add({
    id: `query.${size}.ours.median`,
    section: 'query',
    label: `ours: median query (all ${queries.length})`,
    value: oursMedian,
    unit: 'ms',
    better: 'lower',
    spread: `round medians ${range(roundMedians)}, p90 ${fmt(quantile(ours, 0.9))}, max ${fmt(Math.max(...ours))}`,
    ...(target !== undefined ? { target: `≤ ${target} ms`, ok: oursMedian <= target } : {}),
  });
  add({
    id: `query.${size}.ours.keyword`,
    section: 'query',
    label: `ours: median keyword query (${kwIdx.length}, no select:)`,
    value: oursKw,
    unit: 'ms',
    better: 'lower',
    spread: `p90 ${fmt(
      quantile(
        kwIdx.map((i) => ours[i]!),
        0.9,
      ),
    )}`,
    ...(target !== undefined ? { target: `≤ ${target} ms`, ok: oursKw <= target } : {}),
  });
  const naiveMedian = median(naiveMs);
  add({
    id: `query.${size}.naive.median`,
    section: 'query',
    label: `naive model of SPEC §3: median query (1 run per query)`,
    value: naiveMedian,
    unit: 'ms',
    better: 'lower',
    spread: `p25–p75 ${fmt(quantile(naiveMs, 0.25))}–${fmt(quantile(naiveMs, 0.75))}`,
  });
  const naiveRatio = naiveMedian / oursMedian;
  add({
    id: `query.${size}.ratio.naive`,
    section: 'query',
    label: `speed-up vs naive (median/median, same queries, same run)`,
    value: naiveRatio,
    unit: '×',
    better: 'higher',
    spread: `keyword only ${fmt(median(kwIdx.map((i) => naiveMs[i]!)) / oursKw)}×`,
    ...(size === 10_000 ? { target: '≥ 3×', ok: naiveRatio >= 3 } : {}),
  });
  // Long runs are preempted more than short ones on a loaded machine: the
  // same ratio by CPU time over the whole mix is the load-proof check.
  add({
    id: `query.${size}.ratio.naive.cpu`,
    section: 'query',
    label: `speed-up vs naive, CPU time of the whole mix`,
    value: naiveCpu / median(roundCpu),
    unit: '×',
    better: 'higher',
    spread: `naive ${fmt(naiveCpu)} ms, ours ${fmt(median(roundCpu))} ms per pass`,
  });

  // fuse.js over the same catalog, on the first keyword queries.
  const fuseBuild = time(() => new Fuse(tools, FUSE_OPTIONS));
  const fuse = new Fuse(tools, FUSE_OPTIONS);
  const fuseSet = kwIdx.slice(0, FUSE_QUERIES[size] ?? 10);
  for (const i of fuseSet.slice(0, 2)) fuse.search(goTrimSpace(args[i]!.query), { limit: 5 });
  const c0 = process.cpuUsage();
  const fuseMs = fuseSet.map((i) =>
    time(() =>
      fuse.search(goTrimSpace(args[i]!.query), {
        limit: args[i]!.maxResults !== null && args[i]!.maxResults! > 0 ? args[i]!.maxResults! : 5,
      }),
    ),
  );
  const fuseCpu = cpuMs(c0);
  const fuseMedian = median(fuseMs);
  const oursOnFuseSet = median(fuseSet.map((i) => ours[i]!));
  add({
    id: `query.${size}.fuse.median`,
    section: 'query',
    label: `fuse.js: median query (${fuseSet.length} keyword queries; build ${fmt(fuseBuild)} ms)`,
    value: fuseMedian,
    unit: 'ms',
    better: 'lower',
    spread: `p25–p75 ${fmt(quantile(fuseMs, 0.25))}–${fmt(quantile(fuseMs, 0.75))}`,
  });
  const fuseRatio = fuseMedian / oursOnFuseSet;
  add({
    id: `query.${size}.ratio.fuse`,
    section: 'query',
    label: `speed-up vs fuse.js (same ${fuseSet.length} queries, ours ${fmt(oursOnFuseSet)} ms)`,
    value: fuseRatio,
    unit: '×',
    better: 'higher',
    spread: `by CPU time ${fmt(fuseCpu / fuseSet.reduce((a, i) => a + ours[i]!, 0))}×`,
    ...(size === 10_000 ? { target: '≥ 100×', ok: fuseRatio >= 100 } : {}),
  });
}

const FUSE_OPTIONS = {
  keys: [
    { name: 'name', weight: 2 },
    { name: 'description', weight: 1 },
  ],
  threshold: 0.4,
  ignoreLocation: true,
  includeScore: true,
};

// ---------------------------------------------------------------------------
// 2. Index build time and memory

function memNow(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

function benchBuild(size: number): void {
  const label = size.toLocaleString('en-US');
  section(`Index build, ${label}-tool catalog`);
  const tools = flatCatalog(size);
  const kws = parseKeywords('zzzz');
  const ctor: number[] = [];
  const prefilter: number[] = [];
  const retained: number[] = [];
  const reps = size >= 100_000 ? 3 : size >= 10_000 ? 7 : 15;
  // Memory first, apart from timing: each index stays alive while the next is measured.
  const alive: ToolIndex[] = [];
  for (let r = 0; r < 3; r++) {
    const before = memNow();
    const index = new ToolIndex(tools, { prefilter: 'always' });
    index.search(kws, 5);
    alive.push(index);
    retained.push(memNow() - before);
  }
  alive.length = 0;
  // Warm the code up first (the first builds run unoptimised code).
  for (let w = 0; w < (size >= 100_000 ? 1 : 3); w++) new ToolIndex(tools, { prefilter: 'always' }).search(kws, 5);
  for (let r = 0; r < reps; r++) {
    let index: ToolIndex | null = null;
    ctor.push(time(() => (index = new ToolIndex(tools, { prefilter: 'always' }))));
    prefilter.push(time(() => index!.search(kws, 5)));
  }
  add({
    id: `build.${size}.ctor`,
    section: 'build',
    label: 'ToolIndex constructor (lower-casing, name order)',
    value: median(ctor),
    unit: 'ms',
    better: 'lower',
    spread: spreadOf(ctor),
  });
  add({
    id: `build.${size}.prefilter`,
    section: 'build',
    label: 'token index, built at first use (parts, tokens, trigrams)',
    value: median(prefilter),
    unit: 'ms',
    better: 'lower',
    spread: spreadOf(prefilter),
  });
  const mb = median(retained) / 1e6;
  add({
    id: `build.${size}.memory`,
    section: 'build',
    label: `memory held by the index (heap + typed arrays)`,
    value: mb,
    unit: 'MB',
    better: 'lower',
    spread: `${fmt((median(retained) / size) | 0)} bytes/tool`,
  });
}

// ---------------------------------------------------------------------------
// 3. Agent runs and simulate

async function benchSimulate(): Promise<void> {
  const demo = await loadDemo();
  section(
    `simulate / AgentRun over generated transcripts ` +
      `(${demo.source}: ${demo.dynamic.length} dynamic, ${demo.static.length} static tools)`,
  );
  const mw = createMiddleware({ dynamicTools: demo.dynamic });
  const search = (a: string): readonly string[] | null => {
    const r = runToolSearch(mw.index, a);
    return r.ok ? r.matches : null;
  };
  const oursCalls = QUICK ? [100, 1000, 2000, 10_000] : [100, 1000, 2000, 10_000, 20_000];
  const refCalls = QUICK ? [100, 500, 1000] : [100, 1000, 2000, 4000];
  const transcripts = new Map<number, Message[]>();
  const tr = (calls: number): Message[] => {
    let t = transcripts.get(calls);
    if (!t) transcripts.set(calls, (t = generateTranscript(demo.dynamic, calls, search, SEED)));
    return t;
  };

  // The simulation engine (src/simulate), when present.
  type Sim = (o: unknown) => { turns: unknown[] };
  let simulate: Sim | null = null;
  try {
    simulate = ((await import('../../src/jobs/simulate/engine.js')) as unknown as { simulate: Sim }).simulate;
  } catch (err) {
    console.log(`  (simulate engine not available: ${(err as Error).message})`);
  }
  const loc = { file: 'generated.json', line: 0, column: 0 };
  const catalog = {
    tools: [
      ...demo.static.map((t) => ({ ...t, static: true, source: loc })),
      ...demo.dynamic.map((t) => ({ ...t, static: false, source: loc })),
    ],
    sources: [{ file: demo.source, format: 'toolsearch' }],
    warnings: [],
  };
  const simOnce = (calls: number): number => {
    const messages = tr(calls);
    const transcript = {
      file: 'generated.json',
      format: 'eino',
      messages,
      locations: messages.map(() => loc),
      tools: null,
      warnings: [],
    };
    return time(() => {
      const report = simulate!({ transcript, catalog, mode: 'default', replay: false });
      if (report.turns.length !== calls) throw new Error(`simulate: ${report.turns.length} turns for ${calls} calls`);
    });
  };

  // Interleaved rounds (every size once per round, a GC before each run), so
  // that load drifting over time weighs on every size alike.
  const oursRun = new Map<number, number>();
  const oursSim = new Map<number, number>();
  const runTimes = new Map<number, number[]>(oursCalls.map((c) => [c, []]));
  const simTimes = new Map<number, number[]>(oursCalls.map((c) => [c, []]));
  const chunksOf = new Map(oursCalls.map((c) => [c, chunksByModelCall(tr(c))]));
  if (simulate) simOnce(100);
  ourRun(mw, demo.static, chunksOf.get(100) ?? chunksByModelCall(tr(100)));
  const reps = QUICK ? 5 : 7;
  for (let r = 0; r < reps; r++) {
    for (const calls of oursCalls) {
      gc();
      runTimes.get(calls)!.push(time(() => ourRun(mw, demo.static, chunksOf.get(calls)!)));
      if (simulate) {
        gc();
        simTimes.get(calls)!.push(simOnce(calls));
      }
    }
  }
  for (const calls of oursCalls) {
    const rt = runTimes.get(calls)!;
    oursRun.set(calls, median(rt));
    add({
      id: `simulate.agentrun.${calls}`,
      section: 'simulate',
      label: `AgentRun (core): ${calls.toLocaleString('en-US')} model calls`,
      value: median(rt),
      unit: 'ms',
      better: 'lower',
      spread: spreadOf(rt),
    });
    if (!simulate) continue;
    const st = simTimes.get(calls)!;
    oursSim.set(calls, median(st));
    add({
      id: `simulate.engine.${calls}`,
      section: 'simulate',
      label: `simulate() (engine, full report): ${calls.toLocaleString('en-US')} model calls`,
      value: median(st),
      unit: 'ms',
      better: 'lower',
      spread: spreadOf(st),
      ...(calls === 10_000 ? { target: '≤ 1000 ms', ok: median(st) <= 1000 } : {}),
    });
  }
  const refRun = new Map<number, number>();
  for (const calls of refCalls) {
    const chunks = chunksByModelCall(tr(calls));
    // The baseline must agree with AgentRun.
    const a = referenceRun(mw, demo.static, chunks);
    const b = ourRun(mw, demo.static, chunks);
    if (JSON.stringify(a) !== JSON.stringify(b))
      throw new Error(`reference-style run and AgentRun disagree at ${calls} calls`);
    const reps = calls >= 2000 ? 2 : 3;
    const ts: number[] = [];
    for (let r = 0; r < reps; r++) {
      gc();
      ts.push(time(() => referenceRun(mw, demo.static, chunks)));
    }
    refRun.set(calls, median(ts));
    add({
      id: `simulate.reference.${calls}`,
      section: 'simulate',
      label: `reference-style rescan (beforeModelCall on the whole history): ${calls.toLocaleString('en-US')} calls`,
      value: median(ts),
      unit: 'ms',
      better: 'lower',
      spread: spreadOf(ts),
    });
  }
  const growth = (m: Map<number, number>, n: number): number => m.get(2 * n)! / m.get(n)!;
  const big = QUICK ? 1000 : 10_000;
  if (oursSim.has(2 * big)) {
    const g = growth(oursSim, big);
    add({
      id: `simulate.growth.engine`,
      section: 'simulate',
      label: `simulate() growth, ${big.toLocaleString('en-US')} → ${(2 * big).toLocaleString('en-US')} calls`,
      value: g,
      unit: '×',
      better: 'lower',
      target: '≤ 2.2×',
      ok: g <= 2.2,
    });
  }
  if (oursRun.has(2 * big)) {
    add({
      id: `simulate.growth.agentrun`,
      section: 'simulate',
      label: `AgentRun growth, ${big.toLocaleString('en-US')} → ${(2 * big).toLocaleString('en-US')} calls`,
      value: growth(oursRun, big),
      unit: '×',
      better: 'lower',
    });
  }
  const refN = QUICK ? 500 : 2000;
  if (refRun.has(2 * refN)) {
    add({
      id: `simulate.growth.reference`,
      section: 'simulate',
      label: `reference-style growth, ${refN} → ${2 * refN} calls (quadratic: ~4×)`,
      value: growth(refRun, refN),
      unit: '×',
      better: 'lower',
    });
  }
  const same = QUICK ? 1000 : 2000;
  if (refRun.has(same) && oursRun.has(same)) {
    add({
      id: `simulate.ratio.reference`,
      section: 'simulate',
      label: `AgentRun speed-up vs reference-style at ${same} calls`,
      value: refRun.get(same)! / oursRun.get(same)!,
      unit: '×',
      better: 'higher',
    });
  }
  // Keep a generated transcript for the CLI section.
  for (const calls of GENERATED_CALLS)
    writeFileSync(generatedTranscript(calls), JSON.stringify(toEinoJson(tr(calls) as never)));
}

// ---------------------------------------------------------------------------
// 4. Whole-process CLI

const CLI = join(REPO, 'bin', 'toolsearch.js');
const CACHE_DIR = join(WORK, 'catalog-cache');
const GENERATED_CALLS = QUICK ? [1000] : [1000, 10_000];
const generatedTranscript = (calls: number): string => join(WORK, `transcript-${calls}-seed${SEED}.json`);
const HEAVY = [
  'react',
  'ink',
  'fuse.js',
  '@modelcontextprotocol/sdk',
  'gpt-tokenizer',
  'zod',
  'ai',
  'yaml',
  'commander',
];

const TIME_BIN = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

// ---------------------------------------------------------------------------
// 4a. Start-up, as users run it

/** A certificate file for the runs with NODE_EXTRA_CA_CERTS set: the user's, else the system's bundle. */
function extraCaFile(): string | null {
  const own = process.env.NODE_EXTRA_CA_CERTS;
  if (own && existsSync(own)) return own;
  for (const f of ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt'])
    if (existsSync(f)) return f;
  return null;
}

/**
 * The Node versions the start-up section runs: this one, then those named by
 * `--nodes a,b` (paths of node binaries), else those .ci/run installs from
 * the npm registry (node-<version>/bin/node under TOOLSEARCH_CI_CACHE, by
 * default ~/.cache/toolsearch-ci), when they are there.
 */
function startupNodes(): string[] {
  const given = option('--nodes');
  if (given !== undefined) return [process.execPath, ...given.split(',').filter((p) => p !== '')];
  const home = process.env.HOME;
  const cache = process.env.TOOLSEARCH_CI_CACHE ?? (home ? join(home, '.cache', 'toolsearch-ci') : null);
  const found: string[] = [];
  if (cache !== null && existsSync(cache)) {
    for (const d of readdirSync(cache).sort()) {
      const bin = join(cache, d, 'bin', 'node');
      if (/^node-\d/.test(d) && existsSync(bin)) found.push(bin);
    }
  }
  return [process.execPath, ...found];
}

/**
 * Rounds of the start-up section: `--startup-rounds N` (5 to 1,000), else 25 (11 with `--quick`). More rounds
 * narrow the interval beside each ratio; they do not move its median.
 */
function startupRounds(): number {
  const given = option('--startup-rounds');
  if (given === undefined) return QUICK ? 11 : 25;
  const n = Number(given);
  if (!/^[0-9]+$/.test(given) || n < 5 || n > 1000) {
    console.error(`--startup-rounds: a whole number from 5 to 1000, got ${JSON.stringify(given)}`);
    process.exit(2);
  }
  return n;
}

/** A Node binary's version (`v22.23.5`). */
const nodeVersion = (bin: string): string =>
  bin === process.execPath ? process.version : execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();

/**
 * Start-up targets (issue 15, relaxed by issue 30): whole processes, bin/toolsearch.js run as a
 * program (its `#!/usr/bin/env node` line, with the Node under test first on
 * PATH, as npm links it), next to `node -e 0` of the same Node in the same
 * environment, with NODE_EXTRA_CA_CERTS set and unset, on this Node and on
 * the others of {@link startupNodes}, side by side. The cases are
 * interleaved round by round (the machine is shared: load moves all of them
 * alike), and each ratio divides two medians of the same rounds. "cached"
 * runs follow a warm-up in the same cache directory (catalog entry and
 * compiled code); a "first run" has a fresh, empty cache directory every
 * time. With /usr/bin/time, each run's CPU time (user + system, all threads)
 * too, less moved by load than wall time: its clock counts in 10 ms ticks,
 * so the mean of the runs is shown, not the median.
 */
function benchStartup(): void {
  if (!existsSync(CLI) || !existsSync(join(REPO, 'dist/bundle/cli.cjs'))) {
    section('Start-up');
    console.log('  dist/bundle/cli.cjs not found: skipped (npm run build)');
    return;
  }
  const rounds = STARTUP_ROUNDS;
  const ca = extraCaFile();
  const demo = 'fixtures/catalogs/demo.yaml';
  const search = ['search', '-c', demo, 'create', 'issue'];
  // Row ids: startup.<env>.<case> for this Node (as before), startup.node-<version>.<env>.<case> for the others.
  const nodes = startupNodes()
    .map((bin, i) => {
      const version = nodeVersion(bin);
      return { bin, version, id: i === 0 ? '' : `node-${version}.` };
    })
    .filter((n, i, all) => all.findIndex((m) => m.version === n.version) === i); // this Node once
  let fresh = 0;
  const firstDir = (): string => join(WORK, `startup-first-${fresh++}`);
  const cachedDir = (n: (typeof nodes)[number]): string => join(WORK, `startup-cache-${n.version}`);
  for (const n of nodes) rmSync(cachedDir(n), { recursive: true, force: true });
  /** `first`: a fresh, empty cache directory; `catalog`: this Node's warm one without its catalog entries. */
  type Case = { id: string; label: string; cli: boolean; args: string[]; first: boolean; catalog?: boolean };
  const cases: Case[] = [
    { id: 'node', label: 'node -e 0', cli: false, args: ['-e', '0'], first: false },
    { id: 'version', label: 'toolsearch --version', cli: true, args: ['--version'], first: false },
    {
      id: 'search',
      label: 'toolsearch search -c demo.yaml create issue (cached)',
      cli: true,
      args: search,
      first: false,
    },
    { id: 'first', label: 'the same search, first run (empty cache)', cli: true, args: search, first: true },
    {
      id: 'first-catalog',
      label: 'the same search, first run on this catalog (compiled code cached)',
      cli: true,
      args: search,
      first: false,
      catalog: true,
    },
  ];
  const envs = [
    { id: 'unset', label: 'NODE_EXTRA_CA_CERTS unset', value: undefined as string | undefined },
    ...(ca ? [{ id: 'set', label: `NODE_EXTRA_CA_CERTS=${ca}`, value: ca }] : []),
  ];
  const times = new Map<string, number[]>();
  const cpuTimes = new Map<string, number[]>();
  const once = (n: (typeof nodes)[number], c: Case, e: (typeof envs)[number]): { ms: number; cpu: number } => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      PATH: `${dirname(n.bin)}:${process.env.PATH ?? ''}`,
      NO_COLOR: '1',
      TOOLSEARCH_CACHE_DIR: c.first ? firstDir() : cachedDir(n),
    };
    if (c.catalog) {
      // A new catalog in a cache directory that has served others: its entry is what a first search writes.
      const dir = cachedDir(n);
      if (existsSync(dir)) for (const f of readdirSync(dir)) if (/^catalog-/.test(f)) rmSync(join(dir, f));
    }
    if (e.value === undefined) delete env.NODE_EXTRA_CA_CERTS;
    else env.NODE_EXTRA_CA_CERTS = e.value;
    const cmd = c.cli ? [CLI, ...c.args] : [n.bin, ...c.args];
    const [file, args] = TIME_BIN ? [TIME_BIN, ['-f', '@@CPU %U %S', ...cmd]] : [cmd[0]!, cmd.slice(1)];
    const t = performance.now();
    const r = spawnSync(file, args, { cwd: REPO, env, encoding: 'utf8' });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`${cmd.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 300)}`);
    const m = /@@CPU ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
    return { ms, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN };
  };
  const load0 = loadavg()[0]!;
  for (const n of nodes) for (const e of envs) for (const c of cases) once(n, c, e); // warm-up: fills the caches
  for (let round = 0; round < rounds; round++) {
    for (const n of nodes) {
      for (const e of envs) {
        for (const c of cases) {
          const key = `${n.id}${e.id}.${c.id}`;
          const r = once(n, c, e);
          (times.get(key) ?? times.set(key, []).get(key)!).push(r.ms);
          (cpuTimes.get(key) ?? cpuTimes.set(key, []).get(key)!).push(r.cpu);
        }
      }
    }
  }
  for (let i = 0; i < fresh; i++) rmSync(join(WORK, `startup-first-${i}`), { recursive: true, force: true });
  const load1 = loadavg()[0]!;
  // Issue 30's targets, set and unset alike: a first run may take 4× on Node 20 (no compile cache), 3× on
  // later Nodes; a first run on one more catalog is shown beside them, without one.
  const targets = (node: string): Record<string, number> => ({
    version: 1.3,
    search: 2.0,
    first: /^v20\./.test(node) ? 4.0 : 3.0,
  });
  const mean = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;
  for (const n of nodes) {
    section(
      `Start-up (node ${n.version}${n.id === '' ? '' : `, ${n.bin}`}; bin/toolsearch.js run as a program; ` +
        'medians of interleaved rounds)',
    );
    for (const e of envs) {
      console.log(`  ${e.label}:`);
      const floor = median(times.get(`${n.id}${e.id}.node`)!);
      const cpuFloor = mean(cpuTimes.get(`${n.id}${e.id}.node`)!);
      for (const c of cases) {
        const runs = times.get(`${n.id}${e.id}.${c.id}`)!;
        const m = median(runs);
        const cpu = mean(cpuTimes.get(`${n.id}${e.id}.${c.id}`)!);
        const cpuNote = Number.isNaN(cpu) ? '' : `, cpu mean ${fmt(cpu)} ms = ${(cpu / cpuFloor).toFixed(2)}× node's`;
        add({
          id: `startup.${n.id}${e.id}.${c.id}`,
          section: 'startup',
          label: `  ${c.label}`,
          value: m,
          unit: 'ms',
          better: 'lower',
          spread: spreadOf(runs) + cpuNote,
        });
        if (c.id === 'node') continue;
        const limit = targets(n.version)[c.id];
        const ratio = m / floor;
        const [lo, hi] = ratioInterval(runs, times.get(`${n.id}${e.id}.node`)!);
        add({
          id: `startup.${n.id}${e.id}.${c.id}.ratio`,
          section: 'startup',
          label: `    ÷ node -e 0`,
          value: ratio,
          unit: '×',
          better: 'lower',
          spread: `90% of resampled rounds ${fmt(lo)}–${fmt(hi)}`,
          ...(limit === undefined ? {} : { target: `≤ ${limit}×`, ok: ratio <= limit }),
        });
      }
    }
  }
  console.log(
    `  load average (1 min) ${load0.toFixed(2)} → ${load1.toFixed(2)} on ${cpus().length} cores, ${rounds} rounds`,
  );
}

interface Ran {
  /** Wall time, ms. */
  readonly ms: number;
  /** User + system CPU time of the child, ms (NaN without /usr/bin/time). */
  readonly cpu: number;
  /** Peak RSS of the child, KB (NaN without /usr/bin/time). */
  readonly maxRssKb: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
}

/**
 * Runs `node args…`, or, when args[0] is bin/toolsearch.js, the bin itself as
 * a program (as npm's bin link runs it; this Node first on PATH);
 * with /usr/bin/time, also the child's CPU time and peak RSS.
 */
function run(
  args: readonly string[],
  opts: { env?: Record<string, string>; unset?: readonly string[]; viaNode?: boolean } = {},
): Ran {
  // The CLI's loaded-catalog cache lives in the bench's own directory (fresh per run, see benchCli).
  const env: Record<string, string | undefined> = {
    ...process.env,
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    NO_COLOR: '1',
    TOOLSEARCH_CACHE_DIR: CACHE_DIR,
    ...(opts.env ?? {}),
  };
  for (const k of opts.unset ?? []) delete env[k];
  const argv = args[0] === CLI && opts.viaNode !== true ? [...args] : [process.execPath, ...args];
  const [cmd, cmdArgs] = TIME_BIN ? [TIME_BIN, ['-f', '@@TIME %U %S %M', ...argv]] : [argv[0]!, argv.slice(1)];
  const t = performance.now();
  const r = spawnSync(cmd, cmdArgs, { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 30, env });
  const ms = performance.now() - t;
  let stderr = r.stderr ?? '';
  let cpu = NaN;
  let maxRssKb = NaN;
  const m = /@@TIME ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(stderr);
  if (m) {
    cpu = (Number(m[1]) + Number(m[2])) * 1000;
    maxRssKb = Number(m[3]);
    stderr = stderr.slice(0, m.index);
  }
  // /usr/bin/time exits with the child's status.
  return { ms, cpu, maxRssKb, stdout: r.stdout, stderr, status: r.status };
}

function timeProcess(
  args: readonly string[],
  n: number,
  opts: Parameters<typeof run>[1] = {},
): { median: number; runs: number[]; cpu: number; out: string } {
  const runs: number[] = [];
  const cpu: number[] = [];
  let out = '';
  run(args, opts); // warm the file system cache
  for (let i = 0; i < n; i++) {
    const r = run(args, opts);
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
    runs.push(r.ms);
    cpu.push(r.cpu);
    out = r.stdout;
  }
  return { median: median(runs), runs, cpu: median(cpu), out };
}

const cpuNote = (cpu: number): string => (Number.isNaN(cpu) ? '' : `, cpu ${fmt(cpu)} ms`);

/** Named among the packages a case loads: the bundle's second file. */
const SECOND_FILE = 'dist/bundle/cli-more.cjs';

function loadedPackages(args: readonly string[]): string[] {
  const file = join(WORK, `modules-${process.pid}.txt`);
  rmSync(file, { force: true });
  run(['--import', join(REPO, 'test/bench/trace-modules.mjs'), ...args], { env: { TOOLSEARCH_TRACE_MODULES: file } });
  if (!existsSync(file)) return ['(trace failed)'];
  const pkgs = new Set<string>();
  for (const url of readFileSync(file, 'utf8').split('\n')) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m) pkgs.add(m[1]!);
    // The bundle's second file (src/build/bundle.mjs), which a plain search should never need.
    else if (url.endsWith('/dist/bundle/cli-more.cjs')) pkgs.add(SECOND_FILE);
  }
  rmSync(file, { force: true });
  return [...pkgs].sort();
}

function buildCli(): boolean {
  if (!NO_BUILD) {
    console.log('  (npm run build …)');
    try {
      execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO, stdio: 'pipe' });
    } catch (err) {
      const out = `${(err as { stdout?: Buffer }).stdout ?? ''}`
        .split('\n')
        .filter((l) => l.includes('error'))
        .slice(0, 3);
      console.log(`  (build reported errors; using what it emitted)\n    ${out.join('\n    ')}`);
    }
  }
  return existsSync(join(REPO, 'dist/bundle/cli.cjs'));
}

let built: boolean | undefined;
function buildCliOnce(): boolean {
  built ??= buildCli();
  return built;
}

async function benchCli(): Promise<void> {
  section('Whole-process CLI (bin/toolsearch.js … run as a program, as npm links it; median wall time)');
  if (!buildCliOnce()) {
    console.log('  dist/bundle/cli.cjs not found: skipped');
    return;
  }
  rmSync(CACHE_DIR, { recursive: true, force: true });
  const n = QUICK ? 7 : 15;
  const demo = 'fixtures/catalogs/demo.yaml';
  const transcript = 'fixtures/transcripts/keyword-search-then-call.json';
  const floor = timeProcess(['-e', '0'], n);
  add({
    id: 'cli.node',
    section: 'cli',
    label: 'node -e 0 (the floor: Node start-up alone)',
    value: floor.median,
    unit: 'ms',
    better: 'lower',
    spread: spreadOf(floor.runs) + cpuNote(floor.cpu),
  });
  const cases: Array<{ id: string; label: string; args: string[]; target?: number; forbidden: string[] }> = [
    { id: 'cli.version', label: 'toolsearch --version', args: [CLI, '--version'], forbidden: HEAVY },
    // Every timed run follows a warm-up run, so this is the catalog cache's hit path: a script's second call on.
    {
      id: 'cli.search',
      label: `toolsearch search -c demo.yaml create issue  (catalog cached)`,
      args: [CLI, 'search', '-c', demo, 'create', 'issue'],
      forbidden: ['react', 'ink', 'fuse.js', '@modelcontextprotocol/sdk', 'gpt-tokenizer', 'ai', SECOND_FILE],
    },
    // The first call on a catalog (or --no-cache): demo.yaml read by the YAML reader, then the same search.
    {
      id: 'cli.search.nocache',
      label: `toolsearch search -c demo.yaml create issue --no-cache  (parses the YAML)`,
      args: [CLI, 'search', '-c', demo, 'create', 'issue', '--no-cache'],
      forbidden: [SECOND_FILE],
    },
    {
      id: 'cli.search.nocache.json',
      label: `toolsearch search -c demo.mcp.json create issue --no-cache  (the same tools as JSON)`,
      args: [CLI, 'search', '-c', 'fixtures/catalogs/demo.mcp.json', 'create', 'issue', '--no-cache'],
      forbidden: [SECOND_FILE],
    },
    {
      id: 'cli.search.json',
      label: `toolsearch search -c demo.yaml --json --explain send message`,
      args: [CLI, 'search', '-c', demo, '--json', '--explain', 'send', 'message'],
      forbidden: ['react', 'ink', 'fuse.js', '@modelcontextprotocol/sdk', 'gpt-tokenizer', 'ai', SECOND_FILE],
    },
    // simulate counts tokens by default (gpt-tokenizer); --no-tokens must not load it.
    {
      id: 'cli.simulate',
      label: `toolsearch simulate ${transcript.split('/').pop()} -c demo.yaml`,
      args: [CLI, 'simulate', transcript, '-c', demo],
      forbidden: ['react', 'ink', 'fuse.js', '@modelcontextprotocol/sdk', 'ai'],
    },
    {
      id: 'cli.simulate.notokens',
      label: `toolsearch simulate ${transcript.split('/').pop()} -c demo.yaml --no-tokens`,
      args: [CLI, 'simulate', transcript, '-c', demo, '--no-tokens'],
      forbidden: ['react', 'ink', 'fuse.js', '@modelcontextprotocol/sdk', 'gpt-tokenizer', 'ai'],
    },
  ];
  for (const calls of GENERATED_CALLS) {
    const file = generatedTranscript(calls);
    if (!existsSync(file)) continue;
    const what = `<generated ${calls.toLocaleString('en-US')}-call transcript> -c demo.yaml --json`;
    cases.push({
      id: `cli.simulate.generated.${calls}`,
      label: `toolsearch simulate ${what}`,
      args: [CLI, 'simulate', file, '-c', demo, '--json'],
      forbidden: [],
    });
    cases.push({
      id: `cli.simulate.generated.${calls}.notokens`,
      label: `toolsearch simulate ${what} --no-tokens`,
      args: [CLI, 'simulate', file, '-c', demo, '--json', '--no-tokens'],
      forbidden: [],
    });
  }
  for (const c of cases) {
    if (c.args.includes(transcript) && !existsSync(join(REPO, transcript))) continue;
    let res: ReturnType<typeof timeProcess>;
    try {
      res = timeProcess(c.args, c.id.startsWith('cli.simulate.generated') ? 3 : n);
    } catch (err) {
      console.log(`  ${c.label}: ${(err as Error).message.split('\n')[0]}`);
      continue;
    }
    add({
      id: c.id,
      section: 'cli',
      label: c.label,
      value: res.median,
      unit: 'ms',
      better: 'lower',
      spread: spreadOf(res.runs) + cpuNote(res.cpu),
      ...(c.target !== undefined ? { target: `≤ ${c.target} ms`, ok: res.median <= c.target } : {}),
    });
    if (c.forbidden.length > 0) {
      const pkgs = loadedPackages(c.args);
      const bad = pkgs.filter((p) => c.forbidden.includes(p));
      add({
        id: `${c.id}.modules`,
        section: 'cli',
        label: `  packages loaded: ${pkgs.length === 0 ? 'none' : pkgs.join(', ')}`,
        value: bad.length,
        unit: 'heavy',
        better: 'lower',
        ok: bad.length === 0,
        ...(bad.length > 0 ? { note: `should not load: ${bad.join(', ')}` } : {}),
      });
    }
  }

  // search --batch against the 10,000-tool catalog: the query mix, every third line a query of the
  // tail-latency classes (issue 16: one letter, stop words, 10+ keywords, …) in turn. The per-line rate
  // is the marginal one, (20,000 − 10,000) lines / (T(20,000 lines) − T(10,000 lines)): start-up, catalog
  // load, the index built at first use and the JIT's warm-up are in both runs and cancel out.
  const size = 10_000;
  const tools = flatCatalog(size);
  const catalogFile = writeCatalogFile(size, tools);
  const lines = mixedBatchLines(tools, 20_000, SEED + 1);
  const half = lines.slice(0, 10_000);
  const all = writeLines('batch-20000.jsonl', lines);
  const many = writeLines('batch-10000.jsonl', half);
  const one = writeLines('batch-1.jsonl', lines.slice(0, 1));
  const batchArgs = (file: string) => [CLI, 'search', '-c', catalogFile, '--batch', file];
  let full: ReturnType<typeof timeProcess>;
  let double: ReturnType<typeof timeProcess>;
  let single: ReturnType<typeof timeProcess>;
  try {
    const reps = QUICK ? 3 : 5;
    single = timeProcess(batchArgs(one), reps);
    full = timeProcess(batchArgs(many), reps);
    double = timeProcess(batchArgs(all), reps);
  } catch (err) {
    console.log(`  search --batch: ${(err as Error).message.split('\n')[0]}`);
    return;
  }
  const outLines = double.out.split('\n').filter((l) => l !== '');
  const index = new ToolIndex(tools);
  let wrong = 0;
  lines.forEach((l, i) => {
    const r = runToolSearch(index, l);
    const v = JSON_SCHEMA_VERSION;
    const expected = JSON.stringify(
      r.ok ? { schema_version: v, matches: r.matches } : { schema_version: v, error: r.error },
    );
    if (outLines[i] !== expected) wrong++;
  });
  add({
    id: 'cli.batch.identical',
    section: 'cli',
    label: `search --batch output = in-process results (${lines.length.toLocaleString('en-US')} lines)`,
    value: lines.length - wrong,
    unit: `/${lines.length}`,
    better: 'higher',
    ok: wrong === 0 && outLines.length === lines.length,
  });
  add({
    id: 'cli.batch.one',
    section: 'cli',
    label: 'search --batch, 1 line, 10,000-tool catalog (start + load)',
    value: single.median,
    unit: 'ms',
    better: 'lower',
    spread: spreadOf(single.runs) + cpuNote(single.cpu),
  });
  add({
    id: 'cli.batch.full',
    section: 'cli',
    label: 'search --batch, 10,000 lines, 10,000-tool catalog',
    value: full.median,
    unit: 'ms',
    better: 'lower',
    spread: spreadOf(full.runs) + cpuNote(full.cpu),
  });
  add({
    id: 'cli.batch.double',
    section: 'cli',
    label: 'search --batch, 20,000 lines, 10,000-tool catalog',
    value: double.median,
    unit: 'ms',
    better: 'lower',
    spread: spreadOf(double.runs) + cpuNote(double.cpu),
  });
  const first = (half.length - 1) / ((full.median - single.median) / 1000);
  add({
    id: 'cli.batch.first',
    section: 'cli',
    label: 'search --batch, first 10,000 lines (with the index build at first use and the warm-up)',
    value: first,
    unit: 'lines/s',
    better: 'higher',
  });
  const perSecond = (lines.length - half.length) / ((double.median - full.median) / 1000);
  const perSecondCpu = (lines.length - half.length) / ((double.cpu - full.cpu) / 1000);
  add({
    id: 'cli.batch.throughput',
    section: 'cli',
    label: 'search --batch throughput per line (20,000 vs 10,000 lines: start and load excluded)',
    value: perSecond,
    unit: 'lines/s',
    better: 'higher',
    spread: Number.isNaN(perSecondCpu) ? undefined : `by cpu time ${fmt(perSecondCpu)} lines/s`,
    target: '≥ 20000 lines/s',
    ok: perSecond >= 20_000,
  });
}

// ---------------------------------------------------------------------------
// 5. Peak RSS, 100,000 tools

function benchRss(): void {
  const size = QUICK ? 10_000 : 100_000;
  section(`Peak RSS, ${size.toLocaleString('en-US')}-tool catalog (fresh processes)`);
  const tools = flatCatalog(size);
  const catalogFile = writeCatalogFile(size, tools);
  const queries = writeLines(
    `rss-queries-${size}.jsonl`,
    generateQueries(tools, 1000, SEED + 2).map((q) => q.args),
  );
  const childJs = join(REPO, 'node_modules/.cache/toolsearch-bench/child.mjs');
  const lib = run([childJs, catalogFile, queries]);
  if (lib.status === 0) {
    const r = JSON.parse(lib.stdout) as {
      maxRssKb: number;
      loadMs: number;
      indexMs: number;
      queriesMs: number;
      medianQueryMs: number;
    };
    const mb = r.maxRssKb / 1024;
    add({
      id: `rss.${size}.library`,
      section: 'rss',
      label: `library: JSON.parse catalog + ToolIndex + 1,000 queries`,
      value: mb,
      unit: 'MB',
      better: 'lower',
      spread: `load ${fmt(r.loadMs)} ms, index ${fmt(r.indexMs)} ms, queries ${fmt(r.queriesMs)} ms`,
      ...(size === 100_000 ? { target: '≤ 400 MB', ok: mb <= 400 } : {}),
    });
  } else console.log(`  library child failed: ${lib.stderr.slice(0, 300)}`);
  if (existsSync(join(REPO, 'dist/bundle/cli.cjs')) && TIME_BIN) {
    const r = run([CLI, 'search', '-c', catalogFile, '--batch', queries]);
    if (r.status === 0) {
      const mb = r.maxRssKb / 1024;
      add({
        id: `rss.${size}.cli`,
        section: 'rss',
        label: `CLI: search -c <catalog> --batch <1,000 lines>`,
        value: mb,
        unit: 'MB',
        better: 'lower',
        spread: `whole process ${fmt(r.ms)} ms${cpuNote(r.cpu)}`,
        ...(size === 100_000 ? { target: '≤ 400 MB', ok: mb <= 400 } : {}),
      });
    } else console.log(`  CLI run failed (${r.status}): ${r.stderr.slice(0, 300)}`);
  }
}

// ---------------------------------------------------------------------------
// 6. Bulk replay (test/bench/bulk.ts)

async function runBulkBench(): Promise<void> {
  section('Bulk replay: simulate over a JSONL file of generated 10-call sessions (demo catalog; whole processes)');
  if (!ONLY.has('cli') && !buildCli()) return void console.log('  dist/bundle/cli.cjs not found: skipped');
  if (!TIME_BIN) console.log('  (no /usr/bin/time: CPU time and RSS unknown)');
  benchBulk({ quick: QUICK, seed: SEED, work: WORK, cli: CLI, demo: await loadDemo(), add, run, fmt });
}

/** `--jobs 1`, `--jobs 2` and the default, interleaved (issue 27; test/bench/bulk.ts, benchBulkJobs). */
async function runBulkJobsBench(): Promise<void> {
  section('Bulk replay: --jobs 1, --jobs 2 and the default side by side (interleaved rounds; whole processes)');
  if (!ONLY.has('cli') && !ONLY.has('bulk') && !buildCli()) return void console.log('  dist/bundle/cli.cjs not found');
  const rounds = Number(option('--jobs-rounds') ?? (QUICK ? 3 : 5));
  const ctx = { quick: QUICK, seed: SEED, work: WORK, cli: CLI, demo: await loadDemo(), add, run, fmt };
  benchBulkJobs(ctx, rounds);
}

// ---------------------------------------------------------------------------
// watch --proxy under load (issue 31): test/bench/watch-load.mjs on the built CLI

function benchWatch(): void {
  const calls = QUICK ? 200 : 1000;
  section(
    `watch --proxy: ${calls} model calls from 20 concurrent clients on 127.0.0.1, each made side by side ` +
      'straight to the upstream and through the proxy (test/bench/watch-load.mjs; the built CLI)',
  );
  if (!existsSync(join(REPO, 'dist/cli/main.js'))) return void console.log('  dist/ not built: skipped');
  const out = join(WORK, 'watch-load.json');
  const r = spawnSync(
    process.execPath,
    [join(REPO, 'test/bench/watch-load.mjs'), '--calls', String(calls), '--clients', '20', '--json', out],
    { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  for (const line of `${r.stdout}${r.stderr}`.trim().split('\n')) console.log(`  | ${line}`);
  if (!existsSync(out)) return void console.log(`  watch-load.mjs exited ${r.status} without figures`);
  const w = JSON.parse(readFileSync(out, 'utf8')) as {
    direct: { median: number; p99: number };
    proxied: { median: number; p99: number };
    added: { median: number; p99: number; ttfb_median: number };
    lost_or_reordered: number;
  };
  const ms = (id: string, label: string, value: number): void =>
    add({ id: `watch.${id}`, section: 'watch', label, value, unit: 'ms', better: 'lower' });
  ms('direct.median', 'per call, direct: median', w.direct.median);
  ms('direct.p99', 'per call, direct: p99', w.direct.p99);
  ms('proxied.median', 'per call, through the proxy: median', w.proxied.median);
  ms('proxied.p99', 'per call, through the proxy: p99', w.proxied.p99);
  ms('added.median', 'added by the proxy: median', w.added.median);
  ms('added.p99', 'added by the proxy: p99', w.added.p99);
  ms('added.ttfb', 'first streamed byte, added: median', w.added.ttfb_median);
  add({
    id: 'watch.lost',
    section: 'watch',
    label: 'calls lost or reordered within a session',
    value: w.lost_or_reordered,
    unit: 'calls',
    better: 'lower',
    target: '0',
    ok: w.lost_or_reordered === 0,
  });
}

// ---------------------------------------------------------------------------
// 7. lint on the catalog shapes that made it quadratic (issue 14, finding 4)

/** What a lint run must take at most, per size, in wall time and peak RSS. */
const LINT_TARGETS: Readonly<Record<number, { s: number; mb?: number }>> = {
  10_000: { s: 10 },
  100_000: { s: 120, mb: 1024 },
};
const LINT_SHAPE_LABEL = {
  shared: 'one shared description',
  few: '97 distinct descriptions',
  unique: 'all descriptions unique',
} as const;

function benchLint(): void {
  const sizes = QUICK ? [10_000] : [10_000, 100_000];
  section(`lint, whole process (toolsearch lint -c <catalog.json>, human output to a pipe, first run: no cache entry)`);
  if (!buildCliOnce()) {
    console.log('  dist/bundle/cli.cjs not found: skipped');
    return;
  }
  for (const size of sizes) {
    for (const shape of LINT_SHAPES) {
      const file = join(WORK, `lint-${shape}-${size}-seed${SEED}.json`);
      if (!existsSync(file)) writeFileSync(file, JSON.stringify({ tools: generateLintCatalog(size, shape, SEED) }));
      rmSync(CACHE_DIR, { recursive: true, force: true });
      const r = run([CLI, 'lint', '-c', file]);
      const label = `lint ${size.toLocaleString('en-US')} tools, ${LINT_SHAPE_LABEL[shape]}`;
      // lint exits 0 with findings (1 only with --strict).
      if (r.status !== 0) {
        console.log(`  ${label}: exit ${r.status}: ${r.stderr.slice(0, 300)}`);
        add({
          id: `lint.${size}.${shape}.time`,
          section: 'lint',
          label,
          value: NaN,
          unit: 's',
          better: 'lower',
          target: `exit 0`,
          ok: false,
        });
        continue;
      }
      const target = LINT_TARGETS[size];
      const seconds = r.ms / 1000;
      const lines = r.stdout.split('\n').length;
      add({
        id: `lint.${size}.${shape}.time`,
        section: 'lint',
        label,
        value: seconds,
        unit: 's',
        better: 'lower',
        spread:
          `CPU ${fmt(r.cpu / 1000)} s, ${lines.toLocaleString('en-US')} ` +
          `lines, ${fmt(r.stdout.length / 1e6)} MB of output`,
        ...(target ? { target: `≤ ${target.s} s`, ok: seconds <= target.s } : {}),
      });
      if (TIME_BIN) {
        const mb = r.maxRssKb / 1024;
        add({
          id: `lint.${size}.${shape}.rss`,
          section: 'lint',
          label: `  peak RSS`,
          value: mb,
          unit: 'MB',
          better: 'lower',
          ...(target?.mb !== undefined ? { target: `≤ ${target.mb} MB`, ok: mb <= target.mb } : {}),
        });
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const started = new Date();
  const load0 = loadavg();
  console.log(`toolsearch benchmarks — ${started.toISOString()}`);
  console.log(
    `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ` +
      `load average ${load0.map((x) => x.toFixed(2)).join(' ')}` +
      `${QUICK ? ', --quick' : ''}, seed ${SEED}${process.env.NODE_EXTRA_CA_CERTS ? ', NODE_EXTRA_CA_CERTS set' : ''}`,
  );
  if (ONLY.has('query')) for (const size of SIZES) benchQueries(size);
  const classCtx = {
    quick: QUICK,
    seed: SEED,
    add,
    section,
    fmt,
    quantile,
    tools: flatCatalog,
    naive: naiveToolSearch,
    pairs: ourPairs,
  };
  if (ONLY.has('classes')) for (const size of CLASS_SIZES(QUICK)) benchQueryClasses(size, classCtx);
  if (ONLY.has('build')) for (const size of CLASS_SIZES(QUICK)) benchBuildVsBefore(size, classCtx);
  if (ONLY.has('build')) for (const size of SIZES) benchBuild(size);
  if (ONLY.has('simulate')) await benchSimulate();
  if (ONLY.has('startup') || ONLY.has('cli')) buildCliOnce();
  if (ONLY.has('startup')) benchStartup();
  if (ONLY.has('cli')) await benchCli();
  if (ONLY.has('rss')) benchRss();
  if (ONLY.has('bulk')) await runBulkBench();
  if (ONLY.has('jobs')) await runBulkJobsBench();
  if (ONLY.has('lint')) benchLint();
  if (ONLY.has('watch')) benchWatch();
  const load1 = loadavg();
  console.log(
    `\nload average at the end ${load1.map((x) => x.toFixed(2)).join(' ')};` +
      ` ${failures === 0 ? 'every checked target met' : `${failures} check(s) missed`}`,
  );

  if (JSON_OUT) {
    const result = {
      date: started.toISOString(),
      node: process.version,
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      quick: QUICK,
      seed: SEED,
      loadavg: { start: load0, end: load1 },
      rows,
    };
    writeFileSync(JSON_OUT, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`results written to ${JSON_OUT}`);
  }
  if (COMPARE) compare(COMPARE);
  process.exitCode = failures === 0 ? 0 : 1;
}

function compare(file: string): void {
  const old = JSON.parse(readFileSync(file, 'utf8')) as { date: string; rows: Row[] };
  const byId = new Map(old.rows.map((r) => [r.id, r]));
  console.log(`\nCompared with ${file} (${old.date}): new / old; "better" or "worse" when beyond ±10%`);
  for (const r of rows) {
    const o = byId.get(r.id);
    if (!o || o.value === 0) continue;
    const ratio = r.value / o.value;
    const improved = r.better === 'lower' ? ratio < 0.9 : ratio > 1.1;
    const worse = r.better === 'lower' ? ratio > 1.1 : ratio < 0.9;
    console.log(
      `  ${r.label.trim().padEnd(58)} ${fmt(o.value).padStart(10)} ` +
        `→ ${fmt(r.value).padStart(10)} ${r.unit.padEnd(8)} ` +
        `×${ratio.toFixed(2)}${improved ? '  better' : worse ? '  worse' : ''}`,
    );
  }
}

await main();
