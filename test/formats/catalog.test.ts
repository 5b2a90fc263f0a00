import { describe, expect, it } from 'vitest';
import { loadCatalogFiles, readCatalogDocument } from '../../src/formats/catalog.js';
import { parseText } from '../../src/io/parse.js';
import type { Catalog } from '../../src/formats/types.js';
import { fixture, inputError } from './helpers.js';

const load = (rel: string | string[], options: Parameters<typeof loadCatalogFiles>[1] = {}): Catalog =>
  loadCatalogFiles(
    (Array.isArray(rel) ? rel : [rel]).map((r) => fixture(`catalogs/${r}`)),
    options,
  );

/** name, description, static: the part of a tool most tests compare. */
const summary = (c: Catalog): Array<[string, string, boolean]> => c.tools.map((t) => [t.name, t.description, t.static]);

describe('catalog shapes, detected from the content', () => {
  it('ours: {tools: [...]} in YAML; missing description is ""; static flags; source of each tool', () => {
    const file = fixture('catalogs/ours.yaml');
    const c = load('ours.yaml');
    expect(c.sources).toEqual([{ file, format: 'toolsearch' }]);
    expect(summary(c)).toEqual([
      ['get_time', 'Get the current time.', true],
      ['mcp__slack__send_message', 'Send a message to a Slack channel.', false],
      ['mcp__slack__list_channels', '', false],
    ]);
    expect(c.tools[1]!.parameters).toEqual({
      type: 'object',
      properties: { channel: { type: 'string' }, text: { type: 'string' } },
      required: ['channel', 'text'],
    });
    expect(c.tools[2]!.parameters).toBeUndefined();
    expect('parameters' in c.tools[2]!).toBe(false);
    expect(c.tools.map((t) => t.source)).toEqual([
      { file, line: 3, column: 5 },
      { file, line: 6, column: 5 },
      { file, line: 14, column: 5 },
    ]);
  });

  it('ours: a bare JSON list', () => {
    const c = load('ours-list.json');
    expect(c.sources[0]!.format).toBe('toolsearch');
    expect(summary(c)).toEqual([
      ['get_time', 'Get the current time.', true],
      ['mcp__slack__send_message', 'Send a message to a Slack channel.', false],
    ]);
  });

  it('OpenAI Chat Completions tools: all dynamic without defer_loading', () => {
    const c = load('openai-chat.json');
    expect(c.sources[0]!.format).toBe('openai');
    expect(summary(c)).toEqual([
      ['get_time', 'Get the current time.', false],
      ['send_message', 'Send a message.', false],
    ]);
    expect(c.tools[1]!.parameters).toEqual({ type: 'object', properties: { text: { type: 'string' } } });
  });

  it(
    'OpenAI Responses (flat) tools: defer_loading makes the others ' +
      'static; namespaces read in place (their functions named <namespace>.<name>); tool_search skipped',
    () => {
      const c = load('openai-responses.json');
      expect(c.sources[0]!.format).toBe('openai');
      expect(summary(c)).toEqual([
        ['get_time', 'Get the current time.', true],
        ['send_message', 'Send a message.', false],
        // A namespace's function is named as calls name it (namespace beside name): crm.crm_find_contact.
        ['crm.crm_find_contact', 'Find a contact.', false],
      ]);
    },
  );

  it(
    'Anthropic tools: with defer_loading, deferred tools are dynamic and the rest static; server tools ' + 'skipped',
    () => {
      const c = load('anthropic.json');
      expect(c.sources[0]!.format).toBe('anthropic');
      expect(summary(c)).toEqual([
        ['get_time', 'Get the current time.', true],
        ['send_message', 'Send a message.', false],
        ['list_channels', 'List channels.', false],
      ]);
      expect(c.tools[0]!.parameters).toEqual({ type: 'object', properties: {} });
    },
  );

  it('Anthropic tools without defer_loading are all dynamic', () => {
    const c = load('anthropic-no-defer.json');
    expect(c.sources[0]!.format).toBe('anthropic');
    expect(summary(c)).toEqual([
      ['get_time', 'Get the current time.', false],
      ['send_message', '', false],
    ]);
  });

  it('MCP tools/list result: names kept as they are (hyphens too)', () => {
    const c = load('mcp.json');
    expect(c.sources[0]!.format).toBe('mcp');
    expect(summary(c)).toEqual([
      ['list-issues', 'List issues of a repository.', false],
      ['create_issue', 'Create an issue.', false],
    ]);
    expect(c.tools[0]!.parameters).toEqual({ type: 'object', properties: { repo: { type: 'string' } } });
  });

  it('MCP with a prefix: mcp__<prefix>__<tool>', () => {
    const c = load('mcp.json', { prefix: 'github' });
    expect(c.tools.map((t) => t.name)).toEqual(['mcp__github__list-issues', 'mcp__github__create_issue']);
  });

  it('MCP inside a JSON-RPC envelope', () => {
    const c = load('mcp-envelope.json');
    expect(c.sources[0]!.format).toBe('mcp');
    expect(summary(c)).toEqual([['read_file', 'Read a file.', false]]);
  });

  it('Eino ToolInfo: params become the JSON Schema Eino builds; json_schema as is; Go-style key case', () => {
    const c = load('eino.json');
    expect(c.sources[0]!.format).toBe('eino');
    expect(summary(c)).toEqual([
      ['get_weather', 'Get the weather of a city.', false],
      ['search_docs', 'Search the docs.', false],
      ['ping', '', false],
    ]);
    expect(c.tools[0]!.parameters).toEqual({
      properties: {
        city: { type: 'string', enum: ['Paris', 'Berlin'], description: 'City name' },
        days: { type: 'integer', description: 'How many days' },
        options: { properties: { unit: { type: 'string' } }, type: 'object', required: ['unit'] },
      },
      type: 'object',
      required: ['city'],
    });
    // Properties in Go string order, keys in the order the schema type writes them.
    expect(JSON.stringify(c.tools[0]!.parameters)).toBe(
      '{"properties":{"city":{"type":"string","enum":["Paris","Berlin"],"description":"City ' +
        'name"},"days":{"type":"integer","description":"How many ' +
        'days"},"options":{"properties":{"unit":{"type":"string"}},"type":"object","required":["unit"]}},"type":' +
        '"object","required":["city"]}',
    );
    expect(c.tools[1]!.parameters).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
    expect(c.tools[2]!.parameters).toBeUndefined();
  });

  it('request bodies carry a catalog (Anthropic: defer_loading applies; server tools skipped)', () => {
    const c = load('request-anthropic.json');
    expect(c.sources[0]!.format).toBe('request');
    expect(summary(c)).toEqual([
      ['get_time', 'Get the current time.', true],
      ['send_message', 'Send a message.', false],
    ]);
  });

  it('request bodies: a tool named tool_search is the middleware’s own and is skipped, with a warning', () => {
    const file = fixture('catalogs/request-openai.json');
    const c = load('request-openai.json');
    expect(summary(c)).toEqual([['get_time', 'Get the current time.', false]]);
    expect(c.warnings).toEqual([`${file}:5:5: skipped tool_search (the middleware's own tool, not a catalog tool)`]);
  });

  it('CRLF line ends', () => {
    const file = fixture('catalogs/crlf.yaml');
    const c = load('crlf.yaml');
    expect(summary(c)).toEqual([
      ['a', 'crlf line ends', false],
      ['b', '', false],
    ]);
    expect(c.tools[1]!.source).toEqual({ file, line: 4, column: 5 });
  });
});

describe('format override', () => {
  it('a forced format reads a file whose entries say nothing of their shape', () => {
    const c = load('dup-a.yaml', { format: 'mcp' });
    expect(c.sources[0]!.format).toBe('mcp');
    expect(c.tools.map((t) => t.name)).toEqual(['send_message', 'read_file']);
  });

  it('auto detects the same format the override names', () => {
    for (const [file, format] of [
      ['openai-chat.json', 'openai'],
      ['anthropic.json', 'anthropic'],
      ['mcp.json', 'mcp'],
      ['eino.json', 'eino'],
      ['ours.yaml', 'toolsearch'],
      ['request-anthropic.json', 'request'],
    ] as const) {
      expect(summary(load(file, { format }))).toEqual(summary(load(file)));
    }
  });

  it('a forced format that does not fit names what it found', () => {
    const file = fixture('catalogs/anthropic.json');
    const e = inputError(() => load('anthropic.json', { format: 'mcp' }));
    expect(e.headline).toBe(
      `${file}:2:3: expected MCP ({name, description, inputSchema}) tool, found Anthropic ` +
        `({name, description, input_schema, defer_loading?}) (it has input_schema)`,
    );
    const ours = fixture('catalogs/ours-list.json');
    expect(inputError(() => load('ours-list.json', { format: 'openai' })).headline).toBe(
      `${ours}:2:3: expected OpenAI ({type: "function", function: {name, …}} or {type: "function", name, …}) ` +
        `tool, found toolsearch ({name, description, parameters?, static?}) (it has static or parameters)`,
    );
  });

  it('request format needs an object', () => {
    const file = fixture('catalogs/openai-chat.json');
    expect(inputError(() => load('openai-chat.json', { format: 'request' })).headline).toBe(
      `${file}:1:1: not a request body: expected an object with "tools", found an array`,
    );
  });
});

describe('bad catalogs', () => {
  it('no known shape: the error lists the shapes tried', () => {
    const file = fixture('catalogs/unknown-shape.json');
    const e = inputError(() => load('unknown-shape.json'));
    expect(e.headline).toBe(
      `${file}:1:1: no known catalog shape fits (found an object without "tools"); tried ` +
        'toolsearch ({tools: [{name, description, parameters, static}]} or a list), ' +
        'openai ([{type: "function", function: {name, …}}] or [{type: "function", name, …}]), ' +
        'anthropic ([{name, description, input_schema, defer_loading}]), ' +
        'mcp ({tools: [{name, description, inputSchema}]} or {result: {tools}}), ' +
        'eino ([{name, desc, params | json_schema}]), ' +
        'request ({model, messages | input, tools})',
    );
    const scalar = fixture('catalogs/scalar.json');
    expect(inputError(() => load('scalar.json')).headline).toMatch(
      new RegExp(
        `^${scalar.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:1: no known ` +
          `catalog shape fits \\(found a string\\); tried toolsearch`,
      ),
    );
  });

  it('tools of different shapes in one list', () => {
    const file = fixture('catalogs/mixed-shapes.json');
    expect(inputError(() => load('mixed-shapes.json')).headline).toBe(
      `${file}:3:3: tools of different shapes in one list: this one is anthropic (it ` +
        `has input_schema), the one at 2:3 is mcp (it has inputSchema)`,
    );
  });

  it('a tool without a name is located at the tool', () => {
    const file = fixture('catalogs/no-name.json');
    const e = inputError(() => load('no-name.json'));
    expect(e.headline).toBe(`${file}:3:3: tool has no name`);
    expect(e.excerpt).toBe('  {"description": "a tool without a name"}\n  ^');
  });

  it('a name that is not a string is located at the name', () => {
    const file = fixture('catalogs/name-number.yaml');
    const e = inputError(() => load('name-number.yaml'));
    expect(e.headline).toBe(`${file}:3:11: tool name must be a string, found a number`);
    expect(e.excerpt).toBe('  - name: 42\n          ^');
  });

  it('a name defined twice across files names both places', () => {
    const a = fixture('catalogs/dup-a.yaml');
    const b = fixture('catalogs/dup-b.json');
    const e = inputError(() => load(['dup-a.yaml', 'dup-b.json']));
    expect(e.message).toBe(`duplicate tool name "send_message": first defined at ${a}:2:5, again at ${b}:3:3`);
    expect(e.headline).toBe(`${b}:3:3: ${e.message}`);
    expect(e.excerpt).toBe('  {"name": "send_message", "description": "Also sends a message."}\n  ^');
  });

  it('a name defined twice in one file', () => {
    const f = fixture('catalogs/dup-same-file.yaml');
    expect(inputError(() => load('dup-same-file.yaml')).headline).toBe(
      `${f}:3:3: duplicate tool name "a": first defined at ${f}:1:3, again at ${f}:3:3`,
    );
  });

  it('the same file twice is a duplicate of every tool', () => {
    const f = fixture('catalogs/ours-list.json');
    expect(inputError(() => load(['ours-list.json', 'ours-list.json'])).message).toBe(
      `duplicate tool name "get_time": first defined at ${f}:2:3, again at ${f}:2:3`,
    );
  });

  it('wrong types of fields are located at the value', () => {
    const read = (text: string): unknown => readCatalogDocument(parseText('c.json', text));
    expect(inputError(() => read('[{"name": "a", "description": 3}]')).headline).toBe(
      'c.json:1:31: tool description must be a string, found a number',
    );
    expect(inputError(() => read('[{"name": "a", "static": "yes"}]')).headline).toBe(
      'c.json:1:26: "static" must be true or false, found a string',
    );
    expect(inputError(() => read('{"tools": {"a": 1}}')).headline).toBe(
      'c.json:1:11: "tools" must be a list, found an object',
    );
    expect(inputError(() => read('[1]')).headline).toBe('c.json:1:2: expected a tool (an object), found a number');
    expect(inputError(() => read('[{"name": ""}]')).headline).toBe('c.json:1:11: tool name is empty');
    expect(inputError(() => read('{"tools": null}')).headline).toBe('c.json:1:11: "tools" must be a list, found null');
  });
});

describe('names and keys that are JavaScript object keys', () => {
  it('work as ordinary tool names and schema keys, and pollute nothing', () => {
    const c = load('proto-names.yaml');
    expect(c.tools.map((t) => t.name)).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype']);
    const params = c.tools[0]!.parameters as { properties: Record<string, unknown> };
    expect(Object.keys(params.properties)).toEqual(['__proto__', 'constructor']);
    expect(params.properties['__proto__']).toEqual({ type: 'string', polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>)['type']).toBeUndefined();
    const j = load('proto-names.json');
    expect(j.tools.map((t) => t.name)).toEqual(['__proto__', 'valueOf']);
    expect(JSON.stringify(j.tools[0]!.parameters)).toBe('{"__proto__":{"polluted":true},"toString":1}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('duplicates among such names are still found', () => {
    const e = inputError(() => load(['proto-names.yaml', 'proto-names.json']));
    expect(e.message).toMatch(
      /^duplicate tool name "__proto__": first defined at .*proto-names\.yaml:3:5, again at .*proto-names\.json:1:12$/,
    );
  });
});
