/**
 * CLI entry: parses argv, runs a command, returns the exit code. The only
 * module that touches `process` (streams, env); see `exit.ts` for the codes.
 */
import { fstatSync, readFileSync, type Stats, writeSync } from 'node:fs';
import { type CommandEntry, commandsFor } from './commands.js';
import { type CliHost, CliContext, type CliIo, type OutStream } from './context.js';

const EXIT_OK = 0;
/**
 * Standard output could not be written (a full disk, /dev/full, an I/O error): EX_IOERR of sysexits.h (see exit.ts).
 */
const EXIT_IO = 74;

/** Why a write failed, in words, with the system's code. */
function writeFailure(err: NodeJS.ErrnoException): string {
  const code = typeof err.code === 'string' ? err.code : '';
  const why =
    code === 'ENOSPC'
      ? 'no space left on the device'
      : code === 'EFBIG'
        ? 'the file is too large'
        : code === 'EIO'
          ? 'an input/output error'
          : code === 'EDQUOT'
            ? 'the disk quota is exceeded'
            : code === 'EBADF'
              ? 'it is not open for writing'
              : 'the write failed';
  return code === '' ? why : `${why} (${code})`;
}

/**
 * Standard output failed for another reason than a closed pipe: one line on
 * stderr (when it can be written; its own failure is ignored), then exit 74.
 * Never the error's stack or the bundle's source line.
 */
function stdoutFailed(err: NodeJS.ErrnoException): never {
  try {
    writeSync(2, `error: cannot write to stdout: ${writeFailure(err)}\n`);
  } catch {
    // stderr is gone too: the exit code says it
  }
  process.exit(EXIT_IO);
}

/** Set by the bundler (src/build/bundle.mjs). */
declare const __TOOLSEARCH_BUILD_ID__: string;

/**
 * What identifies this code to the catalog cache (which hashes it into every key): in the bundle, the
 * hash of everything it is built from (package.json among them); run from tsc's output, the package's
 * version and this file's content.
 */
function buildIdentity(): string {
  if (typeof __TOOLSEARCH_BUILD_ID__ === 'string') return __TOOLSEARCH_BUILD_ID__;
  return `${version()} ${readFileSync(new URL(import.meta.url), 'utf8')}`;
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
function fdStream(fd: number, onClosed: () => void, onFailed: (err: NodeJS.ErrnoException) => never): OutStream | null {
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
          onFailed(err as NodeJS.ErrnoException);
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

/** `stream`, with `onClosed` run when its reader has gone away and `onFailed` for any other error. */
function guarded(
  stream: NodeJS.WriteStream,
  onClosed: () => void,
  onFailed: (err: NodeJS.ErrnoException) => void,
): NodeJS.WriteStream {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (isClosedPipe(err)) onClosed();
    else onFailed(err);
  });
  return stream;
}

/**
 * The process's own streams, each set up on first use. A closed stdout pipe
 * (`toolsearch search … | head -1`) ends the process quietly with exit 0: the
 * reader has what it wanted. Any other failure to write stdout (a full disk,
 * `>/dev/full`) is one line on stderr and exit 74. A closed or failing stderr
 * (`2>/dev/full`) is ignored: only warnings and messages are lost, and the
 * exit code the run computes is kept (a warning must not turn success into
 * exit 1, nor bad input's 2 into anything else).
 */
function processIo(): CliIo {
  const stdoutClosed = () => process.exit(EXIT_OK);
  const stderrClosed = () => {};
  let stdout: OutStream | undefined;
  let stderr: OutStream | undefined;
  return {
    get stdout() {
      return (stdout ??=
        fdStream(1, stdoutClosed, stdoutFailed) ?? guarded(process.stdout, stdoutClosed, stdoutFailed));
    },
    get stderr() {
      return (stderr ??= guarded(process.stderr, stderrClosed, stderrClosed));
    },
    // Reading process.stdin sets up a stream (and loads its modules), which only --batch - needs.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
  };
}

export function main(argv: string[], io?: CliIo, host?: CliHost): Promise<number> {
  return runCli(argv, commandsFor(argv), io, host);
}

/** {@link main} with the program built of `commands` (main-search.ts: a bundle that has only search and select). */
export async function runCli(
  argv: string[],
  commands: readonly CommandEntry[],
  io?: CliIo,
  host: CliHost = {},
): Promise<number> {
  const ctx = new CliContext(io ?? processIo());
  // Known before parsing, so even a usage error honours it (options end at `--`).
  const end = argv.indexOf('--');
  ctx.noColorFlag = (end < 0 ? argv : argv.slice(0, end)).includes('--no-color');
  const verbose = (end < 0 ? argv : argv.slice(0, end)).includes('--verbose');
  // Fast path: no command modules loaded.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    ctx.out(`${version()}\n`);
    return EXIT_OK;
  }
  try {
    // Loaded together: one round of module loading instead of one per import.
    const [{ limitsFromEnv }, cache, { buildProgram }] = await Promise.all([
      import('./limits.js'),
      import('./catalog-cache.js'),
      import('./program.js'),
    ]);
    ctx.limits = limitsFromEnv(ctx.io.env);
    // A process of its own gets the loaded-catalog cache (src/cli/catalog-cache.ts) unless
    // TOOLSEARCH_CACHE turns it off. The build identity: in the bundle, a hash of everything it is
    // built from (src/build/bundle.mjs); run from tsc's output, this file's content.
    if ((io === undefined || io.fileCache === true) && !cache.cacheDisabledByEnv(ctx.io.env)) {
      const cacheDir = cache.cacheDirFromEnv(ctx.io.env);
      if (cacheDir !== null) {
        const opened = host.cache?.given === cacheDir ? host.cache.dir : undefined;
        ctx.catalogCache = cache.fileCatalogCache(cacheDir, buildIdentity, opened);
      }
      // No home to keep a cache in (HOME= empty or relative): none, rather than ./.cache in the working directory.
      else if (verbose) ctx.err(`note: ${cache.NO_HOME_NOTE}\n`);
    }
    await (await buildProgram(ctx, version(), commands)).parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    const { exitCodeFor } = await import('./exit.js');
    return exitCodeFor(err, ctx);
  } finally {
    // The cache directory's handle (a host calling main() many times must not run out of descriptors).
    ctx.catalogCache?.close?.();
  }
}
