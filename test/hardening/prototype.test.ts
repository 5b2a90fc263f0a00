/**
 * Names and keys that are JavaScript object keys (`__proto__`,
 * `constructor`, `prototype`, `toString`, `hasOwnProperty`, `valueOf`) are
 * ordinary tool names everywhere — every catalog shape, select, search,
 * transcripts in every shape (as tool names and call ids), suites (as case
 * names and `rank_at_most` keys), eval, lint, every reporter and JSON
 * output — and no input pollutes a prototype.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readCatalogDocument } from '../../src/formats/catalog.js';
import { parseText } from '../../src/io/parse.js';
import { readTranscriptDocument } from '../../src/formats/transcript.js';
import { expectNoPollution, expectTerminalSafe, inproc, tempDir } from './helpers.js';

const NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'] as const;
const tmp = tempDir();
afterAll(() => {
  tmp.cleanup();
  expectNoPollution();
});

/** A parameters schema whose keys are object keys too, with polluting payloads. */
const schema = JSON.parse(
  '{"type":"object","properties":{"__proto__":{"type":"string","polluted":1},"constructor":' +
    '{"prototype":{"polluted":1}},"toString":{"type":"string"}},"__proto__":{"polluted":1}}',
) as unknown;
const desc = (n: string): string => `the ${n} tool: create issue`;

/** The six names in every catalog shape. */
const CATALOGS: Record<string, unknown> = {
  'ours.json': JSON.parse(
    `{"__proto__": {"polluted": 1}, ` +
      `"tools": ${JSON.stringify(NAMES.map((name) => ({ name, description: desc(name), parameters: schema })))}}`,
  ),
  'openai-chat.json': NAMES.map((name) => ({
    type: 'function',
    function: { name, description: desc(name), parameters: schema },
  })),
  'openai-responses.json': NAMES.map((name) => ({
    type: 'function',
    name,
    description: desc(name),
    parameters: schema,
  })),
  'anthropic.json': NAMES.map((name, i) => ({
    name,
    description: desc(name),
    input_schema: schema,
    ...(i < 5 ? { defer_loading: true } : {}),
  })),
  'mcp.json': { tools: NAMES.map((name) => ({ name, description: desc(name), inputSchema: schema })) },
  'eino.json': NAMES.map((name) => ({ name, desc: desc(name), params: { __proto__: { type: 'string', desc: 'x' } } })),
  'request.json': {
    model: 'm',
    messages: [],
    tools: NAMES.map((name) => ({ type: 'function', function: { name, description: desc(name), parameters: schema } })),
  },
};

/** The same as YAML, keys included. */
const YAML_CATALOG = `__proto__: {polluted: 1}
constructor: {prototype: {polluted: 1}}
tools:
${NAMES.map(
  (n) =>
    `  - name: ${n}\n    description: ${JSON.stringify(desc(n))}\n    parameters:\n      type: object\n      ` +
    `properties:\n        __proto__: {type: string}\n        constructor: {type: string}\n      __proto__: ` +
    `{polluted: 1}\n`,
).join('')}`;

function catalogFile(name: string): string {
  return tmp.file(name, name.endsWith('.yaml') ? YAML_CATALOG : JSON.stringify(CATALOGS[name], null, 1));
}

function json(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('catalogs in every shape', () => {
  it.each([...Object.keys(CATALOGS), 'ours.yaml'])('%s: select, search and lint see the six names', async (name) => {
    const file = catalogFile(name);
    const static5 = name === 'anthropic.json'; // defer_loading on five: the sixth is static
    const sel = await inproc(['select', '-c', file, '--json', ...NAMES]);
    expect(sel.code, sel.stderr).toBe(0);
    expect(json(sel.stdout)).toEqual({
      schema_version: 1,
      engine: 'eino',
      matches: static5 ? NAMES.slice(0, 5) : [...NAMES],
      unknown: static5 ? ['valueOf'] : [],
    });

    const search = await inproc(['search', '-c', file, '--json', '-n', '10', '--all', '--', 'create', 'issue']);
    expect(search.code, search.stderr).toBe(0);
    expect([...(json(search.stdout).matches as string[])].sort()).toEqual([...NAMES].sort());

    const human = await inproc(['search', '-c', file, '--explain', '--why', 'constructor', 'proto', 'to', 'string']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('__proto__');
    expectTerminalSafe(human.stdout);

    const lint = await inproc(['lint', file, '--json']);
    expect(lint.code, lint.stderr).toBe(0);
    expect(lint.stdout).toContain('"hasOwnProperty"');
    expectNoPollution();
  });

  it('the loader keeps the keys as data: parameters hold __proto__ as an own property', () => {
    const doc = parseText('c.json', JSON.stringify(CATALOGS['ours.json']));
    const { tools } = readCatalogDocument(doc);
    expect(tools.map((t) => t.name)).toEqual([...NAMES]);
    const params = tools[0]!.parameters as Record<string, unknown>;
    // Plain data (an ordinary or a null-prototype object), the keys its own.
    expect([Object.prototype, null]).toContain(Object.getPrototypeOf(params));
    expect(Object.keys(params.properties as object)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.prototype.hasOwnProperty.call(params, '__proto__')).toBe(true);
    expectNoPollution();
  });

  it('--prefix with an object-key server name', async () => {
    const file = catalogFile('mcp.json');
    const r = await inproc([
      'select',
      '-c',
      file,
      '--prefix',
      'constructor',
      '--json',
      'mcp__constructor____proto__',
      'mcp__constructor__toString',
    ]);
    expect(json(r.stdout)).toEqual({
      schema_version: 1,
      engine: 'eino',
      matches: ['mcp__constructor____proto__', 'mcp__constructor__toString'],
      unknown: [],
    });
  });

  it('a name defined twice is still an error naming both places', async () => {
    const a = tmp.file('dup-a.json', JSON.stringify({ tools: [{ name: '__proto__', description: 'a' }] }));
    const b = tmp.file('dup-b.yaml', 'tools:\n  - name: __proto__\n    description: b\n');
    const r = await inproc(['search', '-c', a, '-c', b, 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('__proto__');
    expect(r.stderr).toContain(`first defined at ${a}:1:11, again at ${b}:2:5`);
  });
});

describe('transcripts: object-key tool names and call ids, in every shape', () => {
  const catalog = (): string => catalogFile('ours.json');
  const args = JSON.stringify({ query: 'select:__proto__,constructor,toString' });
  const matches = JSON.stringify({ matches: ['__proto__', 'constructor', 'toString'] });

  const TRANSCRIPTS: Record<string, unknown> = {
    'eino.json': [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: '__proto__', type: 'function', function: { name: 'tool_search', arguments: args } }],
      },
      { role: 'tool', content: matches, tool_call_id: '__proto__', tool_name: 'tool_search' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: 'constructor',
            type: 'function',
            function: { name: '__proto__', arguments: '{"__proto__":{"polluted":1}}' },
          },
          { id: 'toString', type: 'function', function: { name: 'valueOf', arguments: '{}' } },
        ],
      },
      { role: 'tool', content: '{}', tool_call_id: 'constructor', tool_name: '__proto__' },
      { role: 'tool', content: '{}', tool_call_id: 'toString', tool_name: 'valueOf' },
      { role: 'assistant', content: 'done' },
    ],
    'openai.json': {
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: '__proto__', type: 'function', function: { name: 'tool_search', arguments: args } }],
        },
        { role: 'tool', tool_call_id: '__proto__', content: matches },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'constructor', type: 'function', function: { name: '__proto__', arguments: '{}' } },
            { id: 'hasOwnProperty', type: 'function', function: { name: 'valueOf', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'constructor', content: '{}' },
        { role: 'tool', tool_call_id: 'hasOwnProperty', content: '{}' },
      ],
    },
    'responses.json': {
      model: 'm',
      input: [
        { role: 'user', content: 'go' },
        { type: 'function_call', call_id: '__proto__', name: 'tool_search', arguments: args },
        { type: 'function_call_output', call_id: '__proto__', output: matches },
        { type: 'function_call', call_id: 'toString', name: 'constructor', arguments: '{}' },
        { type: 'function_call_output', call_id: 'toString', output: '{}' },
        { type: 'function_call', call_id: 'valueOf', name: 'valueOf', arguments: '{}' },
        { type: 'function_call_output', call_id: 'valueOf', output: '{}' },
      ],
    },
    'anthropic.json': {
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: '__proto__', name: 'tool_search', input: JSON.parse(args) as unknown }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: '__proto__', content: matches }] },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'constructor',
              name: 'toString',
              input: JSON.parse('{"__proto__":{"polluted":1}}') as unknown,
            },
            { type: 'tool_use', id: 'prototype', name: 'prototype', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'constructor', content: [{ type: 'text', text: 'ok' }] },
            { type: 'tool_result', tool_use_id: 'prototype', content: 'ok' },
          ],
        },
      ],
    },
  };

  it.each(Object.keys(TRANSCRIPTS))(
    '%s: calls are resolved by id, violations name the tools, JSON keeps them',
    async (name) => {
      const file = tmp.file(`t-${name}`, JSON.stringify(TRANSCRIPTS[name], null, 1));
      const r = await inproc(['simulate', file, '-c', catalog(), '--replay', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const report = json(r.stdout) as {
        turns: Array<{ tool_calls: Array<{ id: string; name: string; status: string }> }>;
        violations: Array<{ tool: string; kind: string }>;
      };
      const calls = report.turns.flatMap((t) => t.tool_calls);
      expect(calls.map((c) => c.id)).toContain('__proto__');
      expect(calls.find((c) => c.id === '__proto__')!.name).toBe('tool_search');
      // The tools the select loaded are visible; a tool never loaded is a not-loaded violation, named.
      for (const v of report.violations) expect(NAMES).toContain(v.tool);
      const loadedCall = calls.find(
        (c) => ['__proto__', 'constructor', 'toString'].includes(c.name) && c.id !== '__proto__',
      );
      expect(loadedCall?.status).toBe('ok');
      const human = await inproc(['simulate', file, '-c', catalog(), '--replay', '--mode', 'native']);
      expect(human.code, human.stderr).toBe(0);
      expectTerminalSafe(human.stdout);
      expectTerminalSafe(human.stderr);
      expectNoPollution();
    },
  );

  it('the loader never resolves a call id through the prototype chain', () => {
    // A tool result whose id matches no call, named like an Object.prototype member.
    const t = readTranscriptDocument(
      parseText(
        't.json',
        JSON.stringify([
          { role: 'user', content: 'x' },
          { role: 'tool', content: 'r', tool_call_id: 'toString' },
        ]),
      ),
      { format: 'openai', lenient: true },
    );
    expect(t.warnings.join('\n')).toContain('unknown call id "toString"');
    expectNoPollution();
  });
});

describe('suites, eval and every reporter', () => {
  it('case names, expectations and rank_at_most keys that are object keys', async () => {
    const cat = catalogFile('ours.json');
    const suite = tmp.file(
      'proto-suite.yaml',
      `name: __proto__
catalog: ${cat}
cases:
  - name: __proto__
    select: [__proto__, constructor]
    exact: [__proto__, constructor]
  - name: constructor
    query: create issue
    includes: [toString, hasOwnProperty]
    rank_at_most: {__proto__: 1, constructor: 2, prototype: 4}
  - name: toString
    query: create issue
    first: valueOf
`,
    );
    for (const reporter of ['human', 'json', 'junit', 'tap']) {
      const r = await inproc(['test', suite, '--reporter', reporter]);
      expect(r.code, r.stderr).toBe(1); // the last case fails: valueOf is not first
      expect(r.stdout).toContain('__proto__');
      if (reporter === 'json') {
        const j = JSON.parse(r.stdout) as { summary: { passed: number; failed: number } };
        expect(j.summary).toMatchObject({ passed: 2, failed: 1 });
      }
    }
    expectNoPollution();
  });

  it('eval: relevant tools and queries named like object keys', async () => {
    const cat = catalogFile('ours.json');
    const q = tmp.file(
      'proto.jsonl',
      NAMES.map((n) => JSON.stringify({ query: `${n} create`, relevant: [n], __proto__: { polluted: 1 } })).join('\n'),
    );
    const r = await inproc(['eval', q, '-c', cat, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"hasOwnProperty"');
    const h = await inproc(['eval', q, '-c', cat]);
    expect(h.code, h.stderr).toBe(0);
    expectNoPollution();
  });
});
