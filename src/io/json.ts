/**
 * A strict JSON reader (RFC 8259) that keeps positions, rejects duplicate keys and bounds nesting:
 * `JSON.parse` gives neither positions nor duplicates, and recurses without a limit. String escapes follow
 * Go's decoder: a lone surrogate escape such as `\ud800` becomes U+FFFD, so every string is well-formed.
 *
 * Ours rather than a maintained parser with positions (jsonc-parser's visitor, @humanwhocodes/momoa): both
 * measured several times slower and hungrier on the benchmark's large catalog (figures in README, "Why our
 * own JSON reader"), because they build every node, and neither checks duplicate keys or depth as it reads.
 *
 * One scanner reads the grammar; what it makes of a value is its mode: nothing (a check), positioned nodes,
 * or plain values. Large documents are read lazily behind the {@link Node} interface, which readers see
 * unchanged: such a document is checked whole first (every error where and as a full parse reports it),
 * its arrays and objects build their items or members one level at a time on first access, and their
 * plain value (`toJsonValue`) is read straight from the text, without nodes. One file: the lazy nodes
 * re-enter the scanner, and the scanner makes them.
 */
import { toWellFormed } from '../core/text.js';
import type { JsonValue } from '../core/types.js';
import { raiseLimit } from './read.js';
import { type ArrayNode, type Member, type Node, nullObject, type ObjectNode, PLAIN_VALUE } from './nodes.js';

/** Raised through `fail`: offset of the problem and its message. */
export type Fail = (offset: number, message: string) => never;

/**
 * Values up to this many characters (4 Mi) are built whole; longer ones are read lazily (see above): a
 * positioned node costs several times the text it stands for, and most of a large catalog (its tools'
 * JSON Schemas) is only ever turned into plain values.
 */
export const LAZY_TEXT_LENGTH = 4 * 1024 * 1024;

/** How an unexpected character is named in messages: `'x'` for printable ASCII, else `U+XXXX`. */
export function describeChar(text: string, offset: number): string {
  if (offset >= text.length) return 'end of input';
  const cp = text.codePointAt(offset)!;
  if (cp > 0x20 && cp < 0x7f) return `'${String.fromCharCode(cp)}'`;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The message for a key that occurs twice in one object (located at the second occurrence). */
export function duplicateKeyMessage(key: string, firstAt: string): string {
  return `duplicate key ${JSON.stringify(key)} (first at ${firstAt})`;
}

/**
 * Parses exactly one JSON value in `text[start, end)`; anything else is reported through `fail`. `where`
 * names an offset (`line:column`) for the duplicate-key message. A range longer than `lazyTextLength`
 * (default {@link LAZY_TEXT_LENGTH}; 0: every array and object) is read lazily, as described above.
 */
export function parseJsonValue(
  text: string,
  start: number,
  end: number,
  maxDepth: number,
  fail: Fail,
  where: (offset: number) => string,
  lazyTextLength: number = LAZY_TEXT_LENGTH,
): Node {
  const source: Source = { text, strings: new Map(), kept: [], next: 0 };
  const lazyDepth = end - start > lazyTextLength ? 0 : Number.POSITIVE_INFINITY;
  return new Scanner(source, start, end, maxDepth, fail, where, false).document(NODES, lazyDepth) as Node;
}

/** What the scanner makes of what it reads. */
const CHECK = 0;
const NODES = 1;
const PLAIN = 2;
type Mode = typeof CHECK | typeof NODES | typeof PLAIN;

function isHex4(t: string, at: number): boolean {
  for (let i = at; i < at + 4; i++) {
    const c = t.charCodeAt(i);
    const lower = c | 0x20;
    if (!((c >= 0x30 && c <= 0x39) || (lower >= 0x61 && lower <= 0x66))) return false;
  }
  return true;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** `fail` and `where` for text that was checked already: never called. */
const checked: Fail = (offset, message) => {
  throw new Error(`internal error: checked JSON failed at ${offset}: ${message}`);
};
const checkedWhere = (offset: number): string => String(offset);

/** Keys of one object are checked for duplicates by a linear search; past this many, through a `Map`. */
const MANY_KEYS = 16;
/** Strings up to this length are shared between the plain values of one text (`"string"`, `"object"`, …). */
const SHARED_STRING_LENGTH = 12;
/** At most this many distinct shared strings per text. */
const MAX_SHARED_STRINGS = 10_000;

/**
 * Lazy objects of one text that keep their built members at once: a reader reads an object's fields one
 * after another, then moves on (a catalog's tools, a transcript's messages), so an object built longer
 * ago is built again if it is read again, and a large document's objects are never all built at once.
 * Arrays keep their items (lazy nodes: a few numbers each).
 */
const KEPT_OBJECTS = 256;

/** The text lazy nodes read from, the short strings already read from it as plain values, and {@link KEPT_OBJECTS}. */
interface Source {
  readonly text: string;
  readonly strings: Map<string, string>;
  readonly kept: Array<LazyObjectNode | undefined>;
  next: number;
}

class Scanner {
  private readonly text: string;
  private pos: number;
  /** Arrays and objects nested deeper than this (the outermost is at depth 1) become lazy nodes. */
  private lazyDepth = Number.POSITIVE_INFINITY;
  /** Keys (and their offsets) of the objects being read, outermost first, below `keyTop`. */
  private readonly keyStack: string[] = [];
  private readonly keyOffsetStack: number[] = [];
  private keyTop = 0;

  /**
   * @param trusted the range was checked already (a lazy node's): no duplicate-key bookkeeping, and the
   *   containers below `lazyDepth` are skipped by bracket matching instead of being checked again.
   */
  constructor(
    private readonly source: Source,
    start: number,
    private readonly end: number,
    private readonly maxDepth: number,
    private readonly fail: Fail,
    private readonly where: (offset: number) => string,
    private readonly trusted: boolean,
  ) {
    this.text = source.text;
    this.pos = start;
  }

  /** The one value of the range (`lazyDepth`: see the field; only in NODES mode). */
  document(mode: Mode, lazyDepth = Number.POSITIVE_INFINITY): unknown {
    this.lazyDepth = lazyDepth;
    this.skipWs();
    if (this.pos >= this.end) this.fail(this.pos, 'invalid JSON: unexpected end of input');
    const v = this.value(0, mode);
    this.skipWs();
    if (this.pos < this.end)
      this.fail(this.pos, `invalid JSON: unexpected ${describeChar(this.text, this.pos)} after the value`);
    return v;
  }

  private skipWs(): void {
    while (this.pos < this.end && isWs(this.text.charCodeAt(this.pos))) this.pos++;
  }

  private peek(): number {
    return this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
  }

  private unexpected(expected: string): never {
    if (this.pos >= this.end) this.fail(this.pos, 'invalid JSON: unexpected end of input');
    return this.fail(this.pos, `invalid JSON: expected ${expected}, found ${describeChar(this.text, this.pos)}`);
  }

  /** The value at `pos` (inside `depth` containers), as `mode` makes it. */
  private value(depth: number, mode: Mode): unknown {
    const offset = this.pos;
    const c = this.peek();
    switch (c) {
      case 0x7b: // {
      case 0x5b: // [
        if (mode === NODES && depth + 1 > this.lazyDepth) return this.lazy(depth + 1);
        return c === 0x7b ? this.object(depth + 1, mode) : this.array(depth + 1, mode);
      case 0x22: {
        // "
        if (mode === CHECK) return this.string(false);
        const value = this.string(true);
        return mode === NODES ? { kind: 'string', offset, value } : this.shared(value);
      }
      case 0x74: // t
        this.literal('true');
        return mode === NODES ? { kind: 'bool', offset, value: true } : true;
      case 0x66: // f
        this.literal('false');
        return mode === NODES ? { kind: 'bool', offset, value: false } : false;
      case 0x6e: // n
        this.literal('null');
        return mode === NODES ? { kind: 'null', offset } : null;
      default: {
        if (!(c === 0x2d || (c >= 0x30 && c <= 0x39))) return this.unexpected('a value');
        this.scanNumber();
        if (mode === CHECK) return undefined;
        const raw = this.text.slice(offset, this.pos);
        return mode === NODES ? { kind: 'number', offset, value: Number(raw), raw } : Number(raw);
      }
    }
  }

  /** A lazy node for the array or object at `pos`, which is checked (unless trusted) and moved past. */
  private lazy(depth: number): Node {
    const offset = this.pos;
    const isObject = this.text.charCodeAt(offset) === 0x7b;
    if (this.trusted) this.pos = matchingClose(this.text, offset);
    else if (isObject) this.object(depth, CHECK);
    else this.array(depth, CHECK);
    return isObject
      ? new LazyObjectNode(this.source, offset, this.pos)
      : new LazyArrayNode(this.source, offset, this.pos);
  }

  /** A short string as the one already read from this text, if any. */
  private shared(value: string): string {
    if (value.length > SHARED_STRING_LENGTH) return value;
    const strings = this.source.strings;
    const known = strings.get(value);
    if (known !== undefined) return known;
    if (strings.size < MAX_SHARED_STRINGS) strings.set(value, value);
    return value;
  }

  private literal(word: string): void {
    for (let i = 0; i < word.length; i++) {
      if (this.pos >= this.end || this.text.charCodeAt(this.pos) !== word.charCodeAt(i)) {
        if (i === 0) this.unexpected('a value');
        if (this.pos >= this.end) this.fail(this.pos, 'invalid JSON: unexpected end of input');
        this.fail(this.pos, `invalid JSON: unexpected ${describeChar(this.text, this.pos)} in literal ${word}`);
      }
      this.pos++;
    }
  }

  /** Moves past the number at `pos`, checking its syntax. */
  private scanNumber(): void {
    const t = this.text;
    const digit = (): boolean =>
      this.pos < this.end && t.charCodeAt(this.pos) >= 0x30 && t.charCodeAt(this.pos) <= 0x39;
    const badNumber = (): never => {
      if (this.pos >= this.end) this.fail(this.pos, 'invalid JSON: unexpected end of input in a number');
      return this.fail(this.pos, `invalid JSON: unexpected ${describeChar(t, this.pos)} in a number`);
    };
    if (t.charCodeAt(this.pos) === 0x2d) this.pos++;
    if (!digit()) badNumber();
    if (t.charCodeAt(this.pos) === 0x30) this.pos++;
    else while (digit()) this.pos++;
    if (this.pos < this.end && t.charCodeAt(this.pos) === 0x2e) {
      this.pos++;
      if (!digit()) badNumber();
      while (digit()) this.pos++;
    }
    if (this.pos < this.end && (t.charCodeAt(this.pos) | 0x20) === 0x65) {
      this.pos++;
      if (this.pos < this.end && (t.charCodeAt(this.pos) === 0x2b || t.charCodeAt(this.pos) === 0x2d)) this.pos++;
      if (!digit()) badNumber();
      while (digit()) this.pos++;
    }
  }

  /** Reads the string literal at `pos`; its value only when `decode` (else ''). */
  private string(decode: boolean): string {
    const t = this.text;
    const start = this.pos;
    this.pos++; // opening quote
    let escaped = false;
    for (;;) {
      if (this.pos >= this.end) this.fail(this.pos, 'invalid JSON: unterminated string');
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) break;
      if (c < 0x20) this.fail(this.pos, `invalid JSON: control character ${describeChar(t, this.pos)} in a string`);
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      escaped = true;
      const escAt = this.pos;
      this.pos++;
      if (this.pos >= this.end) this.fail(this.pos, 'invalid JSON: unterminated string');
      const e = t.charCodeAt(this.pos);
      this.pos++;
      switch (e) {
        case 0x22:
        case 0x5c:
        case 0x2f:
        case 0x62:
        case 0x66:
        case 0x6e:
        case 0x72:
        case 0x74:
          break;
        case 0x75:
          if (this.pos + 4 > this.end || !isHex4(t, this.pos))
            this.fail(escAt, 'invalid JSON: invalid \\u escape in a string');
          this.pos += 4;
          break;
        default: {
          const shown = e > 0x20 && e < 0x7f ? String.fromCharCode(e) : describeChar(t, this.pos - 1);
          this.fail(escAt, `invalid JSON: invalid escape \\${shown} in a string`);
        }
      }
    }
    this.pos++; // closing quote
    if (!decode) return '';
    return decodeString(t, start, this.pos, escaped);
  }

  private checkDepth(depth: number, offset: number): void {
    if (depth > this.maxDepth)
      this.fail(offset, `nesting deeper than ${this.maxDepth} levels (${raiseLimit('maxDepth')})`);
  }

  private array(depth: number, mode: Mode): unknown {
    const offset = this.pos;
    this.checkDepth(depth, offset);
    this.pos++;
    const items: unknown[] | null = mode === CHECK ? null : [];
    this.skipWs();
    if (this.peek() === 0x5d) {
      this.pos++;
      return this.madeArray(offset, items, mode);
    }
    for (;;) {
      this.skipWs();
      const item = this.value(depth, mode);
      if (items !== null) items.push(item);
      this.skipWs();
      const c = this.peek();
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x5d) {
        this.pos++;
        return this.madeArray(offset, items, mode);
      }
      this.unexpected("',' or ']'");
    }
  }

  private madeArray(offset: number, items: unknown[] | null, mode: Mode): unknown {
    if (mode === NODES) return { kind: 'array', offset, items: items as Node[] } satisfies ArrayNode;
    // Plain arrays at their final length (a pushed array keeps spare capacity).
    return mode === PLAIN ? items!.slice() : undefined;
  }

  /**
   * Keys are decoded in every mode, to find duplicates: those of the objects being read are kept on one
   * shared stack (most objects are small: a linear search, no allocation), with a `Map` only for an object
   * of many keys.
   */
  private object(depth: number, mode: Mode): unknown {
    const offset = this.pos;
    this.checkDepth(depth, offset);
    this.pos++;
    const members = mode === NODES ? new Map<string, Member>() : null;
    const plain = mode === PLAIN ? nullObject<JsonValue>() : null;
    this.skipWs();
    if (this.peek() === 0x7d) {
      this.pos++;
      return members !== null ? { kind: 'object', offset, members } : plain;
    }
    const keys = this.keyStack;
    const offsets = this.keyOffsetStack;
    // This object's keys are keys[base, keyTop); nested objects use the stack above and restore `keyTop`.
    const base = this.keyTop;
    let many: Map<string, number> | null = null;
    for (;;) {
      this.skipWs();
      if (this.peek() !== 0x22) this.unexpected('a string key');
      const keyOffset = this.pos;
      const key = this.string(true);
      if (!this.trusted) {
        let first: number | undefined;
        if (many !== null) first = many.get(key);
        else {
          for (let i = base; i < this.keyTop; i++) {
            if (keys[i] === key) {
              first = offsets[i];
              break;
            }
          }
        }
        if (first !== undefined) this.fail(keyOffset, duplicateKeyMessage(key, this.where(first)));
        if (many !== null) many.set(key, keyOffset);
        else if (this.keyTop - base < MANY_KEYS) {
          keys[this.keyTop] = key;
          offsets[this.keyTop] = keyOffset;
          this.keyTop++;
        } else {
          many = new Map();
          for (let i = base; i < this.keyTop; i++) many.set(keys[i]!, offsets[i]!);
          many.set(key, keyOffset);
        }
      }
      this.skipWs();
      if (this.peek() !== 0x3a) this.unexpected("':'");
      this.pos++;
      this.skipWs();
      const value = this.value(depth, mode);
      if (members !== null) members.set(key, { key, keyOffset, value: value as Node });
      else if (plain !== null) plain[key] = value as JsonValue;
      this.skipWs();
      const c = this.peek();
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x7d) {
        this.pos++;
        this.keyTop = base;
        return members !== null ? { kind: 'object', offset, members } : plain;
      }
      this.unexpected("',' or '}'");
    }
  }
}

/**
 * The value of the (checked) string literal `t[start, end)`, quotes included. Without escapes it is the
 * text between the quotes; with escapes the native decoder is exact and fast, and a lone surrogate escape
 * then becomes U+FFFD, as Go's decoder does.
 */
function decodeString(t: string, start: number, end: number, escaped: boolean): string {
  if (!escaped) return t.slice(start + 1, end - 1);
  return toWellFormed(JSON.parse(t.slice(start, end)) as string);
}

/** The offset just past the array or object that opens at `at` (checked text: brackets match). */
function matchingClose(t: string, at: number): number {
  let depth = 0;
  let i = at;
  for (;;) {
    const c = t.charCodeAt(i++);
    if (c === 0x22) {
      for (;;) {
        const d = t.charCodeAt(i++);
        if (d === 0x22) break;
        if (d === 0x5c) i++;
      }
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i;
  }
}

/** The checked range `[start, end)` read again: one level of nodes (deeper containers lazy), or plain. */
function reread(source: Source, start: number, end: number, mode: Mode): unknown {
  const scanner = new Scanner(source, start, end, Number.POSITIVE_INFINITY, checked, checkedWhere, true);
  return scanner.document(mode, 1);
}

/**
 * An object of a document read lazily: checked, not built. Its members are built on access (one level)
 * and kept while it is among the last {@link KEPT_OBJECTS} built; its plain value is read straight from the
 * text.
 */
class LazyObjectNode implements ObjectNode {
  readonly kind = 'object';
  private built: ReadonlyMap<string, Member> | null = null;

  constructor(
    private readonly source: Source,
    readonly offset: number,
    private readonly end: number,
  ) {}

  get members(): ReadonlyMap<string, Member> {
    if (this.built !== null) return this.built;
    const built = (reread(this.source, this.offset, this.end, NODES) as ObjectNode).members;
    const { kept } = this.source;
    const oldest = kept[this.source.next];
    if (oldest !== undefined) oldest.built = null;
    kept[this.source.next] = this;
    this.source.next = (this.source.next + 1) % KEPT_OBJECTS;
    this.built = built;
    return built;
  }

  [PLAIN_VALUE](): JsonValue {
    return reread(this.source, this.offset, this.end, PLAIN) as JsonValue;
  }
}

/** An array of a document read lazily (see {@link LazyObjectNode}). */
class LazyArrayNode implements ArrayNode {
  readonly kind = 'array';
  private built: readonly Node[] | null = null;

  constructor(
    private readonly source: Source,
    readonly offset: number,
    private readonly end: number,
  ) {}

  get items(): readonly Node[] {
    return (this.built ??= (reread(this.source, this.offset, this.end, NODES) as ArrayNode).items);
  }

  [PLAIN_VALUE](): JsonValue {
    return reread(this.source, this.offset, this.end, PLAIN) as JsonValue;
  }
}
