/**
 * A closed stderr (its reader gone: EPIPE on write) loses the messages only:
 * the exit code the run computes is kept. The built CLI, run with a stderr
 * pipe whose reading end is closed before the process starts writing.
 */
import { spawn } from 'node:child_process';
import { describe, it } from 'vitest';
import { BIN, DEMO, ROOT, baseEnv } from './helpers.js';

/** Runs the built CLI with stderr a pipe nobody reads; resolves with the exit code and stdout. */
function runWithClosedStderr(args: readonly string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: baseEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Close our (the only) reading end of the child's stderr right away: its writes fail with EPIPE.
    child.stderr.destroy();
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8') }));
  });
}

describe.concurrent('a closed stderr keeps the exit code', () => {
  it('0: a warning that cannot be written does not fail the run', async ({ expect }) => {
    const r = await runWithClosedStderr(['select', '-c', DEMO, 'nope1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('direct selection "select:nope1" · 0 of 1 name found\nno tool selected\n');
  });

  it('1: a failed check still exits 1', async ({ expect }) => {
    const r = await runWithClosedStderr(['select', '-c', DEMO, '--strict', 'nope1']);
    expect(r.code).toBe(1);
  });

  it('2: bad input still exits 2', async ({ expect }) => {
    const r = await runWithClosedStderr(['search', '-c', 'no-such-catalog.yaml', 'x']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});
