/**
 * CLI entry: parses argv, runs a command, returns the exit code. The only
 * module that touches `process` (streams, env); see `exit.ts` for the codes.
 */
import { readFileSync } from 'node:fs';
import { CliContext, type CliIo } from './context.js';

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

/** Whether a stream error is the reader having gone away (a closed pipe). */
function isClosedPipe(err: NodeJS.ErrnoException): boolean {
  return err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';
}

/**
 * A closed stdout pipe (`toolsearch search … | head -1`) ends the process
 * quietly with exit 0: the reader has what it wanted. A closed stderr is
 * ignored: only warnings and messages are lost, and the exit code the run
 * computes is kept (a warning must not turn success into exit 1).
 */
function exitQuietlyOnEpipe(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (isClosedPipe(err)) process.exit(EXIT_OK);
    throw err;
  });
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (isClosedPipe(err)) return;
    throw err;
  });
}

function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: reading process.stdin sets up a stream (and loads its modules), which only --batch - needs.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
  };
}

export async function main(argv: string[], io?: CliIo): Promise<number> {
  if (io === undefined) exitQuietlyOnEpipe();
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
    const [{ limitsFromEnv }, { setHostLimits }, cache, { setCatalogCache }, { buildProgram }] = await Promise.all([
      import('./limits.js'),
      import('../formats/read.js'),
      import('../formats/catalog-cache.js'),
      import('./inputs.js'),
      import('./program.js'),
    ]);
    setHostLimits(limitsFromEnv(ctx.io.env));
    // A process of its own gets the loaded-catalog cache (src/formats/catalog-cache.ts) unless
    // TOOLSEARCH_CACHE turns it off. The build identity: in the bundle, a hash of everything it is
    // built from (src/build/bundle.mjs); run from tsc's output, this file's content.
    if (io === undefined && !cache.cacheDisabledByEnv(ctx.io.env)) {
      setCatalogCache(cache.fileCatalogCache(cache.cacheDirFromEnv(ctx.io.env), () => `${version()} ${buildIdentity()}`));
    }
    await buildProgram(ctx, version()).parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    const { exitCodeFor } = await import('./exit.js');
    return exitCodeFor(err, ctx);
  }
}
