/**
 * Word splitting for the baseline scorers and the linter (not the reference:
 * the reference splits names with `splitToolName` and never tokenizes
 * descriptions). A word is a run of letters, marks and digits, lower-cased
 * with Go's `strings.ToLower`.
 */
import { goToLower, splitToolName } from '../../core/index.js';
import { append } from '../../core/append.js';

const NON_WORD = /[^\p{L}\p{M}\p{N}]+/u;

/** Lower-cased words of free text (a description, a query), in order, duplicates kept. */
export function textWords(text: string): string[] {
  const out: string[] = [];
  for (const w of text.split(NON_WORD)) if (w !== '') out.push(goToLower(w));
  return out;
}

/**
 * Lower-cased words of a tool name: its name parts as the reference splits
 * them (`__`, `_`, camelCase), each further split where it holds other
 * separators the reference keeps (`notion-create-pages` → notion, create,
 * pages). `mcp__github__createIssue` → mcp, github, create, issue.
 */
export function nameWords(name: string): string[] {
  const out: string[] = [];
  for (const part of splitToolName(name)) append(out, textWords(part));
  return out;
}
