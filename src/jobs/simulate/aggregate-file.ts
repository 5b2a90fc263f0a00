/**
 * Aggregate files written by `simulate --json` / `--aggregate` (or anything
 * that writes the same shape): one aggregate per file, or one per line of a
 * JSONL file (e.g. the output of a batch engine's map step). Every field is
 * checked, unknown fields included, with the position of the first problem:
 * an aggregate we do not fully understand is never merged.
 */
import { AGGREGATE_KIND, AGGREGATE_SCHEMA_VERSION, type Aggregate } from './aggregate.js';
import { errorAt, kindName, type Node, type ObjectNode, type ParsedDocument, toJsonValue } from '../../io/nodes.js';
import { parseFile } from '../../io/parse.js';
import type { Limits } from '../../io/read.js';

/** A shape: a counter, a string, a fixed object, a list of one shape, or a record of counters. */
type Shape =
  | 'count'
  | 'string'
  | { readonly object: Readonly<Record<string, Shape>> }
  | { readonly list: Shape }
  | 'counts'
  | 'strings';

const COUNTS = (...keys: string[]): Shape => ({ object: Object.fromEntries(keys.map((k) => [k, 'count' as Shape])) });
const CACHE = COUNTS('compared', 'hits', 'breaks');

const AGGREGATE: Shape = {
  object: {
    kind: 'string',
    schema_version: 'count',
    sessions: COUNTS('replayed', 'failed', 'with_errors', 'with_warnings'),
    modes: COUNTS('default', 'native'),
    engines: 'counts',
    model_calls: 'count',
    messages: 'count',
    tool_calls: 'count',
    loader_warnings: 'count',
    coverage: {
      object: {
        ...(COUNTS('items', 'read', 'unexplained', 'unpaired') as { object: Record<string, Shape> }).object,
        skipped: 'counts',
        formats: 'counts',
      },
    },
    searches: COUNTS('client', 'server', 'zero_result', 'errors', 'differs'),
    zero_result_queries: { list: { object: { query: 'string', count: 'count' } } },
    violations: 'counts',
    tools: {
      list: {
        object: {
          name: 'string',
          found_sessions: 'count',
          loaded_sessions: 'count',
          called_sessions: 'count',
          loaded_not_called_sessions: 'count',
          calls: 'count',
          not_loaded: 'count',
        },
      },
    },
    tokens: {
      object: {
        ...(
          COUNTS('sessions', 'calls', 'tools', 'reminder', 'loaded', 'deferred', 'total', 'all_up_front', 'saved') as {
            object: Record<string, Shape>;
          }
        ).object,
        encodings: 'strings',
        tool_formats: 'strings',
      },
    },
    cache: {
      object: {
        sessions: 'count',
        sessions_with_breaks: 'count',
        compared: 'count',
        hits: 'count',
        breaks: 'count',
        by_mode: { object: { sessions: 'count', default: CACHE, native: CACHE } },
      },
    },
    failures: {
      list: {
        object: {
          source: { object: { file: 'string', line: 'count' } },
          error: 'string',
        },
      },
    },
  },
};

function check(doc: ParsedDocument, node: Node, shape: Shape, path: string): void {
  const fail = (what: string): never => {
    const found = node.kind === 'number' ? String(node.value) : kindName(node);
    throw errorAt(doc, node, `not a toolsearch aggregate: ${path} must be ${what}, found ${found}`);
  };
  if (shape === 'count') {
    if (node.kind !== 'number' || !Number.isSafeInteger(node.value) || node.value < 0) fail('a whole number ≥ 0');
    return;
  }
  if (shape === 'string') {
    if (node.kind !== 'string') fail('a string');
    return;
  }
  if (shape === 'strings') {
    if (node.kind !== 'array') fail('a list of strings');
    for (const [i, item] of (node as Extract<Node, { kind: 'array' }>).items.entries())
      check(doc, item, 'string', `${path}[${i}]`);
    return;
  }
  if (shape === 'counts') {
    if (node.kind !== 'object') fail('an object of counts');
    for (const m of (node as ObjectNode).members.values()) check(doc, m.value, 'count', `${path}.${m.key}`);
    return;
  }
  if ('list' in shape) {
    if (node.kind !== 'array') fail('a list');
    for (const [i, item] of (node as Extract<Node, { kind: 'array' }>).items.entries())
      check(doc, item, shape.list, `${path}[${i}]`);
    return;
  }
  if (node.kind !== 'object') fail('an object');
  const obj = node as ObjectNode;
  for (const m of obj.members.values()) {
    if (!Object.hasOwn(shape.object, m.key)) {
      throw errorAt(doc, m.keyOffset, `not a toolsearch aggregate: unknown field ${JSON.stringify(m.key)} in ${path}`);
    }
  }
  for (const [key, inner] of Object.entries(shape.object)) {
    const m = obj.members.get(key);
    if (!m) {
      // A whole-file failure has no line.
      if (path.endsWith('.source') && key === 'line') continue;
      const older =
        path === 'the aggregate' && key === 'engines'
          ? ' (written by a toolsearch older than the engine tally: simulate those sessions again)'
          : '';
      throw errorAt(doc, obj, `not a toolsearch aggregate: ${path} has no "${key}"${older}`);
    }
    if (path.endsWith('.source') && key === 'line' && m.value.kind === 'null') continue;
    check(doc, m.value, inner, `${path}.${key}`);
  }
}

function readOne(doc: ParsedDocument, node: Node): Aggregate {
  if (node.kind === 'object') {
    const kind = node.members.get('kind')?.value;
    if (kind?.kind !== 'string' || kind.value !== AGGREGATE_KIND) {
      throw errorAt(
        doc,
        kind ?? node,
        `not a toolsearch aggregate: "kind" must be "${AGGREGATE_KIND}" ` +
          `(written by toolsearch simulate --json over many sessions)`,
      );
    }
    const version = node.members.get('schema_version')?.value;
    if (version?.kind !== 'number' || version.value !== AGGREGATE_SCHEMA_VERSION) {
      throw errorAt(
        doc,
        version ?? node,
        `unsupported aggregate schema_version (this toolsearch reads ${AGGREGATE_SCHEMA_VERSION})`,
      );
    }
  }
  check(doc, node, AGGREGATE, 'the aggregate');
  return JSON.parse(JSON.stringify(toJsonValue(node))) as Aggregate;
}

/** The aggregates of one file: one JSON document, or one per JSONL line; read under `limits` as any input. */
export function loadAggregateFile(file: string, limits?: Partial<Limits>): Aggregate[] {
  const doc = parseFile(file, limits ? { limits } : {});
  if (doc.syntax === 'jsonl' && doc.root.kind === 'array') return doc.root.items.map((item) => readOne(doc, item));
  return [readOne(doc, doc.root)];
}
