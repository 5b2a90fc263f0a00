#!/usr/bin/env node
/**
 * Writes the demo catalog (fixtures/catalogs/demo.yaml, our own format) in
 * every other catalog format, next to it:
 *
 *   demo.openai.json            Chat Completions tools  [{type: "function", function: {...}, defer_loading?}]
 *   demo.openai-responses.json  Responses (flat) tools  [{type: "function", name, ..., defer_loading?}]
 *   demo.anthropic.json         Anthropic tools         [{name, description, input_schema, defer_loading?}]
 *   demo.mcp.json               MCP tools/list result   {tools: [{name, description, inputSchema}]}
 *   demo.eino.json              Eino ToolInfo           [{name, desc, json_schema}]
 *
 * Static tools carry no `defer_loading`, dynamic ones `defer_loading: true`
 * (the loaders read "some tools deferred" as "the others are static"). MCP and
 * Eino have no notion of static tools: every tool of those files is dynamic.
 * In the Chat Completions file `defer_loading` sits next to `function`
 * (gateway style), as the loaders accept it there.
 *
 * Usage: node test/tools/gen-catalog-formats.mjs [path/to/demo.yaml]
 * test/formats/demo-formats.test.ts checks that every file loads to the same tools.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const source = resolve(process.argv[2] ?? join(root, 'fixtures', 'catalogs', 'demo.yaml'));
const outDir = dirname(source);

const doc = parse(readFileSync(source, 'utf8'), { version: '1.2', schema: 'core', uniqueKeys: true });
const tools = Array.isArray(doc) ? doc : doc?.tools;
if (!Array.isArray(tools)) throw new Error(`${source}: expected {tools: [...]} or a list of tools`);

const withParams = (t, key, obj) =>
  t.parameters === undefined || t.parameters === null ? obj : { ...obj, [key]: t.parameters };
const deferred = (t) => (t.static === true ? {} : { defer_loading: true });

const formats = {
  'demo.openai.json': tools.map((t) => ({
    type: 'function',
    function: withParams(t, 'parameters', { name: t.name, description: t.description ?? '' }),
    ...deferred(t),
  })),
  'demo.openai-responses.json': tools.map((t) => ({
    ...withParams(t, 'parameters', { type: 'function', name: t.name, description: t.description ?? '' }),
    ...deferred(t),
  })),
  'demo.anthropic.json': tools.map((t) => ({
    ...withParams(t, 'input_schema', { name: t.name, description: t.description ?? '' }),
    ...deferred(t),
  })),
  'demo.mcp.json': {
    tools: tools.map((t) => withParams(t, 'inputSchema', { name: t.name, description: t.description ?? '' })),
  },
  'demo.eino.json': tools.map((t) => withParams(t, 'json_schema', { name: t.name, desc: t.description ?? '' })),
};

for (const [name, value] of Object.entries(formats)) {
  const file = join(outDir, name);
  // Temporary file then rename: an interrupted run never leaves half a file.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  console.log(`wrote ${file} (${tools.length} tools)`);
}
