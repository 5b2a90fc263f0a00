/**
 * A strict JSON reader (RFC 8259) that keeps positions, rejects duplicate
 * keys and bounds nesting. `JSON.parse` gives neither positions nor
 * duplicates, and it recurses without a limit.
 *
 * String escapes follow Go's decoder: a lone surrogate escape such as
 * `\ud800` becomes U+FFFD, so every string is well-formed.
 *
 * Large documents are read lazily. A positioned node costs about ten times
 * the text it stands for, and most of a large catalog (its tools' JSON
 * Schemas) is only ever turned into plain values. So a value longer than
 * {@link LAZY_TEXT_LENGTH} characters is first *checked* whole — syntax,
 * duplicate keys at any depth and nesting, every error exactly where and as
 * a full parse reports it — and its arrays and objects become lazy nodes:
 * a lazy node keeps its text range, builds its members or items on first
 * access (and keeps them), and its plain value (`toJsonValue`) is read
 * straight from the text without building nodes. Readers that visit many
 * large siblings once each (a catalog's tools) use `transientObject` and
 * `eachItem` (nodes.ts), which build without keeping. Smaller values are
 * built whole in one pass.
 *
 * Why a reader of our own (and why this file is over 400 lines): the
 * maintained parsers with positions were measured on the benchmark's
 * 100,000-tool catalog (46 MB; parse only, fresh process each, Node 20, the
 * machine under load): this reader 0.86–1.2 s and 182 MB peak RSS;
 * jsonc-parser 3.3.1's visitor building positioned nodes 5.7–7.6 s, 465 MB;
 * @humanwhocodes/momoa 3.3.13 (its AST with ranges) 22–31 s, 1.4 GB. Both are
 * past the 1.2× bound of issue 15, mostly because they build every node, and
 * neither checks duplicate keys or bounds nesting while it reads.
 */
import { toWellFormed } from '../core/text.js';
import type { JsonValue } from '../core/types.js';
import {
  type ArrayNode,
  EACH_ITEM,
  type Member,
  type Node,
  nullObject,
  type ObjectNode,
  PLAIN_VALUE,
  TRANSIENT,
} from './nodes.js';

/** Raised through `fail`: offset of the problem and its message. */
export type Fail = (offset: number, message: string) => never;

/** Values up to this many characters (4 Mi) are built whole while parsing; longer ones lazily (see above). */
export const LAZY_TEXT_LENGTH = 4 * 1024 * 1024;

let lazyTextLength = LAZY_TEXT_LENGTH;

/**
 * Sets the length above which values are read lazily (0: every array and
 * object), returning the previous one. For tests, which run the readers on
 * small documents read both ways.
 */
export function setLazyTextLength(length: number): number {
  const previous = lazyTextLength;
  lazyTextLength = length;
  return previous;
}

/** How an unexpected character is named in messages: `'x'` for printable ASCII, else `U+XXXX`. */
export function describeChar(text: string, offset: number): string {
  if (offset >= text.length) return 'end of input';
  const cp = text.codePointAt(offset)!;
  if (cp > 0x20 && cp < 0x7f) return `'${String.fromCharCode(cp)}'`;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

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

/** Keys of one object checked by a linear search; more go into a `Map`. */
const MANY_KEYS = 16;

class JsonReader {
  private readonly text: string;
  private pos: number;
  /** Keys (and their offsets) of the objects being checked by `checkObject`, outermost first, below `keyTop`. */
  private readonly keyStack: string[] = [];
  private readonly keyOffsetStack: number[] = [];
  private keyTop = 0;

  /**
   * @param source the text, shared with the lazy nodes made here.
   * @param eagerDepth arrays and objects nested deeper than this (the
   *   outermost is at depth 1) become lazy nodes.
   * @param trusted the text range was checked already (a lazy node's):
   *   lazy nodes are made by bracket matching instead of checking again.
   */
  constructor(
    private readonly source: Source,
    start: number,
    private readonly end: number,
    private readonly maxDepth: number,
    private readonly fail: Fail,
    private readonly where: (offset: number) => string,
    private readonly eagerDepth: number,
    private readonly trusted: boolean,
  ) {
    this.text = source.text;
    this.pos = start;
  }

  document(): Node {
    this.skipWs();
    if (this.pos >= this.end) this.fail(this.pos, 'invalid JSON: unexpected end of input');
    const v = this.value(0);
    this.skipWs();
    if (this.pos < this.end)
      this.fail(this.pos, `invalid JSON: unexpected ${describeChar(this.text, this.pos)} after the value`);
    return v;
  }

  /** The items of the (checked) array at `pos`, built one at a time as {@link array} builds them. */
  *eachItem(): Generator<Node, void, undefined> {
    this.pos++;
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 0x5d) return;
    for (;;) {
      this.skipWs();
      yield this.value(1);
      this.skipWs();
      if (this.text.charCodeAt(this.pos++) !== 0x2c) return;
    }
  }

  private skipWs(): void {
    while (this.pos < this.end && isWs(this.text.charCodeAt(this.pos))) this.pos++;
  }

  private unexpected(expected: string): never {
    if (this.pos >= this.end) this.fail(this.pos, 'invalid JSON: unexpected end of input');
    return this.fail(this.pos, `invalid JSON: expected ${expected}, found ${describeChar(this.text, this.pos)}`);
  }

  private value(depth: number): Node {
    const offset = this.pos;
    const c = this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
    switch (c) {
      case 0x7b: // {
        if (depth + 1 > this.eagerDepth) {
          this.skipContainer(depth + 1);
          return new LazyObjectNode(this.source, offset, this.pos);
        }
        return this.object(depth + 1);
      case 0x5b: // [
        if (depth + 1 > this.eagerDepth) {
          this.skipContainer(depth + 1);
          return new LazyArrayNode(this.source, offset, this.pos);
        }
        return this.array(depth + 1);
      case 0x22: // "
        return { kind: 'string', offset, value: this.string(true) };
      case 0x74: // t
        this.literal('true');
        return { kind: 'bool', offset, value: true };
      case 0x66: // f
        this.literal('false');
        return { kind: 'bool', offset, value: false };
      case 0x6e: // n
        this.literal('null');
        return { kind: 'null', offset };
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          this.scanNumber();
          const raw = this.text.slice(offset, this.pos);
          return { kind: 'number', offset, value: Number(raw), raw };
        }
        return this.unexpected('a value');
    }
  }

  /** Moves past the array or object at `pos` (at nesting level `depth`), checking it unless trusted. */
  private skipContainer(depth: number): void {
    if (this.trusted) this.pos = matchingClose(this.text, this.pos);
    else if (this.text.charCodeAt(this.pos) === 0x7b) this.checkObject(depth);
    else this.checkArray(depth);
  }

  /** Checks a value without building it: the same checks, in the same order, as {@link value}. */
  private checkValue(depth: number): void {
    const c = this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
    switch (c) {
      case 0x7b: // {
        this.checkObject(depth + 1);
        return;
      case 0x5b: // [
        this.checkArray(depth + 1);
        return;
      case 0x22: // "
        this.string(false);
        return;
      case 0x74: // t
        this.literal('true');
        return;
      case 0x66: // f
        this.literal('false');
        return;
      case 0x6e: // n
        this.literal('null');
        return;
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          this.scanNumber();
          return;
        }
        this.unexpected('a value');
    }
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
        default:
          this.fail(
            escAt,
            `invalid JSON: invalid escape ` +
              `\\${e > 0x20 && e < 0x7f ? String.fromCharCode(e) : describeChar(t, this.pos - 1)} in a string`,
          );
      }
    }
    this.pos++; // closing quote
    if (!decode) return '';
    return decodeString(t, start, this.pos, escaped);
  }

  private checkDepth(depth: number, offset: number): void {
    if (depth > this.maxDepth) this.fail(offset, `nesting deeper than ${this.maxDepth} levels`);
  }

  private array(depth: number): ArrayNode {
    const offset = this.pos;
    this.checkDepth(depth, offset);
    this.pos++;
    const items: Node[] = [];
    this.skipWs();
    if (this.pos < this.end && this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return { kind: 'array', offset, items };
    }
    for (;;) {
      this.skipWs();
      items.push(this.value(depth));
      this.skipWs();
      const c = this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x5d) {
        this.pos++;
        return { kind: 'array', offset, items };
      }
      this.unexpected("',' or ']'");
    }
  }

  /** {@link array} without building anything. */
  private checkArray(depth: number): void {
    const offset = this.pos;
    this.checkDepth(depth, offset);
    this.pos++;
    this.skipWs();
    if (this.pos < this.end && this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipWs();
      this.checkValue(depth);
      this.skipWs();
      const c = this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x5d) {
        this.pos++;
        return;
      }
      this.unexpected("',' or ']'");
    }
  }

  private object(depth: number): ObjectNode {
    const offset = this.pos;
    this.checkDepth(depth, offset);
    this.pos++;
    const members = new Map<string, Member>();
    this.skipWs();
    if (this.pos < this.end && this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return { kind: 'object', offset, members };
    }
    for (;;) {
      this.skipWs();
      if (this.pos >= this.end || this.text.charCodeAt(this.pos) !== 0x22) this.unexpected('a string key');
      const keyOffset = this.pos;
      const key = this.string(true);
      const first = members.get(key);
      if (first) this.fail(keyOffset, duplicateKeyMessage(key, this.where(first.keyOffset)));
      this.skipWs();
      if (this.pos >= this.end || this.text.charCodeAt(this.pos) !== 0x3a) this.unexpected("':'");
      this.pos++;
      this.skipWs();
      const value = this.value(depth);
      members.set(key, { key, keyOffset, value });
      this.skipWs();
      const c = this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x7d) {
        this.pos++;
        return { kind: 'object', offset, members };
      }
      this.unexpected("',' or '}'");
    }
  }

  /**
   * {@link object} without building anything. Keys are still decoded, to
   * find duplicates: those of the objects being checked are kept on one
   * shared stack (most objects are small: a linear search, no allocation),
   * with a `Map` only for an object of many keys.
   */
  private checkObject(depth: number): void {
    const offset = this.pos;
    this.checkDepth(depth, offset);
    this.pos++;
    this.skipWs();
    if (this.pos < this.end && this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return;
    }
    const keys = this.keyStack;
    const offsets = this.keyOffsetStack;
    // This object's keys are keys[base, top); nested objects use the stack above and leave `keyTop` as they found it.
    const base = this.keyTop;
    let many: Map<string, number> | null = null;
    for (;;) {
      this.skipWs();
      if (this.pos >= this.end || this.text.charCodeAt(this.pos) !== 0x22) this.unexpected('a string key');
      const keyOffset = this.pos;
      const key = this.string(true);
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
      this.skipWs();
      if (this.pos >= this.end || this.text.charCodeAt(this.pos) !== 0x3a) this.unexpected("':'");
      this.pos++;
      this.skipWs();
      this.checkValue(depth);
      this.skipWs();
      const c = this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x7d) {
        this.pos++;
        this.keyTop = base;
        return;
      }
      this.unexpected("',' or '}'");
    }
  }
}

/**
 * The value of the (checked) string literal `t[start, end)`, quotes included.
 * Without escapes it is the text between the quotes; with escapes the native
 * decoder is exact and fast, and a lone surrogate escape then becomes U+FFFD,
 * as Go's decoder does.
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

/** The text a lazy node reads from, and the short strings already read from it (see {@link plainValue}). */
interface Source {
  readonly text: string;
  readonly strings: Map<string, string>;
}

/** Strings up to this length are shared between the plain values of one text (`"string"`, `"object"`, …). */
const SHARED_STRING_LENGTH = 12;
/** At most this many distinct shared strings per text. */
const MAX_SHARED_STRINGS = 10_000;

/**
 * A lazy container that is built to be kept (a reader walks into it) and
 * spans at most this many characters is built whole: its nested containers
 * would be walked into too (a transcript's messages), and building them now
 * saves scanning the text again for each level.
 */
const BUILD_WHOLE_SPAN = 64 * 1024;

/**
 * Builds the checked container `text[start, end)`: one level (deeper
 * containers are lazy again), or all of it when it is kept and small.
 */
function materialize(source: Source, start: number, end: number, kept: boolean): Node {
  const depth = kept && end - start <= Math.min(BUILD_WHOLE_SPAN, lazyTextLength) ? Number.POSITIVE_INFINITY : 1;
  return new JsonReader(source, start, end, Number.POSITIVE_INFINITY, checked, checkedWhere, depth, true).document();
}

/**
 * An array or object of a value read lazily: checked, not built. Its members
 * (items) are built on first access and kept, or built for one pass without
 * being kept ({@link TRANSIENT}, {@link EACH_ITEM}); its plain value is read
 * straight from the text.
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
    return (this.built ??= (materialize(this.source, this.offset, this.end, true) as ObjectNode).members);
  }

  [TRANSIENT](): ObjectNode {
    return this.built !== null ? this : (materialize(this.source, this.offset, this.end, false) as ObjectNode);
  }

  [PLAIN_VALUE](): JsonValue {
    return plainValue(this.source, this.offset, this.end);
  }
}

/** See {@link LazyObjectNode}. */
class LazyArrayNode implements ArrayNode {
  readonly kind = 'array';
  private built: readonly Node[] | null = null;

  constructor(
    private readonly source: Source,
    readonly offset: number,
    private readonly end: number,
  ) {}

  get items(): readonly Node[] {
    return (this.built ??= (materialize(this.source, this.offset, this.end, true) as ArrayNode).items);
  }

  [EACH_ITEM](): Iterable<Node> {
    if (this.built !== null) return this.built;
    return new JsonReader(
      this.source,
      this.offset,
      this.end,
      Number.POSITIVE_INFINITY,
      checked,
      checkedWhere,
      1,
      true,
    ).eachItem();
  }

  [PLAIN_VALUE](): JsonValue {
    return plainValue(this.source, this.offset, this.end);
  }
}

type PlainObject = { [key: string]: JsonValue };

/**
 * The plain value of the checked JSON text `t[start, end)`, exactly as
 * `toJsonValue` gives it for the positioned nodes of the same text: objects
 * without a prototype, members in document order, strings decoded as
 * {@link decodeString} does, numbers as `Number(literal)`. Arrays are made
 * at their final length, and short strings are shared (see {@link Source}),
 * as `JSON.parse` does. No recursion, so any nesting the parser accepted is read.
 */
function plainValue(source: Source, start: number, end: number): JsonValue {
  const t = source.text;
  const shared = source.strings;
  let i = start;
  // Open containers, innermost last: an object being filled (with the key
  // whose value is read in `keys`), or for an array the index in `items`
  // where its values start.
  const open: Array<PlainObject | number> = [];
  const keys: string[] = [];
  const items: JsonValue[] = [];
  const ws = (): void => {
    while (i < end && isWs(t.charCodeAt(i))) i++;
  };
  const readString = (): string => {
    const s = i;
    i++;
    let escaped = false;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        i += 2;
      } else i++;
    }
    i++;
    return decodeString(t, s, i, escaped);
  };
  /** After `{` or `,` in an object: the key and its colon. */
  const readKey = (): void => {
    ws();
    keys[keys.length - 1] = readString();
    ws();
    i++; // ':'
  };
  for (;;) {
    ws();
    let value: JsonValue;
    const c = t.charCodeAt(i);
    if (c === 0x7b) {
      i++;
      ws();
      const obj = nullObject<JsonValue>();
      if (t.charCodeAt(i) === 0x7d) {
        i++;
        value = obj;
      } else {
        open.push(obj);
        keys.push('');
        readKey();
        continue;
      }
    } else if (c === 0x5b) {
      i++;
      ws();
      if (t.charCodeAt(i) === 0x5d) {
        i++;
        value = [];
      } else {
        open.push(items.length);
        keys.push('');
        continue;
      }
    } else if (c === 0x22) {
      value = readString();
      if (value.length <= SHARED_STRING_LENGTH) {
        const known = shared.get(value);
        if (known !== undefined) value = known;
        else if (shared.size < MAX_SHARED_STRINGS) shared.set(value, value);
      }
    } else if (c === 0x74) {
      i += 4;
      value = true;
    } else if (c === 0x66) {
      i += 5;
      value = false;
    } else if (c === 0x6e) {
      i += 4;
      value = null;
    } else {
      const s = i;
      i++;
      for (;;) {
        const d = t.charCodeAt(i);
        // Digits, `.`, `e`/`E`, `+`, `-`: what a checked number is made of.
        if ((d >= 0x30 && d <= 0x39) || d === 0x2e || (d | 0x20) === 0x65 || d === 0x2b || d === 0x2d) i++;
        else break;
      }
      value = Number(t.slice(s, i));
    }
    // Store the value, then close every container that ends here.
    for (;;) {
      const top = open[open.length - 1];
      if (top === undefined) return value;
      if (typeof top === 'number') items.push(value);
      else top[keys[keys.length - 1]!] = value;
      ws();
      if (t.charCodeAt(i++) === 0x2c) {
        if (typeof top !== 'number') readKey();
        break;
      }
      // `]` or `}`: the container is complete, and is the value stored next.
      open.pop();
      keys.pop();
      if (typeof top === 'number') {
        value = items.slice(top);
        items.length = top;
      } else value = top;
    }
  }
}

/** The message for a key that occurs twice in one object (located at the second occurrence). */
export function duplicateKeyMessage(key: string, firstAt: string): string {
  return `duplicate key ${JSON.stringify(key)} (first at ${firstAt})`;
}

/**
 * Parses exactly one JSON value in `text[start, end)`; anything else is
 * reported through `fail`. `where` names an offset (`line:column`) for the
 * duplicate-key message. The whole range is checked either way; `lazy`
 * (by default: when the range is longer than {@link LAZY_TEXT_LENGTH}, see
 * {@link setLazyTextLength}) makes its arrays and objects lazy nodes.
 */
export function parseJsonValue(
  text: string,
  start: number,
  end: number,
  maxDepth: number,
  fail: Fail,
  where: (offset: number) => string,
  lazy: boolean = end - start > lazyTextLength,
): Node {
  const source: Source = { text, strings: new Map() };
  return new JsonReader(
    source,
    start,
    end,
    maxDepth,
    fail,
    where,
    lazy ? 0 : Number.POSITIVE_INFINITY,
    false,
  ).document();
}
