/**
 * The CLI's loader: bin/toolsearch.js → dist/bundle/boot.cjs (this file,
 * bundled) → dist/bundle/main.cjs (the CLI, one CommonJS bundle).
 *
 * Node 20 compiles a script from its source at every start, and has no
 * compile cache of its own (Node 22's `module.enableCompileCache()`). So the
 * bundle is compiled here with V8's code cache: the first run writes the code
 * V8 compiled (after the command ran, so it holds every function it used) to
 * the cache directory, and later runs hand it back to V8, which then skips
 * parsing and compiling. V8 checks that a cache fits its own version and
 * flags (and rejects it otherwise: the file is then rewritten); the file's
 * name carries the build, the bundle's size and time, Node's version and the
 * architecture, so a cache is never used for other code. Each command has a
 * cache of its own: a cache holds what its first run compiled, and `--help`
 * compiles little of what `search` needs.
 *
 * A code cache is code: it is only read from a directory and a file that
 * belong to the user and that nobody else can write, through the checked
 * directory handle of src/formats/cache-dir.ts (which also writes it). It is skipped where the
 * catalog cache is (`TOOLSEARCH_CACHE=off`, `--no-cache`), and any problem
 * with it (unreadable, read-only, full disk) only means compiling from source.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { CODE_CACHE_NAME, cacheDirFromEnv, cacheDisabledByEnv, openCacheDir } from '../formats/cache-dir.js';

/** Set by the bundler (src/build/bundle.mjs): a hash of everything the bundle is built from. */
declare const __TOOLSEARCH_BUILD_ID__: string;

/** Code cache files kept (one per command, build, Node version and architecture in use); older ones are removed. */
export const MAX_CODE_CACHES = 16;

/** What the bundle exports. */
export interface CliBundle {
  main(argv: string[]): Promise<number>;
}

export interface LoadedBundle {
  readonly bundle: CliBundle;
  /** Writes the code cache when there was none (or V8 rejected it); call after the command ran. */
  saveCodeCache(): void;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Whether `argv` asks for no cache (`--no-cache` before a `--`). */
function noCacheFlag(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--no-cache');
}

/** The command `argv` runs (its first word that is not an option), or `other`. */
function commandOf(argv: readonly string[]): string {
  const word = argv.find((a) => !a.startsWith('-'));
  return word !== undefined && /^[a-z]{1,16}$/.test(word) ? word : 'other';
}

/** The code cache file for `file` and the command in `argv`, or null when caching is off. */
export function codeCachePath(file: string, size: number, mtimeMs: number, env: Env, argv: readonly string[]): string | null {
  if (cacheDisabledByEnv(env) || noCacheFlag(argv)) return null;
  const dir = cacheDirFromEnv(env);
  if (dir === null) return null;
  const build = typeof __TOOLSEARCH_BUILD_ID__ === 'string' ? __TOOLSEARCH_BUILD_ID__ : 'dev';
  const name = `code-${build}-${commandOf(argv)}-${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}.bin`.replace(/[^\w.-]/g, '_');
  return join(dir, name);
}

/**
 * Loads the CommonJS bundle `file` as `require` would (same wrapper, same
 * `require` relative to it), through V8's code cache when it may.
 */
export function loadBundle(file: string, argv: readonly string[], env: Env = process.env): LoadedBundle {
  // The bundle's import() of ES module packages (Ink, fuse.js, the MCP SDK, the tokenizer) is this
  // function (see src/build/bundle.mjs): Node's own loader, resolving from this directory. A vm
  // script's own import() would need an experimental vm option.
  (globalThis as Record<symbol, unknown>)[Symbol.for('toolsearch.import')] ??= (specifier: string) => import(specifier);
  const fd = openSync(file, 'r');
  let source: string;
  let cachePath: string | null;
  try {
    const st = fstatSync(fd);
    cachePath = codeCachePath(file, st.size, st.mtimeMs, env, argv);
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  // A directory others could write or swap is not used at all (src/formats/cache-dir.ts); the code is read
  // only from a regular file of the user's that nobody else can write, never through a symbolic link.
  let cacheDir = cachePath === null ? null : openCacheDir(dirname(cachePath), { create: false });
  const cachedData = cacheDir?.read(basename(cachePath!));
  // Node's own CommonJS wrapper, on the first line so that line numbers stay those of the file.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, {
    filename: file,
    cachedData,
  });
  const module = { exports: {} as CliBundle };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const stale = cachePath !== null && (cachedData === undefined || script.cachedDataRejected === true);
  return {
    bundle: module.exports,
    saveCodeCache() {
      if (!stale) return;
      // Created here when it does not exist yet, and checked on the handle opened after that.
      cacheDir ??= openCacheDir(dirname(cachePath!), { create: true });
      cacheDir?.write(basename(cachePath!), script.createCachedData(), { pattern: CODE_CACHE_NAME, keep: MAX_CODE_CACHES });
    },
  };
}

/** Runs the CLI in `file` with `argv`; sets the exit code when it is done. */
export function boot(file: string, argv: string[]): void {
  const { bundle, saveCodeCache } = loadBundle(file, argv);
  void bundle.main(argv).then((code) => {
    process.exitCode = code;
    saveCodeCache();
  });
}
