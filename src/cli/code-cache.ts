/**
 * V8's code cache for the CLI's first file (dist/bundle/cli.cjs: what a search needs) on a Node without a
 * compile cache of its own (Node 20; from 22.1 on, Node's compile cache serves: src/cli/start.ts). A second
 * path for speed, kept because it buys more than a fifth of what a user waits: a cached `search` on Node 20
 * took 55.9 ms compiled from source and 42.7 ms from this cache (`node -e 0`: 23.9 ms; 25 interleaved runs),
 * and a first run 89.7 → 94.4 ms, the data made and written at its end.
 *
 * The file is `code-<key>.v8` in the cache directory (src/io/cache-dir.ts: the user's own, nobody else can
 * write it), `<key>` a hash of the bundle's build, Node's version, the architecture and the file's identity
 * (device, inode, size, modification time), so a new build, a new Node or an edited file never reads another's
 * code (V8 itself only compares the source's length). It holds V8's data twice: V8 does not check its data's
 * integrity in a release build (issue 14, finding 7: a damaged code cache crashed every later run), so a file
 * whose two halves differ is never handed to V8. Comparing them is a memcmp, where a checksum in JavaScript
 * cost 2.5 ms of a start still running in the interpreter. A damaged file, or data V8 refuses (another V8's or
 * other flags), means compiling from source and writing the file again. The data is made at the end of a run
 * that had none, so it holds the functions that ran, compiled. `TOOLSEARCH_CACHE=off` turns it off with the
 * other caches.
 *
 * The file runs as a CommonJS module's function in a `vm.Script`, which has no loader for `import()`: the
 * build checks that cli.cjs has none (src/build/bundle.mjs); cli-more.cjs, which it requires, is loaded by
 * Node and may.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { CODE_CACHE_NAME, nameHash, openCacheDir } from '../io/cache-dir.js';

/** Code caches kept: this build's and one more (another Node, or the build before). */
const KEEP = 2;

/** The parameters of a CommonJS module's function, as Node wraps a file. */
const WRAP_START = '(function (exports, require, module, __filename, __dirname) { ';
const WRAP_END = '\n});';

/** V8's data in a stored file: its two halves when they are the same bytes; else undefined. */
export function storedData(stored: Buffer | undefined): Buffer | undefined {
  if (stored === undefined || stored.length === 0 || stored.length % 2 !== 0) return undefined;
  const half = stored.length / 2;
  const data = stored.subarray(0, half);
  return data.equals(stored.subarray(half)) ? data : undefined;
}

/**
 * Runs the CommonJS file `file` as `require` would, its compiled code from the code cache in `cacheRoot`
 * when there is a good one, and returns its exports. Null when the cache directory may not be used: the
 * caller then requires the file. `build` identifies the file's code; `atExit` is given the function that
 * saves the code when there was none (by default run as the process exits, after the run it serves).
 */
export function runWithCodeCache(
  file: string,
  cacheRoot: string,
  build: string,
  atExit: (save: () => void) => void = (save) => process.once('exit', save),
): unknown {
  const dir = openCacheDir(cacheRoot, { create: true });
  if (dir === null) return null;
  // The file read through one descriptor: its identity (an edited file is another) and its text agree.
  const fd = openSync(file, 'r');
  let source: string;
  let id: string;
  try {
    const st = fstatSync(fd);
    id = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const name = `code-${nameHash(`${build}\0${process.version}\0${process.arch}\0${id}`)}.v8`;
  const data = storedData(dir.read(name));
  const script = new Script(WRAP_START + source + WRAP_END, { filename: file, cachedData: data });
  if (data === undefined || script.cachedDataRejected === true) {
    atExit(() => {
      try {
        const made = script.createCachedData();
        dir.write(name, Buffer.concat([made, made]), { pattern: CODE_CACHE_NAME, keep: KEEP });
      } catch {
        // no cache this time
      }
    });
  }
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return module.exports;
}
