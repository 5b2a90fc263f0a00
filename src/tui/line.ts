/**
 * The TUI draws screens as lines of styled segments, built by pure functions
 * and fitted to the width before React sees them, so every layout decision is
 * testable without rendering and nothing ever wraps.
 *
 * Segment text must already be safe for a terminal: anything that comes from
 * a catalog, a transcript or the user goes through {@link safe} or
 * {@link safeName} (the CLI's escaping), never raw.
 */
import { escapeText, inlineText } from '../io/escape.js';
import { charWidth, displayWidth, graphemes, pad, truncate } from '../render/width.js';

/**
 * What a segment means; the theme decides how it looks. Every tone that
 * carries meaning is also marked in the text itself (`+`, `✗`, `›`…), so the
 * screens read the same without color.
 */
export type Tone =
  | 'plain'
  | 'dim'
  | 'heading'
  /** The selected row. */
  | 'cursor'
  /** Tools added at this call. */
  | 'added'
  | 'error'
  | 'warning'
  /** Replay differences. */
  | 'replay'
  | 'accent'
  /** Key names in hints. */
  | 'key';

export interface Segment {
  readonly text: string;
  readonly tone: Tone;
}

export type Line = readonly Segment[];

export function seg(text: string, tone: Tone = 'plain'): Segment {
  return { text, tone };
}

/** Prose from input files (descriptions, message text) as one safe line. */
export function safe(text: string): string {
  return inlineText(text);
}

/** Exact text from input files (tool names, arguments) with unsafe characters escaped. */
export function safeName(text: string): string {
  return escapeText(text);
}

/** Total display width of a line. */
export function lineWidth(line: Line): number {
  let w = 0;
  for (const s of line) w += displayWidth(s.text);
  return w;
}

/** The line cut to `width` columns (the cut segment ends with `…`); empty segments dropped. */
export function fitLine(line: Line, width: number): Line {
  const out: Segment[] = [];
  let left = Math.max(0, width);
  for (const s of line) {
    if (left <= 0) break;
    const w = displayWidth(s.text);
    if (w <= left) {
      if (s.text !== '') out.push(s);
      left -= w;
      continue;
    }
    out.push({ text: truncate(s.text, left), tone: s.tone });
    break;
  }
  return out;
}

/** Text cut to `width` and padded to exactly `width` columns. */
export function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  return pad(truncate(text, width), width, align);
}

/**
 * A tool name cut to `width` columns in the middle (`mcp__sl…send_message`):
 * the end of a name is usually what tells tools of one server apart.
 */
export function fitName(name: string, width: number): string {
  if (displayWidth(name) <= width) return name;
  if (width < 8) return truncate(name, width);
  const tailWidth = Math.ceil((width - 1) * 0.6);
  const chars = graphemes(name);
  let tail = '';
  let w = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const cw = charWidth(chars[i]!);
    if (w + cw > tailWidth) break;
    tail = chars[i]! + tail;
    w += cw;
  }
  return `${takeWidth(name, width - 1 - w)}…${tail}`;
}

/** A name cut in the middle and padded to exactly `width` columns. */
export function nameCell(name: string, width: number): string {
  return pad(fitName(name, width), width);
}

/** The line fitted, then padded with spaces to exactly `width` columns (the padding takes the last segment's tone). */
export function padLine(line: Line, width: number): Line {
  const fitted = fitLine(line, width);
  const w = lineWidth(fitted);
  if (w >= width) return fitted;
  const tone = fitted.length > 0 ? fitted[fitted.length - 1]!.tone : 'plain';
  return [...fitted, seg(' '.repeat(width - w), tone === 'cursor' ? 'cursor' : 'plain')];
}

/**
 * A list row: fitted, and when highlighted padded to the full width in the cursor tone (other rows are not padded: less
 * for the terminal to draw).
 */
export function rowLine(line: Line, width: number, highlighted: boolean): Line {
  return highlighted ? withTone(padLine(line, width), 'cursor') : fitLine(line, width);
}

/** All segments of a line given one tone (e.g. the selected row). */
export function withTone(line: Line, tone: Tone): Line {
  return line.map((s) => ({ text: s.text, tone }));
}

/**
 * Word-wraps safe text to `width` columns, at most `maxLines` lines (the last
 * one ends with `…` when text remains). Long words are cut.
 */
export function wrapText(text: string, width: number, maxLines = Number.MAX_SAFE_INTEGER): string[] {
  if (width <= 0 || maxLines <= 0) return [];
  const words = text.split(' ').filter((w) => w !== '');
  const lines: string[] = [];
  let cur = '';
  for (let word of words) {
    while (displayWidth(word) > width) {
      if (cur !== '') {
        lines.push(cur);
        cur = '';
      }
      const head = takeWidth(word, width);
      lines.push(head);
      word = word.slice(head.length);
    }
    if (cur === '') cur = word;
    else if (displayWidth(cur) + 1 + displayWidth(word) <= width) cur += ` ${word}`;
    else {
      lines.push(cur);
      cur = word;
    }
  }
  if (cur !== '') lines.push(cur);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = truncate(`${kept[maxLines - 1]!} ${lines[maxLines]!}`, width);
  if (!kept[maxLines - 1]!.endsWith('…')) kept[maxLines - 1] = `${truncate(kept[maxLines - 1]!, width - 1)}…`;
  return kept;
}

/** The longest prefix of `s` at most `width` columns wide (at least one grapheme, so wrapping always advances). */
function takeWidth(s: string, width: number): string {
  let out = '';
  let w = 0;
  for (const ch of graphemes(s)) {
    const cw = charWidth(ch);
    if (out !== '' && w + cw > width) break;
    out += ch;
    w += cw;
  }
  return out;
}

/** A bar of `width` cells, `filled` of them full (for scores). */
export function bar(fraction: number, width: number): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
  const full = Math.round(f * width);
  return '█'.repeat(full) + '░'.repeat(Math.max(0, width - full));
}
