/**
 * Display width of text in a terminal cell grid, and truncation with `…`.
 * One model for the CLI and the TUI: `string-width`, which Ink (through
 * cli-truncate, wrap-ansi and its layout) uses too, so a line fitted here is
 * never cut there. It measures grapheme clusters as terminals draw them: a
 * ZWJ family, a flag, a keycap are one 2-column character; East Asian Wide
 * and Fullwidth characters (CJK, Tangut, …) 2; marks 0.
 * Apply to text that is already escaped ({@link escapeText}): no control
 * characters remain.
 */
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter();
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The grapheme clusters of `s`: what a terminal draws as one character (cut text only between them). */
export function graphemes(s: string): string[] {
  if (PRINTABLE_ASCII.test(s)) return s.split('');
  return Array.from(segmenter.segment(s), (g) => g.segment);
}

/** Columns taken by one grapheme cluster (see {@link graphemes}). */
export function charWidth(grapheme: string): number {
  return stringWidth(grapheme);
}

/** Columns taken by a text. */
export function displayWidth(s: string): number {
  // Fast path: printable ASCII is one column per character.
  return PRINTABLE_ASCII.test(s) ? s.length : stringWidth(s);
}

/** The text cut to at most `max` columns (between grapheme clusters), ending with `…` when something was cut. */
export function truncate(s: string, max: number): string {
  if (displayWidth(s) <= max) return s;
  if (max <= 0) return '';
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
