/**
 * JSON with Go `encoding/json` semantics: the reference reads `tool_search`
 * arguments and `{"matches": [...]}` results with `json.Unmarshal` into a
 * struct and writes results with `json.Marshal`. A JavaScript `JSON.parse`
 * accepts and rejects different texts, keeps different duplicates and writes
 * different escapes, so the port has its own.
 *
 * Parsing runs Go's scanner state machine byte by byte over the UTF-8 text, so
 * syntax errors carry Go's exact messages (e.g. `invalid character 'x' looking
 * for beginning of value`, `unexpected end of JSON input`).
 *
 * Over 400 lines: the scanner, the decoder and the encoder are one set of Go semantics, kept together.
 */

/**
 * A parsed JSON value that keeps what Go's decoder needs: object keys in order with duplicates, numbers as their
 * literal text.
 */
export type GoJsonValue =
  | { readonly t: 'null' }
  | { readonly t: 'bool'; readonly v: boolean }
  | { readonly t: 'number'; readonly raw: string }
  | { readonly t: 'string'; readonly v: string }
  | { readonly t: 'array'; readonly items: readonly GoJsonValue[] }
  | { readonly t: 'object'; readonly entries: ReadonlyArray<readonly [string, GoJsonValue]> };

/** Outcome of {@link parseGoJson}: a value, or Go's syntax error text. */
export type GoJsonParse =
  | { readonly ok: true; readonly value: GoJsonValue }
  | { readonly ok: false; readonly error: string };

/** Go's `maxNestingDepth` in encoding/json's scanner. */
export const GO_JSON_MAX_DEPTH = 10000;

const encoder = new TextEncoder();

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isPrintableForQuote(cp: number): boolean {
  // strconv.IsPrint for the Latin-1 range, which is all a single byte can reach.
  if (cp < 0x20 || cp === 0x7f) return false;
  if (cp < 0x7f) return true;
  if (cp < 0xa1) return false; // C1 controls and U+00A0
  return cp !== 0xad; // soft hyphen (Cf)
}

/** Go's `quoteChar`: how the scanner names an offending byte. */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  switch (c) {
    case 0x07:
      return "'\\a'";
    case 0x08:
      return "'\\b'";
    case 0x0c:
      return "'\\f'";
    case 0x0a:
      return "'\\n'";
    case 0x0d:
      return "'\\r'";
    case 0x09:
      return "'\\t'";
    case 0x0b:
      return "'\\v'";
    case 0x5c:
      return "'\\\\'";
  }
  if (isPrintableForQuote(c)) return `'${String.fromCharCode(c)}'`;
  if (c < 0x80) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  return `'\\u${c.toString(16).padStart(4, '0')}'`;
}

/** Decodes plain ASCII runs (any UTF-8 decoder gives the same string for them). */
const ASCII = new TextDecoder();

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/** Decodes the bytes of a string literal body (between the quotes) as Go's `unquote` does. */
function unquoteBytes(b: Uint8Array, start: number, end: number): string {
  let out = '';
  let i = start;
  // Fast path: plain ASCII without escapes.
  let plain = true;
  for (let k = start; k < end; k++) {
    const c = b[k]!;
    if (c === 0x5c || c >= 0x80) {
      plain = false;
      break;
    }
  }
  // ASCII decodes the same in every decoder; the native one is far faster than building the string in JavaScript.
  if (plain) return ASCII.decode(b.subarray(start, end));
  const u4 = (at: number): number => {
    if (at + 6 > end || b[at] !== 0x5c || b[at + 1] !== 0x75) return -1;
    let r = 0;
    for (let k = at + 2; k < at + 6; k++) {
      const h = hexVal(b[k]!);
      if (h < 0) return -1;
      r = r * 16 + h;
    }
    return r;
  };
  while (i < end) {
    const c = b[i]!;
    if (c === 0x5c) {
      const e = b[i + 1]!;
      switch (e) {
        case 0x22:
        case 0x5c:
        case 0x2f:
        case 0x27:
          out += String.fromCharCode(e);
          i += 2;
          continue;
        case 0x62:
          out += '\b';
          i += 2;
          continue;
        case 0x66:
          out += '\f';
          i += 2;
          continue;
        case 0x6e:
          out += '\n';
          i += 2;
          continue;
        case 0x72:
          out += '\r';
          i += 2;
          continue;
        case 0x74:
          out += '\t';
          i += 2;
          continue;
        case 0x75: {
          let r = u4(i);
          i += 6;
          if (r >= 0xd800 && r <= 0xdfff) {
            // A surrogate escape only counts as half of a pair when the next
            // escape completes it; otherwise it becomes U+FFFD (Go's unquote).
            const r2 = u4(i);
            if (r <= 0xdbff && r2 >= 0xdc00 && r2 <= 0xdfff) {
              out += String.fromCharCode(r, r2);
              i += 6;
              continue;
            }
            r = 0xfffd;
          }
          out += String.fromCharCode(r);
          continue;
        }
        default:
          // The scanner rejects other escapes before decoding starts.
          out += String.fromCharCode(e);
          i += 2;
          continue;
      }
    }
    if (c < 0x80) {
      out += String.fromCharCode(c);
      i++;
      continue;
    }
    // Multi-byte UTF-8; each byte of an invalid sequence becomes one U+FFFD (utf8.DecodeRune).
    const [cp, n] = decodeRune(b, i, end);
    out += String.fromCodePoint(cp);
    i += n;
  }
  return out;
}

/** Go's `utf8.DecodeRune`: a code point and its width, or (U+FFFD, 1) for an invalid sequence. */
export function decodeRune(b: Uint8Array, i: number, end: number): [number, number] {
  const c0 = b[i]!;
  if (c0 < 0x80) return [c0, 1];
  const cont = (k: number, lo = 0x80, hi = 0xbf): number => {
    if (k >= end) return -1;
    const c = b[k]!;
    return c >= lo && c <= hi ? c & 0x3f : -1;
  };
  if (c0 >= 0xc2 && c0 <= 0xdf) {
    const c1 = cont(i + 1);
    return c1 < 0 ? [0xfffd, 1] : [((c0 & 0x1f) << 6) | c1, 2];
  }
  if (c0 >= 0xe0 && c0 <= 0xef) {
    const lo = c0 === 0xe0 ? 0xa0 : 0x80;
    const hi = c0 === 0xed ? 0x9f : 0xbf;
    const c1 = cont(i + 1, lo, hi);
    if (c1 < 0) return [0xfffd, 1];
    const c2 = cont(i + 2);
    if (c2 < 0) return [0xfffd, 1];
    return [((c0 & 0x0f) << 12) | (c1 << 6) | c2, 3];
  }
  if (c0 >= 0xf0 && c0 <= 0xf4) {
    const lo = c0 === 0xf0 ? 0x90 : 0x80;
    const hi = c0 === 0xf4 ? 0x8f : 0xbf;
    const c1 = cont(i + 1, lo, hi);
    if (c1 < 0) return [0xfffd, 1];
    const c2 = cont(i + 2);
    if (c2 < 0) return [0xfffd, 1];
    const c3 = cont(i + 3);
    if (c3 < 0) return [0xfffd, 1];
    return [((c0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, 4];
  }
  return [0xfffd, 1];
}

// Parse states of Go's scanner (what the enclosing composite expects next).
const OBJECT_KEY = 0;
const OBJECT_VALUE = 1;
const ARRAY_VALUE = 2;

interface Frame {
  kind: number;
  items?: GoJsonValue[];
  entries?: Array<readonly [string, GoJsonValue]>;
  key?: string;
}

/**
 * Parses one JSON text exactly as Go's `json.Unmarshal` validates it: one
 * value, optional JSON white space around it, nothing else; nesting deeper
 * than 10,000 levels is an error. Errors are Go's `SyntaxError` texts.
 */
export function parseGoJson(input: string | Uint8Array): GoJsonParse {
  const b = typeof input === 'string' ? encoder.encode(input) : input;
  const n = b.length;
  const stack: Frame[] = [];
  let i = 0;
  let result: GoJsonValue | undefined;

  const err = (c: number, context: string): GoJsonParse => ({
    ok: false,
    error: `invalid character ${goQuoteChar(c)} ${context}`,
  });
  const eof = (): GoJsonParse => ({ ok: false, error: 'unexpected end of JSON input' });

  // Completes a value: attaches it to the enclosing composite or makes it the result.
  const emit = (v: GoJsonValue): void => {
    const top = stack[stack.length - 1];
    if (!top) result = v;
    else if (top.kind === ARRAY_VALUE) top.items!.push(v);
    else top.entries!.push([top.key!, v]);
  };

  const skipSpace = (): void => {
    while (i < n && isJsonSpace(b[i]!)) i++;
  };

  // At end of input Go feeds one space to the scanner: a pending literal or
  // number then reports that space as the offending character.
  const atEndInLiteral = (context: string): GoJsonParse => err(0x20, context);

  // Scans a string starting at the opening quote; returns the decoded text or an error.
  const scanString = (): string | GoJsonParse => {
    const start = ++i;
    while (i < n) {
      const c = b[i]!;
      if (c === 0x22) {
        const s = unquoteBytes(b, start, i);
        i++;
        return s;
      }
      if (c === 0x5c) {
        i++;
        if (i >= n) return atEndInLiteral('in string escape code');
        const e = b[i]!;
        if (e === 0x75) {
          for (let k = 0; k < 4; k++) {
            i++;
            if (i >= n) return atEndInLiteral('in \\u hexadecimal character escape');
            if (hexVal(b[i]!) < 0) return err(b[i]!, 'in \\u hexadecimal character escape');
          }
          i++;
          continue;
        }
        if (
          e === 0x62 ||
          e === 0x66 ||
          e === 0x6e ||
          e === 0x72 ||
          e === 0x74 ||
          e === 0x5c ||
          e === 0x2f ||
          e === 0x22
        ) {
          i++;
          continue;
        }
        return err(e, 'in string escape code');
      }
      if (c < 0x20) return err(c, 'in string literal');
      i++;
    }
    return eof();
  };

  // Scans a number; returns its literal text or an error.
  const scanNumber = (): string | GoJsonParse => {
    const start = i;
    if (b[i] === 0x2d) {
      i++;
      if (i >= n) return atEndInLiteral('in numeric literal');
      const c = b[i]!;
      if (c < 0x30 || c > 0x39) return err(c, 'in numeric literal');
    }
    if (b[i] === 0x30) i++;
    else while (i < n && b[i]! >= 0x30 && b[i]! <= 0x39) i++;
    if (i < n && b[i] === 0x2e) {
      i++;
      if (i >= n) return atEndInLiteral('after decimal point in numeric literal');
      if (b[i]! < 0x30 || b[i]! > 0x39) return err(b[i]!, 'after decimal point in numeric literal');
      while (i < n && b[i]! >= 0x30 && b[i]! <= 0x39) i++;
    }
    if (i < n && (b[i] === 0x65 || b[i] === 0x45)) {
      i++;
      if (i < n && (b[i] === 0x2b || b[i] === 0x2d)) i++;
      if (i >= n) return atEndInLiteral('in exponent of numeric literal');
      if (b[i]! < 0x30 || b[i]! > 0x39) return err(b[i]!, 'in exponent of numeric literal');
      while (i < n && b[i]! >= 0x30 && b[i]! <= 0x39) i++;
    }
    let raw = '';
    for (let k = start; k < i; k++) raw += String.fromCharCode(b[k]!);
    return raw;
  };

  const scanLiteral = (word: string, v: GoJsonValue): GoJsonParse | null => {
    for (let k = 1; k < word.length; k++) {
      const expected = word.charCodeAt(k);
      const context = `in literal ${word} (expecting '${word[k]}')`;
      if (i + k >= n) {
        i += k;
        return atEndInLiteral(context);
      }
      if (b[i + k] !== expected) return err(b[i + k]!, context);
    }
    i += word.length;
    emit(v);
    return null;
  };

  // State: expecting the beginning of a value (or, right after '[', possibly ']').
  let expectValue = true;
  let allowEmptyArray = false;

  for (;;) {
    if (expectValue) {
      skipSpace();
      if (i >= n) return eof();
      const c = b[i]!;
      if (allowEmptyArray && c === 0x5d) {
        i++;
        const f = stack.pop()!;
        allowEmptyArray = false;
        expectValue = false;
        emit({ t: 'array', items: f.items! });
        continue;
      }
      allowEmptyArray = false;
      if (c === 0x7b) {
        i++;
        if (stack.length + 1 > GO_JSON_MAX_DEPTH) return err(c, 'exceeded max depth');
        stack.push({ kind: OBJECT_KEY, entries: [] });
        skipSpace();
        if (i >= n) return eof();
        if (b[i] === 0x7d) {
          i++;
          const f = stack.pop()!;
          emit({ t: 'object', entries: f.entries! });
          expectValue = false;
          continue;
        }
        if (b[i] !== 0x22) return err(b[i]!, 'looking for beginning of object key string');
        const key = scanString();
        if (typeof key !== 'string') return key;
        stack[stack.length - 1]!.key = key;
        expectValue = false;
        continue;
      }
      if (c === 0x5b) {
        i++;
        if (stack.length + 1 > GO_JSON_MAX_DEPTH) return err(c, 'exceeded max depth');
        stack.push({ kind: ARRAY_VALUE, items: [] });
        allowEmptyArray = true;
        continue;
      }
      if (c === 0x22) {
        const s = scanString();
        if (typeof s !== 'string') return s;
        emit({ t: 'string', v: s });
        expectValue = false;
        continue;
      }
      if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        const raw = scanNumber();
        if (typeof raw !== 'string') return raw;
        emit({ t: 'number', raw });
        expectValue = false;
        continue;
      }
      let lit: GoJsonParse | null | undefined;
      if (c === 0x74) lit = scanLiteral('true', { t: 'bool', v: true });
      else if (c === 0x66) lit = scanLiteral('false', { t: 'bool', v: false });
      else if (c === 0x6e) lit = scanLiteral('null', { t: 'null' });
      else return err(c, 'looking for beginning of value');
      if (lit) return lit;
      expectValue = false;
      continue;
    }

    // After a value (or after an object key): Go's stateEndValue.
    skipSpace();
    const top = stack[stack.length - 1];
    if (!top) {
      if (i < n) return err(b[i]!, 'after top-level value');
      return { ok: true, value: result! };
    }
    if (i >= n) return eof();
    const c = b[i]!;
    if (top.kind === OBJECT_KEY) {
      if (c !== 0x3a) return err(c, 'after object key');
      i++;
      top.kind = OBJECT_VALUE;
      expectValue = true;
      continue;
    }
    if (top.kind === OBJECT_VALUE) {
      if (c === 0x2c) {
        i++;
        top.kind = OBJECT_KEY;
        skipSpace();
        if (i >= n) return eof();
        if (b[i] !== 0x22) return err(b[i]!, 'looking for beginning of object key string');
        const key = scanString();
        if (typeof key !== 'string') return key;
        top.key = key;
        continue;
      }
      if (c === 0x7d) {
        i++;
        stack.pop();
        emit({ t: 'object', entries: top.entries! });
        continue;
      }
      return err(c, 'after object key:value pair');
    }
    // ARRAY_VALUE
    if (c === 0x2c) {
      i++;
      expectValue = true;
      continue;
    }
    if (c === 0x5d) {
      i++;
      stack.pop();
      emit({ t: 'array', items: top.items! });
      continue;
    }
    return err(c, 'after array element');
  }
}

/**
 * Go's fold of a JSON object key for case-insensitive field matching
 * (`foldName` in encoding/json): ASCII letters upper-cased, every other code
 * point mapped to the smallest member of its `unicode.SimpleFold` orbit.
 * Only the orbits that reach ASCII letters matter for ASCII field names:
 * U+017F `ſ` folds to `S` and U+212A (Kelvin sign) to `K`; every other
 * non-ASCII code point folds to a non-ASCII one (U+0130 and U+0131 are
 * orbits of their own in Go's tables) and so never matches an ASCII field.
 */
export function goFoldKey(key: string): string {
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) out += String.fromCharCode(c - 0x20);
    else if (c === 0x17f) out += 'S';
    else if (c === 0x212a) out += 'K';
    else if (c < 0x80) out += key[i];
    else out += '\u0000'; // marks a non-ASCII fold: cannot equal an ASCII field name
  }
  return out;
}

/** The JSON type name Go's `UnmarshalTypeError` reports for a value. */
export function goJsonKind(v: GoJsonValue): string {
  switch (v.t) {
    case 'null':
      return 'null';
    case 'bool':
      return 'bool';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'array':
      return 'array';
    case 'object':
      return 'object';
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's `strconv.ParseInt(s, 10, 64)` on a JSON number literal: an integer, or null when Go would fail. */
export function parseGoInt64(raw: string): bigint | null {
  if (!/^-?(0|[1-9][0-9]*)$/.test(raw)) return null;
  const v = BigInt(raw);
  return v < INT64_MIN || v > INT64_MAX ? null : v;
}

const HEX = '0123456789abcdef';

/**
 * Go's `json.Marshal` of a string: HTML-safe escapes for `<`, `>`, `&`,
 * `\u2028`/`\u2029` escaped, `\b \f \n \r \t` short escapes (Go 1.22+),
 * other control characters as `\u00XX`, invalid UTF-16 as `\ufffd`.
 */
export function goMarshalString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && c !== 0x3c && c !== 0x3e && c !== 0x26 && c < 0x7f) {
      out += s[i];
      continue;
    }
    switch (c) {
      case 0x22:
        out += '\\"';
        continue;
      case 0x5c:
        out += '\\\\';
        continue;
      case 0x08:
        out += '\\b';
        continue;
      case 0x0c:
        out += '\\f';
        continue;
      case 0x0a:
        out += '\\n';
        continue;
      case 0x0d:
        out += '\\r';
        continue;
      case 0x09:
        out += '\\t';
        continue;
    }
    if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26) {
      out += '\\u00' + HEX[c >> 4] + HEX[c & 0xf];
      continue;
    }
    if (c === 0x2028 || c === 0x2029) {
      out += c === 0x2028 ? '\\u2028' : '\\u2029';
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
      } else {
        out += '\\ufffd';
      }
      continue;
    }
    out += s[i];
  }
  return out + '"';
}
