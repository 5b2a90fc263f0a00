/**
 * The one place that turns an outcome into an exit code (the codes: exit-codes.ts) and an error message.
 */
import { CommanderError } from 'commander';
import { MiddlewareConfigError } from '../core/middleware.js';
import { AssertionFailure, InputError, UsageError } from '../io/errors.js';
import { clipLines, escapeLines, escapeText } from '../io/escape.js';
import { charWidth } from '../render/width.js';
import type { CliContext } from './context.js';
import { EXIT_FAILED, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE } from './exit-codes.js';

/**
 * An excerpt (`line\n   ^`) made safe for a terminal: the line escaped, cut
 * to a window around the caret when it is long (a minified file is one long
 * line), and the caret moved under the same character.
 */
export function renderExcerpt(excerpt: string, width: number): string[] {
  const nl = excerpt.lastIndexOf('\n');
  if (nl < 0) return [escapeText(excerpt)];
  const src = excerpt.slice(0, nl);
  const caretLine = excerpt.slice(nl + 1);
  const col = Math.max(0, caretLine.indexOf('^'));
  const chars = Array.from(src);
  // The caret is indented by one space per code point before it.
  const at = Math.min(col, chars.length);
  const cells = chars.map((c) => escapeText(c));
  const room = Math.max(20, width - 4);
  let start = 0;
  let end = cells.length;
  const w = (from: number, to: number): number =>
    cells.slice(from, to).reduce((a, c) => a + Array.from(c).reduce((x, ch) => x + charWidth(ch), 0), 0);
  if (w(0, end) > room) {
    start = at;
    end = Math.min(cells.length, at + 1);
    // Grow the window around the caret, a little more to the left.
    while (w(start, end) < room && (start > 0 || end < cells.length)) {
      if (start > 0 && (end >= cells.length || at - start < (room * 2) / 3)) start--;
      else end++;
    }
  }
  const prefix = start > 0 ? '…' : '';
  const suffix = end < cells.length ? '…' : '';
  const line = prefix + cells.slice(start, end).join('') + suffix;
  const caret = ' '.repeat(w(start, at) + (prefix ? 1 : 0)) + '^';
  return [`  ${line}`.trimEnd(), `  ${caret}`];
}

/** What "tools is required" means for a catalog (the reference's text is printed first). */
export const TOOLS_REQUIRED_NOTE = 'the catalog has no dynamic tools: it is empty, or all of its tools are static';

/**
 * A known error's message is one line: a line break inside it can only come
 * from a quoted value (a case name `x\nerror: forged`), so it is shown
 * escaped like any other control character instead of starting a line that
 * could pass for a message of ours.
 */
function oneLine(message: string): string {
  return clipLines(escapeText(message));
}

/** Prints what went wrong and returns the exit code. */
export function exitCodeFor(err: unknown, ctx: CliContext): number {
  const s = ctx.errStyle;
  const error = s.red('error:');
  if (err instanceof CommanderError) {
    // Commander already printed its message (help, version, usage error).
    // Commander exits 0 after help or the version, 1 after a usage error (and after help shown for one).
    return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  }
  if (err instanceof InputError) {
    ctx.err(`${error} ${oneLine(err.headline)}\n`);
    if (err.excerpt) ctx.err(`${renderExcerpt(err.excerpt, ctx.width).join('\n')}\n`);
    return EXIT_USAGE;
  }
  if (err instanceof MiddlewareConfigError && err.message === 'tools is required') {
    // The reference's text first, then what it means for a catalog: this error does not
    // say whether the catalog is empty (`tools: []`) or holds static tools only.
    ctx.err(`${error} tools is required (${TOOLS_REQUIRED_NOTE})\n`);
    return EXIT_USAGE;
  }
  if (err instanceof UsageError || err instanceof MiddlewareConfigError) {
    ctx.err(`${error} ${oneLine(err.message)}\n`);
    return EXIT_USAGE;
  }
  if (err instanceof AssertionFailure) {
    ctx.err(`${s.red('fail:')} ${oneLine(err.message)}\n`);
    if (err.details) ctx.err(clipLines(err.details.endsWith('\n') ? err.details : `${err.details}\n`));
    return EXIT_FAILED;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  ctx.err(`${error} internal error: ${clipLines(escapeLines(e.message))}\n`);
  if (ctx.io.env.TOOLSEARCH_DEBUG === '1') ctx.err(`${escapeLines(e.stack ?? '')}\n`);
  else ctx.err('(this is a bug in toolsearch; run with TOOLSEARCH_DEBUG=1 to see the stack)\n');
  return EXIT_INTERNAL;
}
