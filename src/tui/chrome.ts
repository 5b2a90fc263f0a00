/** Pieces both screens use: panel titles, scrolling windows, key hints, counts. */
import { displayWidth } from '../render/width.js';
import { fitLine, lineWidth, seg, type Line, type Segment } from './line.js';

/** `─ Title ─────` across the width. */
export function titleLine(title: Segment[], width: number): Line {
  const head: Segment[] = [
    seg('─ ', 'dim'),
    ...title.map((s) => (s.tone === 'plain' ? seg(s.text, 'heading') : s)),
    seg(' ', 'dim'),
  ];
  const fitted = fitLine(head, width);
  const used = fitted.reduce((w, s) => w + displayWidth(s.text), 0);
  return [...fitted, seg('─'.repeat(Math.max(0, width - used)), 'dim')];
}

/** A window of `height` items that keeps `cursor` in view, centred when it can. */
export function scrollWindow(count: number, cursor: number, height: number): { start: number; end: number } {
  if (count <= height) return { start: 0, end: count };
  const start = Math.max(0, Math.min(count - height, cursor - Math.floor(height / 2)));
  return { start, end: start + height };
}

export function hintLine(hints: ReadonlyArray<readonly [string, string]>, width: number): Line {
  const segs: Segment[] = [];
  for (const [k, what] of hints) segs.push(seg(k, 'key'), seg(` ${what}  `, 'dim'));
  return fitLine(segs, width);
}

/** `1 call`, `3 calls`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A terminal's size in cells. */
export interface Size {
  readonly columns: number;
  readonly rows: number;
}

/** Smallest size the screens lay out for; a smaller terminal gets {@link tooSmallLines}. */
export const MIN_SIZE: Size = { columns: 40, rows: 10 };

/** Whether a terminal is below {@link MIN_SIZE} in either direction. */
export function isTooSmall(size: Size): boolean {
  return size.columns < MIN_SIZE.columns || size.rows < MIN_SIZE.rows;
}

/**
 * What a terminal below {@link MIN_SIZE} shows instead of a layout that
 * would wrap: one line, centred, `terminal too small: 30×8 (needs at least
 * 40×10)` (shorter forms when even that does not fit). `size` is the
 * terminal's; the lines fill its rows but one (see `useTerminalSize`).
 */
export function tooSmallLines(size: Size): Line[] {
  const width = Math.max(0, size.columns);
  const height = Math.max(1, size.rows - 1);
  const dims = `${size.columns}×${size.rows}`;
  const need = `${MIN_SIZE.columns}×${MIN_SIZE.rows}`;
  const forms = [
    `terminal too small: ${dims} (needs at least ${need})`,
    `too small: ${dims} (min ${need})`,
    `${dims} < ${need}`,
  ];
  const text = forms.find((t) => displayWidth(t) <= width) ?? forms[forms.length - 1]!;
  const line = fitLine([seg(text, 'warning')], width);
  const left = Math.floor((width - lineWidth(line)) / 2);
  const top = Math.floor((height - 1) / 2);
  return [...Array.from({ length: top }, (): Line => []), left > 0 ? [seg(' '.repeat(left)), ...line] : line];
}
