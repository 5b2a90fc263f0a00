/**
 * The CLI's cache of loaded catalog files, a layer around the catalog loader (src/formats/catalog.ts): a
 * script running `toolsearch search -c big.yaml …` a thousand times parses the YAML once.
 *
 * An entry is one file's {@link CatalogFileResult}, as one JSON document,
 * `catalog-<id>.json` in the cache directory (src/io/cache-dir.ts: its rules keep another user out), where
 * `<id>` is a hash of the file's absolute path and the settings the result depends on (this build, the path
 * as given, the format, the prefix and the limits). The entry holds the settings and the file's text
 * too, and is used only when both are exactly those of the load, so a hit is what parsing would return:
 *
 *     {"sum":"<16 hex>","v":1,"settings":[…],"result":{…},"text":"<the file's text>"}
 *
 * `sum` is a checksum of the bytes from `"v"` to the end of `result` (the text is compared with the
 * file's): a damaged entry is a miss. An entry is also refused when it holds what a parse would not
 * have made (a name defined twice, a string that is not well-formed, nesting deeper than the limit), and
 * a file whose values JSON cannot carry (.inf, .nan, -0) is not stored. Any problem with the cache
 * (unreadable, damaged, full disk, read-only home) is a miss or a skipped write, never an error: the
 * catalog is then parsed. The oldest entries are removed beyond {@link MAX_ENTRIES}.
 */
import { isWellFormed } from '../core/text.js';
import type { JsonValue } from '../core/types.js';
import type { CatalogFileResult, CatalogOptions } from '../formats/catalog.js';
import { mergeCatalogFiles } from '../formats/merge.js';
import type { ShapeWarning } from '../formats/shape-warning.js';
import { CATALOG_SHAPE_FORMATS, type Catalog, type CatalogFormat, type CatalogTool } from '../formats/types.js';
import { CATALOG_ENTRY_NAME, type CacheDir, nameHash, openCacheDir } from '../io/cache-dir.js';
import { readInputText } from '../io/input-text.js';
import { inputName, type Limits, resolveLimits, STDIN_ARG } from '../io/read.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export { cacheDirFromEnv, cacheDisabledByEnv, NO_HOME_NOTE } from '../io/cache-dir.js';

/** Bumped whenever the stored shape changes. */
const ENTRY_VERSION = 1;
/** Most entries kept; older ones are removed after a write. */
export const MAX_ENTRIES = 64;
/** Files larger than this (UTF-16 code units) are not cached: parsing JSON that size is as fast as an entry. */
export const MAX_CACHED_TEXT = 16 * 1024 * 1024;

/** What a file's result depends on besides its text and its path as given. */
export interface LoadSettings {
  readonly format: string;
  readonly prefix: string | null;
  readonly limits: Limits;
}

/** Where entries are kept: the entry of a file (its path as given) read as `text`, loaded with `settings`. */
export interface CatalogCache {
  get(file: string, text: string, settings: LoadSettings): CatalogFileResult | undefined;
  set(file: string, text: string, settings: LoadSettings, result: CatalogFileResult): void;
}

/** A tool as stored: its location's file is the entry's. */
interface StoredTool {
  readonly name: string;
  readonly description: string;
  readonly static: boolean;
  readonly line: number;
  readonly column: number;
  readonly parameters?: JsonValue;
}

interface StoredResult {
  readonly format: CatalogFormat;
  readonly warnings: readonly string[];
  readonly shape: ReadonlyArray<{ kind: ShapeWarning['kind']; line: number; column: number; message: string }>;
  readonly tools: readonly StoredTool[];
}

/** The start of every entry, before its checksum's 16 hex digits and `",`. */
const SUM_PREFIX = '{"sum":"';
const BODY_START = SUM_PREFIX.length + 18;

/**
 * A 64-bit checksum of `bytes`, as 16 hex digits: two lanes over 32-bit words, each a multiply and a
 * rotation per word (a word's change always changes both lanes), then the last bytes and the length. Not
 * a defence against someone who can write the cache (the user): the decoder's own checks are; only
 * against damage.
 */
export function checksum(bytes: Uint8Array): string {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes); // a copy at offset 0
  const words = new Int32Array(aligned.buffer, aligned.byteOffset, aligned.length >>> 2);
  let a = 0x2f0e1b3d;
  let b = 0x6b43a9b5;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    a = Math.imul(a ^ w, 0x01000193);
    a = (a << 13) | (a >>> 19);
    b = Math.imul(b + w, 0x5bd1e995);
    b = (b << 17) | (b >>> 15);
  }
  let tail = aligned.length;
  for (let i = words.length * 4; i < aligned.length; i++) tail = (tail << 8) ^ aligned[i]!;
  a = Math.imul(a ^ tail, 0x01000193);
  b = Math.imul(b + tail, 0x5bd1e995);
  const hex = (x: number): string => (x >>> 0).toString(16).padStart(8, '0');
  return hex(a ^ (a >>> 16)) + hex(b ^ (b >>> 13));
}

/** `value` holds a number JSON cannot carry (non-finite, -0): the result is not stored. */
function inexact(value: JsonValue | undefined): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || Object.is(v, -0)) return true;
    } else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) stack.push(x);
  }
  return false;
}

/** The entry of `result`, loaded from `text` with `settings`; null when a value would not read back identically. */
export function encodeEntry(result: CatalogFileResult, text: string, settings: string): Buffer | null {
  if (result.tools.some((t) => inexact(t.parameters))) return null;
  const stored: StoredResult = {
    format: result.format,
    warnings: result.warnings,
    shape: (result.shapeWarnings ?? []).map((w) => ({
      kind: w.kind,
      line: w.location.line,
      column: w.location.column,
      message: w.message,
    })),
    tools: result.tools.map((t) => ({
      name: t.name,
      description: t.description,
      static: t.static,
      line: t.source.line,
      column: t.source.column,
      ...(t.parameters === undefined ? {} : { parameters: t.parameters }),
    })),
  };
  const body = Buffer.from(
    `"v":${ENTRY_VERSION},"settings":${JSON.stringify(settings)},"result":${JSON.stringify(stored)}`,
  );
  return Buffer.concat([
    Buffer.from(`${SUM_PREFIX}${checksum(body)}",`),
    body,
    Buffer.from(`,"text":${JSON.stringify(text)}}`),
  ]);
}

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;
const isText = (x: unknown): x is string => typeof x === 'string' && isWellFormed(x);

/**
 * `v` with every object made like the loaders' (no prototype), or false when a parse would have refused
 * it: nesting deeper than `maxDepth` (counting from a tool's parameters, three levels down in any
 * catalog), a -0, a string that is not well-formed. Iterative: an entry nested 200,000 levels is refused.
 */
function adopt(root: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[root, 4]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'number') {
      if (Object.is(v, -0)) return false;
    } else if (typeof v === 'string') {
      if (!isWellFormed(v)) return false;
    } else if (v !== null && typeof v === 'object') {
      if (depth > maxDepth) return false;
      if (!Array.isArray(v)) Object.setPrototypeOf(v, null);
      for (const k in v) {
        if (!isWellFormed(k)) return false;
        stack.push([(v as Record<string, unknown>)[k], depth + 1]);
      }
    }
  }
  return true;
}

const FORMATS = new Set<string>(CATALOG_SHAPE_FORMATS);

/**
 * The result stored in `data` for `file` read as `text` with `settings`, or undefined when `data` is not
 * an intact, well-formed entry made from exactly these.
 */
export function decodeEntry(
  data: Buffer,
  file: string,
  text: string,
  settings: string,
  maxDepth: number,
): CatalogFileResult | undefined {
  const tail = Buffer.from(`,"text":${JSON.stringify(text)}}`);
  const end = data.length - tail.length;
  if (end <= BODY_START || data.toString('latin1', 0, SUM_PREFIX.length) !== SUM_PREFIX) return undefined;
  if (!data.subarray(end).equals(tail)) return undefined;
  if (data.toString('latin1', SUM_PREFIX.length, BODY_START) !== `${checksum(data.subarray(BODY_START, end))}",`)
    return undefined;
  let entry: { v?: unknown; settings?: unknown; result?: Partial<StoredResult> };
  try {
    entry = JSON.parse(`{${data.toString('utf8', BODY_START, end)}}`) as typeof entry;
  } catch {
    return undefined;
  }
  const r = entry.result;
  if (entry.v !== ENTRY_VERSION || entry.settings !== settings || r === null || typeof r !== 'object') return undefined;
  if (typeof r.format !== 'string' || !FORMATS.has(r.format)) return undefined;
  if (!Array.isArray(r.warnings) || !r.warnings.every(isText)) return undefined;
  if (!Array.isArray(r.shape) || !Array.isArray(r.tools)) return undefined;
  const shapeWarnings: ShapeWarning[] = [];
  for (const w of r.shape as unknown[]) {
    const { kind, line, column, message } = (w ?? {}) as Record<string, unknown>;
    if ((kind !== 'unknown-key' && kind !== 'wrong-type') || !isCount(line) || !isCount(column) || !isText(message))
      return undefined;
    shapeWarnings.push({ kind, location: { file, line, column }, message });
  }
  const names = new Set<string>();
  const tools: CatalogTool[] = [];
  for (const t of r.tools as unknown[]) {
    const { name, description, static: isStatic, line, column, parameters } = (t ?? {}) as Record<string, unknown>;
    if (!isText(name) || name === '' || names.has(name) || !isText(description) || typeof isStatic !== 'boolean')
      return undefined;
    if (!isCount(line) || !isCount(column)) return undefined;
    names.add(name);
    const source = { file, line, column };
    if (parameters === undefined) tools.push({ name, description, static: isStatic, source });
    else {
      if (!adopt(parameters, maxDepth)) return undefined;
      tools.push({ name, description, static: isStatic, source, parameters: parameters as JsonValue });
    }
  }
  return { tools, format: r.format as CatalogFormat, warnings: r.warnings, shapeWarnings };
}

/** Set by the bundler (src/build/bundle.mjs). */
declare const __TOOLSEARCH_BUILD_ID__: string;

/**
 * What identifies this code in every entry: in the bundle, the hash of everything it is built from
 * (src/build/bundle.mjs: package.json among them); run from tsc's output or the sources, this file's text.
 */
function buildIdentity(): string {
  if (typeof __TOOLSEARCH_BUILD_ID__ === 'string') return __TOOLSEARCH_BUILD_ID__;
  return readFileSync(new URL(import.meta.url), 'utf8');
}

/**
 * A cache kept as files in `dir`, opened and checked on first use (src/io/cache-dir.ts), and created by
 * the first write. `build` identifies the code that reads and writes the entries (called once).
 */
export function fileCatalogCache(dir: string, build: () => string = buildIdentity): CatalogCache {
  let buildId: string | undefined;
  let opened: CacheDir | null | undefined;
  let created = false;
  const cacheDir = (create: boolean): CacheDir | null => {
    if (opened === undefined || (opened === null && create && !created)) {
      opened = openCacheDir(dir, { create });
      created ||= create;
    }
    return opened;
  };
  const keyOf = (file: string, s: LoadSettings) => {
    buildId ??= nameHash(build());
    const settings = JSON.stringify([ENTRY_VERSION, buildId, file, s.format, s.prefix, s.limits]);
    return { settings, name: `catalog-${nameHash(`${settings}\0${resolve(file)}`)}.json` };
  };
  return {
    get(file, text, s) {
      const d = cacheDir(false);
      const { settings, name } = keyOf(file, s);
      const data = d?.read(name);
      if (data === undefined) return undefined;
      const hit = decodeEntry(data, file, text, settings, s.limits.maxDepth);
      // Damaged, tampered or made from another text: removed, and written again after the parse.
      if (hit === undefined) d!.remove(name);
      return hit;
    },
    set(file, text, s, result) {
      const { settings, name } = keyOf(file, s);
      const data = encodeEntry(result, text, settings);
      if (data !== null) cacheDir(true)?.write(name, data, { pattern: CATALOG_ENTRY_NAME, keep: MAX_ENTRIES });
    },
  };
}

/**
 * Loads catalog files as the loader does (src/formats/catalog.ts: `loadCatalogFiles`), each file's result
 * taken from `cache` when it holds it, else parsed and stored. Standard input is never cached. The loader
 * (and with it the parsers) is loaded only when a file is parsed.
 */
export async function loadCatalogFilesCached(
  files: readonly string[],
  options: CatalogOptions,
  cache: CatalogCache | null,
): Promise<Catalog> {
  // Every file read before any is parsed: a missing file is reported before a syntax error in another.
  const inputs = files.map((given) => ({ given, file: inputName(given), text: readInputText(given, options.limits) }));
  const settings: LoadSettings = {
    format: options.format ?? 'auto',
    prefix: options.prefix ?? null,
    limits: resolveLimits(options.limits),
  };
  const cached = (given: string, text: string) =>
    cache !== null && given !== STDIN_ARG && text.length <= MAX_CACHED_TEXT;
  const hits = inputs.map(({ given, file, text }) =>
    cached(given, text) ? cache!.get(file, text, settings) : undefined,
  );
  const loader = hits.every((h) => h !== undefined) ? null : await import('../formats/catalog.js');
  const loaded = inputs.map(({ given, file, text }, i) => {
    const hit = hits[i];
    if (hit !== undefined) return { file, result: hit };
    const result = loader!.loadCatalogFile(file, text, options);
    if (cached(given, text)) cache!.set(file, text, settings, result);
    return { file, result };
  });
  try {
    return mergeCatalogFiles(loaded);
  } catch (err) {
    // A name defined twice: the files from the cache are parsed again, so the error shows the line as parsing does.
    if (hits.every((h) => h === undefined)) throw err;
    const { loadCatalogFile } = await import('../formats/catalog.js');
    return mergeCatalogFiles(inputs.map(({ file, text }) => ({ file, result: loadCatalogFile(file, text, options) })));
  }
}
