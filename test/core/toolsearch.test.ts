import { describe, expect, it } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import {
  decodeMatches,
  decodeToolSearchArgs,
  encodeMatches,
  nativeResult,
  runToolSearch,
  TOOL_SEARCH_TOOL,
} from '../../src/core/toolsearch.js';
import type { ToolInfo } from '../../src/core/types.js';

const t = (name: string, description: string): ToolInfo => ({ name, description });

// The reference's TestSearch catalog.
const referenceTools = [
  t('get_weather', 'Get current weather for a city'),
  t('search_flights', 'Search available flights'),
  t('mcp__slack__send_message', 'Send a message to Slack channel'),
  t('mcp__slack__read_channel', 'Read messages from Slack channel'),
  t('create_calendar_event', 'Create a new calendar event'),
  t('NotebookEdit', 'Edit Jupyter notebook cells'),
];
const index = new ToolIndex(referenceTools);
const search = (args: unknown) => runToolSearch(index, typeof args === 'string' ? args : JSON.stringify(args));
const matches = (args: unknown): readonly string[] => {
  const r = search(args);
  if (!r.ok) throw new Error(r.error);
  return r.matches;
};

describe("tool_search: the reference's TestSearch cases (full ordered results)", () => {
  it.each<[string, unknown, string[]]>([
    ['keyword exact name part match', { query: 'weather' }, ['get_weather']],
    [
      'keyword matches multiple tools (tie broken by name)',
      { query: 'slack' },
      ['mcp__slack__read_channel', 'mcp__slack__send_message'],
    ],
    [
      'multi-word ranking: send_message first',
      { query: 'send message' },
      ['mcp__slack__send_message', 'mcp__slack__read_channel'],
    ],
    [
      'required keyword keeps only slack tools',
      { query: '+slack send' },
      ['mcp__slack__send_message', 'mcp__slack__read_channel'],
    ],
    ['required keyword with no match returns nothing', { query: '+github send' }, []],
    ['select single', { query: 'select:get_weather' }, ['get_weather']],
    [
      'select multiple keeps the given order',
      { query: 'select:get_weather,NotebookEdit' },
      ['get_weather', 'NotebookEdit'],
    ],
    ['select nonexistent', { query: 'select:nonexistent' }, []],
    ['max_results limits output', { query: 'slack', max_results: 1 }, ['mcp__slack__read_channel']],
    ['camelCase split matches notebook', { query: 'notebook' }, ['NotebookEdit']],
    ['description match: jupyter', { query: 'jupyter' }, ['NotebookEdit']],
  ])('%s', (_name, args, expected) => {
    expect(matches(args)).toEqual(expected);
  });

  it('empty query is an error', () => {
    expect(search({ query: '' })).toEqual({ ok: false, error: 'query is required' });
    expect(search({ query: ' \t\u3000\u0085 ' })).toEqual({ ok: false, error: 'query is required' });
  });

  it(
    'scores: send message → 20 for send_message (two exact parts), 2 for read_channel (description ' + '"messages")',
    () => {
      const r = search({ query: 'send message' });
      expect(r.ok && r.mode === 'keyword' && r.results.map((x) => [x.name, x.score])).toEqual([
        ['mcp__slack__send_message', 20],
        ['mcp__slack__read_channel', 2],
      ]);
    },
  );
});

describe('tool_search: select:', () => {
  it('keeps duplicates and order, trims pieces, skips empty and unknown pieces, ignores max_results', () => {
    expect(matches({ query: 'select: NotebookEdit , ,get_weather,nope,NotebookEdit', max_results: 1 })).toEqual([
      'NotebookEdit',
      'get_weather',
      'NotebookEdit',
    ]);
  });
  it('is case-sensitive in the prefix and in names', () => {
    expect(matches({ query: 'select:notebookedit' })).toEqual([]);
    // "Select:" is not the prefix: it is a keyword search for the word "Select:get_weather".
    const r = search({ query: 'Select:get_weather' });
    expect(r.ok && r.mode).toBe('keyword');
  });
  it('the prefix is checked after trimming the query', () => {
    expect(matches({ query: '  select:get_weather  ' })).toEqual(['get_weather']);
  });
  it('reports unknown names', () => {
    const r = search({ query: 'select:a,get_weather,b' });
    expect(r.ok && r.mode === 'select' && r.unknown).toEqual(['a', 'b']);
  });
});

describe('tool_search: keywords', () => {
  it('a lone + is dropped; ++x is the required keyword +x', () => {
    expect(matches({ query: '+ weather' })).toEqual(['get_weather']);
    expect(matches({ query: '++weather' })).toEqual([]);
  });
  it('only + keywords: no keywords left means no matches, not an error', () => {
    expect(search({ query: '+ +' })).toMatchObject({ ok: true, matches: [] });
  });
  it('max_results 0 or negative means the default 5', () => {
    const many = new ToolIndex(Array.from({ length: 8 }, (_, i) => t(`tool_${i}`, '')));
    const r0 = runToolSearch(many, '{"query":"tool","max_results":0}');
    const rn = runToolSearch(many, '{"query":"tool","max_results":-3}');
    const r7 = runToolSearch(many, '{"query":"tool","max_results":7}');
    expect(r0.ok && r0.matches.length).toBe(5);
    expect(rn.ok && rn.matches.length).toBe(5);
    expect(r7.ok && r7.matches.length).toBe(7);
  });
});

describe('decodeToolSearchArgs: Go encoding/json semantics', () => {
  const ok = (json: string) => {
    const r = decodeToolSearchArgs(json);
    if (!r.ok) throw new Error(r.error);
    return r.args;
  };
  const err = (json: string | Uint8Array) => {
    const r = decodeToolSearchArgs(json);
    if (r.ok) throw new Error('expected an error');
    return r.error;
  };

  it.each<[string, string, { query: string; maxResults: number | null }]>([
    ['field names match case-insensitively', '{"Query":"x","MAX_RESULTS":3}', { query: 'x', maxResults: 3 }],
    ['long s U+017F folds to s', '{"query":"x","max_resultſ":4}', { query: 'x', maxResults: 4 }],
    [
      'Kelvin sign does not reach query (no k in the name)',
      '{"query":"x","quer\u212a":"y"}',
      { query: 'x', maxResults: null },
    ],
    ['dotless ı is its own fold: no match', '{"query":"x","max_resultı":4}', { query: 'x', maxResults: null }],
    [
      'unknown keys ignored, whatever their type',
      '{"q":1,"query":"x","extra":[{"a":null}]}',
      { query: 'x', maxResults: null },
    ],
    ['last duplicate wins', '{"query":"a","query":"b"}', { query: 'b', maxResults: null }],
    ['null leaves query as it is', '{"query":"a","query":null}', { query: 'a', maxResults: null }],
    [
      'null resets the *int max_results to nil (Go sets pointers to nil)',
      '{"query":"a","max_results":3,"max_results":null}',
      { query: 'a', maxResults: null },
    ],
    ['top-level null: all unset', 'null', { query: '', maxResults: null }],
    ['negative zero is an integer', '{"query":"a","max_results":-0}', { query: 'a', maxResults: 0 }],
    ['escaped key', '{"\\u0071uery":"a"}', { query: 'a', maxResults: null }],
    ['lone surrogate escape becomes U+FFFD', '{"query":"\\ud800x"}', { query: '\ufffdx', maxResults: null }],
    ['surrogate pair escape', '{"query":"\\ud83d\\ude00"}', { query: '\u{1F600}', maxResults: null }],
    ['high surrogate then a non-low escape', '{"query":"\\ud800\\u0041"}', { query: '\ufffdA', maxResults: null }],
    ['white space around the value', ' \r\n\t{"query":"a"} \n', { query: 'a', maxResults: null }],
    [
      'int64 max is accepted',
      '{"query":"a","max_results":9223372036854775807}',
      { query: 'a', maxResults: 9223372036854775807 },
    ],
  ])('%s', (_name, json, expected) => {
    expect(ok(json)).toEqual(expected);
  });

  it.each<[string, string, string]>([
    [
      'max_results as a string',
      '{"query":"a","max_results":"3"}',
      'json: cannot unmarshal string into Go struct field toolSearchArgs.max_results of type int',
    ],
    [
      'max_results as a fraction',
      '{"query":"a","max_results":2.5}',
      'json: cannot unmarshal number 2.5 into Go struct field toolSearchArgs.max_results of type int',
    ],
    [
      'max_results 3.0',
      '{"query":"a","max_results":3.0}',
      'json: cannot unmarshal number 3.0 into Go struct field toolSearchArgs.max_results of type int',
    ],
    [
      'max_results in exponent form',
      '{"query":"a","max_results":1e2}',
      'json: cannot unmarshal number 1e2 into Go struct field toolSearchArgs.max_results of type int',
    ],
    [
      'max_results out of int64 range',
      '{"query":"a","max_results":9223372036854775808}',
      'json: cannot unmarshal number 9223372036854775808 into Go struct field toolSearchArgs.max_results of type int',
    ],
    [
      'max_results as a bool',
      '{"query":"a","max_results":true}',
      'json: cannot unmarshal bool into Go struct field toolSearchArgs.max_results of type int',
    ],
    [
      'query as a number',
      '{"query":5}',
      'json: cannot unmarshal number into Go struct field toolSearchArgs.query of type string',
    ],
    [
      'query as an array',
      '{"query":["a"]}',
      'json: cannot unmarshal array into Go struct field toolSearchArgs.query of type string',
    ],
    [
      'wrong type first, fine later: still an error',
      '{"query":1,"query":"a"}',
      'json: cannot unmarshal number into Go struct field toolSearchArgs.query of type string',
    ],
    [
      'first type error is reported',
      '{"max_results":"x","query":1}',
      'json: cannot unmarshal string into Go struct field toolSearchArgs.max_results of type int',
    ],
    ['top-level string', '"select:x"', 'json: cannot unmarshal string into Go value of type toolsearch.toolSearchArgs'],
    ['top-level array', '[]', 'json: cannot unmarshal array into Go value of type toolsearch.toolSearchArgs'],
    ['trailing garbage', '{"query":"a"} x', "invalid character 'x' after top-level value"],
    ['two values', '{}{}', "invalid character '{' after top-level value"],
    ['empty text', '', 'unexpected end of JSON input'],
    ['only white space', '  \n', 'unexpected end of JSON input'],
    ['truncated object', '{"query":"a"', 'unexpected end of JSON input'],
    ['truncated literal', '{"query":nul', "invalid character ' ' in literal null (expecting 'l')"],
    ['truncated number', '{"max_results":-', "invalid character ' ' in numeric literal"],
    ['byte-order mark', '\ufeff{"query":"a"}', "invalid character 'ï' looking for beginning of value"],
    ['raw newline inside a string', '{"query":"a\nb"}', "invalid character '\\n' in string literal"],
    ['raw tab inside a string', '{"query":"a\tb"}', "invalid character '\\t' in string literal"],
    ['bad escape', '{"query":"\\x"}', "invalid character 'x' in string escape code"],
    ['bad unicode escape', '{"query":"\\u12g4"}', "invalid character 'g' in \\u hexadecimal character escape"],
    ['single quotes', "{'query':'a'}", "invalid character '\\'' looking for beginning of object key string"],
    ['trailing comma in object', '{"query":"a",}', "invalid character '}' looking for beginning of object key string"],
    ['missing colon', '{"query" "a"}', "invalid character '\"' after object key"],
    ['missing comma', '{"query":"a" "b":1}', "invalid character '\"' after object key:value pair"],
    ['leading zero', '{"max_results":01}', "invalid character '1' after object key:value pair"],
    ['bare word', 'query', "invalid character 'q' looking for beginning of value"],
    ['NaN', '{"max_results":NaN}', "invalid character 'N' looking for beginning of value"],
    ['plus sign on a number', '{"max_results":+1}', "invalid character '+' looking for beginning of value"],
    [
      'decimal point without digits',
      '{"max_results":1.}',
      "invalid character '}' after decimal point in numeric literal",
    ],
    ['exponent without digits', '{"max_results":1e}', "invalid character '}' in exponent of numeric literal"],
    ['array trailing comma', '{"x":[1,]}', "invalid character ']' looking for beginning of value"],
    ['missing array comma', '{"x":[1 2]}', "invalid character '2' after array element"],
    ['control byte named in hex', '\u0001', "invalid character '\\x01' looking for beginning of value"],
  ])('%s', (_name, json, message) => {
    expect(err(json)).toBe(`failed to unmarshal tool search arguments: ${message}`);
  });

  it('nesting deeper than 10000 levels is an error; 10000 is fine', () => {
    const deep = (n: number) => `{"x":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
    expect(ok(deep(10000))).toEqual({ query: '', maxResults: null });
    expect(err(deep(10001))).toBe(
      "failed to unmarshal tool search arguments: invalid character '[' exceeded max depth",
    );
  });

  it('invalid UTF-8 bytes inside a string become U+FFFD each', () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"query":"a'),
      0xff,
      0xc3,
      ...new TextEncoder().encode('b"}'),
    ]);
    const r = decodeToolSearchArgs(bytes);
    expect(r).toEqual({ ok: true, args: { query: 'a\ufffd\ufffdb', maxResults: null } });
  });
});

describe("decodeMatches: forward selection's reading of a result", () => {
  it.each<[string, string, string[] | null]>([
    ['plain', '{"matches":["a","b"]}', ['a', 'b']],
    ['null matches', '{"matches":null}', []],
    ['empty list', '{"matches":[]}', []],
    ['case-insensitive key', '{"MATCHES":["a"]}', ['a']],
    ['long s in the key', '{"matcheſ":["a"]}', ['a']],
    ['top-level null', 'null', []],
    ['unknown keys ignored', '{"x":1,"matches":["a"]}', ['a']],
    ['later duplicate replaces', '{"matches":["a","b"],"matches":["c"]}', ['c']],
    ['null element keeps what an earlier duplicate put there', '{"matches":["a","b"],"matches":[null]}', ['a']],
    ['null element beyond earlier values is empty', '{"matches":[null,"x"]}', ['', 'x']],
    ['null value resets', '{"matches":["a"],"matches":null,"matches":[null]}', ['']],
    ['non-string element: the whole result is skipped', '{"matches":["a",1]}', null],
    ['matches not a list', '{"matches":"a"}', null],
    ['not JSON', 'not json', null],
    ['array at top level', '["a"]', null],
    ['trailing garbage', '{"matches":["a"]}x', null],
  ])('%s', (_name, text, expected) => {
    expect(decodeMatches(text)).toEqual(expected);
  });
});

describe('result shapes', () => {
  it('default mode encodes like Go json.Marshal, {"matches":null} when empty', () => {
    expect(encodeMatches([])).toBe('{"matches":null}');
    expect(encodeMatches(['a', 'b'])).toBe('{"matches":["a","b"]}');
    expect(encodeMatches(['<a&b>', 'x\u2028y', 'q"\\', 'tab\t\u0001\u007f', 'é\u{1F600}'])).toBe(
      '{"matches":["\\u003ca\\u0026b\\u003e","x\\u2028y","q\\"\\\\","tab\\t\\u0001\u007f","é\u{1F600}"]}',
    );
  });

  it('model-native result carries full definitions in order, duplicates kept', () => {
    const r = nativeResult(index, ['NotebookEdit', 'nope', 'NotebookEdit']);
    expect(r).toEqual({ type: 'tool_search_result', tools: [referenceTools[5], referenceTools[5]] });
  });

  it("the tool_search definition has the reference's name and parameters", () => {
    expect(TOOL_SEARCH_TOOL.name).toBe('tool_search');
    expect(TOOL_SEARCH_TOOL.parameters).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string' }, max_results: { type: 'integer' } },
      required: ['query'],
    });
  });
});
