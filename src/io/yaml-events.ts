/**
 * js-yaml's event parser, as the YAML reader (yaml.ts) calls it: its event numbers, where its events are in
 * the text (js-yaml points at a quoted scalar's text and a block scalar's first line; the reader, as the
 * `yaml` library did, at the quote and at the header), and its errors in the words users know. The API is
 * js-yaml 5.5's documented event layer (`parseEvents`, `getScalarValue`, the `Event` types: "Events" in its
 * dist/js-yaml.d.ts): offsets are zero-based, end-exclusive, -1 when absent.
 */
import { type Event, parseEvents, type ScalarEvent, YAMLException } from 'js-yaml';
import type { Fail } from './json.js';
import { raiseLimit } from './read.js';

// js-yaml's event and style numbers, as its declarations give them (EVENT_ID, SCALAR_STYLE, COLLECTION_STYLE).
export const DOCUMENT = 1;

export const SEQUENCE = 2;

export const MAPPING = 3;

export const SCALAR = 4;

export const ALIAS = 5;

export const PLAIN = 1;

const SINGLE_QUOTED = 2;

const DOUBLE_QUOTED = 3;

export const BLOCK = 1;

/** Whether a scalar is written in quotes (its text starts after the opening one and ends before the closing). */
export function isQuoted(e: ScalarEvent): boolean {
  return e.style === SINGLE_QUOTED || e.style === DOUBLE_QUOTED;
}

/** A scalar with no text and no properties: an empty value (`a:`, `- `) or an empty key. */
export function isBare(e: ScalarEvent): boolean {
  return e.valueStart < 0 && e.anchorStart < 0 && e.tagStart < 0;
}

/** Where a value starts with its properties (`&anchor`, `!tag`) written before `start`, its content. */
export function propsStart(e: { anchorStart: number; tagStart: number }, start: number): number {
  return Math.min(start, e.tagStart < 0 ? start : e.tagStart, e.anchorStart < 0 ? start : e.anchorStart - 1);
}

/** Where a block scalar's header (`|`, `>`) is: js-yaml points at the line after it. */
function blockHeaderOffset(text: string, valueStart: number): number {
  const lineEnd = text[valueStart - 1] === '\n' ? valueStart - 1 : valueStart;
  const lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
  const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
  // The header ends the line, before a comment: `key: |-  # note`.
  const m = /(?<=^|[\s:\-?,[{!&>])[|>][-+1-9]{0,2}[ \t]*(?:#.*)?$/.exec(line);
  return m ? lineStart + m.index : valueStart;
}

/** Where the properties (`&anchor`, `!tag`) written before a value end, or -1 without any. */
export function propsEnd(e: { anchorStart: number; anchorEnd: number; tagEnd: number }): number {
  return Math.max(e.anchorStart < 0 ? -1 : e.anchorEnd, e.tagEnd);
}

export function skipBlanks(text: string, from: number): number {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

/** Where a scalar starts: its opening quote or its block header, as in the `yaml` library. */
export function scalarOffset(text: string, e: ScalarEvent, fallback: number): number {
  if (e.valueStart < 0) return e.anchorStart >= 0 || e.tagStart >= 0 ? skipBlanks(text, propsEnd(e)) : fallback;
  if (e.style === PLAIN) return e.valueStart;
  if (isQuoted(e)) return e.valueStart - 1;
  return blockHeaderOffset(text, e.valueStart);
}

/** Where a scalar's text ends (after its closing quote). */
export function scalarEnd(e: ScalarEvent, fallback: number): number {
  if (e.valueEnd < 0) return fallback;
  return isQuoted(e) ? e.valueEnd + 1 : e.valueEnd;
}

/** The offset after `indicator` and the blanks after it, when only blanks stand between `from` and it. */
export function afterIndicator(text: string, from: number, indicator: string): number | undefined {
  const i = skipBlanks(text, from);
  return text[i] === indicator ? skipBlanks(text, i + 1) : undefined;
}

/** Where a collection or value event starts (for messages about it). */
export function eventOffset(text: string, e: Event | undefined, fallback: number): number {
  if (e === undefined) return fallback;
  switch (e.type) {
    case SEQUENCE:
    case MAPPING:
      return e.start;
    case SCALAR:
      return scalarOffset(text, e, fallback);
    case ALIAS:
      return e.anchorStart - 1;
    default:
      return fallback;
  }
}

/** The offset of the `n`-th (0-based) document start marker `---`, or `fallback`. */
export function markerOffset(text: string, n: number, fallback: number): number {
  const re = /^---(?=[ \t\r\n]|$)/gm;
  let m: RegExpExecArray | null = null;
  for (let i = 0; i <= n; i++) {
    m = re.exec(text);
    if (m === null) return fallback;
  }
  return m!.index;
}

/** Past blanks, line breaks and comments (and commas, in a flow collection) from `from`. */
export function skipSpace(text: string, from: number, flow: boolean): number {
  let i = from;
  for (;;) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || (flow && c === ',')) i++;
    else if (c === '#') {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol;
    } else return i;
  }
}

/**
 * The opening quote of the quoted scalar that ends at `end` without its closing quote: the last `"` not
 * escaped by a backslash, or the first of the last run of `'` of odd length (`''` is a quote inside).
 */
function openingQuote(text: string, end: number, quote: '"' | "'"): number {
  for (let i = Math.min(end, text.length) - 1; i >= 0; i--) {
    if (text[i] !== quote) continue;
    if (quote === '"') {
      let slashes = 0;
      while (text[i - 1 - slashes] === '\\') slashes++;
      if (slashes % 2 === 0) return i;
      continue;
    }
    let start = i;
    while (text[start - 1] === "'") start--;
    if ((i - start + 1) % 2 === 1) return start;
    i = start;
  }
  return end;
}

/** The quote of js-yaml's "no closing quote" errors, or null for any other. */
function unclosedQuote(reason: string): '"' | "'" | null {
  const m = /^unexpected end of the (?:stream|document) within a (single|double) quoted scalar$/.exec(reason);
  return m === null ? null : m[1] === 'double' ? '"' : "'";
}

/**
 * The quote of a quoted scalar that is open at `at` and never closed (no quote of its kind follows), or
 * null: js-yaml reads such a scalar on to wherever its lines stop fitting ("deficient indentation" at the
 * end of the file), where the `yaml` library said what went wrong.
 */
function openQuoteAt(text: string, maxDepth: number, at: number): '"' | "'" | null {
  // The text before the error, and before the line of the error (the line that did not fit).
  for (const end of [at, text.lastIndexOf('\n', at - 1)]) {
    if (end < 0) continue;
    try {
      parseEvents(text.slice(0, end), { maxDepth: maxDepth + 1 });
    } catch (err) {
      const quote = err instanceof YAMLException ? unclosedQuote(err.reason) : null;
      if (quote !== null && !text.includes(quote, end)) return quote;
    }
  }
  return null;
}

/** A js-yaml syntax error as our located message: the words of the `yaml` library where users know them. */
function syntaxError(text: string, maxDepth: number, fail: Fail, err: YAMLException): never {
  const at = err.mark?.position ?? 0;
  const quote = unclosedQuote(err.reason) ?? openQuoteAt(text, maxDepth, at);
  if (quote !== null) return fail(openingQuote(text, at, quote), `invalid YAML: Missing closing ${quote}quote`);
  const c = text.codePointAt(at) ?? 0;
  if (
    /^(?:the stream contains non-printable characters|expected valid JSON character)$/.test(err.reason) &&
    c !== 0x09
  ) {
    const hex = c.toString(16).toUpperCase().padStart(4, '0');
    return fail(
      at,
      `invalid YAML: control character U+${hex} in the text (YAML allows none; in a double-quoted string, ` +
        `write it as an escape: "\\u${hex}")`,
    );
  }
  if (err.reason === 'deficient indentation') {
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const tab = /\t[ \t]*[[{]/.exec(text.slice(lineStart, at));
    if (tab !== null) {
      // YAML allows a tab there; js-yaml does not.
      return fail(lineStart + tab.index, 'invalid YAML: a tab before a [ or { (the YAML reader needs a space there)');
    }
    if (/^[ \t]*[\]}]/.test(text.slice(lineStart))) {
      return fail(
        at,
        'invalid YAML: deficient indentation (a [ ] or { } over several lines must indent each of them, ' +
          'the closing bracket too, more than the line it opens on)',
      );
    }
  }
  return fail(at, `invalid YAML: ${err.reason}`);
}

/**
 * Where the collection starts whose first value begins at `at`: the `[`, `{`, `-` or `?` before it, else
 * the value itself (a block mapping starts at its first key). js-yaml, asked for one level more than the
 * limit (a scalar may sit just below it), stops at the first value two levels past: its collection is the
 * first one too deep, where the reader points.
 */
function parentStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  const c = text[i - 1];
  return c === '[' || c === '{' || c === '-' || c === '?' ? i - 1 : skipSpace(text, at, false);
}

/**
 * js-yaml's events for `text`, nested at most `maxDepth` levels (ours: js-yaml counts a scalar as a level
 * too, so it is asked for one more; a collection that deep is refused by the reader, where it starts).
 */
export function readEvents(text: string, maxDepth: number, fail: Fail): Event[] {
  try {
    return parseEvents(text, { maxDepth: maxDepth + 1 });
  } catch (err) {
    if (err instanceof RangeError) {
      // js-yaml recurses once a level: a limit raised past what the stack holds (about 1,500 levels) ends here.
      return fail(
        0,
        `nesting too deep for the YAML reader (it reads about 1,500 levels; the limit is ${maxDepth}, ` +
          'set by TOOLSEARCH_MAX_DEPTH)',
      );
    }
    if (!(err instanceof YAMLException)) throw err;
    if (/^nesting exceeded maxDepth/.test(err.reason)) {
      const at = err.mark?.position ?? 0;
      return fail(parentStart(text, at), `nesting deeper than ${maxDepth} levels (${raiseLimit('maxDepth')})`);
    }
    return syntaxError(text, maxDepth, fail, err);
  }
}

/**
 * Properties run into their value (`![a]`, `&x[1]`): an error in YAML that js-yaml lets pass. As in the
 * `yaml` library, a quoted scalar may follow a shorthand tag (`!!str"x"`), and in a flow collection a plain
 * one a verbatim tag.
 */
export function checkSeparated(
  text: string,
  fail: Fail,
  e: Event & { anchorStart: number; anchorEnd: number; tagStart: number; tagEnd: number },
  start: number,
  flow: boolean,
): void {
  const end = propsEnd(e);
  if (end < 0 || start !== end) return;
  if (e.type === SCALAR && e.tagEnd === end) {
    const verbatim = text.startsWith('!<', e.tagStart);
    if (verbatim ? e.style === PLAIN && flow : isQuoted(e)) return;
  }
  fail(start, 'invalid YAML: Tags and anchors must be separated from the next token by white space');
}

/** A tab before the document's first value on its line (indentation): YAML allows none. */
export function checkRootIndent(text: string, fail: Fail, offset: number): void {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const tab = text.slice(lineStart, offset).indexOf('\t');
  if (tab >= 0 && /^[ \t]*$/.test(text.slice(lineStart, offset))) {
    fail(lineStart + tab, 'invalid YAML: Tabs are not allowed as indentation');
  }
}
