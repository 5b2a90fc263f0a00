/** The query of explore as a ready `toolsearch search` command line, for a CI suite. */

/** POSIX shell quoting: bare when only safe characters, else single quotes. */
export function shellQuote(s: string): string {
  if (s !== '' && /^[A-Za-z0-9_\-.,/:=@%+]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
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
