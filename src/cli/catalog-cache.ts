/**
 * A cache of loaded catalog files, so that a script running `toolsearch search
 * -c big.yaml …` a thousand times parses the YAML once.
 *
 * An entry is what {@link readCatalogDocument} returned for one file (tools,
 * detected format, warnings), stored as JSON with everything the result
 * depends on: the file's text (not its name or date), the path as given (it
 * appears in locations and warnings), the loader options and limits, and a
 * build identity (a new build never reads an old build's entries). An entry
 * is one line of JSON (the result and the settings), the same line again (a
 * damaged entry's copies differ), then the text's bytes, and a hit is only
 * taken when they repeat exactly what is being loaded (the bytes are
 * compared, not hashed): a hit returns exactly what parsing would — values
 * that JSON cannot carry (non-finite numbers, -0) are never stored. The
 * entry's file name is a hash of the settings and the absolute path, so a
 * file has one entry per settings, replaced when the file changes; nothing
 * hashes the text (loading `node:crypto` would cost every start more than
 * the compare, and a hash in JavaScript of a large text more).
 * Any problem with the cache (unreadable, corrupt, full disk, read-only home)
 * is a miss or a skipped write, never an error: the catalog is then parsed.
 *
 * The cache never touches input files. Entries live in
 * `$TOOLSEARCH_CACHE_DIR`, else `$XDG_CACHE_HOME/toolsearch`, else
 * `~/.cache/toolsearch`, as `catalog-<id>.entry`, read and written through
 * src/io/cache-dir.ts (its rules keep another user out); the oldest are
 * removed beyond {@link MAX_ENTRIES}.
 *
 * Over 400 lines: the entry format, its checks and the loader layer around it change together.
 */
import { isWellFormed } from '../core/text.js';
import { InputError, quote } from '../io/errors.js';
import { resolve } from 'node:path';
import type { JsonValue } from '../core/types.js';
import { CATALOG_ENTRY_NAME, type CacheDir, openCacheDir } from '../io/cache-dir.js';
import type { CatalogFileResult, CatalogOptions, CatalogText, loadCatalogTexts } from '../formats/catalog.js';
import type { ShapeWarning } from '../formats/shape-warning.js';
import { readInputText } from '../io/input-text.js';
import { inputName, type Limits, resolveLimits, STDIN_ARG } from '../io/read.js';
import type { Catalog, CatalogFormat, CatalogTool } from '../formats/types.js';

/** Bumped whenever the stored shape changes. */
const ENTRY_VERSION = 7;
/** Most entries kept; older ones are removed after a write. */
export const MAX_ENTRIES = 64;
/**
 * Files larger than this (in UTF-16 code units of text) are not cached: parsing JSON that size is as fast as reading an
 * entry.
 */
export const MAX_CACHED_TEXT = 16 * 1024 * 1024;

export type { CatalogFileResult } from '../formats/catalog.js';

/** What an entry is made from, and where it is kept. */
export interface CacheKey {
  /** A hash of `settings` and the file's absolute path: the entry's file name. */
  readonly id: string;
  /** The build, the path as given, the loader options and limits, as one string. */
  readonly settings: string;
  /** The file's text. */
  readonly text: string;
}

/** Where entries are kept. */
export interface CatalogCache {
  /** The key of `text` read from `file` with these loader settings. */
  key(file: string, text: string, settings: { format: string; prefix: string | undefined; limits: Limits }): CacheKey;
  get(key: CacheKey, file: string): CatalogFileResult | undefined;
  set(key: CacheKey, result: CatalogFileResult): void;
  /** Releases what the cache holds open (its directory's handle); a later use opens it again. */
  close?(): void;
}

type StoredTool = [
  name: string,
  description: string,
  isStatic: 0 | 1,
  line: number,
  column: number,
  /** The parameters as JSON text: decoded when first read (a search never reads them). */
  parameters?: string,
];
interface StoredEntry {
  readonly v: number;
  readonly settings: string;
  readonly format: CatalogFormat;
  readonly warnings: string[];
  /** The shape warnings: kind, line, column, message (the file is the entry's). */
  readonly shape: StoredShape[];
  readonly tools: StoredTool[];
}
type StoredShape = [kind: ShapeWarning['kind'], line: number, column: number, message: string];

const FORMATS = new Set<string>(['toolsearch', 'openai', 'anthropic', 'mcp', 'eino', 'request']);

/** The entry for `key` (a line of JSON, then the text), or null when a value would not read back identically. */
export function encodeEntry(result: CatalogFileResult, key: CacheKey): Buffer | null {
  let exact = true;
  const tools: StoredTool[] = result.tools.map((t) => {
    const row: StoredTool = [t.name, t.description, t.static ? 1 : 0, t.source.line, t.source.column];
    if (t.parameters !== undefined) {
      const json = parametersJson(t.parameters);
      if (json === null) exact = false;
      else row.push(json);
    }
    return row;
  });
  const entry: StoredEntry = {
    v: ENTRY_VERSION,
    settings: key.settings,
    format: result.format,
    warnings: result.warnings,
    shape: (result.shapeWarnings ?? []).map((w) => [w.kind, w.location.line, w.location.column, w.message]),
    tools,
  };
  const header = JSON.stringify(entry);
  // JSON.stringify writes no raw line break: the first one ends the header, the second its copy.
  return exact ? Buffer.from(`${header}\n${header}\n${key.text}`, 'utf8') : null;
}

/**
 * The header of an entry (`data`: header, line break, the same header again, line break, text), or null
 * when the two copies differ or are cut: an entry is written whole (a temporary renamed over it), so
 * a damaged, truncated or edited byte shows as a difference. Compared natively: a checksum computed in
 * JavaScript cost a cached search about a millisecond of the interpreter's time.
 */
function entryHeader(data: Buffer): { header: Buffer; text: Buffer } | null {
  const nl = data.indexOf(0x0a);
  const end = 2 * nl + 1;
  if (nl < 1 || data.length <= end || data[end] !== 0x0a) return null;
  const header = data.subarray(0, nl);
  return header.equals(data.subarray(nl + 1, end)) ? { header, text: data.subarray(end + 1) } : null;
}

/**
 * Where JSON.stringify may have written a number that does not read back as
 * the value: a non-finite one becomes `null`, -0 a bare `0` (in a value's
 * place: first or after `:`, `,` or `[`; last or before `,`, `}` or `]`;
 * JSON.stringify adds no spaces). Text without either holds neither.
 */
const MAYBE_INEXACT = /null|(?:^|[:,[])0(?:$|[,}\]])/;

/** `value` as JSON text, or null when a number in it would not read back identically (non-finite, -0). */
function parametersJson(value: JsonValue): string | null {
  const json = JSON.stringify(value);
  if (!MAYBE_INEXACT.test(json)) return json;
  // Rare (a null, or a zero): look at the numbers themselves.
  let exact = true;
  JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) exact = false;
    return v;
  });
  return exact ? json : null;
}

/**
 * Gives every plain object of `v` the loaders' shape (`nullObject`, as
 * `toJsonValue` makes them: no prototype), and checks what a parse would
 * have refused: nesting deeper than `maxDepth`, and -0 (never stored). Iterative: a tampered entry nested 200,000
 * levels deep is refused, not a stack overflow.
 */
function adoptJson(root: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'number') {
      if (Object.is(v, -0)) return false;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxDepth) return false;
    if (Array.isArray(v)) {
      for (const x of v) stack.push([x, depth + 1]);
      continue;
    }
    Object.setPrototypeOf(v, null);
    for (const k in v) stack.push([(v as Record<string, unknown>)[k], depth + 1]);
  }
  return true;
}

/** `text` (JSON) as a value with the loaders' shape, or undefined when a parse would have refused it. */
function decodeStored(text: string, maxDepth: number): JsonValue | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  return adoptJson(v, maxDepth) ? (v as JsonValue) : undefined;
}

/** A negative zero among JSON numbers (JSON.stringify writes -0 as 0: only an edited entry has one). */
const NEGATIVE_ZERO = /-0(?:\.0+)?(?![\d.])/;

/**
 * Sets `tool.parameters` from the stored JSON `text`: decoded now when it
 * could be refused (nested deeper than `maxDepth`, which needs at least that
 * many brackets, or holding a -0), else when first read. Returns false when
 * it is refused. A data property replaces the accessor on its first read or
 * write, so the tool reads and compares like a loader's.
 */
function storedParameters(tool: CatalogTool & { parameters?: JsonValue }, text: string, maxDepth: number): boolean {
  if (text.length >= 2 * maxDepth || NEGATIVE_ZERO.test(text)) {
    const v = decodeStored(text, maxDepth);
    if (v === undefined) return false;
    tool.parameters = v;
    return true;
  }
  STORED_PARAMETERS.set(tool, { text, maxDepth });
  Object.defineProperty(tool, 'parameters', LAZY_PARAMETERS);
  return true;
}

/** The stored text of the parameters not read yet, by tool. */
const STORED_PARAMETERS = new WeakMap<object, { readonly text: string; readonly maxDepth: number }>();

/** `tool.parameters` as a plain data property holding `value` (what a loader's tool has). */
function settleParameters(tool: object, value: JsonValue | undefined): void {
  STORED_PARAMETERS.delete(tool);
  Object.defineProperty(tool, 'parameters', { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The accessor of parameters not read yet: one for every tool (not a closure per tool), so every tool a hit
 * returns has the same hidden class, as a loader's tools do.
 */
const LAZY_PARAMETERS: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: CatalogTool) {
    const stored = STORED_PARAMETERS.get(this);
    // Only an object that inherits a tool's accessor has none: it reads as a tool without parameters.
    if (stored === undefined) return undefined;
    // Within the bounds checked above, text that JSON.stringify wrote decodes: only an entry edited by
    // hand (both copies of its header) does not.
    const v = decodeStored(stored.text, stored.maxDepth);
    if (v === undefined) {
      throw new InputError(
        `the catalog cache's entry for this file is damaged (the parameters of ${quote(this.name)} are not JSON):` +
          ' run with --no-cache, or remove the entry',
        { file: this.source.file, line: 0, column: 0 },
      );
    }
    settleParameters(this, v);
    return v;
  },
  set(this: object, value: JsonValue | undefined) {
    settleParameters(this, value);
  },
};

/** The nesting bound of the settings a key was made with (the loader's `maxDepth`). */
function maxDepthOf(settings: string): number {
  try {
    const limits = (JSON.parse(settings) as unknown[])[5] as { maxDepth?: unknown } | undefined;
    return typeof limits?.maxDepth === 'number' ? limits.maxDepth : 1000;
  } catch {
    return 1000;
  }
}

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;

/**
 * The entry in `data` for `file`, or undefined when it is not an intact,
 * well-formed entry of this version made from `key`. An entry is trusted
 * only through its two copies of the header and the checks a parse makes: tool names
 * non-empty and defined once, strings well-formed, nesting within the
 * limit, every field of its type.
 */
export function decodeEntry(data: Buffer, file: string, key: CacheKey): CatalogFileResult | undefined {
  const parts = entryHeader(data);
  if (parts === null || !parts.text.equals(Buffer.from(key.text, 'utf8'))) return undefined;
  let e: StoredEntry;
  try {
    e = JSON.parse(parts.header.toString('utf8')) as StoredEntry;
  } catch {
    return undefined;
  }
  if (
    e === null ||
    typeof e !== 'object' ||
    e.v !== ENTRY_VERSION ||
    !FORMATS.has(e.format) ||
    e.settings !== key.settings
  )
    return undefined;
  if (
    !Array.isArray(e.warnings) ||
    !e.warnings.every((w) => typeof w === 'string' && isWellFormed(w)) ||
    !Array.isArray(e.shape) ||
    !Array.isArray(e.tools)
  )
    return undefined;
  const shapeWarnings: ShapeWarning[] = [];
  for (const w of e.shape) {
    if (!Array.isArray(w) || w.length !== 4) return undefined;
    const [kind, line, column, message] = w;
    if ((kind !== 'unknown-key' && kind !== 'wrong-type') || !isInt(line) || !isInt(column)) return undefined;
    if (typeof message !== 'string' || !isWellFormed(message)) return undefined;
    shapeWarnings.push({ kind, location: { file, line, column }, message });
  }
  const maxDepth = maxDepthOf(key.settings);
  const names = new Set<string>();
  const tools: CatalogTool[] = [];
  for (const row of e.tools) {
    if (!Array.isArray(row) || (row.length !== 5 && row.length !== 6)) return undefined;
    const [name, description, isStatic, line, column] = row;
    if (
      typeof name !== 'string' ||
      typeof description !== 'string' ||
      (isStatic !== 0 && isStatic !== 1) ||
      !isInt(line) ||
      !isInt(column)
    ) {
      return undefined;
    }
    if (name === '' || names.has(name) || !isWellFormed(name) || !isWellFormed(description)) return undefined;
    names.add(name);
    // The same properties in the same order as the loader's objects.
    const tool: { -readonly [K in keyof CatalogTool]: CatalogTool[K] } = {
      name,
      description,
      static: isStatic === 1,
      source: { file, line, column },
    };
    if (row.length === 6) {
      // A parameters value sits at least three levels down in any catalog (document, tool list, tool).
      if (typeof row[5] !== 'string' || !storedParameters(tool, row[5], maxDepth)) return undefined;
    }
    tools.push(tool);
  }
  return { tools, format: e.format, warnings: e.warnings, shapeWarnings };
}

export { cacheDirFromEnv, cacheDisabledByEnv, NO_HOME_NOTE } from '../io/cache-dir.js';

/**
 * A cache kept as files in `dir`. `build` identifies the code that reads and
 * writes them (called once, when the first key is made). `opened`: `dir`,
 * already opened and checked by the caller (the CLI's start opens it once
 * per process), used until the cache is closed.
 */
export function fileCatalogCache(dir: string, build: () => string, opened: CacheDir | null = null): CatalogCache {
  let buildId: string | null = null;
  let looked = opened !== null;
  // Opened and checked on first use, and created by the first write (src/io/cache-dir.ts): a
  // directory others could write or swap is not used at all.
  const cacheDir = (create: boolean): CacheDir | null => {
    if (opened === null && (create || !looked)) opened = openCacheDir(dir, { create });
    looked = true;
    return opened;
  };
  const entryName = (key: CacheKey) => `catalog-${key.id}.entry`;
  return {
    key(file, text, settings) {
      buildId ??= build();
      const s = JSON.stringify([
        ENTRY_VERSION,
        buildId,
        file,
        settings.format,
        settings.prefix ?? null,
        settings.limits,
      ]);
      return { id: hash64(`${s}\0${resolve(file)}`), settings: s, text };
    },
    get(key, file) {
      const d = cacheDir(false);
      const data = d?.read(entryName(key));
      if (data === undefined) return undefined;
      const hit = decodeEntry(data, file, key);
      // Damaged, tampered or made from another text: removed, and written again after the parse.
      if (hit === undefined) d!.remove(entryName(key));
      return hit;
    },
    set(key, result) {
      const data = encodeEntry(result, key);
      if (data === null) return;
      cacheDir(true)?.write(entryName(key), data, { pattern: CATALOG_ENTRY_NAME, keep: MAX_ENTRIES });
    },
    close() {
      opened?.close();
      opened = null;
      looked = false;
    },
  };
}

/** A 64-bit hash of a short `s` (two 32-bit lanes, FNV-1a and a multiply-xorshift), as 16 hex digits. */
export function hash64(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** Options of the cached loaders: the loader's, and the cache (null: parse every file). */
export interface CachedCatalogOptions extends CatalogOptions {
  readonly cache: CatalogCache | null;
}

/** A catalog file as read, with what the cache knows of it (see {@link lookUpCatalogFiles}). */
export interface CatalogInput extends CatalogText {
  /** The cache key, or null when the file is not cached. */
  readonly key: CacheKey | null;
}

/**
 * Reads catalog files and looks each up in `options.cache`. No parser is
 * loaded here: when every file is a hit, {@link loadCatalogFilesLazily} builds
 * the catalog without them.
 */
export function lookUpCatalogFiles(files: readonly string[], options: CachedCatalogOptions): CatalogInput[] {
  const { cache } = options;
  return files.map((given) => {
    const text = readInputText(given, options.limits);
    const file = inputName(given);
    // Standard input has no path to cache it by.
    if (!cache || given === STDIN_ARG || text.length > MAX_CACHED_TEXT) return { file, text, key: null };
    const key = cache.key(file, text, {
      format: options.format ?? 'auto',
      prefix: options.prefix,
      limits: resolveLimits(options.limits),
    });
    return { file, text, key, known: cache.get(key, file) };
  });
}

/**
 * The loader (`loadCatalogTexts` of catalog.ts, passed in so that this module
 * needs no parser) with the cache around it: hits are not parsed, misses are
 * parsed and stored.
 */
export function loadCatalogFilesCached(
  files: readonly string[],
  options: CachedCatalogOptions,
  load: typeof loadCatalogTexts,
): Catalog {
  const { cache, ...loaderOptions } = options;
  return load(lookUpCatalogFiles(files, options), loaderOptions, storeIn(cache));
}

/** Stores what the loader parsed for a file the cache could hold. */
function storeIn(cache: CatalogCache | null): (input: CatalogText, result: CatalogFileResult) => void {
  return (input, result) => {
    const key = (input as Partial<CatalogInput>).key;
    if (key) cache?.set(key, result);
  };
}

/**
 * Loading for hosts that can wait (the CLI): when the cache holds every file
 * (and no name is defined twice), the catalog is built without loading the
 * loader and its parsers at all; otherwise they are loaded and the misses
 * parsed.
 */
export async function loadCatalogFilesLazily(
  files: readonly string[],
  options: CachedCatalogOptions,
): Promise<Catalog> {
  const inputs = lookUpCatalogFiles(files, options);
  if (inputs.every((i) => i.known)) {
    const tools = inputs.flatMap((i) => i.known!.tools);
    if (new Set(tools.map((t) => t.name)).size === tools.length) {
      return {
        tools,
        sources: inputs.map((i) => ({ file: i.file, format: i.known!.format })),
        warnings: inputs.flatMap((i) => i.known!.warnings),
        shapeWarnings: inputs.flatMap((i) => i.known!.shapeWarnings ?? []),
      };
    }
  }
  // The layer below, loaded only now: it brings the parsers (js-yaml among them).
  const { loadCatalogTexts } = await import('../formats/catalog.js');
  const { cache, ...loaderOptions } = options;
  return loadCatalogTexts(inputs, loaderOptions, storeIn(cache));
}
