/**
 * Display width of text in a terminal cell grid, and truncation with `…`.
 * One model for the CLI and the TUI: `string-width`, which Ink (through
 * cli-truncate, wrap-ansi and its layout) uses too, so a line fitted here is
 * never cut there. It measures grapheme clusters as terminals draw them: a
 * ZWJ family, a flag, a keycap are one 2-column character; East Asian Wide
 * and Fullwidth characters (CJK, Tangut, …) 2; marks 0.
 * Apply to text that is already escaped ({@link escapeText}): no control
 * characters remain.
 *
 * string-width is loaded on the first text it has to measure: its module sets
 * up an Intl.Segmenter (ICU's break rules), which costs a start-up about a
 * third of Node's own, and most text never needs it (see {@link SIMPLE}).
 */
import { createRequire } from 'node:module';

/**
 * Text of which every UTF-16 unit is a grapheme cluster of its own and one
 * column wide, as string-width measures it: printable ASCII and Latin-1 (not
 * the soft hyphen), Latin Extended-A and -B, IPA, spacing modifier letters,
 * and the general punctuation of dashes, quotes, bullets and the ellipsis.
 * test/render/width.test.ts checks every such unit, and random texts of
 * them, against string-width and Intl.Segmenter.
 */
const SIMPLE = /^[\x20-\x7e\xa0-\xac\xae-\u02ff\u2010-\u2027\u2030-\u205e]*$/;

type StringWidth = (s: string) => number;
let stringWidthFn: StringWidth | undefined;

/** string-width's measure, its module loaded on first use. */
function stringWidth(s: string): number {
  stringWidthFn ??= loadStringWidth();
  return stringWidthFn(s);
}

/**
 * In the CLI's bundle (CommonJS) `require` is the bundler's: string-width is
 * inside the bundle, evaluated on this first call. Run from tsc's output (an
 * ES module: the tests), Node's require of an ES module loads it from
 * node_modules.
 */
function loadStringWidth(): StringWidth {
  const mod = typeof require === 'function' ? require('string-width') : createRequire(import.meta.url)('string-width');
  return (mod as { default: StringWidth }).default;
}

/** Whether `s` is measured here, one column per UTF-16 unit (see {@link SIMPLE}); exported for its test. */
export function isSimpleText(s: string): boolean {
  return SIMPLE.test(s);
}

let segmenter: Intl.Segmenter | undefined;

/** The grapheme clusters of `s`: what a terminal draws as one character (cut text only between them). */
export function graphemes(s: string): string[] {
  if (SIMPLE.test(s)) return s.split('');
  segmenter ??= new Intl.Segmenter();
  return Array.from(segmenter.segment(s), (g) => g.segment);
}

/** Columns taken by one grapheme cluster (see {@link graphemes}). */
export function charWidth(grapheme: string): number {
  return grapheme.length === 1 && SIMPLE.test(grapheme) ? 1 : stringWidth(grapheme);
}

/** Columns taken by a text. */
export function displayWidth(s: string): number {
  return SIMPLE.test(s) ? s.length : stringWidth(s);
}

/** The text cut to at most `max` columns (between grapheme clusters), ending with `…` when something was cut. */
export function truncate(s: string, max: number): string {
  // Cut within a simple start (one column per unit, each its own cluster): what the rest holds cannot change the
  // cut, and need not be measured (a description with one emoji past the cut would load string-width).
  if (s.length > max && SIMPLE.test(s.slice(0, max + 1))) return max <= 0 ? '' : `${s.slice(0, max - 1)}…`;
  if (displayWidth(s) <= max) return s;
  if (max <= 0) return '';
  if (SIMPLE.test(s)) return `${s.slice(0, max - 1)}…`; // one column per unit: what the loop below would keep
  let out = '';
  let w = 0;
  for (const g of graphemes(s)) {
    const cw = charWidth(g);
    if (w + cw > max - 1) break;
    out += g;
    w += cw;
  }
  return `${out}…`;
}

/** Pads with spaces to `width` columns (left-aligned text by default). */
export function pad(s: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(s)));
  return align === 'left' ? s + fill : fill + s;
}
