/**
 * Helpers of the hardening tests: the CLI in-process (`main(argv, io)` from
 * the sources) and as the built binary, temporary directories, and the
 * checks every outcome must pass.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { main } from '../../src/cli/main.js';
import { InputError } from '../../src/io/errors.js';
import { baseEnv } from '../cli/helpers.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin/toolsearch.js');
export const DEMO = join(ROOT, 'fixtures/catalogs/demo.yaml');
export const HOSTILE = join(ROOT, 'fixtures/hostile');

export interface CliResult {
  readonly code: number | null;
  readonly signal?: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in this process with captured streams (NO_COLOR=1, not a TTY). */
export async function inproc(
  argv: readonly string[],
  options: { stdin?: string | Buffer; env?: Record<string, string>; tty?: boolean } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const tty = options.tty === true;
  const code = await main([...argv], {
    stdout: { write: (s: string) => ((stdout += s), true), isTTY: tty, columns: tty ? 80 : undefined },
    stderr: { write: (s: string) => ((stderr += s), true), isTTY: tty, columns: tty ? 80 : undefined },
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    env: { NO_COLOR: '1', ...options.env },
  });
  return { code, stdout, stderr };
}

const childEnv = baseEnv;

/** Runs the built CLI (`node bin/toolsearch.js`); `npm run build` first. */
export function spawnCli(
  args: readonly string[],
  options: { stdin?: string | Buffer; env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: childEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
  });
}

/** Runs a shell command line (pipes) with the built CLI as `$TS`. */
export function shell(command: string, options: { env?: Record<string, string | undefined> } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = childEnv({ ...options.env, TS: `${process.execPath} ${BIN}` });
    const child = spawn('/bin/bash', ['-c', command], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

/** A temporary directory, removed by the returned `cleanup`. */
export function tempDir(prefix = 'toolsearch-hardening-'): {
  dir: string;
  file: (name: string, content?: string | Buffer) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    file: (name, content) => {
      const p = join(dir, name);
      if (content !== undefined) writeFileSync(p, content);
      return p;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * What a terminal could interpret: C0 controls except the line feed, DEL, C1
 * controls, bidi embedding/override/isolate controls and marks, line and
 * paragraph separators, invisible format characters (issue 14, finding 13).
 */
export const UNSAFE = new RegExp(
  String.raw`[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e` +
    String.raw`\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]`,
);

/** A stack frame or Node's internals. */
export const STACK = /\bat .*\(.*:\d+:\d+\)|node:internal|^\s+at [^\n]*:\d+:\d+$/m;

/** Human output: nothing a terminal would interpret, no stack, no absurdly long line. */
export function expectTerminalSafe(text: string, where = 'output'): void {
  const m = UNSAFE.exec(text);
  expect(
    m,
    `${where}: raw U+${m?.[0].charCodeAt(0).toString(16).padStart(4, '0')} ` +
      `near ${JSON.stringify(text.slice(Math.max(0, (m?.index ?? 0) - 30), (m?.index ?? 0) + 10))}`,
  ).toBeNull();
  expect(STACK.test(text), `${where}: a stack trace`).toBe(false);
  const longest = Math.max(0, ...text.split('\n').map((l) => l.length));
  expect(longest, `${where}: a ${longest}-character line`).toBeLessThanOrEqual(5000);
}

/** A clean error: exit 2, one `error:` line (located when `file` is given), nothing on stdout, no stack. */
export function expectCleanError(r: CliResult, file?: string): string {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expectTerminalSafe(r.stderr, 'stderr');
  const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
  expect(errors, r.stderr).toHaveLength(1);
  if (file !== undefined) expect(errors[0]).toContain(file);
  return errors[0]!;
}

/**
 * The outcome of a loader: a value, or an `InputError` located in one of
 * `files` (with a caret excerpt when it has a line) — never another exception.
 */
export function expectLoads(attempt: () => unknown, files: readonly string[]): void {
  try {
    attempt();
  } catch (err) {
    if (!(err instanceof InputError)) throw new Error(`not an InputError: ${(err as Error)?.stack ?? String(err)}`);
    expect(err.message).not.toBe('');
    expect(err.location, `no location: ${err.message}`).toBeDefined();
    if (err.location) {
      expect(files).toContain(err.location.file);
      if (err.location.line > 0) {
        expect(err.location.column).toBeGreaterThan(0);
        expect(err.excerpt ?? '', err.headline).toContain('^');
      }
    }
  }
}

/** `({}).polluted` and friends: nothing was added to the shared prototypes. */
export function expectNoPollution(): void {
  const probe: Record<string, unknown> = {};
  expect(probe.polluted).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(Object.keys(Array.prototype)).toEqual([]);
  expect(({} as { constructor: unknown }).constructor).toBe(Object);
  expect(typeof ({} as { toString: unknown }).toString).toBe('function');
  expect(typeof ({} as { hasOwnProperty: unknown }).hasOwnProperty).toBe('function');
}
