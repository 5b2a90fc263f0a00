/**
 * Terminal safety: catalog and transcript text is never written raw to a
 * terminal. Control characters (C0, DEL, C1), line/paragraph separators,
 * bidi embedding/override/isolate controls and marks, invisible format
 * characters (zero-width space and joiners, word joiner, invisible operators,
 * BOM, tag characters, interlinear annotation) and lone surrogates are shown
 * as visible escapes, so an ESC sequence or a U+202E in a tool description
 * cannot recolour the screen, move the cursor or reorder what the user reads,
 * and two names that differ only in an invisible character look different
 * (and take the columns they are counted for: a ZWJ cannot join two emoji
 * into one glyph of another width).
 * JSON output is not escaped here: JSON.stringify keeps the text intact.
 */

// C0, DEL, C1; U+061C (Arabic letter mark), U+200B–U+200F (zero-width space,
// ZWNJ, ZWJ, LRM, RLM), U+2028/U+2029, U+202A–U+202E, U+2060–U+2064 (word
// joiner, invisible operators), U+2066–U+2069, U+FEFF (BOM / zero-width
// no-break space), U+FFF9–U+FFFB (interlinear annotation); tag characters
// U+E0000–U+E007F (a surrogate pair: \udb40 + \udc00–\udc7f); lone surrogates.
const UNSAFE = new RegExp(
  String.raw`[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069` +
    String.raw`\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]|[\ud800-\udbff](?![\udc00-\udfff])|` +
    String.raw`(?<![\ud800-\udbff])[\udc00-\udfff]`,
  'g',
);

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(c: string): string {
  const short = SHORT[c];
  if (short !== undefined) return short;
  const code = c.codePointAt(0)!;
  if (code > 0xffff) return `\\u{${code.toString(16)}}`;
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every unsafe character shown as an escape (`\x1b`, `\u202e`, `\u{e0041}`, `\n`); names and other exact text. */
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
  return s
    .split(/\r\n|\n/)
    .map(escapeText)
    .join('\n');
}

/** Longest line of a message or of human output before its middle is cut (see {@link clipLines}). */
export const MAX_MESSAGE_LINE = 1000;

// An SGR color sequence (the only escape sequence our own output writes).
const SGR = /\u001b\[[0-9;]*m/g;

/**
 * Messages and human output quote input text (`unknown role "…"`, a case
 * name, a tool name): a line longer than `max` keeps its start and its end
 * around `…`, so a hostile 100 kB value cannot flood the terminal. Apply
 * after escaping. Never splits a surrogate pair or one of our color
 * sequences; a cut that drops a color reset adds one.
 */
export function clipLines(s: string, max: number = MAX_MESSAGE_LINE): string {
  return s
    .split('\n')
    .map((line) => {
      if (line.length <= max) return line;
      const low = (i: number): boolean => (line.charCodeAt(i) & 0xfc00) === 0xdc00;
      let head = Math.floor(max * 0.7);
      let tail = line.length - (max - head - 1);
      for (const m of line.matchAll(SGR)) {
        const end = m.index + m[0].length;
        if (m.index < head && head < end) head = m.index;
        if (m.index < tail && tail < end) tail = end;
      }
      if (low(head)) head--;
      if (low(tail)) tail++;
      const cut = line.slice(head, tail);
      return `${line.slice(0, head)}${cut.includes('\u001b[') ? '\u001b[0m' : ''}…${line.slice(tail)}`;
    })
    .join('\n');
}

/**
 * The one way a message reaches the terminal (an error, a warning, a note: text that may quote input): one line,
 * every unsafe character escaped — a line break too, so quoted input cannot start a line of its own that passes
 * for one of ours (`error: …`) — and a very long line cut (see {@link clipLines}).
 */
export function messageLine(s: string): string {
  return clipLines(escapeText(s));
}
