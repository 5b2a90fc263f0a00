/** Word wrapping of styled text: measured by its plain form, written in its styled form. */
import { displayWidth, truncate } from './width.js';

/** A piece of text: its plain form (measured) and its styled form (written). */
export interface Token {
  readonly text: string;
  readonly styled: string;
}

/** A token, styled by `style` when given. */
export function tok(text: string, style?: (s: string) => string): Token {
  return { text, styled: style ? style(text) : text };
}

/**
 * Lays out tokens separated by spaces on lines of at most `width` columns;
 * the first line starts with `lead`, continuation lines are indented by `indent`.
 * A token wider than a line is not cut (callers truncate long tokens).
 */
export function wrapTokens(tokens: readonly Token[], width: number, indent: number, lead = ''): string[] {
  const lines: string[] = [];
  let line = lead;
  let w = displayWidth(lead);
  for (const t of tokens) {
    const tw = displayWidth(t.text);
    const sep = line === lead ? 0 : 1;
    if (line !== lead && w + 1 + tw > width) {
      lines.push(line);
      line = ' '.repeat(indent) + t.styled;
      w = indent + tw;
    } else {
      line += (sep ? ' ' : '') + t.styled;
      w += sep + tw;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * Prose (a summary or a note) wrapped to `width` instead of being cut: the
 * text's own leading spaces start the first line, continuation lines are
 * indented by `indent`. Words are split at single spaces; a run of spaces
 * (aligned columns such as `saved   40,483`) stays inside the line it is on
 * and is dropped at a line break. A word wider than a line is cut with `…`.
 * Apply to text that is already escaped. `style` styles every word.
 */
export function wrapText(text: string, width: number, indent: number, style?: (s: string) => string): string[] {
  const lead = /^ */.exec(text)![0];
  if (text.trim() === '') return [''];
  const tokens = wordTokens(text.slice(lead.length), Math.max(8, width - Math.max(indent, lead.length)), style);
  // A run of spaces left at the end of a line is dropped.
  return wrapTokens(tokens, width, indent, lead).map((line) => line.trimEnd());
}

/**
 * The words of a text as tokens for {@link wrapTokens}: split at single
 * spaces (the spaces of a longer run but the last stay with the word before),
 * each word cut to `room` columns with `…`, styled by `style` when given.
 */
export function wordTokens(text: string, room: number, style?: (s: string) => string): Token[] {
  const body = text.trim();
  if (body === '') return [];
  return body.split(/ (?=[^ ])/).map((w): Token => {
    const core = w.trimEnd();
    const trail = w.slice(core.length);
    const cut = truncate(core, room);
    return { text: cut + trail, styled: (style ? style(cut) : cut) + trail };
  });
}
