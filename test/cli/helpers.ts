/**
 * Black-box helpers: spawn the BUILT CLI (`npm run build` first) with
 * NO_COLOR=1, collect stdout, stderr and the exit status.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/toolsearch.js', import.meta.url));
/** Purpose-built fixtures of these tests, relative to the repository root (the cwd of every run). */
export const FX = 'test/cli/fixtures';
export const DEMO = 'fixtures/catalogs/demo.yaml';

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** Written to stdin (stdin is closed either way). */
  readonly input?: string | Buffer;
  /** Extra environment (NO_COLOR=1 is set unless overridden; COLUMNS, FORCE_COLOR and TOOLSEARCH_DEBUG are removed). */
  readonly env?: Record<string, string | undefined>;
}

/**
 * The environment for a spawned CLI: NO_COLOR=1, no COLUMNS/FORCE_COLOR/TOOLSEARCH_DEBUG, then `extra` (undefined
 * removes).
 */
export function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  delete env.COLUMNS;
  delete env.TOOLSEARCH_DEBUG;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/**
 * What `child` writes to stdout and stderr, and how it exits; `input` is written to its stdin when it has one (closed
 * either way).
 */
export function collect(child: ChildProcess, input?: string | Buffer): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    if (child.stdin) {
      child.stdin.on('error', () => {}); // the CLI may exit before reading stdin
      child.stdin.end(input ?? '');
    }
  });
}

/** Runs `node bin/toolsearch.js ...args` from the repository root. */
export function run(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return collect(
    spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: baseEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] }),
    options.input,
  );
}

/** Runs a shell command line (for pipes such as `| head -1`) from the repository root, or from `cwd`. */
export function sh(command: string, options: RunOptions & { readonly cwd?: string } = {}): Promise<RunResult> {
  return collect(
    spawn('/bin/bash', ['-c', command], {
      cwd: options.cwd ?? ROOT,
      env: baseEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** Lines of a text, without the final empty one. */
export function lines(text: string): string[] {
  const l = text.split('\n');
  if (l[l.length - 1] === '') l.pop();
  return l;
}
