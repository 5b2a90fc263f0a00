/**
 * The `yaml` library's reading of a document as our nodes (values and positions), for
 * yaml-differential.test.ts: the reader before js-yaml, without its bounds (the tests feed it small
 * documents). Its rules are the reader's: core schema, core tags only, unique string keys.
 */
import { type Document, isAlias, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { toWellFormed } from '../../src/core/text.js';
import type { Node } from '../../src/io/nodes.js';

const CORE = new Set([
  '!',
  ...['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`),
]);

/** The oracle's verdict: the root node, or the offset of the first problem. */
export type Verdict = { ok: true; root: Node } | { ok: false; offset: number; message: string };

class Problem extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

function start(y: unknown, fallback: number): number {
  return (y as { range?: [number, number, number] } | null)?.range?.[0] ?? fallback;
}

/** Values being converted: an alias to one of them is a value that contains itself. */
const active = new Set<unknown>();

/** Values converted so far: aliases are expanded here, so a document of nested aliases stops at a budget. */
let converted = 0;

function convert(doc: Document, y: unknown, fallback: number): Node {
  const offset = start(y, fallback);
  if (++converted > 200_000) throw new Problem(offset, 'aliases expand too far');
  if (isAlias(y)) {
    const target = y.resolve(doc);
    if (target === undefined) throw new Problem(offset, `unknown alias *${y.source}`);
    if (active.has(target)) throw new Problem(offset, `alias *${y.source} inside its value`);
    const node = convert(doc, target, offset);
    return { ...node, offset };
  }
  active.add(y);
  try {
    return convertValue(doc, y, offset);
  } finally {
    active.delete(y);
  }
}

function convertValue(doc: Document, y: unknown, offset: number): Node {
  if (y === null || y === undefined) return { kind: 'null', offset };
  const tag = (y as { tag?: string }).tag;
  if (tag !== undefined && !CORE.has(tag)) throw new Problem(offset, `tag ${tag}`);
  if (isScalar(y)) {
    const v = y.value;
    if (v === null || v === undefined) return { kind: 'null', offset };
    if (typeof v === 'boolean') return { kind: 'bool', offset, value: v };
    if (typeof v === 'number') return { kind: 'number', offset, value: v, raw: String(v) };
    if (typeof v === 'string') return { kind: 'string', offset, value: toWellFormed(v) };
    throw new Problem(offset, 'value');
  }
  if (isSeq(y)) return { kind: 'array', offset, items: y.items.map((item) => convert(doc, item, offset)) };
  if (isMap(y)) {
    const members = new Map<string, { key: string; keyOffset: number; value: Node }>();
    for (const pair of y.items) {
      const keyOffset = start(pair.key, offset);
      const k = isAlias(pair.key) ? convert(doc, pair.key, keyOffset) : pair.key;
      let key: string;
      if (k === null || k === undefined) key = '';
      else if (isScalar(k)) {
        const kt = (k as { tag?: string }).tag;
        if (kt !== undefined && !CORE.has(kt)) throw new Problem(keyOffset, `tag ${kt}`);
        key = typeof k.value === 'string' ? toWellFormed(k.value) : k.value == null ? '' : String(k.value);
      } else if ('kind' in (k as object)) {
        const n = k as Node;
        if (n.kind === 'string') key = n.value;
        else if (n.kind === 'number') key = n.raw;
        else if (n.kind === 'bool') key = String(n.value);
        else if (n.kind === 'null') key = '';
        else throw new Problem(keyOffset, 'key');
      } else throw new Problem(keyOffset, 'key');
      if (members.has(key)) throw new Problem(keyOffset, `duplicate ${key}`);
      members.set(key, { key, keyOffset, value: convert(doc, pair.value, keyOffset) });
    }
    return { kind: 'object', offset, members };
  }
  throw new Problem(offset, 'node');
}

/** Reads `text` as the reader before js-yaml did. */
export function yamlLibraryReading(text: string): Verdict {
  const doc = parseDocument(text, {
    version: '1.2',
    schema: 'core',
    uniqueKeys: false,
    prettyErrors: false,
    strict: true,
  });
  const err = doc.errors[0];
  if (err) return { ok: false, offset: err.pos[0], message: err.message };
  if (doc.contents === null) return { ok: false, offset: 0, message: 'empty' };
  converted = 0;
  try {
    return { ok: true, root: convert(doc, doc.contents, 0) };
  } catch (e) {
    if (e instanceof Problem) return { ok: false, offset: e.offset, message: e.message };
    throw e;
  }
}
