/**
 * Terminal safety: catalog and transcript text is never written raw to a
 * terminal. Control characters (C0, DEL, C1), line/paragraph separators,
 * bidi embedding/override/isolate controls and lone surrogates are shown as
 * visible escapes, so an ESC sequence or a U+202E in a tool description
 * cannot recolour the screen, move the cursor or reorder what the user reads.
 * JSON output is not escaped here: JSON.stringify keeps the text intact.
 */

// C0, DEL, C1, U+2028/U+2029, U+202A–U+202E, U+2066–U+2069, lone surrogates.
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(c: string): string {
  const short = SHORT[c];
  if (short !== undefined) return short;
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every unsafe character shown as an escape (`\x1b`, `\u202e`, `\n`); names and other exact text. */
export function escapeText(s: string): string {
  return s.replace(UNSAFE, escapeChar);
}

/**
 * Prose (descriptions, message text) for one line of a table: runs of line
 * breaks and tabs (with the spaces around them) fold into one space, then
 * whatever else is unsafe is escaped.
 */
export function inlineText(s: string): string {
  return escapeText(s.replace(/[ ]*[\r\n\t]+[ \r\n\t]*/g, ' ').trim());
}

/** Whether a text holds anything {@link escapeText} would change. */
export function hasUnsafe(s: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(s);
  UNSAFE.lastIndex = 0;
  return found;
}

/** Multi-line text (an error message, a stack): each line escaped, line breaks kept. */
export function escapeLines(s: string): string {
  return s.split(/\r\n|\n/).map(escapeText).join('\n');
}
