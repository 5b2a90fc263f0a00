/**
 * Large JSON values are read lazily (src/io/json.ts): checked whole,
 * built on demand, plain values read straight from the text. Everything a
 * reader can observe must be what building the whole tree gives: nodes and
 * positions, plain values (null prototypes, key order, strings, numbers),
 * every error with its location and excerpt, and what the catalog and
 * transcript loaders make of a document. Each check here reads the same text
 * both ways (`parseText`'s `lazyTextLength: 0`: every array and object lazy).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeTools, readCatalogDocument } from '../../src/formats/catalog.js';
import { readInputText, releaseBytes } from '../../src/io/input-text.js';
import { LAZY_TEXT_LENGTH } from '../../src/io/json.js';
import { PLAIN_VALUE, type ParsedDocument, toJsonValue } from '../../src/io/nodes.js';
import { parseText } from '../../src/io/parse.js';
import { readInputFile } from '../../src/io/read.js';
import { readTranscriptDocument } from '../../src/formats/transcript.js';
import { expectSame, fixture, outcome, Scratch, tree } from './helpers.js';

const scratch = new Scratch();
afterAll(() => scratch.remove());

/** A way of parsing: JSON values longer than `length` read lazily (0: all of them). */
type Way = (file: string, text: string, options?: { limits?: { maxDepth: number } }) => ParsedDocument;
const withLazyLength =
  (length: number): Way =>
  (file, text, options = {}) =>
    parseText(file, text, { ...options, lazyTextLength: length });
const lazily = withLazyLength(0);
/** Lazy above 40 characters: the documents of more than 40 characters are read lazily, the others whole. */
const partly = withLazyLength(40);
const eagerly = withLazyLength(Number.POSITIVE_INFINITY);

/** Every way of reading `text` gives the same result lazily, partly lazily and built whole. */
function expectSameBothWays(file: string, text: string): void {
  const ways = [eagerly, lazily, partly];
  const results = ways.map((parse) => {
    const parsed = outcome(() => parse(file, text));
    if (!('value' in (parsed as object))) return { parsed };
    return {
      // Walked first, then plain values of fresh parses (the lazy nodes untouched).
      tree: tree(parse(file, text).root),
      plain: toJsonValue(parse(file, text).root),
      catalog: outcome(() => readCatalogDocument(parse(file, text))),
      transcript: outcome(() => readTranscriptDocument(parse(file, text))),
    };
  });
  for (const r of results.slice(1)) expectSame(r, results[0]);
}

describe('a value read lazily is the value built whole', () => {
  const texts: Array<[string, string]> = [
    ['x.json', '{"a": [1, -0, 0.1, 1e400, -2.5E-3, 12345678901234567890], "b": {"c": {"d": [[], {}, [[]]]}}}'],
    ['x.json', '{"__proto__": {"constructor": {"toString": 1}}, "2": "two", "1": "one", "b": null, "a": true}'],
    ['x.json', '[{"\\ud800": "\\udc00", "k\\u0065y": "v\\u00e9\\n", "x": "\\ud83d\\ude00 😀 İstanbul"}]'],
    ['x.json', ' \r\n[ {"a" :\t{ "b" : [ 1 , 2 ] } } ]\r\n'],
    ['x.json', '[1, "two", true, false, null, [], {}]'],
    ['x.json', '"just a string"'],
    [
      'x.json',
      `{"tools": [${Array.from(
        { length: 30 },
        (_, i) =>
          `{"name": "t${i}", "description": "tool ${i}", ` +
          `"parameters": {"type": "object", "properties": {"q${i}": {"type": "string", ` +
          `"description": "The query text."}}, "required": ["q${i}"]}}`,
      ).join(', ')}]}`,
    ],
    ['log.json', '{"a": {"b": 1}}\n{"c": [2, {"d": 3}]}\n'],
    ['x.jsonl', '{"a": {"b": 1}}\n\n[{"c": 2}]\r\n"s"\n'],
  ];
  it.each(texts)('%s %s', (file, text) => expectSameBothWays(file, text));

  it('a raw unpaired surrogate in the text stays as it is, an escaped one becomes U+FFFD', () => {
    expectSameBothWays('x.json', '{"a": ["raw \ud800 here", "escaped \\ud800 here"], "\udc00": {"k": "\\udc00"}}');
    const v = toJsonValue(lazily('x.json', '{"a": {"b": ["raw \ud800", "esc \\ud800"]}}').root) as {
      a: { b: string[] };
    };
    expect(v.a.b).toEqual(['raw \ud800', 'esc \uFFFD']);
  });

  it('plain values have no prototype at any depth, and every key is an own property', () => {
    const v = toJsonValue(
      lazily('x.json', '{"a": {"__proto__": {"polluted": 1}, "b": [{"constructor": 2}]}}').root,
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBeNull();
    const a = v.a as Record<string, unknown>;
    expect(Object.getPrototypeOf(a)).toBeNull();
    expect(Object.keys(a)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(a.__proto__)).toBeNull();
    expect(Object.getPrototypeOf((a.b as object[])[0])).toBeNull();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('every catalog and transcript fixture', () => {
    for (const dir of ['catalogs', 'transcripts']) {
      for (const name of readdirSync(fixture(dir))) {
        if (!/\.(json|jsonl)$/.test(name)) continue;
        const file = fixture(`${dir}/${name}`);
        expectSameBothWays(file, readFileSync(file, 'utf8'));
      }
    }
  });

  it('the demo catalogs', () => {
    const dir = fixture('../catalogs');
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
      const file = `${dir}/${name}`;
      expectSameBothWays(file, readFileSync(file, 'utf8'));
    }
  });
});

describe('errors anywhere in a lazily read value, as in a full parse', () => {
  const params = (inner: string): string =>
    `{"tools": [{"name": "a", "description": "d", "parameters": {"type": "object", "properties": {"q": ${inner}}}}]}`;
  const bad = [
    params('{"type": "string",}'),
    params('{"type": "string" "x": 1}'),
    params('{"type": "str\ting"}'),
    params('{"type": "\\x"}'),
    params('{"type": "\\u12"}'),
    params('{"type": 01}'),
    params('{"type": -}'),
    params('{"type": 1.e5}'),
    params('{"type": tru}'),
    params('{"type": nul'),
    params('{"type": "open'),
    params('[1, 2,]'),
    params('{"a": 1, "a": 2}'),
    params('{"a": 1, "\\u0061": 2}'),
    params('{"\\ud800": 1, "\\udc00": 2}'),
    params('{"a": {"b": 1, "c": {"d": 1, "d": 2}}, "e": 3}'),
    `${params('{}')} trailing`,
    `${params('{}')}\n{"second": "value"}`,
    params('{"a": [[[[[[[[[[1]]]]]]]]]]}'),
  ];
  it.each(bad.map((t, i) => [i, t]))('case %i', (_i, text) => {
    expectSameBothWays('x.json', text as string);
    expectSameBothWays('x.json', (text as string).replace(/, /g, ',\r\n  '));
    const limited = (parse: Way, depth: number) =>
      outcome(() => tree(parse('x.json', text as string, { limits: { maxDepth: depth } }).root));
    for (const depth of [3, 6, 8]) expectSame(limited(lazily, depth), limited(eagerly, depth));
  });

  it('a duplicate key deep inside a tool schema is reported at its second occurrence', () => {
    const text = params('{"type": "string", "type": "number"}');
    const e = outcome(() => lazily('x.json', text)) as {
      error: { message: string; location: unknown };
    };
    expect(e.error.message).toBe('duplicate key "type" (first at 1:100)');
    expect(e.error.location).toEqual({ file: 'x.json', line: 1, column: 118 });
  });
});

describe('catalogs read lazily', () => {
  it('a name defined twice points at the second definition, after astral characters on the same line', () => {
    const tool = (n: string, d: string) => `{"name": "${n}", "description": "${d}", "parameters": {"type": "object"}}`;
    const text = `{"tools": [${tool('a', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀')}, ${tool('b', 'İstanbul')}, ${tool('a', '検索')}]}`;
    for (const parse of [lazily, eagerly]) {
      const e = outcome(() => mergeTools([readCatalogDocument(parse('x.json', text)).tools]));
      expect(e).toEqual({
        error: {
          // Columns count code points: the entry starts at UTF-16 offset 172.
          message: 'duplicate tool name "a": first defined at x.json:1:12, again at x.json:1:165',
          location: { file: 'x.json', line: 1, column: 165 },
          excerpt: expect.stringContaining('^'),
        },
      });
      expectSame(
        e,
        outcome(() => mergeTools([readCatalogDocument(eagerly('x.json', text)).tools])),
      );
    }
  });

  it('across files and with a prefix, OpenAI namespaces, defer_loading and skipped provider tools', () => {
    const openai = JSON.stringify([
      { type: 'web_search' },
      {
        type: 'namespace',
        name: 'ns',
        tools: [
          { type: 'function', name: 'n1', description: 'd', parameters: { type: 'object' } },
          { type: 'namespace', tools: [{ type: 'function', name: 'n2', defer_loading: true }] },
        ],
      },
      {
        type: 'function',
        function: { name: 'f', description: 'x', parameters: { properties: { a: { type: 'string' } } } },
      },
    ]);
    expectSameBothWays('openai.json', openai);
    for (const way of [lazily, partly]) {
      const read = (parse: Way, options = {}) =>
        outcome(() => readCatalogDocument(parse('openai.json', openai), options));
      expectSame(read(way, { prefix: 'srv' }), read(eagerly, { prefix: 'srv' }));
      expectSame(read(way, { format: 'anthropic' }), read(eagerly, { format: 'anthropic' }));
      const twice = (parse: Way) =>
        outcome(() =>
          mergeTools([
            readCatalogDocument(parse('a.json', openai)).tools,
            readCatalogDocument(parse('b.json', openai)).tools,
          ]),
        );
      expectSame(twice(way), twice(eagerly));
    }
  });

  it('a catalog longer than LAZY_TEXT_LENGTH is read lazily by default, to the same tools', () => {
    const entry = (i: number) =>
      `{"name":"tool_${i}","description":"Does thing ${i} with İstanbul ` +
      `data.","parameters":{"type":"object","properties":{"q":{"type":"string",` +
      `"description":"The query ${i}."},"n":{"type":"integer"}},"required":["q"]}}`;
    const parts: string[] = [];
    let length = 0;
    for (let i = 0; length <= LAZY_TEXT_LENGTH; i++) {
      parts.push(entry(i));
      length += parts[parts.length - 1]!.length + 1;
    }
    const text = `{"tools":[${parts.join(',')}]}`;
    const doc = parseText('big.json', text);
    expect((doc.root as { [PLAIN_VALUE]?: unknown })[PLAIN_VALUE]).toBeTypeOf('function');
    const lazy = readCatalogDocument(doc);
    const whole = readCatalogDocument(eagerly('big.json', text));
    expect(lazy.tools.length).toBe(parts.length);
    expectSame(lazy, whole);
  });
});

describe('objects read again after later ones were built', () => {
  it('give the same nodes and values (a built object is kept while it is among the last 256 built)', () => {
    const text = `[${Array.from({ length: 600 }, (_, i) => `{"i": ${i}, "o": {"s": "v${i}"}}`).join(', ')}]`;
    const lazy = lazily('x.json', text).root;
    const whole = eagerly('x.json', text).root;
    expect(tree(lazy)).toEqual(tree(whole));
    // The first objects were built again: the same tree, and each item is still the same node.
    if (lazy.kind !== 'array') throw new Error('expected an array');
    const first = lazy.items[0]!;
    expect(tree(lazy)).toEqual(tree(whole));
    expect(lazy.items[0]).toBe(first);
    expectSame(toJsonValue(lazy), toJsonValue(whole));
  });
});

describe('readInputText', () => {
  it('gives the text readInputFile gives, and frees a large file buffer at once', () => {
    const big = scratch.write('big.json', `[${'"x",'.repeat(400_000)}"é"]`);
    const small = scratch.write('small.json', '\uFEFF{"a": "é"}');
    for (const file of [big, small]) expect(readInputText(file)).toBe(readInputFile(file).text);
    const { bytes } = readInputFile(big);
    const buffer = bytes.buffer;
    releaseBytes(bytes);
    expect(buffer.byteLength).toBe(0);
  });

  it('leaves small buffers and views of shared memory alone', () => {
    const small = readInputFile(scratch.write('s.json', '[1]')).bytes;
    releaseBytes(small);
    expect(small.byteLength).toBe(3);
    const shared = new Uint8Array(new ArrayBuffer(4 << 20), 16, 2 << 20);
    releaseBytes(shared);
    expect(shared.byteLength).toBe(2 << 20);
  });
});
