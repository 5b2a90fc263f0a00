/**
 * Bench section `bulk` (issue 16 §2): `toolsearch simulate` over a JSONL
 * file of generated 10-call sessions against the demo catalog, as whole
 * processes. Sessions are generated here (1,000 distinct ones, repeated to
 * the size, written as a stream) and the files removed afterwards, never
 * committed. Throughput excludes process start and catalog load: (N − 1)
 * sessions / (time for N − time for 1), as `search --batch` does. Every run's
 * aggregate is checked: N sessions replayed, none failed, the same aggregate
 * with 1 and with 2 jobs.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { runToolSearch } from '../../src/core/toolsearch.js';
import { createMiddleware } from '../../src/core/middleware.js';
import type { ToolInfo } from '../../src/core/types.js';
import { generateTranscript, toEinoJson } from './generate.js';

export interface BulkBenchContext {
  readonly quick: boolean;
  readonly seed: number;
  readonly work: string;
  readonly cli: string;
  readonly demo: { readonly dynamic: readonly ToolInfo[] };
  readonly add: (row: {
    id: string;
    section: string;
    label: string;
    value: number;
    unit: string;
    better: 'lower' | 'higher';
    spread?: string;
    target?: string;
    ok?: boolean;
    note?: string;
  }) => void;
  readonly run: (args: readonly string[]) => {
    ms: number;
    cpu: number;
    maxRssKb: number;
    stdout: string;
    stderr: string;
    status: number | null;
  };
  readonly fmt: (v: number) => string;
}

const CALLS = 10;
/** Model calls per session of the jobs section's longer sessions. */
const LONG_CALLS = 40;
const DISTINCT = 1000;

/** `DISTINCT` generated sessions of `calls` model calls against the demo catalog, each an Eino message array. */
function generatedSessions(ctx: BulkBenchContext, calls: number): string[] {
  const mw = createMiddleware({ dynamicTools: ctx.demo.dynamic });
  const search = (a: string): readonly string[] | null => {
    const r = runToolSearch(mw.index, a);
    return r.ok ? r.matches : null;
  };
  return Array.from({ length: DISTINCT }, (_, i) =>
    JSON.stringify(toEinoJson(generateTranscript(ctx.demo.dynamic, calls, search, ctx.seed * 100_003 + i) as never)),
  );
}

/**
 * Writes `n` sessions (one whole recording per line), cycling through `distinct` ones; `kind` names the file
 * (empty for the generated 10-call sessions); with `part`, only the sessions from `part.from` up to `part.to` of
 * those `n` (a half, for two processes).
 */
function writeSessions(
  ctx: BulkBenchContext,
  n: number,
  distinct: readonly string[],
  kind = '',
  part?: { readonly from: number; readonly to: number; readonly name: string },
): string {
  const base = `bulk-${n}${kind}${part ? `-${part.name}` : ''}`;
  const file = join(ctx.work, `${base}-seed${ctx.seed}.jsonl`);
  const fd = openSync(file, 'w');
  try {
    let batch = '';
    for (let i = part?.from ?? 0; i < (part?.to ?? n); i++) {
      batch += `${distinct[i % distinct.length]!}\n`;
      if (batch.length > 1 << 20) {
        writeSync(fd, batch);
        batch = '';
      }
    }
    writeSync(fd, batch);
  } finally {
    closeSync(fd);
  }
  return file;
}

interface AggregateLike {
  readonly sessions: { readonly replayed: number; readonly failed: number };
  readonly model_calls: number;
}

export function benchBulk(ctx: BulkBenchContext): void {
  const { add, fmt } = ctx;
  const distinct = generatedSessions(ctx, CALLS);
  const sizes = ctx.quick ? [1000, 10_000] : [1000, 10_000, 100_000];
  const files = new Map<number, string>([[1, writeSessions(ctx, 1, distinct)]]);
  for (const n of sizes) files.set(n, writeSessions(ctx, n, distinct));
  const demoCatalog = 'fixtures/catalogs/demo.yaml';
  const simulateArgs = (n: number, jobs: number, tokens: boolean): string[] => [
    ctx.cli,
    'simulate',
    files.get(n)!,
    '-c',
    demoCatalog,
    '--json',
    '--jobs',
    String(jobs),
    ...(tokens ? [] : ['--no-tokens']),
  ];
  const once = (
    n: number,
    jobs: number,
    tokens: boolean,
  ): { ms: number; cpu: number; rssMb: number; aggregate: AggregateLike; out: string } => {
    const r = ctx.run(simulateArgs(n, jobs, tokens));
    if (r.status !== 0) throw new Error(`bulk simulate of ${n} sessions exited ${r.status}: ${r.stderr.slice(0, 400)}`);
    const aggregate = JSON.parse(r.stdout) as AggregateLike;
    if (aggregate.sessions.replayed !== n || aggregate.sessions.failed !== 0)
      throw new Error(`bulk simulate of ${n} sessions: ${JSON.stringify(aggregate.sessions)}`);
    return { ms: r.ms, cpu: r.cpu, rssMb: r.maxRssKb / 1024, aggregate, out: r.stdout };
  };
  const best = (n: number, jobs: number, tokens: boolean, reps: number): ReturnType<typeof once> => {
    // The machine is shared: the fastest of a few runs is the least disturbed.
    let b: ReturnType<typeof once> | null = null;
    for (let i = 0; i < reps; i++) {
      const r = once(n, jobs, tokens);
      if (!b || r.ms < b.ms) b = r;
    }
    return b!;
  };
  try {
    once(1, 1, false); // warm the catalog cache and the file system cache
    const start1 = best(1, 1, false, 3);
    const start2 = best(1, 2, false, 3);
    const perSecond = (n: number, t: number, start: number): number => (n - 1) / ((t - start) / 1000);
    // The machine is shared: CPU time (all threads) is steadier than wall time under load.
    const perCpuSecond = (n: number, r: { cpu: number }, start: { cpu: number }): number =>
      (n - 1) / ((r.cpu - start.cpu) / 1000);
    const results = new Map<string, ReturnType<typeof once>>();
    for (const n of sizes) {
      const reps = n >= 100_000 ? 1 : 3;
      const two = best(n, 2, false, reps);
      results.set(`${n}.2`, two);
      const rate = perSecond(n, two.ms, start2.ms);
      add({
        id: `bulk.${n}.jobs2`,
        section: 'bulk',
        label: `simulate ${n.toLocaleString('en-US')} sessions × ${CALLS} calls, --jobs 2, --no-tokens`,
        value: rate,
        unit: 'sess/s',
        better: 'higher',
        spread:
          `whole process ${fmt(two.ms)} ms, cpu ${fmt(two.cpu)} ms ` +
          `(${fmt(perCpuSecond(n, two, start2))} sessions per CPU second), ` +
          `${fmt((1000 * (two.cpu - start2.cpu)) / two.aggregate.model_calls)} µs CPU per model call, ` +
          `RSS ${fmt(two.rssMb)} MB`,
        ...(n === 10_000 ? { target: '≥ 1,000', ok: rate >= 1000 } : {}),
      });
      if (n === 100_000) {
        add({
          id: `bulk.${n}.rss`,
          section: 'bulk',
          label: `peak RSS, ${n.toLocaleString('en-US')} sessions, --jobs 2 (all threads)`,
          value: two.rssMb,
          unit: 'MB',
          better: 'lower',
          target: '≤ 300 MB',
          ok: two.rssMb <= 300,
        });
      }
    }
    // One worker against two, same input.
    const n = 10_000;
    const one = best(n, 1, false, 3);
    const two = results.get(`${n}.2`)!;
    const rate1 = perSecond(n, one.ms, start1.ms);
    const rate2 = perSecond(n, two.ms, start2.ms);
    add({
      id: `bulk.${n}.jobs1`,
      section: 'bulk',
      label: `simulate ${n.toLocaleString('en-US')} sessions, --jobs 1 (main thread), --no-tokens`,
      value: rate1,
      unit: 'sess/s',
      better: 'higher',
      spread:
        `whole process ${fmt(one.ms)} ms, cpu ${fmt(one.cpu)} ms ` +
        `(${fmt(perCpuSecond(n, one, start1))} sessions per CPU second), RSS ${fmt(one.rssMb)} MB`,
    });
    add({
      id: `bulk.speedup.jobs2`,
      section: 'bulk',
      label: `--jobs 2 vs --jobs 1 (${n.toLocaleString('en-US')} sessions, whole run with warm-up)`,
      value: rate2 / rate1,
      unit: '×',
      better: 'higher',
      target: '≥ 1.7×',
      ok: rate2 / rate1 >= 1.7,
      note:
        `CPU time with 2 jobs / 1 ` +
        `job: ${fmt((two.cpu - start2.cpu) / (one.cpu - start1.cpu))}× (the cost of the threads)`,
    });
    // Throughput once both runs are warm: the marginal rate between the two largest sizes, for one job and two. Each
    // thread compiles its own code (V8 shares no compiled code between threads), and while it warms up the compiler
    // threads that a lone thread runs on the idle core compete with the second job: the whole-run ratio above carries
    // that warm-up, the marginal one does not.
    const large = sizes[sizes.length - 1]!;
    const mid = sizes[sizes.length - 2]!;
    const oneLarge = large === n ? one : best(large, 1, false, 1);
    const oneMid = mid === n ? one : best(mid, 1, false, 3);
    const marginal = (a: { ms: number }, b: { ms: number }): number => (large - mid) / ((b.ms - a.ms) / 1000);
    const m1 = marginal(oneMid, oneLarge);
    const m2 = marginal(results.get(`${mid}.2`)!, results.get(`${large}.2`)!);
    add({
      id: `bulk.speedup.jobs2.marginal`,
      section: 'bulk',
      label:
        `--jobs 2 vs --jobs 1, marginal rate ` +
        `${mid.toLocaleString('en-US')} → ${large.toLocaleString('en-US')} sessions`,
      value: m2 / m1,
      unit: '×',
      better: 'higher',
      target: '≥ 1.7×',
      ok: m2 / m1 >= 1.7,
      note: `${fmt(m2)} vs ${fmt(m1)} sessions/s; one job ${fmt(oneLarge.ms)} ms for ${large.toLocaleString('en-US')}`,
    });
    add({
      id: `bulk.identical.jobs`,
      section: 'bulk',
      label: `aggregate with --jobs 1 = with --jobs 2 (${n.toLocaleString('en-US')} sessions)`,
      value: one.out === two.out ? 1 : 0,
      unit: '/1',
      better: 'higher',
      ok: one.out === two.out,
    });
    // Linear in model calls: CPU time per call at the largest size over the smallest (wall time is
    // at the mercy of other work on a shared machine; the row's note gives the wall-time ratio).
    const small = sizes[0]!;
    const perCall = (k: number, key: 'ms' | 'cpu'): number => {
      const r = results.get(`${k}.2`)!;
      return (r[key] - start2[key]) / r.aggregate.model_calls;
    };
    add({
      id: `bulk.linearity`,
      section: 'bulk',
      label: `CPU time per model call, ${large.toLocaleString('en-US')} vs ${small.toLocaleString('en-US')} sessions`,
      note: `wall time: ${fmt(perCall(large, 'ms') / perCall(small, 'ms'))}×`,
      value: perCall(large, 'cpu') / perCall(small, 'cpu'),
      unit: '×',
      better: 'lower',
      target: '≤ 1.3× (linear)',
      ok: perCall(large, 'cpu') / perCall(small, 'cpu') <= 1.3,
    });
    // Token accounting on (the default).
    const tn = 1000;
    const tok = best(tn, 2, true, 2);
    const tokStart = best(1, 2, true, 2);
    add({
      id: `bulk.${tn}.tokens`,
      section: 'bulk',
      label: `simulate ${tn.toLocaleString('en-US')} sessions, --jobs 2, token counts on`,
      value: perSecond(tn, tok.ms, tokStart.ms),
      unit: 'sess/s',
      better: 'higher',
      spread:
        `whole process ${fmt(tok.ms)} ms, cpu ${fmt(tok.cpu)} ms ` +
        `(${fmt(perCpuSecond(tn, tok, tokStart))} sessions per CPU second), RSS ${fmt(tok.rssMb)} MB`,
    });
  } finally {
    for (const f of files.values()) rmSync(f, { force: true });
  }
}

/** The median of some numbers. */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Milliseconds from starting two `simulate --jobs 1` processes together, one on each half of the sessions, to
 * the end of the later one (timed inside a small Node script, so that its own start is not counted).
 */
function twoProcesses(
  ctx: BulkBenchContext,
  halves: readonly [string, string],
  args: (extra: readonly string[], input: string) => string[],
): number {
  const script = [
    "const { spawn } = require('node:child_process');",
    'const runs = JSON.parse(process.argv[1]);',
    'const t = process.hrtime.bigint();',
    'let left = runs.length;',
    'for (const a of runs)',
    "  spawn(process.execPath, a, { stdio: 'ignore' }).on('exit', (code) => {",
    '    if (code !== 0) process.exitCode = 1;',
    '    if (--left === 0) console.log(Number(process.hrtime.bigint() - t) / 1e6);',
    '  });',
  ].join('\n');
  const runs = halves.map((f) => args(['--jobs', '1'], f));
  const res = ctx.run(['-e', script, JSON.stringify(runs)]);
  if (res.status !== 0) throw new Error(`two processes on ${halves.join(' and ')}: exit ${res.status}`);
  return Number(res.stdout.trim());
}

const pct = (x: number): string => `${x.toFixed(0)}%`;

/** How `--jobs` is given in an interleaved round: 1, 2, or not at all (the default). */
const JOB_CHOICES = [
  { id: 'jobs1', label: '--jobs 1', args: ['--jobs', '1'] },
  { id: 'jobs2', label: '--jobs 2', args: ['--jobs', '2'] },
  { id: 'default', label: 'no --jobs (the default)', args: [] },
] as const;

/**
 * Bench section `jobs` (issue 27): `--jobs 1`, `--jobs 2` and the default (no `--jobs`: as many threads as the
 * machine has, started only when the input left pays for their warm-up) side by side, whole processes, at 1,000,
 * 3,000, 10,000 and 100,000 sessions of 10 model calls, 10,000 of 40 and 10,000 of the bundled recordings. The
 * machine is shared and noisy: the three run in turn, one after the other, in a rotating order, `rounds` times (3
 * at 100,000); each round gives the ratios time(--jobs 1) / time(x) of its own runs, and the rows are the medians
 * of those ratios (so a disturbance hits one round, not one configuration). Targets: `--jobs 2` ≥ 1.5× at 10,000
 * sessions and more; the default never slower than `--jobs 1` (≥ 1.0×, or no worker started: then it does what
 * `--jobs 1` does).
 * Beside `--jobs 2` at 10,000 sessions and more, in the same rounds: two processes started together, each on
 * half the sessions, the most two threads can give on this machine.
 */
export function benchBulkJobs(ctx: BulkBenchContext, rounds: number): void {
  const { add, fmt } = ctx;
  const short = generatedSessions(ctx, CALLS);
  // The bundled example sessions (fixtures/bulk/sessions.jsonl): whole recordings of four formats, 38 kB each
  // (request bodies that carry the catalog), as an agent's logs are; their replay is mostly reading JSON.
  const recordings = readFileSync('fixtures/bulk/sessions.jsonl', 'utf8').split('\n').filter(Boolean);
  // 3,000: a worker started on a rate taken before the JIT had warmed made --jobs 2 20% slower there (issue 27).
  // The bench's sessions are short (10 model calls); an agent's are often longer: 10,000 of 40 calls too, and
  // 10,000 of the bundled recordings (under a rule that allowed the JIT 10× for good, no worker started there).
  type Case = { n: number; kind: string; size: string; distinct: () => readonly string[] };
  const generated = (n: number, calls: number): Case => ({
    n,
    kind: calls === CALLS ? '' : `x${calls}`,
    size: `${n.toLocaleString('en-US')}${calls === CALLS ? '' : ` × ${calls}-call`}`,
    distinct: () => (calls === CALLS ? short : generatedSessions(ctx, calls)),
  });
  const cases: Case[] = [
    ...(ctx.quick ? [1000, 3000, 10_000] : [1000, 3000, 10_000, 100_000]).map((n) => generated(n, CALLS)),
    generated(10_000, LONG_CALLS),
    {
      n: 10_000,
      kind: 'recordings',
      size: '10,000 bundled-recording',
      distinct: () => recordings,
    },
  ];
  const files: string[] = [];
  try {
    for (const { n, kind, size, distinct: sessions } of cases) {
      const distinct = sessions();
      const file = writeSessions(ctx, n, distinct, kind);
      files.push(file);
      // Where --jobs 2 is held to 1.5×: two processes, each on half the sessions, started together, beside it.
      // No thread pool does better than that on this machine (each warms its own JIT; nothing is shared).
      const halves =
        n >= 10_000
          ? ([
              { from: 0, to: n >> 1, name: 'first-half' },
              { from: n >> 1, to: n, name: 'second-half' },
            ].map((part) => writeSessions(ctx, n, distinct, kind, part)) as [string, string])
          : null;
      if (halves) files.push(...halves);
      const args = (extra: readonly string[], input = file): string[] => [
        ctx.cli,
        'simulate',
        input,
        '-c',
        'fixtures/catalogs/demo.yaml',
        '--json',
        '--no-tokens',
        // --verbose: a note on stderr says whether workers started (the output is the same)
        '--verbose',
        ...extra,
      ];
      ctx.run(args(['--jobs', '1'])); // the file and the catalog cache warm
      const times = new Map<string, number[]>(JOB_CHOICES.map((c) => [c.id, []]));
      const ratios = new Map<string, number[]>(JOB_CHOICES.map((c) => [c.id, []]));
      const outputs = new Set<string>();
      // Rounds in which each choice started workers (the --verbose note).
      const started = new Map<string, number>(JOB_CHOICES.map((c) => [c.id, 0]));
      // time(--jobs 1) / time(two processes on the halves), per round.
      const bound: number[] = [];
      const r = n >= 100_000 ? Math.min(rounds, 3) : rounds;
      for (let round = 0; round < r; round++) {
        const ms = new Map<string, number>();
        for (let k = 0; k < JOB_CHOICES.length; k++) {
          const c = JOB_CHOICES[(round + k) % JOB_CHOICES.length]!;
          const res = ctx.run(args(c.args));
          if (res.status !== 0) throw new Error(`simulate ${n} sessions ${c.label}: exit ${res.status}`);
          const agg = JSON.parse(res.stdout) as AggregateLike;
          if (agg.sessions.replayed !== n || agg.sessions.failed !== 0)
            throw new Error(`simulate ${n} sessions ${c.label}: ${JSON.stringify(agg.sessions)}`);
          outputs.add(res.stdout);
          if (/^note: bulk replay: \d+ workers? started/m.test(res.stderr)) started.set(c.id, started.get(c.id)! + 1);
          ms.set(c.id, res.ms);
          times.get(c.id)!.push(res.ms);
        }
        for (const c of JOB_CHOICES) ratios.get(c.id)!.push(ms.get('jobs1')! / ms.get(c.id)!);
        if (halves) bound.push(ms.get('jobs1')! / twoProcesses(ctx, halves, args));
      }
      const id = `${n}${kind}`;
      const spread = (id: string): string =>
        `median ${fmt(median(times.get(id)!))} ms over ${r} interleaved rounds ` +
        `(ratios ${ratios
          .get(id)!
          .map((x) => x.toFixed(2))
          .join(', ')}); --jobs 1: median ${fmt(median(times.get('jobs1')!))} ms; ` +
        `workers started in ${started.get(id)} of ${r} rounds`;
      const two = median(ratios.get('jobs2')!);
      add({
        id: `bulk.jobs.${id}.jobs2`,
        section: 'bulk',
        label: `--jobs 2 vs --jobs 1, ${size} sessions (whole process, interleaved)`,
        value: two,
        unit: '×',
        better: 'higher',
        spread: spread('jobs2'),
        ...(n >= 10_000 ? { target: '≥ 1.5×', ok: two >= 1.5 } : {}),
      });
      if (halves) {
        const b = median(bound);
        add({
          id: `bulk.jobs.${id}.two-processes`,
          section: 'bulk',
          label: `  two processes on half the sessions each vs --jobs 1 (this machine's bound for two threads)`,
          value: b,
          unit: '×',
          better: 'higher',
          spread: `ratios ${bound.map((x) => x.toFixed(2)).join(', ')}; --jobs 2 reaches ${pct((100 * two) / b)} of it`,
        });
      }
      const def = median(ratios.get('default')!);
      add({
        id: `bulk.jobs.${id}.default`,
        section: 'bulk',
        label: `default --jobs vs --jobs 1, ${size} sessions (whole process, interleaved)`,
        value: def,
        unit: '×',
        better: 'higher',
        spread: spread('default'),
        // With no worker started the default does what --jobs 1 does: its ratio is the machine's noise.
        target: '≥ 1.0× (never slower), or no worker started',
        ok: def >= 1.0 || started.get('default') === 0,
      });
      add({
        id: `bulk.jobs.${id}.identical`,
        section: 'bulk',
        label: `the same aggregate with --jobs 1, --jobs 2 and the default (${size} sessions)`,
        value: outputs.size === 1 ? 1 : 0,
        unit: '/1',
        better: 'higher',
        ok: outputs.size === 1,
      });
    }
  } finally {
    for (const f of files) rmSync(f, { force: true });
  }
}
