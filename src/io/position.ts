/**
 * Positions in input text: offsets (UTF-16 indexes into the decoded text) to
 * 1-based line and column, and the caret excerpt shown under an error.
 *
 * Lines break at `\n`, `\r\n` and a lone `\r` (as `caretExcerpt` splits them).
 * Columns count code points, so a character above U+FFFF is one column and
 * the caret lines up under it.
 */
import { caretExcerpt } from './errors.js';

/** Offset → line and column, built once per text (line starts found lazily). */
export class LineIndex {
  private starts: number[] | null = null;
  /**
   * Last column computed (offset and its code-point count from the line start): positions are mostly asked in order,
   * and a minified file is one very long line.
   */
  private memo = { lineStart: -1, offset: 0, count: 0 };

  constructor(readonly text: string) {}

  private lineStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = [0];
    // The runtime's own search finds the breaks (a first run reads a catalog in code not yet compiled, where a
    // loop over every character is slow): `\r\n` is one break, a lone `\r` or `\n` another.
    const breaks = /\r\n?|\n/g;
    for (let m = breaks.exec(this.text); m !== null; m = breaks.exec(this.text)) starts.push(m.index + m[0].length);
    this.starts = starts;
    return starts;
  }

  /** 1-based line and column (in code points) of `offset`. */
  position(offset: number): { line: number; column: number; lineStart: number } {
    const starts = this.lineStarts();
    const off = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= off) lo = mid;
      else hi = mid - 1;
    }
    const lineStart = starts[lo]!;
    const m = this.memo;
    let count: number;
    if (m.lineStart === lineStart && off >= m.offset) count = m.count + codePointCount(this.text, m.offset, off);
    else count = codePointCount(this.text, lineStart, off);
    // Never memoize inside a surrogate pair.
    if (off === 0 || !isLowSurrogate(this.text.charCodeAt(off))) this.memo = { lineStart, offset: off, count };
    return { line: lo + 1, column: count + 1, lineStart };
  }

  /**
   * The offset at 1-based `line` and `column` (in code points): the inverse
   * of {@link position} for an offset that is not inside a surrogate pair.
   */
  offsetAt(line: number, column: number): number {
    const starts = this.lineStarts();
    const t = this.text;
    let i = starts[Math.max(0, Math.min(line, starts.length) - 1)]!;
    for (let n = 1; n < column && i < t.length; n++) {
      const c = t.charCodeAt(i);
      // A high surrogate followed by a low one is one code point.
      i += c >= 0xd800 && c <= 0xdbff && i + 1 < t.length && isLowSurrogate(t.charCodeAt(i + 1)) ? 2 : 1;
    }
    return i;
  }

  /** The text of the line that starts at `lineStart`, without its line break. */
  lineAt(lineStart: number): string {
    const t = this.text;
    let end = lineStart;
    while (end < t.length) {
      const c = t.charCodeAt(end);
      if (c === 0x0a || c === 0x0d) break;
      end++;
    }
    return t.slice(lineStart, end);
  }
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function codePointCount(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Longest excerpt line shown; longer lines are cut around the caret. */
const EXCERPT_WIDTH = 120;

/**
 * The excerpt for a position: `line` (one line of text) and a caret under the
 * character at UTF-16 index `index` in it. A long line (a minified JSON file is
 * one line) is cut to a window around the caret, marked with `…`.
 */
export function excerptAt(line: string, index: number): string {
  const at = Math.max(0, Math.min(index, line.length));
  // Work on a window of the line around the caret, never on the whole of a huge line.
  let from = Math.max(0, at - EXCERPT_WIDTH * 2);
  if (from > 0 && isLowSurrogate(line.charCodeAt(from))) from--;
  let to = Math.min(line.length, at + EXCERPT_WIDTH * 2);
  if (to < line.length && isLowSurrogate(line.charCodeAt(to))) to++;
  const cps = Array.from(line.slice(from, to));
  const col = codePointCount(line, from, at); // caret index within `cps`
  const cutBefore = from > 0;
  const cutAfter = to < line.length;
  if (!cutBefore && !cutAfter && cps.length <= EXCERPT_WIDTH) return caretExcerpt(line, 1, col + 1);
  const half = EXCERPT_WIDTH >> 1;
  const start = Math.max(0, Math.min(col - half, cps.length - EXCERPT_WIDTH));
  const end = Math.min(cps.length, start + EXCERPT_WIDTH);
  const head = cutBefore || start > 0 ? '…' : '';
  const tail = cutAfter || end < cps.length ? '…' : '';
  return caretExcerpt(head + cps.slice(start, end).join('') + tail, 1, col - start + head.length + 1);
}
