/** The query of explore as a ready `toolsearch search` command line, for a CI suite. */

import { hasUnsafe } from '../../io/escape.js';

/**
 * Shell quoting: bare when only safe characters, else single quotes; text
 * with control characters (a tool name may hold an escape sequence) in
 * ANSI-C quotes (`$'\x1b…'`, bash and zsh), so the line stays exact and is
 * still safe to print to a terminal.
 */
export function shellQuote(s: string): string {
  if (s !== '' && /^[A-Za-z0-9_\-.,/:=@%+]+$/.test(s)) return s;
  if (!hasUnsafe(s)) return `'${s.replace(/'/g, `'\\''`)}'`;
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (hasUnsafe(ch) || (ch.length === 1 && cp >= 0xd800 && cp <= 0xdfff))
      out +=
        cp < 0x100
          ? `\\x${cp.toString(16).padStart(2, '0')}`
          : cp > 0xffff
            ? `\\U${cp.toString(16).padStart(8, '0')}`
            : `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `$'${out}'`;
}

export interface SearchCommandInput {
  /** Catalog options as given to explore (`-c file`…), already split into arguments. */
  readonly catalogArgs: readonly string[];
  readonly query: string;
  readonly maxResults: number;
  /** The first result, or null when the query returns nothing. */
  readonly first: string | null;
}

/**
 * `toolsearch search -c demo.yaml --expect-first slack__post_message -- 'slack message'`
 * (`--expect-none` when nothing is returned; `-n` only when not the default 5).
 */
export function searchCommandLine(input: SearchCommandInput): string {
  const args = ['toolsearch', 'search', ...input.catalogArgs];
  if (input.maxResults !== 5) args.push('-n', String(input.maxResults));
  if (input.first === null) args.push('--expect-none');
  else args.push('--expect-first', input.first);
  args.push('--', input.query);
  return args.map((a, i) => (i < 2 ? a : shellQuote(a))).join(' ');
}

/** OSC 52: asks the terminal to put `text` on the clipboard (ignored by terminals that do not support it). */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}
