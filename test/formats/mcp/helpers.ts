import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const TEST_SERVER = fileURLToPath(new URL('./fixtures/test-server.mjs', import.meta.url));
/** A Streamable HTTP server that misbehaves on purpose (endless cursors, a huge body): see the file. */
export const HOSTILE_HTTP_SERVER = fileURLToPath(new URL('./fixtures/hostile-http.mjs', import.meta.url));

/** Quotes a word for our command-line splitter. */
export function q(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `node <test server> args…` as a command line. */
export function serverCommand(args: readonly string[] = []): string {
  return [process.execPath, TEST_SERVER, ...args].map(q).join(' ');
}

/** `node -e <code> args…` as a command line. */
export function nodeEval(code: string, args: readonly string[] = []): string {
  return [process.execPath, '-e', code, ...args].map(q).join(' ');
}

/** Whether a process is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (bounded) until a file exists and returns the pid written in it. */
export async function readPid(file: string, timeoutMs = 5000): Promise<number> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8').trim();
      if (text !== '') return Number(text);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no pid in ${file}`);
}

/** Waits (bounded) until a process is gone. */
export async function waitGone(pid: number, timeoutMs = 5000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !alive(pid);
}

/**
 * The test server (or `script`, which prints `listening <url>` too) behind Streamable HTTP, spawned as its own process,
 * on 127.0.0.1 with a random port.
 */
export async function spawnHttpServer(
  args: readonly string[] = [],
  script: string = TEST_SERVER,
): Promise<{ url: string; stderr: () => string; close: () => Promise<void> }> {
  const mode = script === TEST_SERVER && !args.includes('--sse') ? ['--http'] : [];
  const child = spawn(process.execPath, [script, ...mode, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => (err += s));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the HTTP test server did not start: ${err}`)), 15_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      out += s;
      const m = /listening (\S+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('close', () => reject(new Error(`the HTTP test server exited: ${err}`)));
  });
  return {
    url,
    stderr: () => err,
    close: async () => {
      child.stdin.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(t);
    },
  };
}
