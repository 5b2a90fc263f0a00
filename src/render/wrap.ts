/** Word wrapping of styled text: measured by its plain form, written in its styled form. */
import { displayWidth } from './width.js';

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
