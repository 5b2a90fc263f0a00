/**
 * CLI entry: parses argv, runs a command, returns the exit code. The only
 * module that touches `process` (streams, env); see `exit.ts` for the codes.
 */
import { fstatSync, readFileSync, type Stats, writeSync } from 'node:fs';
import { CliContext, type CliIo, type OutStream } from './context.js';

const EXIT_OK = 0;

/** Set by the bundler (src/build/bundle.mjs). */
declare const __TOOLSEARCH_BUILD_ID__: string;

/** What identifies this code to the catalog cache (which hashes it into every key). */
function buildIdentity(): string {
  if (typeof __TOOLSEARCH_BUILD_ID__ === 'string') return __TOOLSEARCH_BUILD_ID__;
  return readFileSync(new URL(import.meta.url), 'utf8');
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Blocks the thread for a millisecond (a full pipe whose reader is slow). */
const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/**
 * File descriptor `fd` as an output stream when it is a pipe, a socket or a
 * file: writing there needs none of the stream machinery Node sets up for
 * process.stdout (~5 ms of module loading at every start). Writes are
 * synchronous, as process.stdout's are for pipes and files on Linux, and
 * complete (a full non-blocking pipe is waited for). A terminal keeps
 * process.stdout, and so does a device such as /dev/null (fstat cannot tell
 * it from a terminal). `onClosed` runs when the reader has gone away (EPIPE).
 */
function fdStream(fd: number, onClosed: () => void): OutStream | null {
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch {
    return null;
  }
  if (!st.isFIFO() && !st.isSocket() && !st.isFile()) return null;
  return {
    isTTY: false,
    write(chunk: string) {
      const bytes = Buffer.from(chunk, 'utf8');
      for (let at = 0; at < bytes.length; ) {
        try {
          at += writeSync(fd, bytes, at);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN') {
            Atomics.wait(SLEEP, 0, 0, 1);
            continue;
          }
          if (code === 'EPIPE') {
            onClosed();
            return true;
          }
          throw err;
        }
      }
      return true;
    },
  };
}

/** Whether a stream error is the reader having gone away (a closed pipe). */
function isClosedPipe(err: NodeJS.ErrnoException): boolean {
  return err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';
}

/** `stream`, with `onClosed` run when its reader has gone away; other errors are thrown. */
function guarded(stream: NodeJS.WriteStream, onClosed: () => void): NodeJS.WriteStream {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (isClosedPipe(err)) onClosed();
    else throw err;
  });
  return stream;
}

/**
 * The process's own streams, each set up on first use. A closed stdout pipe
 * (`toolsearch search … | head -1`) ends the process quietly with exit 0: the
 * reader has what it wanted. A closed stderr is ignored: only warnings and
 * messages are lost, and the exit code the run computes is kept (a warning
 * must not turn success into exit 1).
 */
function processIo(): CliIo {
  const stdoutClosed = () => process.exit(EXIT_OK);
  const stderrClosed = () => {};
  let stdout: OutStream | undefined;
  let stderr: OutStream | undefined;
  return {
    get stdout() {
      return (stdout ??= fdStream(1, stdoutClosed) ?? guarded(process.stdout, stdoutClosed));
    },
    get stderr() {
      return (stderr ??= guarded(process.stderr, stderrClosed));
    },
    // Reading process.stdin sets up a stream (and loads its modules), which only --batch - needs.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
  };
}

export async function main(argv: string[], io?: CliIo): Promise<number> {
  const ctx = new CliContext(io ?? processIo());
  // Known before parsing, so even a usage error honours it (options end at `--`).
  const end = argv.indexOf('--');
  ctx.noColorFlag = (end < 0 ? argv : argv.slice(0, end)).includes('--no-color');
  // Fast path: no command modules loaded.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    ctx.out(`${version()}\n`);
    return EXIT_OK;
  }
  try {
    // Loaded together: one round of module loading instead of one per import.
    const [{ limitsFromEnv }, cache, { buildProgram }] = await Promise.all([
      import('./limits.js'),
      import('../formats/catalog-cache.js'),
      import('./program.js'),
    ]);
    ctx.limits = limitsFromEnv(ctx.io.env);
    // A process of its own gets the loaded-catalog cache (src/formats/catalog-cache.ts) unless
    // TOOLSEARCH_CACHE turns it off. The build identity: in the bundle, a hash of everything it is
    // built from (src/build/bundle.mjs); run from tsc's output, this file's content.
    const cacheDir = io === undefined && !cache.cacheDisabledByEnv(ctx.io.env) ? cache.cacheDirFromEnv(ctx.io.env) : null;
    if (cacheDir !== null) ctx.catalogCache = cache.fileCatalogCache(cacheDir, () => `${version()} ${buildIdentity()}`);
    await buildProgram(ctx, version()).parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    const { exitCodeFor } = await import('./exit.js');
    return exitCodeFor(err, ctx);
  }
}
