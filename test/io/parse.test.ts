import { afterAll, describe, expect, it } from 'vitest';
import { field, type Node, toJsonValue } from '../../src/io/nodes.js';
import { parseFile, parseText, syntaxFromName } from '../../src/io/parse.js';
import { fixture, inputError, Scratch } from '../formats/helpers.js';

const scratch = new Scratch();
afterAll(() => scratch.remove());

const value = (text: string, file = 'x.json'): unknown => toJsonValue(parseText(file, text).root);

describe('syntax choice', () => {
  it('by extension', () => {
    expect(syntaxFromName('a/b.JSON')).toBe('json');
    expect(syntaxFromName('a.jsonl')).toBe('jsonl');
    expect(syntaxFromName('a.ndjson')).toBe('jsonl');
    expect(syntaxFromName('a.yml')).toBe('yaml');
    expect(syntaxFromName('a.yaml')).toBe('yaml');
    expect(syntaxFromName('catalog')).toBeNull();
  });

  it('by sniffing when the extension says nothing', () => {
    expect(parseText('catalog', '  [1, 2]').syntax).toBe('json');
    expect(parseText('catalog', 'a: [1, 2]').syntax).toBe('yaml');
    // Sniffed JSON is strict JSON: YAML-only syntax is an error there.
    expect(inputError(() => parseText('catalog.txt', '{a: 1}')).message).toBe(
      "invalid JSON: expected a string key, found 'a'",
    );
  });

  it('a .json file holding one value per line is read as JSON Lines', () => {
    const doc = parseText('log.json', '{"a":1}\n{"b":2}\n');
    expect(doc.syntax).toBe('jsonl');
    expect(toJsonValue(doc.root)).toEqual([{ a: 1 }, { b: 2 }]);
  });
});

describe('JSON', () => {
  it('values, escapes and positions', () => {
    const doc = parseText('x.json', '{\n  "a": [1, -2.5e3, true, null],\n  "b": "\\u00e9\\n\\ud83d\\ude00"\n}');
    expect(toJsonValue(doc.root)).toEqual({ a: [1, -2500, true, null], b: 'é\n😀' });
    const a = field(doc.root as Extract<Node, { kind: 'object' }>, 'a')!;
    expect(doc.lines.position(a.offset)).toMatchObject({ line: 2, column: 8 });
  });

  it('a lone surrogate escape decodes to U+FFFD, as in Go', () => {
    expect(value('["\\ud800", "a\\udc00b"]')).toEqual(['\uFFFD', 'a\uFFFDb']);
  });

  it('invalid JSON: file:line:column and the line with a caret', () => {
    const file = fixture('catalogs/invalid.json');
    const e = inputError(() => parseFile(file));
    expect(e.headline).toBe(`${file}:4:5: invalid JSON: expected ',' or '}', found '{'`);
    expect(e.excerpt).toBe('    {"name": "b"}\n    ^');
  });

  it('invalid JSON messages', () => {
    const msg = (text: string): string => inputError(() => parseText('x.json', text)).headline;
    expect(msg('')).toBe('x.json:1:1: invalid JSON: unexpected end of input');
    expect(msg('[1, 2')).toBe('x.json:1:6: invalid JSON: unexpected end of input');
    expect(msg('[1,]')).toBe("x.json:1:4: invalid JSON: expected a value, found ']'");
    expect(msg('{"a" 1}')).toBe("x.json:1:6: invalid JSON: expected ':', found '1'");
    expect(msg('[01]')).toBe("x.json:1:3: invalid JSON: expected ',' or ']', found '1'");
    expect(msg('[1.]')).toBe("x.json:1:4: invalid JSON: unexpected ']' in a number");
    expect(msg('[tru]')).toBe("x.json:1:5: invalid JSON: unexpected ']' in literal true");
    expect(msg('"a\tb"')).toBe('x.json:1:3: invalid JSON: control character U+0009 in a string');
    expect(msg('"a\\qb"')).toBe('x.json:1:3: invalid JSON: invalid escape \\q in a string');
    expect(msg('"abc')).toBe('x.json:1:5: invalid JSON: unterminated string');
    expect(msg('{} {}')).toBe("x.json:1:4: invalid JSON: unexpected '{' after the value");
    expect(msg('[\u202e]')).toBe('x.json:1:2: invalid JSON: expected a value, found U+202E');
  });

  it('CRLF line ends count as one line break', () => {
    const file = fixture('catalogs/crlf-invalid.json');
    const e = inputError(() => parseFile(file));
    expect(e.headline).toBe(`${file}:3:16: invalid JSON: expected ',' or '}', found '"'`);
    expect(e.excerpt).toBe('  {"name": "b" "description": "x"}\n               ^');
  });

  it('a duplicate key is an error at its second occurrence, naming the first', () => {
    const file = fixture('catalogs/dup-key.json');
    const e = inputError(() => parseFile(file));
    expect(e.headline).toBe(`${file}:1:46: duplicate key "description" (first at 1:26)`);
    expect(e.excerpt).toBe(
      '{"tools": [{"name": "a", "description": "x", "description": ' +
        '"y"}]}\n                                             ^',
    );
  });

  it('nesting deeper than the limit (100,000 levels) is an error, not a crash', () => {
    const p = scratch.write('deep.json', '['.repeat(100_000) + ']'.repeat(100_000));
    const e = inputError(() => parseFile(p));
    expect(e.headline).toBe(
      `${p}:1:1001: nesting deeper than 1000 levels (set TOOLSEARCH_MAX_DEPTH to raise the limit)`,
    );
    // The excerpt of a very long line is cut around the caret.
    expect(e.excerpt).toBe(`…${'['.repeat(120)}…\n${' '.repeat(61)}^`);
    expect(() => parseText('ok.json', '['.repeat(1000) + ']'.repeat(1000))).not.toThrow();
    expect(inputError(() => parseText('x.json', '[[[]]]', { limits: { maxDepth: 2 } })).headline).toBe(
      'x.json:1:3: nesting deeper than 2 levels (set TOOLSEARCH_MAX_DEPTH to raise the limit)',
    );
  });

  it('__proto__, constructor and toString are ordinary keys', () => {
    const v = value('{"__proto__": {"polluted": true}, "constructor": 1, "toString": "x"}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(v)).toBeNull();
    expect(v['__proto__']).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(JSON.stringify(v)).toBe('{"__proto__":{"polluted":true},"constructor":1,"toString":"x"}');
  });
});

describe('JSON Lines', () => {
  it('one value per line; blank lines are skipped', () => {
    expect(value('{"a":1}\r\n\n  \n[2]\n', 'x.jsonl')).toEqual([{ a: 1 }, [2]]);
  });

  it('errors are located at their line', () => {
    const file = fixture('transcripts/broken.jsonl');
    const e = inputError(() => parseFile(file));
    expect(e.headline).toBe(`${file}:4:34: invalid JSON: unexpected end of input`);
    expect(e.excerpt).toBe('{"role": "user", "content": "bye"\n                                 ^');
  });
});

describe('YAML', () => {
  it('core schema: yes/no stay strings, numbers and nulls resolve', () => {
    expect(value('a: yes\nb: 012\nc: ~\nd: 1.5\ne: "x"\n', 'x.yaml')).toEqual({
      a: 'yes',
      b: 12,
      c: null,
      d: 1.5,
      e: 'x',
    });
  });

  it('a lone surrogate escape becomes U+FFFD', () => {
    expect(value('a: "\\ud800"\n', 'x.yaml')).toEqual({ a: '\uFFFD' });
  });

  it('invalid YAML: file:line:column and the line with a caret', () => {
    const file = fixture('catalogs/invalid.yaml');
    const e = inputError(() => parseFile(file));
    expect(e.headline).toBe(`${file}:3:18: invalid YAML: Missing closing "quote`);
    expect(e.excerpt).toBe('    description: "unterminated\n                 ^');
  });

  it('a second document is an error', () => {
    expect(inputError(() => parseText('x.yaml', 'a: 1\n---\nb: 2\n')).headline).toBe(
      'x.yaml:3:1: invalid YAML: more than one document',
    );
  });

  it('a duplicate key is an error at its second occurrence', () => {
    const file = fixture('catalogs/dup-key.yaml');
    const e = inputError(() => parseFile(file));
    expect(e.headline).toBe(`${file}:4:5: duplicate key "name" (first at 2:5)`);
  });

  it('an alias bomb stops at the alias limit', () => {
    const file = fixture('catalogs/bomb.yaml');
    const e = inputError(() => parseFile(file));
    // Located at the alias written in the document whose expansion crossed the limit:
    // a: 0, b: 9, c: 9 × 10 = 90, d: 9 × 91 = 819 (918 so far); the first *d of e adds 820.
    expect(e.headline).toBe(
      `${file}:6:8: too many YAML aliases (more than 1000; set TOOLSEARCH_MAX_ALIASES to raise the limit)`,
    );
    expect(e.excerpt).toBe('e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n       ^');
    expect(inputError(() => parseFile(file, { limits: { maxAliases: 10 } })).headline).toBe(
      `${file}:4:8: too many YAML aliases (more than 10; set TOOLSEARCH_MAX_ALIASES to raise the limit)`,
    );
  });

  it('one huge anchor referenced many times stops at the expansion limit', () => {
    const big =
      `big: &big ` +
      `[${Array.from({ length: 5000 }, (_, i) => i).join(', ')}]\nuse: [${Array(300).fill('*big').join(', ')}]\n`;
    const e = inputError(() => parseText('x.yaml', big));
    expect(e.message).toBe(
      'YAML aliases expand to more than 1000000 values (set TOOLSEARCH_MAX_ALIAS_VALUES to raise the limit)',
    );
  });

  it('an alias to a value that contains it, an unknown alias, an alias as a key', () => {
    expect(inputError(() => parseText('x.yaml', 'a: &a [1, *a]\n')).headline).toBe(
      'x.yaml:1:11: YAML alias *a refers to a value that contains it',
    );
    expect(inputError(() => parseText('x.yaml', 'a: *nope\n')).headline).toBe('x.yaml:1:4: unknown YAML alias *nope');
    expect(value('k: &k name\n*k : v\n', 'x.yaml')).toEqual({ k: 'name', name: 'v' });
  });

  it('nesting through aliases counts', () => {
    const text = 'a: &a [[[1]]]\nb: [[*a]]\n';
    expect(value(text, 'x.yaml')).toEqual({ a: [[[1]]], b: [[[[[1]]]]] });
    expect(inputError(() => parseText('x.yaml', text, { limits: { maxDepth: 5 } })).headline).toBe(
      'x.yaml:2:6: nesting deeper than 5 levels (through alias *a; set TOOLSEARCH_MAX_DEPTH to raise the limit)',
    );
  });

  it('a few aliases are fine and expand to copies', () => {
    const doc = parseFile(fixture('catalogs/aliases-ok.yaml'));
    const v = toJsonValue(doc.root) as { tools: Array<{ parameters: unknown }> };
    expect(v.tools[0]!.parameters).toEqual({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    });
    expect(v.tools[1]!.parameters).toEqual(v.tools[0]!.parameters);
  });

  it('custom tags are rejected with a located error', () => {
    const file = fixture('catalogs/custom-tag.yaml');
    const e = inputError(() => parseFile(file));
    expect(e.headline).toBe(`${file}:3:18: unsupported YAML tag "!important" (quote the value if it is text)`);
    expect(e.excerpt).toBe('    description: !important read this first\n                 ^');
    expect(inputError(() => parseText('x.yaml', 'a: !!binary aGVsbG8=\n')).message).toBe(
      'unsupported YAML tag "!!binary" (quote the value if it is text)',
    );
    // Core tags are fine.
    expect(value('a: !!str 12\n', 'x.yaml')).toEqual({ a: '12' });
  });

  it('nesting beyond the limit is rejected before composing (block and flow)', () => {
    // 100,000 levels; the library's syntax tree is built without recursion, then checked here.
    const block = scratch.write('deep-block.yaml', '- '.repeat(100_000) + 'x\n');
    expect(inputError(() => parseFile(block)).headline).toBe(
      `${block}:1:2001: nesting deeper than 1000 levels (set TOOLSEARCH_MAX_DEPTH to raise the limit)`,
    );
    // (20,000 flow levels: the same path, faster.)
    const flow = scratch.write('deep-flow.yaml', 'a: ' + '['.repeat(20_000) + ']'.repeat(20_000) + '\n');
    expect(inputError(() => parseFile(flow)).headline).toBe(
      `${flow}:1:1003: nesting deeper than 1000 levels (set TOOLSEARCH_MAX_DEPTH to raise the limit)`,
    );
  });

  it('keys that are JavaScript object keys stay ordinary', () => {
    const v = value('__proto__: {polluted: true}\nconstructor: 1\nhasOwnProperty: 2\n', 'x.yaml') as Record<
      string,
      unknown
    >;
    expect(Object.keys(v)).toEqual(['__proto__', 'constructor', 'hasOwnProperty']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('what js-yaml refuses: a tab before a flow collection, lines of one not indented past its key', () => {
    expect(inputError(() => parseText('x.yaml', 'a:\t{b: 1}\n')).headline).toBe(
      'x.yaml:1:3: invalid YAML: a tab before a [ or { (the YAML reader needs a space there)',
    );
    expect(value('a: {b: 1}\n', 'x.yaml')).toEqual({ a: { b: 1 } });
    expect(inputError(() => parseText('x.yaml', 'a: [\n  1\n]\n')).headline).toBe(
      'x.yaml:3:1: invalid YAML: deficient indentation (a [ ] or { } over several lines must indent each of ' +
        'them, the closing bracket too, more than the line it opens on)',
    );
    expect(value('a: [\n  1\n  ]\n', 'x.yaml')).toEqual({ a: [1] });
  });

  it('raw control characters are an error that says how to write them', () => {
    expect(inputError(() => parseText('x.yaml', 'a: b\u001bc\n')).headline).toBe(
      'x.yaml:1:5: invalid YAML: control character U+001B in the text (YAML allows none; in a double-quoted ' +
        'string, write it as an escape: "\\u001B")',
    );
    expect(value('a: "b\\u001bc"\n', 'x.yaml')).toEqual({ a: 'b\u001bc' });
  });

  it('an empty document', () => {
    expect(inputError(() => parseText('x.yaml', '# only a comment\n')).headline).toBe(
      'x.yaml:1:1: empty YAML document (no content)',
    );
  });
});

describe('JSON string escapes', () => {
  it('\\u needs four hex digits', () => {
    expect(inputError(() => parseText('x.json', '["\\u00g0"]')).headline).toBe(
      'x.json:1:3: invalid JSON: invalid \\u escape in a string',
    );
    expect(inputError(() => parseText('x.json', '["\\u\u0010000"]')).headline).toBe(
      'x.json:1:3: invalid JSON: invalid \\u escape in a string',
    );
    expect(value('["\\u00E9\\u00e9\\/\\b\\f\\r\\t\\"\\\\"]')).toEqual(['éé/\b\f\r\t"\\']);
  });
});
