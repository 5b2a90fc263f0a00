/**
 * The query as a case-insensitive regular expression over each tool's name
 * and description, like the regex variant of Anthropic's tool search (where
 * the model writes a pattern for Python's `re.search`, at most 200
 * characters). Patterns run on RE2 (`re2js`, a pure-JavaScript port of
 * Google's RE2): matching takes time linear in the text whatever the
 * pattern, so `(a|a)*b` or `(a+)+$` cannot hang an evaluation. RE2 has no
 * backreferences and no lookaround; a pattern it rejects (or one over 200
 * characters, which Anthropic refuses) returns nothing and is reported as
 * an invalid pattern (see `rejects`). The README compares the syntax with
 * Python's. `re2js` is loaded when the scorer is built: only `eval` pays for it.
 *
 * A regex only says yes or no, so results are ordered: tools whose name
 * matches first, then tools matched by their description only, each group in
 * catalog order.
 */
import type { ToolInfo } from '../../../core/index.js';
import type { Scorer } from './types.js';

/** Longest pattern accepted (Anthropic's limit). */
export const MAX_PATTERN_LENGTH = 200;

/** A query compiled by RE2: a test, or why RE2 (or the length limit) refuses it. */
export type CompiledPattern =
  | { readonly ok: true; readonly test: (text: string) => boolean }
  | { readonly ok: false; readonly reason: string };

type Re2 = typeof import('re2js').RE2JS;

/** Compiles a query with RE2, case-insensitive. */
export function compilePattern(engine: Re2, query: string): CompiledPattern {
  if (query === '') return { ok: false, reason: 'empty pattern' };
  if (query.length > MAX_PATTERN_LENGTH) return { ok: false, reason: `longer than ${MAX_PATTERN_LENGTH} characters` };
  try {
    const re = engine.compile(query, engine.CASE_INSENSITIVE);
    return { ok: true, test: (text) => re.matcher(text).find() };
  } catch (err) {
    // RE2JSSyntaxException ("error parsing regexp: missing closing ): `(a`") and its kin.
    // The message quotes the pattern with the flag RE2JS adds for CASE_INSENSITIVE: show the user's pattern.
    return { ok: false, reason: (err instanceof Error ? err.message : String(err)).replace('`(?i)', '`') };
  }
}

export async function createRegexScorer(tools: readonly ToolInfo[]): Promise<Scorer> {
  const { RE2JS } = await import('re2js');
  const compiled = new Map<string, CompiledPattern>();
  const pattern = (query: string): CompiledPattern => {
    let p = compiled.get(query);
    if (p === undefined) {
      p = compilePattern(RE2JS, query);
      compiled.set(query, p);
    }
    return p;
  };
  return {
    name: 'regex',
    summary: 'the query as a case-insensitive regular expression (RE2) over name and description',
    rank(query, limit) {
      const re = pattern(query);
      if (!re.ok) return [];
      const byName: string[] = [];
      const byDescription: string[] = [];
      for (const t of tools) {
        if (re.test(t.name)) byName.push(t.name);
        else if (re.test(t.description)) byDescription.push(t.name);
      }
      return [...byName, ...byDescription].slice(0, limit);
    },
    rejects(query) {
      const re = pattern(query);
      // An empty query is no pattern at all (the other scorers return nothing for it too).
      return re.ok || query === '' ? null : re.reason;
    },
  };
}
