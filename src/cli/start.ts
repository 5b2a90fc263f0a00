/**
 * What bin/toolsearch.js runs: turns on Node's compile cache (Node ≥ 22.1),
 * then loads the CLI's bundle and runs it. A module of its own because the
 * cache only serves modules loaded after it is turned on.
 *
 * The compile cache holds code V8 compiled; Node checks each entry (a
 * checksum of its bytes, its Node version and the source it came from) and
 * compiles from source when one does not fit. It lives in a directory of the
 * same cache as the loaded catalogs and follows its rules: the user's own,
 * nobody else can write it, off with `TOOLSEARCH_CACHE=off` or `--no-cache`.
 * Node 20 has no compile cache: it compiles the bundle at every start (see
 * test/bench/README.md for what that costs).
 */
import { readFileSync, writeSync } from 'node:fs';
import nodeModule from 'node:module';
import { join } from 'node:path';
import { COMPILE_CACHE_SUBDIR, cacheDirFromEnv, cacheDisabledByEnv, openCacheDir } from '../io/cache-dir.js';
import type { CliHost } from './context.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Node's compile cache API (Node ≥ 22.1), absent from Node 20's types. */
interface CompileCacheApi {
  enableCompileCache?: (dir?: string) => { status: number; message?: string; directory?: string };
}

/** Whether `argv` asks for no cache (`--no-cache` before a `--`). */
export function noCacheFlag(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--no-cache');
}

/** The directory for Node's compile cache, or null when caching is off. */
export function compileCacheDir(env: Env, argv: readonly string[]): string | null {
  const root = cacheDisabledByEnv(env) || noCacheFlag(argv) ? null : cacheDirFromEnv(env);
  return root === null ? null : join(root, COMPILE_CACHE_SUBDIR);
}

/** The compile cache turned on, and the cache directory opened for it. */
export interface CompileCache {
  /** The directory Node keeps compiled code in. */
  readonly directory: string;
  /** The cache directory (its path as {@link cacheDirFromEnv} gives it, and its handle) for the rest of the run. */
  readonly cache: NonNullable<CliHost['cache']>;
}

/**
 * Turns on Node's compile cache in {@link compileCacheDir} when Node has one
 * and the cache directory may be used (src/io/cache-dir.ts: the user's
 * own, private, made so when missing). Returns the directory used and the
 * cache directory, still open (the bundle's catalog cache uses it: a process
 * opens and checks it once), or null. Any problem only means compiling from
 * source.
 */
export function enableCompileCache(
  env: Env,
  argv: readonly string[],
  api: CompileCacheApi = nodeModule as CompileCacheApi,
): CompileCache | null {
  if (typeof api.enableCompileCache !== 'function' || cacheDisabledByEnv(env) || noCacheFlag(argv)) return null;
  const root = cacheDirFromEnv(env);
  const cache = root === null ? null : openCacheDir(root, { create: true });
  if (cache === null || root === null) return null;
  const dir = cache.subdir(COMPILE_CACHE_SUBDIR);
  let directory: string | null = null;
  if (dir !== null) {
    try {
      directory = api.enableCompileCache(dir).directory ?? dir;
    } catch {
      directory = null;
    }
  }
  if (directory === null) {
    cache.close();
    return null;
  }
  return { directory, cache: { given: root, dir: cache } };
}

/** What a bundle exports. */
export interface CliBundle {
  main(argv: string[], io?: undefined, host?: CliHost): Promise<number>;
}

/** The CLI's bundles (src/build/bundle.mjs): the whole CLI, and search and select alone (src/cli/main-search.ts). */
export type BundleName = 'main' | 'search';

/** The bundle a run of `argv` loads: the smaller one when argv starts with search or select. */
export function bundleFor(argv: readonly string[]): BundleName {
  return argv[0] === 'search' || argv[0] === 'select' ? 'search' : 'main';
}

/** Whether `argv` is a bare `--version` (or `-V`), which main() answers before it loads any command. */
export function isVersionQuery(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
}

/**
 * Runs the CLI that `load` returns (the bundle of {@link bundleFor},
 * required) with `argv`, and sets the exit code when it is done. A bare
 * `--version` is answered here, without loading a bundle (most of a
 * `--version`'s time would be compiling it).
 */
export function start(load: (bundle: BundleName) => CliBundle, argv: string[]): void {
  if (isVersionQuery(argv)) {
    writeVersion();
    return;
  }
  const compiled = enableCompileCache(process.env, argv);
  const host: CliHost = compiled === null ? {} : { cache: compiled.cache };
  void load(bundleFor(argv))
    .main(argv, undefined, host)
    .then((code) => {
      process.exitCode = code;
    });
}

/**
 * Writes the package's version to stdout, to the descriptor: setting up
 * process.stdout for a pipe loads Node's stream modules (~5 ms).
 */
function writeVersion(): void {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const bytes = Buffer.from(`${pkg.version}\n`);
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(1, bytes, at);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return; // the reader has gone: nothing to say
      if (code !== 'EAGAIN') {
        // A full disk or /dev/full: one line and exit 74 (EX_IOERR), as main.ts does for every command.
        try {
          writeSync(
            2,
            `error: cannot write to stdout:` +
              ` ${code === 'ENOSPC' ? 'no space left on the device (ENOSPC)' : (code ?? 'the write failed')}\n`,
          );
        } catch {
          // stderr is gone too: the exit code says it
        }
        process.exit(74);
      }
    }
  }
}
