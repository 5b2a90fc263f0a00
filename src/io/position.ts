/**
 * Positions in input text: offsets (UTF-16 indexes into the decoded text) to
 * 1-based line and column, and the caret excerpt shown under an error.
 *
 * Lines break at `\n`, `\r\n` and a lone `\r` (as `caretExcerpt` splits them).
 * Columns count code points, so a character above U+FFFF is one column and
 * the caret lines up under it.
 */
import { caretExcerpt } from './errors.js';

/**
 * Offset → line and column, built once per text (line starts and code-point checkpoints made lazily, each in one
 * pass). A position costs a binary search and at most {@link CHECKPOINT} characters, whatever the order positions are
 * asked in and however long the line: a minified file is one line, and recounting a column from its start made
 * reading one with a warning per tool quadratic (issue 27, finding 2).
 */
export class LineIndex {
  private starts: number[] | null = null;
  /**
   * `pairs[k]`: the surrogate pairs whose low half is at an offset below `k * CHECKPOINT`; null for a text without
   * any (a column is then a difference of offsets); undefined until first needed.
   */
  private pairs: Int32Array | null | undefined = undefined;

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

  private pairIndex(): Int32Array | null {
    if (this.pairs !== undefined) return this.pairs;
    const t = this.text;
    const pair = /[\ud800-\udbff][\udc00-\udfff]/g;
    let m = pair.exec(t);
    if (m === null) return (this.pairs = null);
    const out = new Int32Array(Math.floor(t.length / CHECKPOINT) + 2);
    // Counted in the block after the one holding the low half, then summed.
    for (; m !== null; m = pair.exec(t)) out[Math.floor((m.index + 1) / CHECKPOINT) + 1]!++;
    for (let k = 1; k < out.length; k++) out[k]! += out[k - 1]!;
    this.pairs = out;
    return out;
  }

  /** Surrogate pairs whose low half is at an offset below `x`. */
  private pairsBefore(pairs: Int32Array, x: number): number {
    const t = this.text;
    const base = x - (x % CHECKPOINT);
    let n = pairs[base / CHECKPOINT]!;
    for (let i = Math.max(base, 1); i < x; i++) if (isLowSurrogate(t.charCodeAt(i)) && isHigh(t.charCodeAt(i - 1))) n++;
    return n;
  }

  /** The index of the line that holds `offset`. */
  private lineOf(offset: number): number {
    const starts = this.lineStarts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** 1-based line and column (in code points) of `offset`. */
  position(offset: number): { line: number; column: number; lineStart: number } {
    const off = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(off);
    const lineStart = this.lineStarts()[line]!;
    const pairs = this.pairIndex();
    // A pair cut by `off` (its low half at `off`) counts as one code point, as a caret under it would.
    const count =
      pairs === null
        ? off - lineStart
        : off - lineStart - (this.pairsBefore(pairs, off) - this.pairsBefore(pairs, lineStart));
    return { line: line + 1, column: count + 1, lineStart };
  }

  /**
   * The offset at 1-based `line` and `column` (in code points): the inverse
   * of {@link position} for an offset that is not inside a surrogate pair.
   */
  offsetAt(line: number, column: number): number {
    const starts = this.lineStarts();
    const t = this.text;
    const lineStart = starts[Math.max(0, Math.min(line, starts.length) - 1)]!;
    const steps = Math.max(0, column - 1);
    const pairs = this.pairIndex();
    if (pairs === null) return Math.min(t.length, lineStart + steps);
    // Code points before `x` (an offset not inside a pair), and the one wanted.
    const cp = (x: number) => x - this.pairsBefore(pairs, x);
    const target = cp(lineStart) + steps;
    // The last checkpoint at or before the target, then code point by code point (at most CHECKPOINT of them).
    let lo = 0;
    let hi = Math.floor(t.length / CHECKPOINT);
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (mid * CHECKPOINT - pairs[mid]! <= target) lo = mid;
      else hi = mid - 1;
    }
    let i = Math.max(lineStart, lo * CHECKPOINT);
    if (i > lineStart && isLowSurrogate(t.charCodeAt(i)) && isHigh(t.charCodeAt(i - 1))) i--;
    for (let n = cp(i); n < target && i < t.length; n++) {
      const c = t.charCodeAt(i);
      // A high surrogate followed by a low one is one code point.
      i += isHigh(c) && i + 1 < t.length && isLowSurrogate(t.charCodeAt(i + 1)) ? 2 : 1;
    }
    return i;
  }

  /** The text of the line that holds `lineStart` (its start, as {@link position} gives it), without its line break. */
  lineAt(lineStart: number): string {
    const t = this.text;
    const starts = this.lineStarts();
    const line = this.lineOf(Math.max(0, Math.min(lineStart, t.length)));
    let end = line + 1 < starts.length ? starts[line + 1]! : t.length;
    if (end > lineStart && t.charCodeAt(end - 1) === 0x0a) end--;
    if (end > lineStart && t.charCodeAt(end - 1) === 0x0d) end--;
    return t.slice(lineStart, end);
  }
}

/** UTF-16 units between two checkpoints of {@link LineIndex}. */
const CHECKPOINT = 1024;

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
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
