/**
 * What bin/toolsearch.js runs (built as dist/bundle/start.cjs): answers a bare `--version`, else turns on
 * Node's compile cache (Node ≥ 22.1) and runs the CLI's bundle (dist/bundle/cli.cjs: src/cli/main.ts). A
 * module of its own because Node's compile cache only serves modules loaded after it is turned on.
 *
 * The compile cache holds code V8 compiled; Node checks each entry (a checksum of its bytes, its Node
 * version and the source it came from) and compiles from source when one does not fit. It lives in
 * `compiled/` of the cache directory and follows its rules (src/io/cache-dir.ts: the user's own, nobody
 * else can write it), and is off with `TOOLSEARCH_CACHE=off`. Node 20 has no compile cache: there cli.cjs
 * runs from V8's code cache (src/cli/code-cache.ts), kept beside the catalog entries under the same rules.
 */
import { readFileSync } from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cacheDirFromEnv, cacheDisabledByEnv, COMPILE_CACHE_SUBDIR, openCacheDir } from '../io/cache-dir.js';
import { runWithCodeCache } from './code-cache.js';
import type { main } from './main.js';
import { stdoutStream } from './process-io.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Node's compile cache API (Node ≥ 22.1), absent from Node 20's types. */
interface CompileCacheApi {
  enableCompileCache?: (dir?: string) => { status: number; message?: string; directory?: string };
}

/**
 * Turns on Node's compile cache in `compiled/` of the cache directory when Node has one and the cache
 * directory may be used (src/io/cache-dir.ts: the user's own, private, made so when missing). Returns the
 * directory handed to Node, or null: any problem only means compiling from source.
 */
export function enableCompileCache(env: Env, api: CompileCacheApi = nodeModule as CompileCacheApi): string | null {
  if (typeof api.enableCompileCache !== 'function' || cacheDisabledByEnv(env)) return null;
  const root = cacheDirFromEnv(env);
  const dir = root === null ? null : (openCacheDir(root, { create: true })?.subdir(COMPILE_CACHE_SUBDIR) ?? null);
  if (dir === null) return null;
  try {
    return api.enableCompileCache(dir).directory ?? dir;
  } catch {
    return null;
  }
}

/** Runs the CLI with `argv` (the arguments after the program's name) and sets the exit code when it is done. */
export function start(argv: string[]): void {
  // Answered without loading the CLI: most of a `--version`'s time would be compiling it.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    writeVersion();
    return;
  }
  const cli = loadCli(process.env) as { main: typeof main };
  void cli.main(argv).then((code) => {
    process.exitCode = code;
  });
}

/** Set by the bundler (src/build/bundle.mjs): what the bundle is built from. */
declare const __TOOLSEARCH_BUILD_ID__: string | undefined;

/**
 * The CLI's first file (cli.cjs), loaded with Node's compile cache where Node has one, else (Node 20) through
 * V8's code cache in the cache directory (src/cli/code-cache.ts); required plainly when no cache may be used.
 */
function loadCli(env: Env): unknown {
  if (typeof (nodeModule as CompileCacheApi).enableCompileCache === 'function') enableCompileCache(env);
  else if (typeof __TOOLSEARCH_BUILD_ID__ === 'string' && !cacheDisabledByEnv(env)) {
    const root = cacheDirFromEnv(env);
    const file = fileURLToPath(new URL('./cli.cjs', import.meta.url));
    const loaded = root === null ? null : runWithCodeCache(file, root, __TOOLSEARCH_BUILD_ID__);
    if (loaded !== null) return loaded;
  }
  return createRequire(import.meta.url)('./cli.cjs');
}

/** Writes the package's version to stdout. */
function writeVersion(): void {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  stdoutStream().write(`${pkg.version}\n`);
}
