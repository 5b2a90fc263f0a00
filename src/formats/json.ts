/**
 * A strict JSON reader (RFC 8259) that keeps positions, rejects duplicate
 * keys and bounds nesting. `JSON.parse` gives neither positions nor
 * duplicates, and it recurses without a limit.
 *
 * String escapes follow Go's decoder: a lone surrogate escape such as
 * `\ud800` becomes U+FFFD, so every string is well-formed.
 */
import { toWellFormed } from '../core/text.js';
import type { ArrayNode, Member, Node, ObjectNode } from './nodes.js';

/** Raised through `fail`: offset of the problem and its message. */
export type Fail = (offset: number, message: string) => never;

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

class JsonReader {
  private pos: number;

  constructor(
    private readonly text: string,
    start: number,
    private readonly end: number,
    private readonly maxDepth: number,
    private readonly fail: Fail,
    private readonly where: (offset: number) => string,
  ) {
    this.pos = start;
  }

  document(): Node {
    this.skipWs();
    if (this.pos >= this.end) this.fail(this.pos, 'invalid JSON: unexpected end of input');
    const v = this.value(0);
    this.skipWs();
    if (this.pos < this.end) this.fail(this.pos, `invalid JSON: unexpected ${describeChar(this.text, this.pos)} after the value`);
    return v;
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
        return this.object(depth + 1);
      case 0x5b: // [
        return this.array(depth + 1);
      case 0x22: // "
        return { kind: 'string', offset, value: this.string() };
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
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        return this.unexpected('a value');
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

  private number(): Node {
    const t = this.text;
    const start = this.pos;
    const digit = (): boolean => this.pos < this.end && t.charCodeAt(this.pos) >= 0x30 && t.charCodeAt(this.pos) <= 0x39;
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
    const raw = t.slice(start, this.pos);
    return { kind: 'number', offset: start, value: Number(raw), raw };
  }

  private string(): string {
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
          if (this.pos + 4 > this.end || !isHex4(t, this.pos)) this.fail(escAt, 'invalid JSON: invalid \\u escape in a string');
          this.pos += 4;
          break;
        default:
          this.fail(escAt, `invalid JSON: invalid escape \\${e > 0x20 && e < 0x7f ? String.fromCharCode(e) : describeChar(t, this.pos - 1)} in a string`);
      }
    }
    this.pos++; // closing quote
    if (!escaped) return t.slice(start + 1, this.pos - 1);
    // The literal is valid JSON (checked above): the native decoder is exact and fast.
    // A lone surrogate escape then becomes U+FFFD, as Go's decoder does.
    return toWellFormed(JSON.parse(t.slice(start, this.pos)) as string);
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
      const key = this.string();
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
}

/** The message for a key that occurs twice in one object (located at the second occurrence). */
export function duplicateKeyMessage(key: string, firstAt: string): string {
  return `duplicate key ${JSON.stringify(key)} (first at ${firstAt})`;
}

/**
 * Parses exactly one JSON value in `text[start, end)`; anything else is
 * reported through `fail`. `where` names an offset (`line:column`) for the
 * duplicate-key message.
 */
export function parseJsonValue(
  text: string,
  start: number,
  end: number,
  maxDepth: number,
  fail: Fail,
  where: (offset: number) => string,
): Node {
  return new JsonReader(text, start, end, maxDepth, fail, where).document();
}
