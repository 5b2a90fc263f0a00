/**
 * A progress line on stderr for long work (many queries, MCP servers
 * starting, a big catalog): one line redrawn in place, only when stderr is a
 * terminal, nothing at all otherwise (a log or a CI job never sees it).
 * Redraws are limited to a few a second; `done()` erases the line so what
 * follows starts on a clean line.
 */
import { escapeText } from '../io/escape.js';
import type { OutStream } from './out-stream.js';

export interface Progress {
  /** Shows `text` (escaped, cut to the terminal's width). */
  update(text: string): void;
  /** `label n/total`, redrawn at most every {@link REDRAW_MS}. */
  count(label: string, n: number, total: number): void;
  /** Erases the line. */
  done(): void;
}

/** Least time between two redraws of a count. */
export const REDRAW_MS = 100;

const NONE: Progress = { update() {}, count() {}, done() {} };

/** A progress line on `stream` when it is a terminal; one that does nothing otherwise. */
export function createProgress(stream: OutStream, now: () => number = Date.now): Progress {
  if (stream.isTTY !== true) return NONE;
  let shown = false;
  let last = -Infinity;
  const draw = (text: string): void => {
    // A terminal of unknown size (a pseudo-terminal nobody sized reports 0 columns) counts as 80 wide.
    const width = Math.max(10, (stream.columns || 80) - 1);
    const chars = Array.from(escapeText(text));
    stream.write(`\r\u001b[K${chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : chars.join('')}`);
    shown = true;
  };
  return {
    update(text) {
      draw(text);
      last = now();
    },
    count(label, n, total) {
      const t = now();
      if (n < total && t - last < REDRAW_MS) return;
      last = t;
      draw(`${label} ${n}/${total}`);
    },
    done() {
      if (shown) stream.write('\r\u001b[K');
      shown = false;
    },
  };
}
