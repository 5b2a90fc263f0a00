/** The loaded-catalog cache: entries read back exactly, and any cache problem is a miss. */
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import {
  cacheDirFromEnv,
  cacheDisabledByEnv,
  type CatalogCache,
  decodeEntry,
  encodeEntry,
  fileCatalogCache,
  loadCatalogFilesCached,
  loadCatalogFilesLazily,
  MAX_ENTRIES,
} from '../../src/cli/catalog-cache.js';
import { openCacheDir } from '../../src/io/cache-dir.js';
import { loadCatalogFiles, loadCatalogTexts } from '../../src/formats/catalog.js';
import { DEFAULT_LIMITS } from '../../src/io/read.js';

/** The cache around the loader, synchronously. */
const loadCached = (files: string[], options: { cache: CatalogCache | null }) =>
  loadCatalogFilesCached(files, options, loadCatalogTexts);

const dir = mkdtempSync(join(tmpdir(), 'toolsearch-cache-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `c${n++}`);
const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

/** Everything a loaded catalog carries, prototypes included. */
function snapshot(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return Object.is(value, -0) ? '-0' : value;
  if (Array.isArray(value)) return value.map(snapshot);
  return {
    proto: Object.getPrototypeOf(value) === null ? 'null' : 'object',
    entries: Object.keys(value).map((k) => [k, snapshot((value as Record<string, unknown>)[k])]),
  };
}

describe('an entry holds its header twice', () => {
  test('every flipped bit of a header copy and every cut makes the entry a miss; the intact one is a hit', () => {
    const file = 'c.yaml';
    const key = { id: 'x', settings: 's', text: 'tools: []\n' };
    const tool = { name: 'a', description: 'b — ü', static: false, source: { file, line: 1, column: 1 } };
    const good = encodeEntry({ tools: [tool], format: 'toolsearch', warnings: [] }, key)!;
    const nl = good.indexOf(0x0a);
    expect(good.subarray(0, nl).equals(good.subarray(nl + 1, 2 * nl + 1))).toBe(true);
    expect(good.subarray(2 * nl + 2).toString('utf8')).toBe(key.text);
    expect(decodeEntry(good, file, key)?.tools.map((t) => t.name)).toEqual(['a']);
    let misses = 0;
    for (let at = 0; at < 2 * nl + 2; at++) {
      for (let bit = 0; bit < 8; bit++) {
        const flipped = Buffer.from(good);
        flipped[at] = flipped[at]! ^ (1 << bit);
        if (decodeEntry(flipped, file, key) === undefined) misses++;
      }
    }
    expect(misses).toBe((2 * nl + 2) * 8);
    for (let at = 0; at < good.length; at++) expect(decodeEntry(good.subarray(0, at), file, key)).toBeUndefined();
    // One byte more or less in a copy (the copies' lengths place the text).
    const text = good.toString('utf8');
    expect(decodeEntry(Buffer.from(text.replace('\n', ' \n')), file, key)).toBeUndefined();
  });
});

describe('entries', () => {
  test('the demo catalog, every shape: a cache hit equals a parse, prototypes and key order included', async () => {
    const files = [
      'fixtures/catalogs/demo.yaml',
      'fixtures/catalogs/demo.openai.json',
      'fixtures/catalogs/demo.anthropic.json',
      'fixtures/catalogs/demo.mcp.json',
      'fixtures/catalogs/demo.eino.json',
    ];
    for (const file of files) {
      const cache = fileCatalogCache(fresh(), () => 'test');
      const parsed = loadCatalogFiles([file]);
      const first = loadCached([file], { cache });
      const hit = loadCached([file], { cache });
      const lazy = await loadCatalogFilesLazily([file], { cache });
      expect(snapshot(first)).toEqual(snapshot(parsed));
      expect(snapshot(hit)).toEqual(snapshot(parsed));
      expect(snapshot(lazy)).toEqual(snapshot(parsed));
    }
  });

  test('parameters are stored as JSON text and decoded when first read: a search never decodes them', () => {
    const file = 'fixtures/catalogs/demo.yaml';
    const cache = fileCatalogCache(fresh(), () => 'test');
    const parsed = loadCatalogFiles([file]);
    loadCached([file], { cache });
    const hit = loadCached([file], { cache });
    const tool = hit.tools.find((t) => parsed.tools.find((p) => p.name === t.name)?.parameters !== undefined)!;
    expect(typeof Object.getOwnPropertyDescriptor(tool, 'parameters')?.get).toBe('function');
    // One accessor for every tool, not a closure each: tools that differ in shape make every later
    // property read of a search slower (V8 gives each its own hidden class).
    const accessors = new Set(hit.tools.map((t) => Object.getOwnPropertyDescriptor(t, 'parameters')?.get));
    expect(accessors.size).toBe(1);
    expect(Object.keys(tool)).toEqual(['name', 'description', 'static', 'source', 'parameters']);
    const expected = parsed.tools.find((p) => p.name === tool.name)!.parameters;
    expect(snapshot(tool.parameters)).toEqual(snapshot(expected));
    // Read once, then a plain value like a loader's: the same object on every read, and writable.
    expect(Object.getOwnPropertyDescriptor(tool, 'parameters')).toEqual({
      value: tool.parameters,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    const other = hit.tools.find((t) => t !== tool && Object.getOwnPropertyDescriptor(t, 'parameters')?.get)!;
    (other as { parameters?: unknown }).parameters = { replaced: true };
    expect(other.parameters).toEqual({ replaced: true });
  });

  test('stored parameters a parse would refuse are refused at once; text that is not JSON fails when read', () => {
    const file = 'c.yaml';
    const key = { id: 'x', settings: JSON.stringify([7, 'b', file, 'auto', null, { maxDepth: 10 }]), text: 't' };
    const header = (params: string) => {
      const json = JSON.stringify({
        v: 7,
        settings: key.settings,
        format: 'toolsearch',
        warnings: [],
        shape: [],
        tools: [['a', 'd', 0, 2, 5, params]],
      });
      return Buffer.from(`${json}\n${json}\n${key.text}`);
    };
    const params = (p: string) => decodeEntry(header(p), file, key)?.tools[0]?.parameters;
    expect(params('{"x":[1,-0.5,"-0"]}')).toEqual({ x: [1, -0.5, '-0'] });
    expect(params('[[[[[[[[[[]]]]]]]]]]')).toEqual([[[[[[[[[[]]]]]]]]]]); // 10 levels: the limit
    for (const refused of ['[[[[[[[[[[[]]]]]]]]]]]', '{"x":-0}', '[-0.00e5]', '[-0.0, 1 ]']) {
      expect(decodeEntry(header(refused), file, key), refused).toBeUndefined();
    }
    const damaged = decodeEntry(header('{"x":'), file, key)!;
    expect(() => damaged.tools[0]!.parameters).toThrow(
      'the catalog cache\'s entry for this file is damaged (the parameters of "a" are not JSON): run with --no-cache,' +
        ' or remove the entry',
    );
  });

  test('__proto__, constructor and integer-like keys in parameters; warnings kept', () => {
    const file = write(
      'proto.json',
      JSON.stringify({
        model: 'x',
        tools: [
          {
            type: 'function',
            function: {
              name: 'a',
              description: 'd',
              parameters: { __proto__: { x: 1 }, constructor: 2, '10': 3, '2': 4 },
            },
          },
          { type: 'web_search' },
          { type: 'function', function: { name: 'tool_search', description: '' } },
        ],
      }).replace('"x":1', '"x":1,"__proto__":5'),
    );
    const cache = fileCatalogCache(fresh(), () => 'test');
    const parsed = loadCatalogFiles([file]);
    loadCached([file], { cache });
    const hit = loadCached([file], { cache });
    expect(parsed.warnings?.length).toBeGreaterThan(0);
    expect(snapshot(hit)).toEqual(snapshot(parsed));
  });

  test('values JSON cannot carry (.inf, .nan, -0) are never stored', () => {
    const file = write(
      'inf.yaml',
      'tools:\n  - name: a\n    description: d\n    parameters: {max: .inf, min: -0.0, no: .nan}\n',
    );
    const d = fresh();
    const cache = fileCatalogCache(d, () => 'test');
    const parsed = loadCached([file], { cache });
    expect(existsSync(d)).toBe(false); // nothing written, not even the directory
    const params = parsed.tools[0]!.parameters as Record<string, number>;
    expect(params.max).toBe(Infinity);
    expect(Object.is(params.min, -0)).toBe(true);
    expect(
      encodeEntry(
        { tools: [...parsed.tools], format: 'toolsearch', warnings: [] },
        { id: 'x', settings: 's', text: 't' },
      ),
    ).toBeNull();
  });

  test('property: an entry is written exactly when every number in its parameters reads back', () => {
    const key = { id: 'x', settings: 's', text: 't' };
    const number = fc.oneof(
      fc.constantFrom(0, -0, 1, -1, 0.5, Infinity, -Infinity, NaN, 10, 100),
      fc.double(),
      fc.integer(),
    );
    const leaf = fc.oneof(number, fc.constantFrom('0', ':0,', '[0]', 'null', '-0'), fc.string(), fc.boolean());
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('v')),
      ),
    })).v;
    const inexact = (v: unknown): boolean =>
      typeof v === 'number'
        ? !Number.isFinite(v) || Object.is(v, -0)
        : v !== null && typeof v === 'object' && Object.values(v).some(inexact);
    fc.assert(
      fc.property(value, (parameters) => {
        const tool = {
          name: 'a',
          description: 'd',
          static: false,
          source: { file: 'f', line: 1, column: 1 },
          parameters,
        };
        const entry = encodeEntry({ tools: [tool as never], format: 'toolsearch', warnings: [] }, key);
        expect(entry === null).toBe(inexact(parameters));
      }),
      { numRuns: 2000 },
    );
  });

  test('a directory the caller opened is used through its handle (the CLI opens its cache directory once)', () => {
    const file = 'fixtures/catalogs/demo.mcp.json';
    const real = fresh();
    const handle = openCacheDir(real, { create: true })!;
    const named = fresh(); // the path as given: never opened, never made
    const cache = fileCatalogCache(named, () => 'test', handle);
    const parsed = loadCached([file], { cache });
    expect(readdirSync(real).filter((f) => f.startsWith('catalog-'))).toHaveLength(1);
    expect(existsSync(named)).toBe(false);
    expect(snapshot(loadCached([file], { cache }))).toEqual(snapshot(parsed));
    cache.close?.();
    expect(() => handle.close()).not.toThrow(); // closed once already: no error
  });

  test('a corrupt, truncated or foreign entry is a miss', () => {
    const file = 'fixtures/catalogs/demo.mcp.json';
    const key = { id: 'x', settings: '[3,"test"]', text: readFileSync(file, 'utf8') };
    const good = encodeEntry(
      { ...loadCatalogFiles([file]), tools: [...loadCatalogFiles([file]).tools], format: 'mcp', warnings: [] },
      key,
    )!;
    expect(decodeEntry(good, file, key)).toBeDefined();
    // A header written twice, as the cache writes it: what only the decoder's own checks can refuse.
    const header = (json: string) => Buffer.from(`${json}\n${json}\n${key.text}`);
    const text = good.toString('utf8');
    for (const bad of [
      good.subarray(0, -10),
      Buffer.alloc(0),
      header('null'),
      header('[]'),
      header(text.slice(0, 40)),
      Buffer.from(text.replaceAll('"v":7', '"v":1')),
      Buffer.from(text.replaceAll('"format":"mcp"', '"format":"zzz"')),
      header('{"v":7,"settings":"[3,\\"test\\"]","format":"mcp","warnings":[],"shape":[],"tools":[["a","d",2,1,1]]}'),
      header('{"v":7,"settings":"[3,\\"test\\"]","format":"mcp","warnings":[3],"shape":[],"tools":[]}'),
      // Shape warnings: missing, of an unknown kind, or without their message.
      header('{"v":7,"settings":"[3,\\"test\\"]","format":"mcp","warnings":[],"tools":[]}'),
      header('{"v":7,"settings":"[3,\\"test\\"]","format":"mcp","warnings":[],"shape":[["zz",1,1,"m"]],"tools":[]}'),
      header(
        '{"v":7,"settings":"[3,\\"test\\"]","format":"mcp","warnings":[],"shape":[["unknown-key",1,1]],"tools":[]}',
      ),
    ]) {
      expect(decodeEntry(bad, file, key)).toBeUndefined();
    }
    // Control: a well-formed header over the same text.
    expect(
      decodeEntry(
        header(
          '{"v":7,"settings":"[3,\\"test\\"]","format":"mcp","warnings":[],' +
            '"shape":[["wrong-type",2,3,"m"]],"tools":[]}',
        ),
        file,
        key,
      ),
    ).toEqual({
      tools: [],
      format: 'mcp',
      warnings: [],
      shapeWarnings: [{ kind: 'wrong-type', location: { file, line: 2, column: 3 }, message: 'm' }],
    });
    // Made from other settings, or another text (one byte differs, or one more): a miss.
    expect(decodeEntry(good, file, { ...key, settings: '[3,"other"]' })).toBeUndefined();
    expect(decodeEntry(good, file, { ...key, text: `${key.text} ` })).toBeUndefined();
    expect(decodeEntry(good, file, { ...key, text: key.text.replace('"', "'") })).toBeUndefined();
    // Through the file cache: the key's file is overwritten with garbage, the load parses again.
    const d = fresh();
    const cache = fileCatalogCache(d, () => 'test');
    const parsed = loadCached([file], { cache });
    for (const name of readdirSync(d).filter((x) => x.startsWith('catalog-'))) writeFileSync(join(d, name), '{"v":1,');
    expect(snapshot(loadCached([file], { cache }))).toEqual(snapshot(parsed));
  });

  test(
    'an entry is found by the path as given, the options, the limits and the build; the text must match ' + 'besides',
    () => {
      const cache = fileCatalogCache(fresh(), () => 'build-1');
      const other = fileCatalogCache(fresh(), () => 'build-2');
      const limits = { ...DEFAULT_LIMITS, maxBytes: 1, maxDepth: 2, maxAliases: 3, maxAliasBytes: 5, maxMessages: 4 };
      const base = cache.key('a.yaml', 'text', { format: 'auto', prefix: undefined, limits });
      expect(cache.key('a.yaml', 'text', { format: 'auto', prefix: undefined, limits })).toEqual(base);
      // A new text for the same file takes the same place, and must match the stored text to be a hit.
      expect(cache.key('a.yaml', 'text!', { format: 'auto', prefix: undefined, limits })).toEqual({
        ...base,
        text: 'text!',
      });
      const variants = [
        cache.key('./a.yaml', 'text', { format: 'auto', prefix: undefined, limits }),
        cache.key('b.yaml', 'text', { format: 'auto', prefix: undefined, limits }),
        cache.key('a.yaml', 'text', { format: 'mcp', prefix: undefined, limits }),
        cache.key('a.yaml', 'text', { format: 'auto', prefix: 'gh', limits }),
        cache.key('a.yaml', 'text', { format: 'auto', prefix: undefined, limits: { ...limits, maxDepth: 5 } }),
        other.key('a.yaml', 'text', { format: 'auto', prefix: undefined, limits }),
      ];
      expect(new Set([base, ...variants].map((k) => k.id)).size).toBe(variants.length + 1);
      expect(new Set([base, ...variants].map((k) => k.settings)).size).toBe(variants.length + 1);
    },
  );

  test('the same path as given in another directory is an entry of its own', () => {
    const cache = fileCatalogCache(fresh(), () => 'test');
    const settings = {
      format: 'auto',
      prefix: undefined,
      limits: { ...DEFAULT_LIMITS, maxBytes: 1, maxDepth: 2, maxAliases: 3, maxAliasBytes: 5, maxMessages: 4 },
    };
    const here = cache.key('a.yaml', 'text', settings);
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      expect(cache.key('a.yaml', 'text', settings).id).not.toBe(here.id);
    } finally {
      process.chdir(cwd);
    }
  });

  test('an edited file is parsed again, and its entry replaced', () => {
    const d = fresh();
    const cache = fileCatalogCache(d, () => 'test');
    const file = write('edit.yaml', 'tools:\n  - name: a\n    description: first\n');
    expect(loadCached([file], { cache }).tools[0]!.description).toBe('first');
    // The same length, one byte changed.
    writeFileSync(file, 'tools:\n  - name: a\n    description: fir5t\n');
    expect(loadCached([file], { cache }).tools[0]!.description).toBe('fir5t');
    expect(loadCached([file], { cache }).tools[0]!.description).toBe('fir5t');
    expect(readdirSync(d).filter((x) => x.startsWith('catalog-'))).toHaveLength(1);
  });

  test(
    'a name defined twice across cached files: the same located error, excerpt included, as without the ' + 'cache',
    async () => {
      const a = write('dup-a.yaml', 'tools:\n  - name: same\n    description: a\n');
      const b = write(
        'dup-b.yaml',
        'tools:\n  - name: other\n    description: b\n  - name: same\n    description: b\n',
      );
      const cache = fileCatalogCache(fresh(), () => 'test');
      loadCached([a], { cache });
      loadCached([b], { cache });
      const expected = (() => {
        try {
          loadCatalogFiles([a, b]);
        } catch (err) {
          return err;
        }
        throw new Error('no error');
      })() as Error & { excerpt?: unknown; location?: unknown };
      expect(expected.message).toMatch(/duplicate tool name "same"/);
      for (const attempt of [() => loadCached([a, b], { cache }), () => loadCatalogFilesLazily([a, b], { cache })]) {
        const err = await (async () => {
          try {
            await attempt();
          } catch (e) {
            return e as typeof expected;
          }
          throw new Error('no error');
        })();
        expect([err.message, err.location, err.excerpt]).toEqual([
          expected.message,
          expected.location,
          expected.excerpt,
        ]);
      }
    },
  );

  test('a cache directory that others can write is not used: an entry planted there is not taken', () => {
    const d = fresh();
    const file = write('planted.yaml', 'tools:\n  - name: real\n    description: d\n');
    loadCached([file], { cache: fileCatalogCache(d, () => 'test') });
    const [entry] = readdirSync(d).filter((x) => x.startsWith('catalog-'));
    const path = join(d, entry!);
    // Edited in both copies of its header (anyone who can write the cache can do that).
    const edited = readFileSync(path, 'utf8').replaceAll('"real"', '"fake"');
    writeFileSync(path, edited);
    // Private: the (edited) entry is what the cache answers — the control.
    expect(loadCached([file], { cache: fileCatalogCache(d, () => 'test') }).tools.map((t) => t.name)).toEqual(['fake']);
    chmodSync(d, 0o777);
    expect(loadCached([file], { cache: fileCatalogCache(d, () => 'test') }).tools.map((t) => t.name)).toEqual(['real']);
    expect(readFileSync(path, 'utf8')).toContain('"fake"'); // and nothing is written there
  });

  test('an unwritable cache directory is no error: the catalog loads and nothing is written', () => {
    const blocker = write('not-a-dir', 'x');
    const cache = fileCatalogCache(join(blocker, 'sub'), () => 'test');
    expect(loadCached(['fixtures/catalogs/demo.mcp.json'], { cache }).tools.length).toBe(130);
    expect(readFileSync(blocker, 'utf8')).toBe('x');
  });

  test(`keeps at most ${MAX_ENTRIES} entries, removing the oldest`, () => {
    const d = fresh();
    const cache: CatalogCache = fileCatalogCache(d, () => 'test');
    for (let i = 0; i < MAX_ENTRIES + 5; i++) {
      const f = write(`many-${i}.yaml`, `tools:\n  - name: t${i}\n    description: d\n`);
      loadCached([f], { cache });
    }
    expect(readdirSync(d).filter((x) => x.startsWith('catalog-')).length).toBe(MAX_ENTRIES);
    expect(readdirSync(d).some((x) => x.endsWith('.tmp'))).toBe(false);
  });
});

describe('environment', () => {
  test('TOOLSEARCH_CACHE turns it off; the directory follows TOOLSEARCH_CACHE_DIR, XDG_CACHE_HOME, HOME', () => {
    for (const v of ['0', 'off', 'OFF', 'false', 'no', ' off '])
      expect(cacheDisabledByEnv({ TOOLSEARCH_CACHE: v })).toBe(true);
    for (const v of [undefined, '', '1', 'on']) expect(cacheDisabledByEnv({ TOOLSEARCH_CACHE: v })).toBe(false);
    expect(cacheDirFromEnv({ TOOLSEARCH_CACHE_DIR: '/x', XDG_CACHE_HOME: '/y', HOME: '/z' })).toBe('/x');
    expect(cacheDirFromEnv({ XDG_CACHE_HOME: '/y', HOME: '/z' })).toBe('/y/toolsearch');
    expect(cacheDirFromEnv({ HOME: '/z' })).toBe('/z/.cache/toolsearch');
  });
});
