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
import { decodeToolSearchArgs, searchDecoded, type ToolSearchArgs, type ToolSearchOutcome } from '../../src/core/toolsearch.js';
import type { ToolInfo } from '../../src/core/types.js';
import { ToolIndex as ToolIndexBefore } from './baseline/scorer-before-16.js';
import { generateClassQueries, QUERY_CLASSES, type ClassQuery } from './classes.js';

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
  const perClass = size >= 100_000 ? (ctx.quick ? 8 : 24) : ctx.quick ? 30 : 60;
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
  for (const index of [ours, before] as const) for (let i = 0; i < 3; i++) index.search([{ word: 'x', lower: 'x', required: false }], 5);

  // Correctness: every query, ours against the naive model (timed: the naive baseline).
  const naiveMs: number[] = [];
  let mismatches = 0;
  for (let i = 0; i < queries.length; i++) {
    let expected: ReturnType<ClassBenchContext['naive']> = [];
    naiveMs.push(time(() => (expected = ctx.naive(args[i]!, tools))));
    const got = ctx.pairs(searchDecoded(ours, args[i]!));
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      mismatches++;
      if (mismatches <= 3) console.log(`  MISMATCH [${queries[i]!.cls}] ${queries[i]!.args}\n    ours:  ${JSON.stringify(got)}\n    naive: ${JSON.stringify(expected)}`);
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
    for (let r = 0; r < n; r++) for (let i = 0; i < queries.length; i++) per[i]!.push(time(() => searchDecoded(index as ToolIndex, args[i]!)));
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
      id: `classes.${size}.${cls.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase()}`,
      section: 'classes',
      label: `${cls}: p99 (${idx.length} queries)`,
      value: p99,
      unit: 'ms',
      better: 'lower',
      spread:
        `p50 ${fmt(p50)}, p90 ${fmt(p90)}, max ${fmt(max)}, worst run ${fmt(worstRun)}; before p50 ${fmt(bp50)}, p99 ${fmt(bp99)}, max ${fmt(bmax)} ` +
        `(p99 ×${fmt(bp99 / p99)}, max ×${fmt(bmax / max)}); naive p50 ${fmt(med(idx.map((i) => naiveMs[i]!)))}; slowest ${JSON.stringify(queries[slowest]!.query).slice(0, 60)}`,
      ...(target !== undefined ? { target: `${target.p99 !== undefined ? `p99 ≤ ${target.p99} ms, ` : ''}max ≤ ${target.max} ms`, ok } : {}),
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
    spread: `p50 ${fmt(quantile(all, 0.5))}, p99 ${fmt(quantile(all, 0.99))}; before max ${fmt(Math.max(...allBefore))}, p50 ${fmt(quantile(allBefore, 0.5))}`,
    ...(target !== undefined ? { target: `max ≤ ${target.max} ms`, ok: allOk && Math.max(...all) <= target.max } : {}),
  });
}
