/**
 * A document inside a string of another: the JSON body an HTTP recording
 * keeps as text (a HAR entry's `postData.text`, a VCR cassette's `body`, a
 * nock recording's string response). It is parsed on its own, then its
 * nodes are moved into the outer document, so that every later error points
 * into the file the user has.
 *
 * Where the string is written so that each character of its value can be
 * found in the text (a JSON string literal, a YAML scalar on one line), each
 * node lands on its own character; otherwise (a folded YAML scalar, base64,
 * a compressed body) every node lands on the string itself.
 */
import type { JsonValue } from '../core/types.js';
import { InputError } from './errors.js';
import type { Member, Node, ObjectNode, ParsedDocument, StringNode } from './nodes.js';
import { parseText } from './parse.js';
import type { Limits } from './read.js';

const HEX = /^[0-9A-Fa-f]+$/;

const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * Where each UTF-16 unit of a string literal's value is in the text: one
 * offset per unit, and one more for the end. Null when the literal is not
 * one this knows how to walk, or walking it does not give the value.
 */
function literalOffsets(text: string, node: StringNode): number[] | null {
  const at = node.offset;
  const quote = text[at];
  const out: number[] = [];
  let value = '';
  let i = at + 1;
  if (quote === '"') {
    // A JSON string, or a YAML double-quoted scalar on one line (its escapes are JSON's and a few more).
    for (;;) {
      const c = text[i];
      if (c === undefined || c === '\n' || c === '\r') return null;
      if (c === '"') break;
      if (c !== '\\') {
        out.push(i);
        value += c;
        i++;
        continue;
      }
      const e = text[i + 1];
      if (e !== undefined && JSON_ESCAPES[e] !== undefined) {
        out.push(i);
        value += JSON_ESCAPES[e];
        i += 2;
      } else if (e === 'u' && HEX.test(text.slice(i + 2, i + 6)) && text.slice(i + 2, i + 6).length === 4) {
        out.push(i);
        value += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else return null;
    }
  } else if (quote === "'") {
    // A YAML single-quoted scalar on one line: '' is a quote.
    for (;;) {
      const c = text[i];
      if (c === undefined || c === '\n' || c === '\r') return null;
      if (c === "'") {
        if (text[i + 1] !== "'") break;
        out.push(i);
        value += "'";
        i += 2;
        continue;
      }
      out.push(i);
      value += c;
      i++;
    }
  } else return null;
  out.push(i);
  return value === node.value ? out : null;
}

/** A copy of `node` and everything in it, each offset moved by `to`. */
export function moveNodes(node: Node, to: (offset: number) => number): Node {
  switch (node.kind) {
    case 'array':
      return { kind: 'array', offset: to(node.offset), items: node.items.map((n) => moveNodes(n, to)) };
    case 'object': {
      const members = new Map<string, Member>();
      for (const [k, m] of node.members)
        members.set(k, { key: m.key, keyOffset: to(m.keyOffset), value: moveNodes(m.value, to) });
      const out: ObjectNode = { kind: 'object', offset: to(node.offset), members };
      return out;
    }
    default:
      return { ...node, offset: to(node.offset) };
  }
}

/** What {@link parseEmbedded} gives: the root, moved into the outer document, or why the text is not JSON. */
export type Embedded = { readonly root: Node } | { readonly error: string };

/**
 * Parses `text` as JSON and moves its nodes into `doc`: onto the characters
 * of `source` when `text` is that string's own value and its literal can be
 * walked, else all onto `at` (the string, or the value that held the bytes).
 */
export function parseEmbedded(
  doc: ParsedDocument,
  text: string,
  at: Node,
  source: StringNode | null,
  limits: Pick<Limits, 'maxDepth'>,
): Embedded {
  let root: Node;
  try {
    root = parseText('<embedded>', text, { syntax: 'json', limits: { maxDepth: limits.maxDepth } }).root;
  } catch (err) {
    if (err instanceof InputError) {
      const l = err.location;
      const where = l && l.line > 0 ? ` (line ${l.line}, column ${l.column} of the text)` : '';
      return { error: `${err.message}${where}` };
    }
    throw err;
  }
  const offsets = source !== null && source.value === text ? literalOffsets(doc.text, source) : null;
  const fixed = at.offset;
  const to = offsets ? (o: number) => offsets[Math.min(o, offsets.length - 1)]! : () => fixed;
  return { root: moveNodes(root, to) };
}

/** A plain JSON value as nodes, all placed at `offset` (a value assembled from the text, not written in it). */
export function nodesOf(value: JsonValue, offset: number): Node {
  if (value === null) return { kind: 'null', offset };
  if (typeof value === 'boolean') return { kind: 'bool', offset, value };
  if (typeof value === 'number') return { kind: 'number', offset, value, raw: String(value) };
  if (typeof value === 'string') return { kind: 'string', offset, value };
  if (Array.isArray(value)) return { kind: 'array', offset, items: value.map((v) => nodesOf(v, offset)) };
  const members = new Map<string, Member>();
  for (const [key, v] of Object.entries(value)) members.set(key, { key, keyOffset: offset, value: nodesOf(v, offset) });
  return { kind: 'object', offset, members };
}
