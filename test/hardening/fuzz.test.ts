/**
 * The short, deterministic fuzz pass CI runs (the long pass is
 * `npm run fuzz -- --iterations 20000 --seed S`): the fuzzer of
 * `test/fuzz/` over the built CLI in process, with a fixed seed; every run
 * must be a clean result or a clean error. `FUZZ_ITERATIONS` and
 * `FUZZ_SEED` change the pass.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const FUZZ = join(ROOT, 'test/fuzz/fuzz.mjs');
const ITERATIONS = process.env.FUZZ_ITERATIONS ?? '200';
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
  iterations: number;
  runs: number;
  results: number;
  errors: number;
  failures: number;
  failed: Array<{ iteration: number | null; reasons: string[]; replay?: string }>;
}

describe('fuzz (short deterministic pass)', () => {
  it(`${ITERATIONS} iterations with seed ${SEED}: no crash, stack trace, hang, invalid JSON or raw control character`, async () => {
    // 30 s per run: `simulate` counts tokens by default (the tokenizer loads once per
    // worker), and CI runs this beside the rest of the suite on 2 cores.
    const r = await fuzz(['--iterations', ITERATIONS, '--seed', SEED, '--json', '--quiet', '--timeout', '30']);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!) as Summary;
    expect(summary.failed, r.stdout).toEqual([]);
    expect(summary.failures).toBe(0);
    expect(summary.iterations).toBe(Number(ITERATIONS));
    expect(summary.results + summary.errors).toBe(summary.runs);
    // Both kinds of outcome are exercised.
    expect(summary.results).toBeGreaterThan(summary.runs / 5);
    expect(summary.errors).toBeGreaterThan(summary.runs / 5);
    expect(r.code).toBe(0);
  }, 180_000);

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
