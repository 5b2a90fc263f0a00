/** Pieces both screens use: panel titles, scrolling windows, key hints, counts. */
import { displayWidth } from '../render/width.js';
import { fitLine, seg, type Line, type Segment } from './line.js';

/** `─ Title ─────` across the width. */
export function titleLine(title: Segment[], width: number): Line {
  const head: Segment[] = [seg('─ ', 'dim'), ...title.map((s) => (s.tone === 'plain' ? seg(s.text, 'heading') : s)), seg(' ', 'dim')];
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
