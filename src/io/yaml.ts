/**
 * YAML to positioned values ({@link Node}), with the hardening rules.
 *
 * The text is read by js-yaml's event parser (`parseEvents`: a flat list of
 * events that point into the text by offset; no tree of its own; see
 * yaml-events.ts), and the events are folded here into our nodes without
 * recursion. The `yaml` library, which the suite updater and `import` use to
 * write YAML, read a catalog several times slower, and a first search on a
 * catalog is mostly this read. test/io/yaml-differential.test.ts holds
 * this reader to the values and positions that the `yaml` library composes.
 *
 * Over 400 lines: one fold keeps positions, alias costs and key checks in
 * step, event by event.
 *
 * - YAML 1.2, core schema (yaml-schema.ts): `yes`/`no`/`on` stay strings,
 *   `<<` is an ordinary key;
 * - nesting deeper than `maxDepth` is an error; js-yaml stops one level past
 *   it (its parser recurses, so that bound is also what keeps 100,000 levels
 *   from exhausting the stack);
 * - aliases are resolved here: an alias shares the contents of its anchored
 *   value (nodes are immutable; the alias gets a shallow copy that carries
 *   its own position), and what a full expansion would cost is computed, not
 *   performed. Bounds: at most `maxAliases` dereferences (aliases inside an
 *   aliased value count again each time it is used, so a "billion laughs"
 *   document stops after a few levels), at most `maxAliasValues`
 *   ({@link MAX_ALIAS_EXPANSION} by default) values added by expansion, and
 *   at most `maxAliasBytes` bytes of text (strings and keys, UTF-8) added by
 *   expansion. Consumers that copy values (`toJsonValue`, `JSON.stringify`)
 *   thus stay bounded too. An alias to a value that contains it is an error;
 * - explicit tags other than the core ones (`!!str`, `!!int`, `!!float`,
 *   `!!bool`, `!!null`, `!!map`, `!!seq`) are **rejected** with a located
 *   error rather than silently read as strings: a catalog or transcript has
 *   no use for them, and `description: !important …` is more likely a
 *   quoting mistake the user wants to hear about; only a recording may hold
 *   `!!binary` scalars (option `binary`: VCR.py cassettes keep bodies that
 *   are not UTF-8 so), read as their base64 text on a node marked `binary`;
 * - keys are unique (a duplicate is an error at its second occurrence) and
 *   must be scalars; a non-string scalar key (`1:`, `true:`) is read as its text.
 */
import {
  type AliasEvent,
  type Event,
  getScalarValue,
  type MappingEvent,
  type ScalarEvent,
  type SequenceEvent,
} from 'js-yaml';
import { toWellFormed } from '../core/text.js';
import type { Fail } from './json.js';
import { duplicateKeyMessage } from './json.js';
import type { Member, Node, StringNode } from './nodes.js';
import { raiseLimit } from './read.js';
import {
  afterIndicator,
  ALIAS,
  BLOCK,
  DOCUMENT,
  eventOffset,
  MAPPING,
  markerOffset,
  propsEnd,
  PLAIN,
  checkRootIndent,
  checkSeparated,
  readEvents,
  SCALAR,
  scalarEnd,
  scalarOffset,
  SEQUENCE,
  isBare,
  propsStart,
  skipBlanks,
  skipSpace,
} from './yaml-events.js';
import { CORE_TAGS, resolveScalar, type Scalar, showTag, tagName, YAML_TAG } from './yaml-schema.js';

/** Most values that alias expansion may add to one document. */
export const MAX_ALIAS_EXPANSION = 1_000_000;

/** What expanding an anchored value costs: its values, the aliases inside it (expanded), its depth. */
interface AnchorStats {
  readonly node: Node;
  /** Values in the value when fully expanded. */
  readonly size: number;
  /** Alias dereferences inside the value when fully expanded. */
  readonly aliases: number;
  /** Bytes of text (UTF-8 strings and keys) in the value when fully expanded. */
  readonly bytes: number;
  /** Nesting levels of the value when fully expanded (0 for a scalar). */
  readonly depth: number;
}

/** The totals when an anchored value began, to measure it when it ends. */
interface Before {
  readonly size: number;
  readonly aliases: number;
  readonly bytes: number;
  readonly deepest: number;
}

/** An open collection. `anchor` is the event that defined an anchor on it (its identity for aliases). */
interface Frame {
  readonly kind: 'array' | 'object';
  /** Block style (indentation), not flow (brackets). */
  readonly block: boolean;
  /** Where it starts; a block mapping whose first key has an anchor or a tag starts at that key's value. */
  offset: number;
  readonly depth: number;
  readonly items: Node[];
  readonly members: Map<string, Member>;
  /** In an object: the key read, waiting for its value (fields, not an object: one fewer per member). */
  key: string | null;
  keyOffset: number;
  /** Where a value without text is: after the key's `:`. */
  valueOffset: number;
  readonly anchor: Event | null;
  readonly before: Before | null;
}

interface Walk {
  readonly text: string;
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxAliasBytes: number;
  readonly maxAliasValues: number;
  readonly fail: Fail;
  readonly where: (offset: number) => string;
  /** Tag handles of the document (`%TAG`), with the two every document has. */
  handles: Map<string, string>;
  /** The end of the text read so far (to place values without text). */
  cursor: number;
  /** Anchor name → the event that defined it most recently (document order). */
  readonly anchors: Map<string, Event>;
  /** Anchoring event → the converted node and its costs, once its conversion is complete. */
  readonly done: Map<Event, AnchorStats>;
  /** Running totals, as if every alias were expanded: values, values added by aliases, alias dereferences. */
  size: number;
  expanded: number;
  aliases: number;
  /**
   * Bytes of text as if every alias were expanded, and the part of them added by aliases. Only what an
   * anchored value holds is ever read, so text is counted only while one is being read (`measuring`).
   */
  bytes: number;
  expandedBytes: number;
  /** Deepest level reached so far (aliases count with their target's depth). */
  deepest: number;
  /** Anchored values being read (nested). */
  measuring: number;
  /** Whether a scalar may be tagged `!!binary` (recordings: VCR cassettes keep bodies that way). */
  readonly binary: boolean;
}

/** YAML 1.1's `!!binary`: base64 text of bytes (PyYAML writes `bytes` so; VCR.py cassettes hold bodies that way). */
const BINARY_TAG = `${YAML_TAG}binary`;

/**
 * The core tag of an event (null without one); any other tag is a located error, but `!!binary` on a
 * scalar value when the reader allows it (`scalar`).
 */
function coreTag(w: Walk, e: { tagStart: number; tagEnd: number }, scalar = false): string | null {
  if (e.tagStart < 0) return null;
  const raw = w.text.slice(e.tagStart, e.tagEnd);
  const tag = tagName(w.handles, raw);
  if (tag === BINARY_TAG && scalar && w.binary) return tag;
  if (tag === null || !CORE_TAGS.has(tag)) {
    return w.fail(
      e.tagStart,
      `unsupported YAML tag ${JSON.stringify(tag === null ? raw : showTag(tag))} (quote the value if it is text)`,
    );
  }
  return tag;
}

/**
 * An alias: the anchored value's node is shared (nodes are immutable), and
 * what a full expansion would cost is added to the totals, so a
 * "billion laughs" is refused by arithmetic, without expanding anything.
 */
function alias(w: Walk, source: string, offset: number, depth: number): AnchorStats {
  const target = w.anchors.get(source);
  if (target === undefined) return w.fail(offset, `unknown YAML alias *${source}`);
  const stats = w.done.get(target);
  if (!stats) return w.fail(offset, `YAML alias *${source} refers to a value that contains it`);
  w.aliases += 1 + stats.aliases;
  if (w.aliases > w.maxAliases)
    w.fail(offset, `too many YAML aliases (more than ${w.maxAliases}; ${raiseLimit('maxAliases')})`);
  w.size += stats.size;
  w.expanded += stats.size;
  if (w.expanded > w.maxAliasValues)
    w.fail(offset, `YAML aliases expand to more than ${w.maxAliasValues} values (${raiseLimit('maxAliasValues')})`);
  w.bytes += stats.bytes;
  w.expandedBytes += stats.bytes;
  if (w.expandedBytes > w.maxAliasBytes)
    w.fail(
      offset,
      `YAML aliases expand to more than ${w.maxAliasBytes} bytes of text ` +
        `(alias *${source}; ${raiseLimit('maxAliasBytes')})`,
    );
  if (depth + stats.depth > w.maxDepth)
    w.fail(offset, `nesting deeper than ${w.maxDepth} levels (through alias *${source}; ${raiseLimit('maxDepth')})`);
  w.deepest = Math.max(w.deepest, depth + stats.depth);
  return stats;
}

/** Starts measuring an anchored value (`&name`) that begins at `depth`. */
function openAnchor(w: Walk, e: Event & { anchorStart: number; anchorEnd: number }, depth: number): Before | null {
  if (e.anchorStart < 0) return null;
  w.anchors.set(w.text.slice(e.anchorStart, e.anchorEnd), e);
  const before = { size: w.size, aliases: w.aliases, bytes: w.bytes, deepest: w.deepest };
  w.measuring++;
  w.deepest = depth;
  return before;
}

/** Ends measuring an anchored value: what expanding it costs, for its aliases. */
function closeAnchor(w: Walk, e: Event, before: Before, node: Node, depth: number): void {
  w.done.set(e, {
    node,
    size: w.size - before.size,
    aliases: w.aliases - before.aliases,
    bytes: w.bytes - before.bytes,
    depth: w.deepest - depth,
  });
  w.deepest = Math.max(before.deepest, w.deepest);
  w.measuring--;
}

/** A scalar value at `depth` (counted, measured when anchored). */
function scalarNode(w: Walk, e: ScalarEvent, depth: number, fallback: number): Node {
  const tag = coreTag(w, e, true);
  const offset = scalarOffset(w.text, e, fallback);
  const before = openAnchor(w, e, depth);
  w.size++;
  w.deepest = Math.max(w.deepest, depth);
  const text = getScalarValue(w.text, e);
  const node: Node =
    tag === BINARY_TAG
      ? { ...(valueNode(w, text, offset) as StringNode), binary: true }
      : valueNode(w, resolveScalar(text, e.style === PLAIN, tag), offset);
  if (before) closeAnchor(w, e, before, node, depth);
  return node;
}

/** The node of a scalar's value (its text counted while an anchored value is measured). */
function valueNode(w: Walk, v: Scalar, offset: number): Node {
  if (v === null) return { kind: 'null', offset };
  if (typeof v === 'boolean') return { kind: 'bool', offset, value: v };
  if (typeof v === 'number') return { kind: 'number', offset, value: v, raw: String(v) };
  if (w.measuring > 0) w.bytes += Buffer.byteLength(v, 'utf8');
  return { kind: 'string', offset, value: toWellFormed(v) };
}

/** A mapping key: a scalar's text, or an alias to one. */
function scalarKey(w: Walk, e: ScalarEvent, depth: number, fallback: number): { key: string; keyOffset: number } {
  if (e.anchorStart >= 0) {
    // An anchored key can be used as a value elsewhere: measured like any anchored scalar (a key is no value).
    const node = scalarNode(w, e, depth, fallback);
    w.size--;
    return { key: keyText(w, node, node.offset), keyOffset: node.offset };
  }
  const tag = coreTag(w, e);
  const keyOffset = scalarOffset(w.text, e, fallback);
  const v = resolveScalar(getScalarValue(w.text, e), e.style === PLAIN, tag);
  return { key: keyOf(v), keyOffset };
}

/** The text of a key whose scalar resolved to `v` (`1:` is the key "1", `~:` the key ""). */
function keyOf(v: Scalar): string {
  return typeof v === 'string' ? toWellFormed(v) : v === null ? '' : String(v);
}

/** The text of a key given by a node (an alias to a scalar). */
function keyText(w: Walk, node: Node, offset: number): string {
  switch (node.kind) {
    case 'string':
      return node.value;
    case 'number':
      return node.raw;
    case 'bool':
      return String(node.value);
    case 'null':
      return '';
    default:
      return w.fail(offset, 'YAML mapping keys must be strings');
  }
}

/**
 * Where a value without text (no characters, no properties) is, as the `yaml` library puts it: after the
 * `-` of its sequence entry, at the `:` of an empty key (after its `?`), after the `:` of its key. js-yaml
 * gives no position for one: the walk keeps `cursor`, the end of what it has read.
 */
function emptyOffset(w: Walk, top: Frame | undefined, atKey: boolean): number {
  if (top === undefined) return 0;
  if (!atKey && top.key !== null) return top.valueOffset;
  const at = skipSpace(w.text, w.cursor, !top.block);
  const c = w.text[at];
  if (atKey && c === ':') {
    // In a block mapping, at the start of its line (where the key would be).
    const lineStart = w.text.lastIndexOf('\n', at - 1) + 1;
    return top.block && /^[ \t]*$/.test(w.text.slice(lineStart, at)) ? lineStart : at;
  }
  if ((atKey && c === '?') || (top.block && top.kind === 'array' && c === '-')) return skipBlanks(w.text, at + 1);
  return top.offset;
}

/** The events of a block collection on the line of its parent's key (`a: b: c`). */
function checkCompact(w: Walk, e: Event & { start: number; tagStart: number; anchorStart: number }, top?: Frame): void {
  if (top?.block && top.key !== null && !/\n/.test(w.text.slice(top.valueOffset, e.start))) {
    // js-yaml reads some of these (`a: !!str b:`, with a tag or an anchor) as a mapping.
    w.fail(propsStart(e, e.start), 'invalid YAML: Nested mappings are not allowed in compact mappings');
  }
}

const NO_ITEMS: Node[] = [];
const NO_MEMBERS = new Map<string, Member>();

/** The walk over one document's events: the open collections, and the root once it is complete. */
interface Fold {
  readonly stack: Frame[];
  root: Node | null;
  documents: number;
}

/** Hands a complete value to the collection it is in (or makes it the root). */
function put(f: Fold, node: Node): void {
  const top = f.stack[f.stack.length - 1];
  if (top === undefined) f.root = node;
  else if (top.kind === 'array') top.items.push(node);
  else {
    const key = top.key!;
    top.members.set(key, { key, keyOffset: top.keyOffset, value: node });
    top.key = null;
  }
}

/** A key of the mapping `top`, which ends at `keyEnd`: unique, and waiting for its value. */
function setKey(w: Walk, top: Frame, key: string, keyOffset: number, keyEnd: number): void {
  // js-yaml starts a block mapping whose first key has properties at them; the `yaml` library at the key.
  if (top.members.size === 0 && top.offset < keyOffset && /[&!]/.test(w.text[top.offset]!)) top.offset = keyOffset;
  const first = top.members.get(key);
  if (first) w.fail(keyOffset, duplicateKeyMessage(key, w.where(first.keyOffset)));
  if (w.measuring > 0) w.bytes += Buffer.byteLength(key, 'utf8');
  const valueOffset = afterIndicator(w.text, keyEnd, ':') ?? keyOffset;
  top.key = key;
  top.keyOffset = keyOffset;
  top.valueOffset = valueOffset;
  w.cursor = Math.max(w.cursor, keyEnd);
}

function openCollection(w: Walk, f: Fold, e: SequenceEvent | MappingEvent): void {
  const top = f.stack[f.stack.length - 1];
  const depth = f.stack.length;
  if (top !== undefined && top.kind === 'object' && top.key === null)
    w.fail(e.start, 'YAML mapping keys must be strings');
  if (e.style === BLOCK) checkCompact(w, e, top);
  if (top === undefined && e.style === BLOCK) checkRootIndent(w.text, w.fail, e.start);
  checkSeparated(w.text, w.fail, e, e.start, top !== undefined && !top.block);
  coreTag(w, e);
  if (depth + 1 > w.maxDepth) w.fail(e.start, `nesting deeper than ${w.maxDepth} levels (${raiseLimit('maxDepth')})`);
  const before = openAnchor(w, e, depth);
  w.size++;
  w.deepest = Math.max(w.deepest, depth);
  const array = e.type === SEQUENCE;
  f.stack.push({
    kind: array ? 'array' : 'object',
    block: e.style === BLOCK,
    offset: e.start,
    depth,
    // Only the one its kind fills: the other is never written.
    items: array ? [] : NO_ITEMS,
    members: array ? NO_MEMBERS : new Map(),
    key: null,
    keyOffset: 0,
    valueOffset: 0,
    anchor: before ? e : null,
    before,
  });
  w.cursor = e.style === BLOCK ? e.start : e.start + 1;
}

function closeCollection(w: Walk, f: Fold): void {
  const frame = f.stack.pop();
  if (frame === undefined) return; // the document's end
  const node: Node =
    frame.kind === 'array'
      ? { kind: 'array', offset: frame.offset, items: frame.items }
      : { kind: 'object', offset: frame.offset, members: frame.members };
  if (frame.anchor && frame.before) closeAnchor(w, frame.anchor, frame.before, node, frame.depth);
  if (!frame.block) {
    const end = skipSpace(w.text, w.cursor, true);
    if (w.text[end] === ']' || w.text[end] === '}') w.cursor = end + 1;
  }
  put(f, node);
}

/** The value of a scalar with text and no properties (no tag: a plain one by the core schema). */
function scalarValue(text: string, e: ScalarEvent): Scalar {
  const raw = e.fast ? text.slice(e.valueStart, e.valueEnd) : getScalarValue(text, e);
  return e.style === PLAIN ? resolveScalar(raw, true, null) : raw;
}

function scalar(w: Walk, f: Fold, e: ScalarEvent): void {
  const top = f.stack[f.stack.length - 1];
  const atKey = top !== undefined && top.kind === 'object' && top.key === null;
  if (top !== undefined && e.valueStart >= 0 && e.anchorStart < 0 && e.tagStart < 0) {
    // Nearly every scalar: text, no properties, inside a collection. Fewer calls: a first run reads the
    // catalog in code not yet compiled, where each call costs.
    const offset = scalarOffset(w.text, e, 0);
    const end = scalarEnd(e, 0);
    const v = scalarValue(w.text, e);
    if (atKey) setKey(w, top, keyOf(v), offset, end);
    else {
      w.size++;
      if (f.stack.length > w.deepest) w.deepest = f.stack.length;
      put(f, valueNode(w, v, offset));
    }
    if (end > w.cursor) w.cursor = end;
    return;
  }
  const bare = isBare(e);
  const fallback = bare
    ? emptyOffset(w, top, atKey)
    : top === undefined
      ? 0
      : top.key !== null
        ? top.valueOffset
        : top.offset;
  if (e.valueStart >= 0 && (e.tagStart >= 0 || e.anchorStart >= 0)) {
    checkSeparated(w.text, w.fail, e, scalarOffset(w.text, e, 0), top !== undefined && !top.block);
  }
  if (top === undefined && !bare) checkRootIndent(w.text, w.fail, propsStart(e, scalarOffset(w.text, e, 0)));
  const end = e.valueStart >= 0 ? scalarEnd(e, fallback) : bare ? fallback : propsEnd(e);
  if (atKey) {
    const k = scalarKey(w, e, f.stack.length, fallback);
    setKey(w, top, k.key, k.keyOffset, bare ? k.keyOffset : end);
  } else put(f, scalarNode(w, e, f.stack.length, fallback));
  w.cursor = Math.max(w.cursor, end);
}

function aliasEvent(w: Walk, f: Fold, e: AliasEvent): void {
  const top = f.stack[f.stack.length - 1];
  const name = w.text.slice(e.anchorStart, e.anchorEnd);
  const offset = e.anchorStart - 1;
  const { node } = alias(w, name, offset, f.stack.length);
  if (top !== undefined && top.kind === 'object' && top.key === null) {
    setKey(w, top, keyText(w, node, offset), offset, e.anchorEnd);
  } else {
    // The same value, located at the alias: a message about it (a name defined twice) points at this use.
    put(f, node.offset === offset ? node : { ...node, offset });
  }
  w.cursor = e.anchorEnd;
}

/** Folds the events of one document into its root node. */
function walk(w: Walk, events: readonly Event[]): Node {
  const f: Fold = { stack: [], root: null, documents: 0 };
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    switch (e.type) {
      case DOCUMENT: {
        f.documents++;
        if (f.documents > 1) {
          const next = events[i + 1];
          const empty = next?.type === SCALAR && isBare(next);
          const at = empty ? markerOffset(w.text, f.documents - 1, w.text.length) : eventOffset(w.text, next, 0);
          w.fail(at, 'invalid YAML: more than one document');
        }
        w.handles = new Map([
          ['!', '!'],
          ['!!', YAML_TAG],
        ]);
        for (const d of e.directives) if (d.kind === 'tag') w.handles.set(d.handle, d.prefix);
        break;
      }
      case SEQUENCE:
      case MAPPING:
        openCollection(w, f, e);
        break;
      case SCALAR:
        scalar(w, f, e);
        break;
      case ALIAS:
        aliasEvent(w, f, e);
        break;
      default:
        closeCollection(w, f);
        break;
    }
  }
  // Nothing but comments and blank lines.
  if (f.root === null) return w.fail(0, 'empty YAML document (no content)');
  return f.root;
}

/**
 * Parses a YAML document (one; a second `---` document is an error) into a
 * positioned value. Problems are reported through `fail`.
 */
export function parseYamlText(
  text: string,
  limits: {
    readonly maxDepth: number;
    readonly maxAliases: number;
    readonly maxAliasBytes: number;
    readonly maxAliasValues?: number;
  },
  fail: Fail,
  where: (offset: number) => string,
  options: { readonly binary?: boolean | undefined } = {},
): Node {
  const w: Walk = {
    text,
    maxDepth: limits.maxDepth,
    maxAliases: limits.maxAliases,
    maxAliasBytes: limits.maxAliasBytes,
    maxAliasValues: limits.maxAliasValues ?? MAX_ALIAS_EXPANSION,
    fail,
    where,
    handles: new Map(),
    cursor: 0,
    anchors: new Map(),
    done: new Map(),
    size: 0,
    expanded: 0,
    aliases: 0,
    bytes: 0,
    expandedBytes: 0,
    deepest: 0,
    measuring: 0,
    binary: options.binary ?? false,
  };
  return walk(w, readEvents(text, limits.maxDepth, fail));
}
