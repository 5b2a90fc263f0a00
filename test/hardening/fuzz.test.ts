/**
 * The short, deterministic fuzz pass CI runs (the long pass is
 * `npm run fuzz -- --iterations 20000 --seed S`): the fuzzer of
 * `test/fuzz/` over the built CLI that users run (the bundle behind
 * bin/toolsearch.js) in process, then a few iterations through
 * `node bin/toolsearch.js` itself, with a fixed seed; every run must be a
 * clean result or a clean error. `FUZZ_ITERATIONS`, `FUZZ_SPAWN_ITERATIONS`
 * and `FUZZ_SEED` change the passes.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const FUZZ = join(ROOT, 'test/fuzz/fuzz.mjs');
const ITERATIONS = process.env.FUZZ_ITERATIONS ?? '200';
// Each spawned run starts a Node process (about 0.5 s on a busy 2-core machine): a few iterations keep this pass under
// 10 s.
const SPAWN_ITERATIONS = process.env.FUZZ_SPAWN_ITERATIONS ?? '6';
const SEED = process.env.FUZZ_SEED ?? '20261130';

function fuzz(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FUZZ, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Summary {
  mode: string;
  target: string;
  iterations: number;
  runs: number;
  results: number;
  errors: number;
  failures: number;
  failed: Array<{ iteration: number | null; reasons: string[]; replay?: string }>;
}

describe('fuzz (short deterministic pass)', () => {
  it(`${ITERATIONS} iterations with seed ${SEED}: no crash, stack ` +
    `trace, hang, invalid JSON or raw control character`, async () => {
    // 30 s per run: `simulate` counts tokens by default (the tokenizer loads once per
    // worker), and CI runs this beside the rest of the suite on 2 cores.
    const r = await fuzz(['--iterations', ITERATIONS, '--seed', SEED, '--json', '--quiet', '--timeout', '30']);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!) as Summary;
    expect(summary.failed, r.stdout).toEqual([]);
    // what bin/toolsearch.js runs, not the tsc output
    expect([summary.mode, summary.target]).toEqual(['inproc', 'dist/bundle/cli.cjs']);
    expect(summary.failures).toBe(0);
    expect(summary.iterations).toBe(Number(ITERATIONS));
    expect(summary.results + summary.errors).toBe(summary.runs);
    // Both kinds of outcome are exercised.
    expect(summary.results).toBeGreaterThan(summary.runs / 5);
    expect(summary.errors).toBeGreaterThan(summary.runs / 5);
    expect(r.code).toBe(0);
  }, 180_000);

  it(`${SPAWN_ITERATIONS} iterations with seed ${SEED} through node bin/toolsearch.js (spawn mode)`, async () => {
    const r = await fuzz([
      '--mode',
      'spawn',
      '--iterations',
      SPAWN_ITERATIONS,
      '--seed',
      SEED,
      '--json',
      '--quiet',
      '--timeout',
      '30',
    ]);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!) as Summary;
    expect(summary.failed, r.stdout).toEqual([]);
    expect([summary.mode, summary.target]).toEqual(['spawn', 'bin/toolsearch.js']);
    expect(summary.iterations).toBe(Number(SPAWN_ITERATIONS));
    expect(summary.runs).toBeGreaterThan(0);
    expect(summary.results + summary.errors).toBe(summary.runs);
    expect(r.code).toBe(0);
  }, 60_000);

  it(`--cache-tamper: 40 iterations with seed ${SEED}, the cache damaged ` +
    `between runs; a search or select answers alike before and after`, async () => {
    const r = await fuzz([
      '--cache-tamper',
      '--iterations',
      '40',
      '--seed',
      SEED,
      '--json',
      '--quiet',
      '--timeout',
      '30',
    ]);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!) as Summary & {
      cacheTamper: boolean;
      tampered: number;
    };
    expect(summary.failed, r.stdout).toEqual([]);
    expect(summary.cacheTamper).toBe(true);
    expect(summary.tampered).toBeGreaterThan(10); // the damage happened
    expect(summary.results + summary.errors).toBe(summary.runs);
    expect(r.code).toBe(0);
  }, 120_000);

  it('picks the in-process entry: the bundle by default, the tsc output with --entry tsc', async () => {
    const bad = await fuzz(['--entry', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('fuzz: --entry: bundle or tsc\n');
    const tsc = await fuzz(['--entry', 'tsc', '--iterations', '1', '--seed', SEED, '--json', '--quiet']);
    expect(JSON.parse(tsc.stdout.trim().split('\n').pop()!)).toMatchObject({
      mode: 'inproc',
      target: 'dist/cli/main.js',
      failures: 0,
    });
  }, 60_000);

  it('the plan of every iteration depends on the seed alone', async () => {
    const [a, b, c] = await Promise.all([
      fuzz(['--plan-only', '--iterations', '100', '--seed', '7']),
      fuzz(['--plan-only', '--iterations', '100', '--seed', '7']),
      fuzz(['--plan-only', '--iterations', '100', '--seed', '8']),
    ]);
    expect(a.stdout.split('\n')).toHaveLength(101);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toBe(c.stdout);
    // An iteration planned alone is the same as in a run (--replay-iteration depends on it).
    const alone = await fuzz(['--plan-only', '--iterations', '1', '--start', '42', '--seed', '7']);
    expect(alone.stdout).toBe(`${a.stdout.split('\n')[42]}\n`);
  }, 60_000);
});
