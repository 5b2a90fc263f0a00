/**
 * Positions in input text: offsets (UTF-16 indexes into the decoded text) to
 * 1-based line and column, and the caret excerpt shown under an error.
 *
 * Lines break at `\n`, `\r\n` and a lone `\r` (as `caretExcerpt` splits them).
 * Columns count code points, so a character above U+FFFF is one column and
 * the caret lines up under it.
 */
import { caretExcerpt } from '../errors.js';

/** Offset → line and column, built once per text (line starts found lazily). */
export class LineIndex {
  private starts: number[] | null = null;

  constructor(readonly text: string) {}

  private lineStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = [0];
    const t = this.text;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 0x0a) starts.push(i + 1);
      else if (c === 0x0d) {
        if (t.charCodeAt(i + 1) === 0x0a) i++;
        starts.push(i + 1);
      }
    }
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
    return { line: lo + 1, column: codePointCount(this.text, lineStart, off) + 1, lineStart };
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
  const cps = Array.from(line);
  const col = codePointCount(line, 0, Math.min(index, line.length));
  if (cps.length <= EXCERPT_WIDTH) return caretExcerpt(line, 1, col + 1);
  const half = EXCERPT_WIDTH >> 1;
  const from = Math.max(0, Math.min(col - half, cps.length - EXCERPT_WIDTH));
  const to = Math.min(cps.length, from + EXCERPT_WIDTH);
  const head = from > 0 ? '…' : '';
  const shown = head + cps.slice(from, to).join('') + (to < cps.length ? '…' : '');
  return caretExcerpt(shown, 1, col - from + head.length + 1);
}
