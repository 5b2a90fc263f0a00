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
 * A walk over a string literal in the text (a JSON string, a YAML double-quoted scalar on one line with
 * JSON's escapes, a YAML single-quoted scalar on one line): each step gives the UTF-16 units of the value
 * that one written character or escape stands for, and where it starts. Null at the closing quote; an
 * escape or a line break it does not know ends the walk (`ok` false).
 */
class LiteralWalk {
  /** Index in the value, and in the text, of the next step. */
  unit = 0;
  at: number;
  ok = true;
  private readonly quote: string;

  constructor(
    private readonly text: string,
    private readonly start: number,
  ) {
    this.quote = text[start]!;
    this.at = start + 1;
  }

  /** The next step's value text (advancing past it), or null at the end of the literal or of what it knows. */
  next(): string | null {
    const { text, quote } = this;
    const c = text[this.at];
    if (c === undefined || c === '\n' || c === '\r') {
      this.ok = false;
      return null;
    }
    if (quote === "'") {
      if (c !== "'") return this.take(c, 1);
      return text[this.at + 1] === "'" ? this.take("'", 2) : null;
    }
    if (c === '"') return null;
    if (c !== '\\') return this.take(c, 1);
    const e = text[this.at + 1];
    if (e !== undefined && JSON_ESCAPES[e] !== undefined) return this.take(JSON_ESCAPES[e]!, 2);
    const hex = text.slice(this.at + 2, this.at + 6);
    if (e === 'u' && hex.length === 4 && HEX.test(hex))
      return this.take(String.fromCharCode(Number.parseInt(hex, 16)), 6);
    this.ok = false;
    return null;
  }

  private take(value: string, written: number): string {
    this.at += written;
    this.unit += value.length;
    return value;
  }

  /** Back to the start of the literal. */
  restart(): void {
    this.unit = 0;
    this.at = this.start + 1;
    this.ok = true;
  }
}

/**
 * Where each UTF-16 unit of a string literal's value is in the text, as a function (offsets past the end
 * go to the closing quote); null when the literal is not one {@link LiteralWalk} knows, or walking it does
 * not give the node's value. Nothing is kept per character: asking for offsets in increasing order (as a
 * parsed tree is walked) walks the literal once.
 */
function literalOffsets(text: string, node: StringNode): ((unit: number) => number) | null {
  const quote = text[node.offset];
  if (quote !== '"' && quote !== "'") return null;
  const walk = new LiteralWalk(text, node.offset);
  const value = node.value;
  for (let piece = walk.next(); piece !== null; piece = walk.next())
    if (value.slice(walk.unit - piece.length, walk.unit) !== piece) return null;
  if (!walk.ok || walk.unit !== value.length) return null;
  const end = walk.at;
  walk.restart();
  // The last step taken: the value units it stands for start at `from`, its text at `before`.
  let from = 0;
  let before = walk.at;
  return (unit: number): number => {
    if (unit >= value.length) return end;
    if (unit < from) {
      walk.restart();
      from = 0;
      before = walk.at;
    }
    while (walk.unit <= unit) {
      from = walk.unit;
      before = walk.at;
      walk.next();
    }
    return before;
  };
}

/** A copy of `node` and everything in it, each offset moved by `to`. */
export function moveNodes(node: Node, to: (offset: number) => number): Node {
  switch (node.kind) {
    case 'array': {
      const offset = to(node.offset);
      return { kind: 'array', offset, items: node.items.map((n) => moveNodes(n, to)) };
    }
    case 'object': {
      // In document order (the mapping walks forward): the object's own offset, then each key and value.
      const offset = to(node.offset);
      const members = new Map<string, Member>();
      for (const [k, m] of node.members) {
        const keyOffset = to(m.keyOffset);
        members.set(k, { key: m.key, keyOffset, value: moveNodes(m.value, to) });
      }
      const out: ObjectNode = { kind: 'object', offset, members };
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
  return { root: moveNodes(root, offsets ?? (() => fixed)) };
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
