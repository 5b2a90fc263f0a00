/**
 * Writes a catalog in our own format (`tools: [{name, description, parameters}]`),
 * as YAML (the default) or JSON: text that the CLI writes (src/io/output.ts).
 */
import { randomBytes } from 'node:crypto';
import { Document, isCollection, isMap, isScalar, visit } from 'yaml';
import type { ToolInfo } from '../../core/types.js';
import { safeJson } from '../../io/json-out.js';
import { JSON_SCHEMA_VERSION } from '../../io/schema-version.js';

function plain(tools: readonly ToolInfo[]): Array<Record<string, unknown>> {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    ...(t.parameters !== undefined ? { parameters: t.parameters } : {}),
  }));
}

/**
 * The catalog as YAML: one block mapping per tool; `parameters` as one
 * flow mapping with double-quoted strings (JSON-like, as in the demo
 * catalog), so schemas stay compact and read back exactly.
 * `header` lines become a comment at the top.
 */
export async function catalogYaml(tools: readonly ToolInfo[], header: readonly string[] = []): Promise<string> {
  // The yaml library writes a collection by recursion, several frames per level: a schema nested a
  // thousand levels (within the loaders' bound) overflows the stack. Such parameters are written as
  // JSON (a YAML flow mapping too), put in place of a placeholder after the document is written.
  const deep = new Map<string, string>();
  const token = `toolsearch-deep-${randomBytes(8).toString('hex')}-`;
  const items = plain(tools).map((t) => {
    if (t.parameters === undefined || !deeperThan(t.parameters, DEEP_PARAMETERS)) return t;
    const key = `${token}${deep.size}`;
    // (characters a terminal acts on as escapes, as the YAML writer writes them: the text decodes unchanged)
    deep.set(key, safeJson(t.parameters));
    return { ...t, parameters: key };
  });
  const doc = new Document({ tools: items });
  if (header.length > 0) doc.commentBefore = header.map((l) => ` ${l}`).join('\n');
  const list = doc.get('tools', true);
  if (list && typeof list === 'object' && 'items' in list) {
    for (const item of (list as { items: unknown[] }).items) {
      if (!isMap(item)) continue;
      const params = item.get('parameters', true);
      if (!isCollection(params)) continue;
      params.flow = true;
      visit(params, {
        Scalar(_key, node) {
          if (isScalar(node) && typeof node.value === 'string') node.type = 'QUOTE_DOUBLE';
        },
      });
    }
  }
  // Text a terminal would act on (bidi controls, separators) goes double-quoted, as `\uXXXX` escapes.
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && TERMINAL_UNSAFE.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  let text = doc.toString({ lineWidth: 0 });
  if (deep.size > 0) text = text.replace(new RegExp(`${token}\\d+`, 'g'), (k) => deep.get(k)!);
  return text.replace(TERMINAL_UNSAFE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Parameters nested deeper than this are written as JSON (see {@link catalogYaml}). */
const DEEP_PARAMETERS = 64;

/** Whether a JSON value nests deeper than `max` levels (iterative). */
function deeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as object)) stack.push([child, d + 1]);
  }
  return false;
}

// What YAML may leave raw in a double-quoted scalar and a terminal would act on (see report/json.ts).
const TERMINAL_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const TERMINAL_UNSAFE_ALL = new RegExp(TERMINAL_UNSAFE.source, 'g');

/** The catalog as JSON (`{"tools": [...]}`, 2-space indentation, final newline). */
export function catalogJson(tools: readonly ToolInfo[]): string {
  // Characters a terminal acts on that JSON leaves raw (C1, DEL, bidi controls) as `\uXXXX`, as every
  // --json of the CLI writes them: the catalog may go to a terminal, and reads back unchanged.
  // schema_version first, as in every --json of the CLI (src/schemas/import.schema.json); the loaders ignore it.
  return `${safeJson({ schema_version: JSON_SCHEMA_VERSION, tools: plain(tools) }, undefined, 2)}\n`;
}
