/**
 * Display width of text in a terminal cell grid, and truncation with `…`.
 * Apply to text that is already escaped ({@link escapeText}): no control
 * characters remain, so every code point is 0, 1 or 2 columns wide.
 */

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200f\ufeff\u2060-\u2064]$/u;
const EMOJI = /^\p{Emoji_Presentation}$/u;

// East Asian Wide and Fullwidth ranges (Unicode 15, condensed).
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

/** Columns taken by one code point (given as its string). */
export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x300) return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ? 0 : 1;
  if (ZERO_WIDTH.test(ch)) return 0;
  for (const [lo, hi] of WIDE) if (cp >= lo && cp <= hi) return 2;
  return EMOJI.test(ch) ? 2 : 1;
}

/** Columns taken by a text. */
export function displayWidth(s: string): number {
  // Fast path: printable ASCII is one column per character.
  if (/^[\x20-\x7e]*$/.test(s)) return s.length;
  let w = 0;
  for (const ch of s) w += charWidth(ch);
  return w;
}

/** The text cut to at most `max` columns, ending with `…` when something was cut. */
export function truncate(s: string, max: number): string {
  if (displayWidth(s) <= max) return s;
  if (max <= 0) return '';
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = charWidth(ch);
    if (w + cw > max - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** Pads with spaces to `width` columns (left-aligned text by default). */
export function pad(s: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(s)));
  return align === 'left' ? s + fill : fill + s;
}
