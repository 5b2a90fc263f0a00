/**
 * Parsed values that remember where they came from.
 *
 * Both the JSON and the YAML reader produce this tree, so the shape checks of
 * the catalog and transcript loaders can point at the offending value
 * (`file:line:column` plus a caret excerpt) whatever the syntax was.
 *
 * Objects keep their keys in a `Map`: a key such as `__proto__`,
 * `constructor` or `toString` is an ordinary key, and no prototype is ever
 * touched. {@link toJsonValue} builds plain values on null-prototype objects
 * for the same reason.
 *
 * The JSON reader reads large documents lazily (see json.ts): some of its
 * arrays and objects build their `items` or `members` on first access, and
 * read their plain value straight from the text. The YAML reader does the
 * same for flow collections inside block ones (see yaml.ts), whose plain
 * value it reads first. Readers see the same nodes either way.
 */
import type { JsonValue } from '../core/types.js';
import { InputError, type SourceLocation } from './errors.js';
import { excerptAt, LineIndex } from './position.js';
import type { Limits } from './read.js';

interface NodeBase {
  /** UTF-16 offset of the value's first character in the document text. */
  readonly offset: number;
}

export interface NullNode extends NodeBase {
  readonly kind: 'null';
}
export interface BoolNode extends NodeBase {
  readonly kind: 'bool';
  readonly value: boolean;
}
export interface NumberNode extends NodeBase {
  readonly kind: 'number';
  readonly value: number;
  /** The literal as written (JSON) or as resolved (YAML). */
  readonly raw: string;
}
export interface StringNode extends NodeBase {
  readonly kind: 'string';
  readonly value: string;
  /**
   * The YAML scalar was tagged `!!binary`: `value` is the base64 text of bytes, as written (line breaks
   * included). Only when the reader was asked to allow the tag (recordings); never set by the JSON reader.
   */
  readonly binary?: true;
}
export interface ArrayNode extends NodeBase {
  readonly kind: 'array';
  readonly items: readonly Node[];
}
/** A member of an object: its key's position and its value. */
export interface Member {
  readonly key: string;
  readonly keyOffset: number;
  readonly value: Node;
}
export interface ObjectNode extends NodeBase {
  readonly kind: 'object';
  /** Members in document order; keys are unique (a duplicate is a parse error). */
  readonly members: ReadonlyMap<string, Member>;
}

/**
 * Between the JSON and YAML readers and {@link toJsonValue} only (readers never use it): a lazy array or
 * object, which is never built as nodes unless a reader walks into it, gives its plain value without them.
 */
export const PLAIN_VALUE: unique symbol = Symbol('toolsearch.plainValue');

/** A parsed value with its position. */
export type Node = NullNode | BoolNode | NumberNode | StringNode | ArrayNode | ObjectNode;

/** The syntax a document was read as. */
export type Syntax = 'json' | 'jsonl' | 'yaml' | 'sse';

/** A parsed file: its text, its syntax and its root value. */
export interface ParsedDocument {
  readonly file: string;
  readonly text: string;
  readonly syntax: Syntax;
  /** For JSONL: an array node holding one value per non-blank line. */
  readonly root: Node;
  readonly lines: LineIndex;
  /**
   * The limits it was read under, for text inside it that is read as a document of its own (JSON in a string:
   * an OTel attribute, a tool call's arguments), which honours them too.
   */
  readonly limits?: Limits;
}

/** Where `at` (a node or an offset) is, as `file:line:column`. */
export function locate(doc: Pick<ParsedDocument, 'file' | 'lines'>, at: Node | number): SourceLocation {
  const offset = typeof at === 'number' ? at : at.offset;
  const { line, column } = doc.lines.position(offset);
  return { file: doc.file, line, column };
}

/** `file:line:column` of `at`, for messages that name a second place. */
export function formatLocation(loc: SourceLocation): string {
  return loc.line > 0 ? `${loc.file}:${loc.line}:${loc.column}` : loc.file;
}

/** An `InputError` at `at`, with the caret excerpt of its line. */
export function errorAt(doc: Pick<ParsedDocument, 'file' | 'lines'>, at: Node | number, message: string): InputError {
  const offset = typeof at === 'number' ? at : at.offset;
  const { line, column, lineStart } = doc.lines.position(offset);
  const excerpt = excerptAt(doc.lines.lineAt(lineStart), Math.min(offset, doc.lines.text.length) - lineStart);
  return new InputError(message, { file: doc.file, line, column }, excerpt);
}

/** A member's value, or undefined. */
export function field(obj: ObjectNode, key: string): Node | undefined {
  return obj.members.get(key)?.value;
}

/**
 * Folds a key for loose matching: lower case, underscores dropped (`ContentBlocks` ~ `content_blocks`).
 * Folded keys by key: the same few keys (role, content, tool_calls, …) are
 * folded for every member of every message, which dominated reading many
 * sessions. Bounded: the memo starts again past 4,096 distinct keys.
 */
const folded = new Map<string, string>();

export function foldKey(key: string): string {
  let f = folded.get(key);
  if (f === undefined) {
    f = key.replace(/_/g, '').toLowerCase();
    if (folded.size >= 4096) folded.clear();
    folded.set(key, f);
  }
  return f;
}

/**
 * A member's value by exact key, else by a loose match (case and underscores
 * ignored). Eino structures are read this way: Go's decoder matches field
 * names case-insensitively, and structs without JSON tags serialize as
 * `CallID`, `ContentBlocks`, … where tagged ones use `call_id`, `content_blocks`.
 */
export function looseField(obj: ObjectNode, key: string): Node | undefined {
  const exact = obj.members.get(key);
  if (exact) return exact.value;
  const want = foldKey(key);
  for (const m of obj.members.values()) if (foldKey(m.key) === want) return m.value;
  return undefined;
}

/** Short name of a node's kind for messages: `a string`, `an array`, … */
export function kindName(node: Node | undefined): string {
  if (!node) return 'nothing';
  switch (node.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return 'a boolean';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
  }
}

/**
 * A new empty object without a prototype. Made from a literal whose
 * prototype is then removed, rather than by `Object.create(null)`: V8 keeps
 * such objects in its compact "fast" form (shared hidden classes), where
 * `Object.create(null)` starts a hash table per object (about twice the
 * memory). Either way every key is an own data property.
 */
export function nullObject<T>(): { [key: string]: T } {
  const out = {};
  Object.setPrototypeOf(out, null);
  return out as { [key: string]: T };
}

/**
 * The plain value of a node. Objects are created without a prototype, so any
 * key is an own data property and nothing global can be reached through one.
 */
export function toJsonValue(node: Node): JsonValue {
  const own = (node as { [PLAIN_VALUE]?: () => JsonValue })[PLAIN_VALUE];
  if (own !== undefined) return own.call(node);
  switch (node.kind) {
    case 'null':
      return null;
    case 'bool':
    case 'number':
    case 'string':
      return node.value;
    case 'array':
      return node.items.map(toJsonValue);
    case 'object': {
      const out = nullObject<JsonValue>();
      for (const m of node.members.values()) out[m.key] = toJsonValue(m.value);
      return out;
    }
  }
}
