/**
 * CLI entry: builds the commander program, runs the command argv names, returns the exit code (exit.ts
 * says which). Commander reads the command line; argv's first word only says which command's module to
 * load (commands.ts). The process's streams are in process-io.ts; src/cli/start.ts runs this from the
 * bundle.
 *
 * The bundle is also what a bulk replay's worker threads run: bulk-worker.ts, imported here so that it is in the
 * bundle's first module graph, serves the pool when loaded in such a thread (and does nothing elsewhere).
 */
import { readFileSync } from 'node:fs';
import '../jobs/simulate/bulk-worker.js';
import { commandsFor } from './commands.js';
import { CliContext, type CliIo } from './context.js';
import { EXIT_OK } from './exit-codes.js';
import { processIo } from './process-io.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * Runs the CLI with `argv` (the arguments after the program's name). `io`: the streams and environment
 * (the process's own by default); a host that gives its own streams runs without the loaded-catalog cache
 * unless `io.fileCache` asks for it.
 */
export async function main(argv: string[], io?: CliIo): Promise<number> {
  const ctx = new CliContext(io ?? processIo());
  try {
    // Loaded together: one round of module loading instead of one per import.
    const [{ limitsFromEnv }, cache, { buildProgram }] = await Promise.all([
      import('./limits.js'),
      import('./catalog-cache.js'),
      import('./program.js'),
    ]);
    ctx.limits = limitsFromEnv(ctx.io.env);
    // A process of its own gets the loaded-catalog cache (src/cli/catalog-cache.ts) unless
    // TOOLSEARCH_CACHE turns it off.
    let noHome = false;
    if ((io === undefined || io.fileCache === true) && !cache.cacheDisabledByEnv(ctx.io.env)) {
      const cacheDir = cache.cacheDirFromEnv(ctx.io.env);
      if (cacheDir !== null) ctx.catalogCache = cache.fileCatalogCache(cacheDir);
      // No home to keep a cache in (HOME= empty or relative): none, rather than ./.cache in the working directory.
      else noHome = true;
    }
    const program = await buildProgram(ctx, version(), commandsFor(argv));
    // Global options take effect when commander reads them, before the command's own arguments: a usage
    // error in those is already uncolored with --no-color.
    program.on('option:no-color', () => {
      ctx.noColorFlag = true;
    });
    program.on('option:verbose', () => {
      ctx.verbose = true;
      if (noHome) ctx.err(`note: ${cache.NO_HOME_NOTE}\n`);
      noHome = false; // said once
    });
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    const { exitCodeFor } = await import('./exit.js');
    return exitCodeFor(err, ctx);
  }
}
