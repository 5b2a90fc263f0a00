/**
 * Bench section `classes` (issue 16): tail latency by query class and catalog
 * size. Every query is checked against the naive model of SPEC §3; the index
 * as it was before issue 16 (test/bench/baseline/) runs the same queries in
 * the same run, so the ratios hold whatever the machine's load.
 *
 * A query's time is the median of its rounds (rounds interleave all queries,
 * so a burst of load hits every query alike); a class's p50/p90/p99/max are
 * over its queries. The worst single run is reported beside it.
 */
import { ToolIndex } from '../../src/core/index/tool-index.js';
import {
  decodeToolSearchArgs,
  searchDecoded,
  type ToolSearchArgs,
  type ToolSearchOutcome,
} from '../../src/core/toolsearch.js';
import type { ToolInfo } from '../../src/core/types.js';
import { ToolIndex as ToolIndexBefore } from './baseline/scorer-before-16.js';
import { generateClassQueries, QUERY_CLASSES, type ClassQuery } from './classes.js';
import { generateQueries } from './generate.js';

export interface ClassRow {
  readonly id: string;
  readonly section: string;
  readonly label: string;
  readonly value: number;
  readonly unit: string;
  readonly better: 'lower' | 'higher';
  readonly spread?: string;
  readonly target?: string;
  readonly ok?: boolean;
}

export interface ClassBenchContext {
  readonly quick: boolean;
  readonly seed: number;
  add(row: ClassRow): void;
  section(title: string): void;
  fmt(v: number): string;
  quantile(xs: readonly number[], q: number): number;
  tools(size: number): ToolInfo[];
  /** The naive model's answer: [name, score] pairs, or an error text. */
  naive(args: ToolSearchArgs, tools: readonly ToolInfo[]): Array<[string, number]> | string;
  pairs(r: ToolSearchOutcome): Array<[string, number]> | string;
}

/** Targets of issue 16, per catalog size: p99 and max of every class, in ms. */
const TARGETS: Record<number, { p99?: number; max: number }> = { 10_000: { p99: 0.3, max: 1 }, 100_000: { max: 5 } };

/** `count` JSONL lines of tool_search arguments: the query mix, every third line a class query (classes in turn). */
export function mixedBatchLines(tools: readonly ToolInfo[], count: number, seed: number): string[] {
  const mix = generateQueries(tools, count, seed).map((q) => q.args);
  const byClass = generateClassQueries(tools, Math.ceil(count / 3 / QUERY_CLASSES.length) + 1, seed);
  const perClass = byClass.length / QUERY_CLASSES.length;
  let k = 0;
  return mix.map((line, i) => {
    if (i % 3 !== 2) return line;
    const c = k % QUERY_CLASSES.length;
    const j = Math.floor(k / QUERY_CLASSES.length) % perClass;
    k++;
    return byClass[c * perClass + j]!.args;
  });
}

export const CLASS_SIZES = (quick: boolean): number[] => (quick ? [10_000] : [10_000, 100_000]);

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

export function benchQueryClasses(size: number, ctx: ClassBenchContext): void {
  const { fmt, quantile, add } = ctx;
  const label = size.toLocaleString('en-US');
  ctx.section(`Query classes, ${label}-tool catalog (in-process ToolIndex.search via searchDecoded; ms per query)`);
  const tools = ctx.tools(size);
  const perClass = size >= 100_000 ? (ctx.quick ? 8 : 12) : ctx.quick ? 30 : 60;
  const queries: ClassQuery[] = generateClassQueries(tools, perClass, ctx.seed);
  const args = queries.map((q) => {
    const d = decodeToolSearchArgs(q.args);
    if (!d.ok) throw new Error(`class query does not decode: ${q.args}`);
    return d.args;
  });
  const ours = new ToolIndex(tools);
  const before = new ToolIndexBefore(tools);
  // The first searches of `auto` scan every tool; the correctness pass below
  // makes both build what they build on demand before anything is timed.
  for (const index of [ours, before] as const)
    for (let i = 0; i < 3; i++) index.search([{ word: 'x', lower: 'x', required: false }], 5);

  // Correctness: every query, ours against the naive model (timed: the naive baseline).
  const naiveMs: number[] = [];
  let mismatches = 0;
  for (let i = 0; i < queries.length; i++) {
    let expected: ReturnType<ClassBenchContext['naive']> = [];
    naiveMs.push(time(() => (expected = ctx.naive(args[i]!, tools))));
    const got = ctx.pairs(searchDecoded(ours, args[i]!));
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      mismatches++;
      if (mismatches <= 3)
        console.log(
          `  MISMATCH [${queries[i]!.cls}] ${queries[i]!.args}\n    ` +
            `ours:  ${JSON.stringify(got)}\n    naive: ${JSON.stringify(expected)}`,
        );
    }
  }
  add({
    id: `classes.${size}.identical`,
    section: 'classes',
    label: `results identical to the naive model (${queries.length} class queries)`,
    value: queries.length - mismatches,
    unit: `/${queries.length}`,
    better: 'higher',
    ok: mismatches === 0,
  });

  const rounds = size >= 100_000 ? (ctx.quick ? 3 : 5) : ctx.quick ? 5 : 9;
  const runs = (index: { search: ToolIndex['search'] }, n: number): number[][] => {
    const per: number[][] = queries.map(() => []);
    for (let r = 0; r < n; r++)
      for (let i = 0; i < queries.length; i++) per[i]!.push(time(() => searchDecoded(index as ToolIndex, args[i]!)));
    return per;
  };
  const oursRuns = runs(ours, rounds);
  const beforeRuns = runs(before as unknown as ToolIndex, Math.max(3, rounds >> 1));
  const med = (xs: readonly number[]): number => quantile(xs, 0.5);
  const target = TARGETS[size];
  let allOk = true;
  for (const cls of QUERY_CLASSES) {
    const idx = queries.map((q, i) => (q.cls === cls ? i : -1)).filter((i) => i >= 0);
    const o = idx.map((i) => med(oursRuns[i]!));
    const b = idx.map((i) => med(beforeRuns[i]!));
    const worstRun = Math.max(...idx.flatMap((i) => oursRuns[i]!));
    const [p50, p90, p99, max] = [0.5, 0.9, 0.99, 1].map((q) => quantile(o, q)) as [number, number, number, number];
    const [bp50, bp99, bmax] = [0.5, 0.99, 1].map((q) => quantile(b, q)) as [number, number, number];
    const ok = target === undefined ? undefined : (target.p99 === undefined || p99 <= target.p99) && max <= target.max;
    if (ok === false) allOk = false;
    const slowest = idx[o.indexOf(max)]!;
    add({
      id: `classes.${size}.${cls
        .replace(/[^a-z0-9]+/gi, '-')
        .replace(/^-|-$/g, '')
        .toLowerCase()}`,
      section: 'classes',
      label: `${cls}: p99 (${idx.length} queries)`,
      value: p99,
      unit: 'ms',
      better: 'lower',
      spread:
        `p50 ${fmt(p50)}, p90 ${fmt(p90)}, max ${fmt(max)}, worst run ${fmt(worstRun)}; ` +
        `before p50 ${fmt(bp50)}, p99 ${fmt(bp99)}, max ${fmt(bmax)} ` +
        `(p99 ×${fmt(bp99 / p99)}, max ×${fmt(bmax / max)}); naive ` +
        `p50 ${fmt(med(idx.map((i) => naiveMs[i]!)))}; ` +
        `slowest ${JSON.stringify(queries[slowest]!.query).slice(0, 60)}`,
      ...(target !== undefined
        ? { target: `${target.p99 !== undefined ? `p99 ≤ ${target.p99} ms, ` : ''}max ≤ ${target.max} ms`, ok }
        : {}),
    });
  }
  const all = queries.map((_, i) => med(oursRuns[i]!));
  const allBefore = queries.map((_, i) => med(beforeRuns[i]!));
  add({
    id: `classes.${size}.all`,
    section: 'classes',
    label: `every class: max (${queries.length} queries)`,
    value: Math.max(...all),
    unit: 'ms',
    better: 'lower',
    spread:
      `p50 ${fmt(quantile(all, 0.5))}, p99 ${fmt(quantile(all, 0.99))}; before ` +
      `max ${fmt(Math.max(...allBefore))}, p50 ${fmt(quantile(allBefore, 0.5))}`,
    ...(target !== undefined ? { target: `max ≤ ${target.max} ms`, ok: allOk && Math.max(...all) <= target.max } : {}),
  });
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function heldBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Build time (constructor + what the first indexed search builds) and memory held, ours and before, interleaved. */
export function benchBuildVsBefore(size: number, ctx: ClassBenchContext): void {
  const { fmt, quantile, add } = ctx;
  ctx.section(`Index build vs before issue 16, ${size.toLocaleString('en-US')}-tool catalog (same run, interleaved)`);
  const tools = ctx.tools(size);
  const kw = [{ word: 'zzzz', lower: 'zzzz', required: false }];
  const make = {
    ours: () => new ToolIndex(tools, { prefilter: 'always' }),
    before: () => new ToolIndexBefore(tools, { prefilter: 'always' }) as unknown as ToolIndex,
  };
  const times = { ours: [] as number[], before: [] as number[] };
  const held = { ours: [] as number[], before: [] as number[] };
  const reps = size >= 100_000 ? (ctx.quick ? 2 : 3) : ctx.quick ? 5 : 7;
  // Memory first: everything kept alive until the end (freed typed arrays are
  // counted until a background sweep), each index's growth measured alone.
  const alive: ToolIndex[] = [];
  for (let r = 0; r < 2; r++) {
    for (const which of ['before', 'ours'] as const) {
      const m0 = heldBytes();
      const index = make[which]();
      index.search(kw, 5);
      alive.push(index);
      held[which].push(heldBytes() - m0);
    }
  }
  alive.length = 0;
  for (const which of ['ours', 'before'] as const) make[which]().search(kw, 5); // warm the code
  for (let r = 0; r < reps; r++) {
    for (const which of ['ours', 'before'] as const) {
      gc();
      times[which].push(time(() => make[which]().search(kw, 5)));
    }
  }
  const med = (xs: readonly number[]): number => quantile(xs, 0.5);
  const tr = med(times.ours) / med(times.before);
  add({
    id: `build.${size}.vs-before.time`,
    section: 'build',
    label: 'build time (constructor + indexes), ours / before',
    value: tr,
    unit: '×',
    better: 'lower',
    spread: `ours ${fmt(med(times.ours))} ms, before ${fmt(med(times.before))} ms, n=${reps}`,
    target: '≤ 1.5×',
    ok: tr <= 1.5,
  });
  const mr = med(held.ours) / med(held.before);
  add({
    id: `build.${size}.vs-before.memory`,
    section: 'build',
    label: 'memory held by the index, ours / before',
    value: mr,
    unit: '×',
    better: 'lower',
    spread:
      `ours ${fmt(med(held.ours) / 1e6)} MB ` +
      `(${fmt(med(held.ours) / size)} B/tool), before ${fmt(med(held.before) / 1e6)} MB`,
    target: '≤ 1.5×',
    ok: mr <= 1.5,
  });
}
