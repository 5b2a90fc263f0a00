/** `toolsearch watch` as a child process: where it listens, its JSON lines as they come, and a Ctrl-C. */
import { type ChildProcess, spawn } from 'node:child_process';
import type { WatchLine } from '../../../src/jobs/watch/live.js';
import { BIN, baseEnv, ROOT } from '../helpers.js';

export interface Watching {
  readonly url: string;
  readonly child: ChildProcess;
  /** stdout so far. */
  stdout(): string;
  stderr(): string;
  /** The JSON lines printed so far. */
  lines(): WatchLine[];
  /** Waits until `n` lines are printed (at most `ms`). */
  waitLines(n: number, ms?: number): Promise<WatchLine[]>;
  /** Sends SIGINT and waits for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

export async function startWatch(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<Watching> {
  const child = spawn(process.execPath, [BIN, 'watch', '--port', '0', ...args], {
    cwd: ROOT,
    env: baseEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString('utf8');
  });
  child.stderr!.on('data', (b: Buffer) => {
    err += b.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`watch did not start:\n${err}`)), 15_000);
    const check = (): void => {
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(deadline);
        resolve(m[1]!);
      }
    };
    child.stderr!.on('data', check);
    void exited.then(() => {
      clearTimeout(deadline);
      reject(new Error(`watch exited before listening:\n${err}`));
    });
  });
  const parse = (): WatchLine[] =>
    out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as WatchLine);
  return {
    url,
    child,
    stdout: () => out,
    stderr: () => err,
    lines: parse,
    async waitLines(n, ms = 15_000) {
      const until = Date.now() + ms;
      while (parse().length < n) {
        if (Date.now() > until) throw new Error(`waited for ${n} lines, got ${parse().length}:\n${out}\n${err}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return parse();
    },
    async stop() {
      child.kill('SIGINT');
      const e = await exited;
      return { ...e, stdout: out, stderr: err };
    },
  };
}
