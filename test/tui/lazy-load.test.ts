/**
 * React and Ink are imported only by the TUI entry points: every other
 * command runs without loading them. Proven on the BUILT CLI (`npm run build`
 * first) with a module hook that logs every module the process imports.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REGISTER = fileURLToPath(new URL('../bench/trace-modules.mjs', import.meta.url));
const DEMO = 'fixtures/catalogs/demo.yaml';
const TRANSCRIPT = 'fixtures/transcripts/keyword-search-then-call.json';
const dir = mkdtempSync(join(tmpdir(), 'toolsearch-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const UI_PACKAGES = /\/node_modules\/(ink|react|react-reconciler|yoga-layout|ink-testing-library)\//;

let n = 0;
/** Runs node with the module log on, stdin/stdout/stderr pipes (no TTY); returns the modules it imported. */
function traced(
  nodeArgs: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; modules: string[] }> {
  const log = join(dir, `modules-${n++}.log`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', REGISTER, ...nodeArgs], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', TOOLSEARCH_TRACE_MODULES: log },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      let modules: string[] = [];
      try {
        modules = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      } catch {
        // nothing imported
      }
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        modules,
      });
    });
    child.stdin.end('');
  });
}

const cli = (...args: string[]) => traced(['bin/toolsearch.js', ...args]);

describe.concurrent('React and Ink stay unloaded outside the TUI', () => {
  test('the probe sees them when the TUI is prepared and its entries imported (control)', async () => {
    const code =
      "await (await import('./dist/tui/tty.js')).prepareTui(); await " +
      "import('./dist/tui/explore/run.js'); await import('./dist/tui/stepper/run.js');";
    const r = await traced(['--input-type=module', '-e', code]);
    expect(r.stderr).toBe('');
    expect(r.modules.some((m) => m.includes('/node_modules/ink/'))).toBe(true);
    expect(r.modules.some((m) => m.includes('/node_modules/react/'))).toBe(true);
  });

  test.each([
    ['search --explain', ['search', '-c', DEMO, '--explain', 'slack', 'message']],
    ['simulate --replay', ['simulate', TRANSCRIPT, '-c', DEMO, '--replay']],
  ])('%s', async (_name, args) => {
    const r = await cli(...args);
    expect(r.code).toBe(0);
    expect(r.modules.some((m) => m.includes('/dist/bundle/'))).toBe(true); // the probe ran
    // TUI modules import React statically (and read Ink from src/tui/ink.ts), so none of them ran either.
    expect(r.modules.filter((m) => UI_PACKAGES.test(m))).toEqual([]);
  });
});

describe.concurrent('without a terminal', () => {
  test('explore exits 2, points to --json, and loads no UI', async () => {
    const r = await cli('explore', '-c', DEMO);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: explore needs an interactive terminal (stdin and stdout are not ' +
        'terminals); use toolsearch search -c <file> <query> --json instead\n',
    );
    expect(r.modules.filter((m) => UI_PACKAGES.test(m))).toEqual([]);
  });

  test('simulate --tui exits 2, points to --json, and loads no UI', async () => {
    const r = await cli('simulate', TRANSCRIPT, '-c', DEMO, '--tui');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: simulate --tui needs an interactive terminal (stdin and ' +
        'stdout are not terminals); use simulate --json instead\n',
    );
    expect(r.modules.filter((m) => UI_PACKAGES.test(m))).toEqual([]);
  });
});
