/**
 * Go-compatible text primitives (SPEC §5).
 *
 * The reference is Go code; JavaScript's built-in string functions differ from
 * Go's in white space, lower-casing, code units and ordering. Everything in the
 * port that touches text goes through this module.
 *
 * Lone UTF-16 surrogates (which cannot occur in a Go string: Go's decoders turn
 * them into U+FFFD) are treated as code points of their own; the loaders
 * replace them with U+FFFD before text reaches the core.
 */
import { lowerRanges, toLowerRuns, upperRanges } from './unicode-tables.js';

/**
 * Go's `unicode.IsSpace`: `\t \n \v \f \r`, space, U+0085, U+00A0, and the
 * Unicode White_Space characters above Latin-1. Not U+FEFF (JavaScript's `\s`
 * includes it) and U+0085 is included (JavaScript's `\s` does not).
 */
export function isGoSpace(cp: number): boolean {
  if (cp <= 0xff) {
    return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || cp === 0x85 || cp === 0xa0;
  }
  return (
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

/** All white space code points of {@link isGoSpace}, for tests and generators. */
export const GO_SPACE_CODE_POINTS: readonly number[] = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
];

function inRanges(table: readonly number[], cp: number): boolean {
  // Binary search over inclusive [lo, hi] pairs.
  let lo = 0;
  let hi = table.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const a = table[mid * 2]!;
    const b = table[mid * 2 + 1]!;
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Go's `unicode.IsUpper`: general category Lu (Unicode 15.0.0). */
export function isUpper(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a;
  return inRanges(upperRanges(), cp);
}

/** Go's `unicode.IsLower`: general category Ll (Unicode 15.0.0). */
export function isLower(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x61 && cp <= 0x7a;
  return inRanges(lowerRanges(), cp);
}

/** Go's `unicode.ToLower` for one code point: simple mapping, never changes length, no context. */
export function toLowerCodePoint(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 0x20 : cp;
  const runs = toLowerRuns();
  let lo = 0;
  let hi = runs.length / 4 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const a = runs[mid * 4]!;
    const b = runs[mid * 4 + 1]!;
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else {
      const stride = runs[mid * 4 + 3]!;
      return (cp - a) % stride === 0 ? cp + runs[mid * 4 + 2]! : cp;
    }
  }
  return cp;
}

function isAsciiLowerOnly(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || (c >= 0x41 && c <= 0x5a)) return false;
  }
  return true;
}

/**
 * Go's `strings.ToLower`: each code point mapped on its own by the simple
 * lower-case mapping. Unlike `String.prototype.toLowerCase`, `İ` becomes `i`
 * (not two code points) and a word-final `Σ` becomes `σ` (not `ς`).
 */
export function goToLower(s: string): string {
  if (isAsciiLowerOnly(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    out += String.fromCodePoint(toLowerCodePoint(cp));
    i += cp > 0xffff ? 2 : 1;
  }
  return out;
}

/** The code points of `s` (a character above U+FFFF is one element, as a Go rune). */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    out.push(cp);
    i += cp > 0xffff ? 2 : 1;
  }
  return out;
}

/** Go's `strings.TrimSpace`, with Go's white space set. */
export function goTrimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end) {
    const cp = s.charCodeAt(start);
    // Every Go space is in the BMP, so code units suffice here.
    if (!isGoSpace(cp)) break;
    start++;
  }
  while (end > start) {
    const cp = s.charCodeAt(end - 1);
    if (!isGoSpace(cp)) break;
    end--;
  }
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Go's `strings.Fields`: the non-empty runs between Go white space. */
export function goFields(s: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    // Surrogates are never white space, so scanning code units is exact.
    if (isGoSpace(s.charCodeAt(i))) {
      if (start >= 0) {
        out.push(s.slice(start, i));
        start = -1;
      }
    } else if (start < 0) {
      start = i;
    }
  }
  if (start >= 0) out.push(s.slice(start));
  return out;
}

function fixUnit(u: number): number {
  // Maps UTF-16 code units so that their numeric order equals code point order:
  // surrogates (U+D800..U+DFFF, which encode code points above U+FFFF) move
  // above U+E000..U+FFFF.
  if (u >= 0xe000) return u - 0x800;
  if (u >= 0xd800) return u + 0x2000;
  return u;
}

/**
 * Go string comparison: byte-wise UTF-8 order, which is code point order.
 * JavaScript's `<` compares UTF-16 code units and puts U+10000.. before U+E000..U+FFFF.
 */
export function compareGo(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixUnit(x) - fixUnit(y);
  }
  return a.length - b.length;
}

/** ES2024's well-formed string methods (Node ≥ 20), absent from the ES2023 library types. */
interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/** Whether `s` has no lone UTF-16 surrogate (what a Go string can hold). */
export function isWellFormed(s: string): boolean {
  return (s as unknown as WellFormedString).isWellFormed();
}

/** Replaces lone UTF-16 surrogates with U+FFFD, as Go's decoders would have done. */
export function toWellFormed(s: string): string {
  return isWellFormed(s) ? s : (s as unknown as WellFormedString).toWellFormed();
}
