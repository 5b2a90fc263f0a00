/**
 * Tool name splitting (SPEC §3), as the reference's `splitToolName` and
 * `splitCamelCase` do it: by code point, with Unicode 15.0 letter categories.
 */
import { codePoints, isLower, isUpper } from './text.js';

/**
 * Splits one underscore-free piece at camelCase boundaries: before an upper-case
 * letter that follows a lower-case letter (`camelCase` → `camel`, `Case`), or
 * before an upper-case letter followed by a lower-case letter that is not the
 * first character (`HTMLParser` → `HTML`, `Parser`; `getURL` → `get`, `URL`).
 */
export function splitCamelCase(s: string): string[] {
  return splitAscii(s, false) ?? splitRunes(s);
}

/** {@link splitCamelCase} code point by code point, with Unicode 15.0 letter categories. */
export function splitRunes(s: string): string[] {
  if (s === '') return [];
  const runes = codePoints(s);
  const parts: string[] = [];
  // UTF-16 offset of the current rune, and of the start of the current part.
  let offset = runes[0]! > 0xffff ? 2 : 1;
  let start = 0;
  for (let i = 1; i < runes.length; i++) {
    const r = runes[i]!;
    if (isUpper(r) && (isLower(runes[i - 1]!) || (i + 1 < runes.length && isLower(runes[i + 1]!)))) {
      parts.push(s.slice(start, offset));
      start = offset;
    }
    offset += r > 0xffff ? 2 : 1;
  }
  parts.push(start === 0 ? s : s.slice(start));
  return parts;
}

/**
 * A tool's name parts: the name split on `__` (the MCP server separator), each
 * piece split on `_`, empty pieces dropped, each remaining piece split at
 * camelCase boundaries. Splitting on `__` first changes nothing (every `_`
 * separates, and empty pieces are dropped), so an ASCII name is read in one
 * pass ({@link splitAscii}).
 */
export function splitToolName(name: string): string[] {
  const ascii = splitAscii(name, true);
  if (ascii !== null) return ascii;
  const parts: string[] = [];
  for (const piece of name.split('_')) {
    if (piece === '') continue;
    for (const p of splitRunes(piece)) parts.push(p);
  }
  return parts;
}

const UNDERSCORE = 0x5f;
const isAsciiUpper = (c: number): boolean => c >= 0x41 && c <= 0x5a;
const isAsciiLower = (c: number): boolean => c >= 0x61 && c <= 0x7a;

/**
 * An ASCII string split in one pass over its code units, or null when it has a character above U+007F:
 * at camelCase boundaries ({@link splitCamelCase}, where A–Z and a–z are the only cases), and with
 * `underscores` also on `_`, empty pieces dropped ({@link splitToolName}). A search splits every name of
 * the catalog once per process, before any of this code is optimized: one loop over character codes is
 * several times faster there than splitting with regular expressions.
 */
function splitAscii(s: string, underscores: boolean): string[] | null {
  const parts: string[] = [];
  const n = s.length;
  let start = 0; // where the current part starts
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return null;
    if (underscores && c === UNDERSCORE) {
      if (i > start) parts.push(s.slice(start, i));
      start = i + 1;
    } else if (isAsciiUpper(c) && i > start) {
      // Within a piece, so the characters either side are of the piece (or `_`, or the end: not lower-case).
      if (isAsciiLower(s.charCodeAt(i - 1)) || (i + 1 < n && isAsciiLower(s.charCodeAt(i + 1)))) {
        parts.push(s.slice(start, i));
        start = i;
      }
    }
  }
  if (n > start) parts.push(start === 0 ? s : s.slice(start));
  return parts;
}
