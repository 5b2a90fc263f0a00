/** The loaded-catalog cache: a hit is exactly what parsing returns, and any cache problem is a miss. */
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import {
  cacheDirFromEnv,
  cacheDisabledByEnv,
  type CatalogCache,
  checksum,
  decodeEntry,
  encodeEntry,
  fileCatalogCache,
  loadCatalogFilesCached,
  MAX_ENTRIES,
} from '../../src/cli/catalog-cache.js';
import type { CatalogFileResult } from '../../src/formats/catalog.js';
import { loadCatalogFiles } from '../../src/formats/catalog.js';

const loadCached = (files: string[], cache: CatalogCache | null) => loadCatalogFilesCached(files, {}, cache);

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

/** An entry as JSON.parse reads it. */
interface Stored {
  v: unknown;
  settings: unknown;
  result: { format: unknown; warnings: unknown; shape: unknown; tools: Array<Record<string, unknown>> | object };
}
type StoredTools = Array<Record<string, unknown>>;

/** An entry's JSON made again after `edit`, its checksum recomputed (what only the cache's owner can do). */
function reencode(data: Buffer, edit: (entry: Stored) => void): Buffer {
  const e = JSON.parse(data.toString('utf8'));
  edit(e);
  const body = Buffer.from(
    `"v":${JSON.stringify(e.v)},"settings":${JSON.stringify(e.settings)},"result":${JSON.stringify(e.result)}`,
  );
  return Buffer.concat([
    Buffer.from(`{"sum":"${checksum(body)}",`),
    body,
    Buffer.from(`,"text":${JSON.stringify(e.text)}}`),
  ]);
}

describe('entries', () => {
  test('an entry is one plain JSON document, the text of the file among what it holds', () => {
    const file = 'c.yaml';
    const text = 'tools:\n  - name: a\n    description: b — ü\n';
    const result: CatalogFileResult = {
      tools: [{ name: 'a', description: 'b — ü', static: false, source: { file, line: 2, column: 5 } }],
      format: 'toolsearch',
      warnings: [],
    };
    const data = encodeEntry(result, text, 'settings')!;
    expect(JSON.parse(data.toString('utf8')).text).toBe(text);
    expect(decodeEntry(data, file, text, 'settings', 1000)).toEqual({ ...result, shapeWarnings: [] });
  });

  test('every flipped bit and every cut makes the entry a miss; the intact one is a hit', () => {
    const file = 'c.yaml';
    const text = 'tools: []\n';
    const tool = { name: 'a', description: 'b — ü', static: false, source: { file, line: 1, column: 1 } };
    const good = encodeEntry({ tools: [tool], format: 'toolsearch', warnings: [] }, text, 's')!;
    expect(decodeEntry(good, file, text, 's', 1000)?.tools.map((t) => t.name)).toEqual(['a']);
    for (let at = 0; at < good.length; at++) {
      for (let bit = 0; bit < 8; bit++) {
        const flipped = Buffer.from(good);
        flipped[at] = flipped[at]! ^ (1 << bit);
        expect(decodeEntry(flipped, file, text, 's', 1000), `byte ${at} bit ${bit}`).toBeUndefined();
      }
      expect(decodeEntry(good.subarray(0, at), file, text, 's', 1000)).toBeUndefined();
    }
  });

  test('the demo catalog, every shape: a cache hit equals a parse, prototypes and key order included', () => {
    for (const file of [
      'fixtures/catalogs/demo.yaml',
      'fixtures/catalogs/demo.openai.json',
      'fixtures/catalogs/demo.anthropic.json',
      'fixtures/catalogs/demo.mcp.json',
      'fixtures/catalogs/demo.eino.json',
    ]) {
      const d = fresh();
      const cache = fileCatalogCache(d, () => 'test');
      const parsed = loadCatalogFiles([file]);
      expect(snapshot(loadCached([file], cache))).toEqual(snapshot(parsed));
      expect(readdirSync(d).filter((f) => f.startsWith('catalog-'))).toHaveLength(1);
      expect(snapshot(loadCached([file], cache))).toEqual(snapshot(parsed)); // the hit
    }
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
    loadCached([file], cache);
    const hit = loadCached([file], cache);
    expect(parsed.warnings?.length).toBeGreaterThan(0);
    expect(snapshot(hit)).toEqual(snapshot(parsed));
  });

  test('shape warnings and --strict see the same warnings from a hit', () => {
    const file = write('shape.yaml', 'tools:\n  - name: a\n    desciption: d\n    parameters: [1]\n');
    const cache = fileCatalogCache(fresh(), () => 'test');
    const parsed = loadCatalogFiles([file]);
    expect(parsed.shapeWarnings).toHaveLength(2);
    loadCached([file], cache);
    expect(snapshot(loadCached([file], cache))).toEqual(snapshot(parsed));
  });

  test('values JSON cannot carry (.inf, .nan, -0) are never stored', () => {
    const file = write(
      'inf.yaml',
      'tools:\n  - name: a\n    description: d\n    parameters: {max: .inf, min: -0.0, no: .nan}\n',
    );
    const d = fresh();
    const parsed = loadCached(
      [file],
      fileCatalogCache(d, () => 'test'),
    );
    expect(existsSync(d)).toBe(false); // nothing written, not even the directory
    const params = parsed.tools[0]!.parameters as Record<string, number>;
    expect(params.max).toBe(Infinity);
    expect(Object.is(params.min, -0)).toBe(true);
  });

  test('property: an entry is written exactly when every number in its parameters reads back', () => {
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
        const entry = encodeEntry({ tools: [tool as never], format: 'toolsearch', warnings: [] }, 't', 's');
        expect(entry === null).toBe(inexact(parameters));
        if (entry !== null)
          expect(decodeEntry(entry, 'f', 't', 's', 1000)?.tools[0]?.parameters).toEqual(
            JSON.parse(JSON.stringify(parameters)),
          );
      }),
      { numRuns: 2000 },
    );
  });

  test('what a parse refuses is refused in an entry, even with its checksum made again', () => {
    const file = 'c.yaml';
    const text = 'tools: []\n';
    const tool = (name: string, parameters?: unknown) => ({
      name,
      description: 'd',
      static: false,
      source: { file, line: 2, column: 5 },
      ...(parameters === undefined ? {} : { parameters }),
    });
    const entry = (tools: ReturnType<typeof tool>[]) =>
      encodeEntry({ tools: tools as never, format: 'toolsearch', warnings: [] }, text, 's')!;
    const decode = (data: Buffer) => decodeEntry(data, file, text, 's', 10);
    for (const [label, tools] of [
      ['a name defined twice', [tool('a'), tool('a')]],
      ['an empty name', [tool('')]],
      ['a lone surrogate in a name', [tool('a\ud800')]],
      ['a lone surrogate in parameters', [tool('a', { k: 'x\udc00' })]],
      ['parameters nested deeper than maxDepth', [tool('a', JSON.parse(`${'['.repeat(8)}${']'.repeat(8)}`))]],
    ] as const) {
      expect(decode(entry([...tools])), label).toBeUndefined();
    }
    // Control: distinct names, shallow parameters (7 levels below a tool's three: the limit of 10).
    expect(decode(entry([tool('a', JSON.parse('[[[[[[[]]]]]]]')), tool('b')]))?.tools.map((t) => t.name)).toEqual([
      'a',
      'b',
    ]);
    const good = entry([tool('a', { x: 1 })]);
    for (const [label, edit] of [
      ['a -0', (e: Stored) => ((e.result.tools as StoredTools)[0]!.parameters = { x: -0 })],
      ['a version', (e: Stored) => (e.v = 2)],
      ['a format', (e: Stored) => (e.result.format = 'zzz')],
      ['settings', (e: Stored) => (e.settings = 'other')],
      ['static not a boolean', (e: Stored) => ((e.result.tools as StoredTools)[0]!.static = 0)],
      ['a line that is not a count', (e: Stored) => ((e.result.tools as StoredTools)[0]!.line = -1)],
      ['warnings not strings', (e: Stored) => (e.result.warnings = [3])],
      [
        'a shape warning of an unknown kind',
        (e: Stored) => (e.result.shape = [{ kind: 'zz', line: 1, column: 1, message: 'm' }]),
      ],
      ['tools not a list', (e: Stored) => (e.result.tools = {})],
    ] as const) {
      // -0 is written as 0 by JSON.stringify: put it in the text itself.
      const edited = reencode(good, edit);
      const bytes = label === 'a -0' ? reencodeRaw(edited, '"x":0', '"x":-0') : edited;
      expect(decode(bytes), label).toBeUndefined();
    }
    expect(decode(reencode(good, () => {}))?.tools.map((t) => t.name)).toEqual(['a']); // control
    // Made from another text (one byte differs, or one more) or other settings: a miss.
    expect(decodeEntry(good, file, `${text} `, 's', 10)).toBeUndefined();
    expect(decodeEntry(good, file, text.replace('[', '{'), 's', 10)).toBeUndefined();
    expect(decodeEntry(good, file, text, 's2', 10)).toBeUndefined();
  });

  test('an entry per path as given, options, limits and build; an edited file is parsed again', () => {
    const d = fresh();
    const file = write('edit.yaml', 'tools:\n  - name: a\n    description: first\n');
    const cache = fileCatalogCache(d, () => 'build-1');
    expect(loadCached([file], cache).tools[0]!.description).toBe('first');
    // The same length, one byte changed: parsed again, the entry replaced.
    writeFileSync(file, 'tools:\n  - name: a\n    description: fir5t\n');
    expect(loadCached([file], cache).tools[0]!.description).toBe('fir5t');
    expect(loadCached([file], cache).tools[0]!.description).toBe('fir5t');
    expect(readdirSync(d).filter((x) => x.startsWith('catalog-'))).toHaveLength(1);
    // Other settings, another build: entries of their own.
    loadCatalogFilesCached([file], { prefix: 'gh' }, cache);
    loadCatalogFilesCached([file], { format: 'toolsearch' }, cache);
    loadCatalogFilesCached([file], { limits: { maxDepth: 50 } }, cache);
    loadCached(
      [file],
      fileCatalogCache(d, () => 'build-2'),
    );
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      loadCached(['edit.yaml'], cache); // the same file, as given another way
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(d).filter((x) => x.startsWith('catalog-'))).toHaveLength(6);
  });

  test('a damaged entry on disk is a miss: the catalog is parsed and the entry written again', () => {
    const file = 'fixtures/catalogs/demo.mcp.json';
    const d = fresh();
    const cache = fileCatalogCache(d, () => 'test');
    const parsed = loadCached([file], cache);
    const [name] = readdirSync(d).filter((x) => x.startsWith('catalog-'));
    const good = readFileSync(join(d, name!));
    writeFileSync(join(d, name!), '{"sum":');
    expect(snapshot(loadCached([file], cache))).toEqual(snapshot(parsed));
    expect(readFileSync(join(d, name!))).toEqual(good);
  });

  test('a name defined twice across cached files: the same located error and excerpt as without the cache', () => {
    const a = write('dup-a.yaml', 'tools:\n  - name: same\n    description: a\n');
    const b = write('dup-b.yaml', 'tools:\n  - name: other\n    description: b\n  - name: same\n    description: b\n');
    const cache = fileCatalogCache(fresh(), () => 'test');
    loadCached([a], cache);
    loadCached([b], cache);
    const error = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        const e = err as Error & { excerpt?: unknown; location?: unknown };
        return [e.message, e.location, e.excerpt];
      }
      throw new Error('no error');
    };
    const expected = error(() => loadCatalogFiles([a, b]));
    expect(expected[0]).toMatch(/duplicate tool name "same"/);
    expect(error(() => loadCached([a, b], cache))).toEqual(expected);
  });

  test('a cache directory that others can write is not used: an entry planted there is not taken', () => {
    const d = fresh();
    const file = write('planted.yaml', 'tools:\n  - name: real\n    description: d\n');
    loadCached(
      [file],
      fileCatalogCache(d, () => 'test'),
    );
    const [entry] = readdirSync(d).filter((x) => x.startsWith('catalog-'));
    const path = join(d, entry!);
    writeFileSync(
      path,
      reencode(readFileSync(path), (e) => ((e.result.tools as StoredTools)[0]!.name = 'fake')),
    );
    // Private: the (edited) entry is what the cache answers — the control.
    expect(
      loadCached(
        [file],
        fileCatalogCache(d, () => 'test'),
      ).tools.map((t) => t.name),
    ).toEqual(['fake']);
    chmodSync(d, 0o777);
    expect(
      loadCached(
        [file],
        fileCatalogCache(d, () => 'test'),
      ).tools.map((t) => t.name),
    ).toEqual(['real']);
    expect(readFileSync(path, 'utf8')).toContain('"fake"'); // and nothing is written there
  });

  test('an unwritable cache directory is no error: the catalog loads and nothing is written', () => {
    const blocker = write('not-a-dir', 'x');
    const cache = fileCatalogCache(join(blocker, 'sub'), () => 'test');
    expect(loadCached(['fixtures/catalogs/demo.mcp.json'], cache).tools.length).toBe(130);
    expect(readFileSync(blocker, 'utf8')).toBe('x');
  });

  test(`keeps at most ${MAX_ENTRIES} entries, removing the oldest`, () => {
    const d = fresh();
    const cache = fileCatalogCache(d, () => 'test');
    for (let i = 0; i < MAX_ENTRIES + 5; i++) {
      loadCached([write(`many-${i}.yaml`, `tools:\n  - name: t${i}\n    description: d\n`)], cache);
    }
    expect(readdirSync(d).filter((x) => x.startsWith('catalog-')).length).toBe(MAX_ENTRIES);
    expect(readdirSync(d).some((x) => x.endsWith('.tmp'))).toBe(false);
  });
});

/** `data` with the first `from` in its text replaced by `to` and the checksum made again. */
function reencodeRaw(data: Buffer, from: string, to: string): Buffer {
  const text = data.toString('utf8').replace(from, to);
  const start = text.indexOf(',') + 1;
  const end = text.lastIndexOf(',"text":');
  const body = Buffer.from(text.slice(start, end));
  return Buffer.from(`{"sum":"${checksum(body)}",${text.slice(start)}`);
}

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
