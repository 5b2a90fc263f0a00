/**
 * CLI entry: parses argv, runs a command, returns the exit code. The only
 * module that touches `process` (streams, env); see `exit.ts` for the codes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CliContext, type CliIo } from './context.js';

const EXIT_OK = 0;

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * The process's loaded-catalog cache (src/formats/catalog-cache.ts), unless
 * TOOLSEARCH_CACHE turns it off. The build identity is this file's content:
 * in the bundle it names every chunk by content hash, so any rebuild that
 * changes the code changes it.
 */
async function useCatalogCache(env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const [{ cacheDirFromEnv, cacheDisabledByEnv, fileCatalogCache }, { setCatalogCache }] = await Promise.all([
    import('../formats/catalog-cache.js'),
    import('./inputs.js'),
  ]);
  if (cacheDisabledByEnv(env)) return;
  setCatalogCache(
    fileCatalogCache(cacheDirFromEnv(env), () => {
      const self = readFileSync(new URL(import.meta.url));
      return `${version()} ${createHash('sha256').update(self).digest('hex')}`;
    }),
  );
}

/**
 * A closed stdout pipe (`toolsearch search … | head -1`) ends the process
 * quietly with exit 0: the reader has what it wanted.
 */
function exitQuietlyOnEpipe(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') process.exit(EXIT_OK);
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
    const [{ limitsFromEnv }, { setHostLimits }] = await Promise.all([import('./limits.js'), import('../formats/read.js')]);
    setHostLimits(limitsFromEnv(ctx.io.env));
    if (io === undefined) await useCatalogCache(ctx.io.env);
    const { buildProgram } = await import('./program.js');
    await buildProgram(ctx, version()).parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    const { exitCodeFor } = await import('./exit.js');
    return exitCodeFor(err, ctx);
  }
}
