/**
 * The `?` help of both screens: sections of key/meaning entries, laid out for
 * a width (long meanings wrap under their own column, never cut), and a
 * scrolling window over them for terminals too short to show it all, with a
 * line saying how much is above or below.
 */
import { displayWidth } from '../render/width.js';
import { hintLine, titleLine } from './chrome.js';
import type { KeyInfo } from './keys.js';
import { cell, fitLine, lineWidth, seg, wrapText, type Line, type Segment } from './line.js';
import { append, largest } from '../core/append.js';

export interface HelpEntry {
  /** The key (or mark) as shown. */
  readonly key: string;
  readonly text: string;
}

export interface HelpSection {
  readonly title: string;
  /** Dim text after the title. */
  readonly subtitle?: string;
  /** One entry a line (or more when its text wraps), keys in a column. */
  readonly entries?: readonly HelpEntry[];
  /** Short entries flowed several to a line (`› selected  + added…`), for legends. */
  readonly legend?: readonly HelpEntry[];
  /** Dim lines after the entries. */
  readonly notes?: readonly string[];
  /** How the keys look: `key` for keys, `accent` for values. */
  readonly keyTone?: Segment['tone'];
}

const INDENT = '  ';

/** Text wrapped to `width` under an indent (at least one line, even for a width of 0). */
function wrapped(text: string, indent: string, width: number, tone: Segment['tone']): Line[] {
  const room = Math.max(1, width - displayWidth(indent));
  return wrapText(text, room).map((t) => fitLine([seg(indent), seg(t, tone)], width));
}

/** Entry lines: the key, then its text wrapped in the text column. */
function entryLines(e: HelpEntry, keyWidth: number, width: number, tone: Segment['tone']): Line[] {
  const room = Math.max(1, width - INDENT.length - keyWidth);
  const text = wrapText(e.text, room);
  const lines: Line[] = [fitLine([seg(`${INDENT}${cell(e.key, keyWidth)}`, tone), seg(text[0] ?? '')], width)];
  for (const t of text.slice(1)) lines.push(fitLine([seg(' '.repeat(INDENT.length + keyWidth)), seg(t)], width));
  return lines;
}

/** Legend items flowed to the width, two spaces apart; an item too wide for a line of its own wraps like an entry. */
function legendLines(items: readonly HelpEntry[], keyWidth: number, width: number, tone: Segment['tone']): Line[] {
  const lines: Line[] = [];
  let cur: Segment[] = [];
  const flush = (): void => {
    if (cur.length > 0) lines.push(cur);
    cur = [];
  };
  for (const item of items) {
    const piece = [seg(item.key, tone), seg(` ${item.text}`)];
    const w = lineWidth(piece);
    if (displayWidth(INDENT) + w > width) {
      flush();
      append(lines, entryLines(item, keyWidth, width, tone));
      continue;
    }
    if (cur.length > 0 && lineWidth(cur) + 2 + w > width) flush();
    cur = cur.length === 0 ? [seg(INDENT), ...piece] : [...cur, seg('  '), ...piece];
  }
  flush();
  return lines;
}

/** Every line of the help, fitted to `width` (the caller windows them with {@link helpWindow}). */
export function helpBody(sections: readonly HelpSection[], width: number): Line[] {
  const keys = sections.flatMap((s) => s.entries ?? []).map((e) => displayWidth(e.key));
  // The key column: as wide as the longest key, but never more than half the width.
  const keyWidth = Math.max(1, Math.min(Math.max(0, largest(keys)) + 2, Math.floor((width - INDENT.length) / 2)));
  const lines: Line[] = [];
  for (const s of sections) {
    lines.push(titleLine([seg(s.title), ...(s.subtitle ? [seg(` ${s.subtitle}`, 'dim')] : [])], width));
    const tone = s.keyTone ?? 'key';
    for (const e of s.entries ?? []) append(lines, entryLines(e, keyWidth, width, tone));
    if (s.legend) append(lines, legendLines(s.legend, keyWidth, width, tone));
    for (const n of s.notes ?? []) append(lines, wrapped(n, INDENT, width, 'dim'));
  }
  return lines;
}

/** How far the help scrolls in a window of some height, and by how much a page. */
export interface HelpMetrics {
  /** Largest scroll offset (0: it all fits). */
  readonly maxScroll: number;
  /** Lines a PgUp/PgDn moves. */
  readonly page: number;
}

/** No scrolling (the help fits, or the size is not known). */
export const NO_HELP_SCROLL: HelpMetrics = { maxScroll: 0, page: 1 };

/**
 * The metrics of `total` lines in `height` rows. When they do not fit, a row
 * at the top (once scrolled) and one at the bottom (while more is below) say
 * how many lines are hidden there, so offsets go up to `total - height + 1`.
 */
export function helpMetrics(total: number, height: number): HelpMetrics {
  if (total <= height) return NO_HELP_SCROLL;
  if (height < 3) return { maxScroll: total - Math.max(0, height), page: Math.max(1, height) };
  return { maxScroll: total - height + 1, page: Math.max(1, height - 2) };
}

function linesWord(n: number): string {
  return `${n} more ${n === 1 ? 'line' : 'lines'}`;
}

/** The rows of the help shown at `scroll` (clamped): exactly what fits in `height`, with the indicators. */
export function helpWindow(body: readonly Line[], width: number, height: number, scroll: number): Line[] {
  const total = body.length;
  const { maxScroll } = helpMetrics(total, height);
  if (maxScroll === 0) return [...body];
  const s = Math.max(0, Math.min(maxScroll, scroll));
  if (height < 3) return body.slice(s, s + Math.max(0, height));
  const top = s > 0;
  const bottom = s < maxScroll;
  const rows = height - (top ? 1 : 0) - (bottom ? 1 : 0);
  const lines: Line[] = [];
  if (top)
    lines.push(
      fitLine([seg(`${INDENT}↑ ${linesWord(s)} above (`, 'accent'), seg('k ↑ PgUp', 'key'), seg(')', 'accent')], width),
    );
  append(lines, body.slice(s, s + rows));
  if (bottom)
    lines.push(
      fitLine(
        [
          seg(`${INDENT}↓ ${linesWord(total - s - rows)} below (`, 'accent'),
          seg('j ↓ PgDn', 'key'),
          seg(')', 'accent'),
        ],
        width,
      ),
    );
  return lines;
}

/** The scroll a key asks for in the help (null: not a scroll key); Home/End and g/G go to the ends. */
export function helpScrollDelta(input: string, key: KeyInfo, metrics: HelpMetrics): number | null {
  if (key.downArrow || input === 'j') return 1;
  if (key.upArrow || input === 'k') return -1;
  if (key.pageDown || input === ' ') return metrics.page;
  if (key.pageUp) return -metrics.page;
  if (key.home || input === 'g') return -Number.MAX_SAFE_INTEGER;
  if (key.end || input === 'G') return Number.MAX_SAFE_INTEGER;
  return null;
}

/** A help scroll offset moved by `delta`, kept within what the window allows now (a resize may have shrunk it). */
export function scrolledHelp(current: number, delta: number, maxScroll: number): number {
  return Math.max(0, Math.min(maxScroll, Math.min(current, maxScroll) + delta));
}

/** The footer while the help is open; `scrolls`: it is taller than its window. */
export function helpFooter(scrolls: boolean, width: number): Line {
  return hintLine(
    scrolls
      ? [
          ['↑↓ PgUp/Dn', 'scroll'],
          ['? Esc', 'close'],
          ['q', 'quit'],
        ]
      : [
          ['? Esc', 'close help'],
          ['q', 'quit'],
        ],
    width,
  );
}
