/**
 * The query as a case-insensitive regular expression over each tool's name
 * and description, like the regex variant of Anthropic's tool search (where
 * the model writes a pattern for Python's `re.search`). Here the pattern is a
 * JavaScript `RegExp` with the `i` flag; a query that is not a valid pattern
 * is searched as an escaped literal instead. Queries longer than 200
 * characters are refused (no result), as Anthropic refuses such patterns.
 * A pattern with a repeated group that itself repeats (`(a+)+`, `(\w*x)*`),
 * which can take exponential time in a backtracking engine on a long
 * description, is also searched as literal text: evaluation never hangs.
 *
 * A regex only says yes or no, so results are ordered: tools whose name
 * matches first, then tools matched by their description only, each group in
 * catalog order.
 */
import type { ToolInfo } from '../../core/index.js';
import type { Scorer } from './types.js';

/** Longest pattern accepted (Anthropic's limit). */
export const MAX_PATTERN_LENGTH = 200;

/**
 * Whether a pattern repeats a group that holds a repetition (star height
 * above 1): the shape behind catastrophic backtracking. `?` and `{0,1}` do
 * not count as repetition.
 */
export function hasNestedRepetition(pattern: string): boolean {
  // One entry per open group: does it contain a repetition?
  const stack: boolean[] = [false];
  let i = 0;
  const repeatAt = (j: number): number => {
    // Length of a repeating quantifier at j (0 when none).
    const c = pattern[j];
    if (c === '*' || c === '+') return 1;
    if (c === '{') {
      const m = /^\{(\d*)(,?)(\d*)\}/.exec(pattern.slice(j));
      if (m && (m[2] === ',' ? m[3] === '' || Number(m[3]) > 1 : Number(m[1]) > 1)) return m[0].length;
    }
    return 0;
  };
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      // An escaped character, which a quantifier may follow.
      i += 2;
      const q = repeatAt(i);
      if (q > 0) {
        stack[stack.length - 1] = true;
        i += q;
      }
    } else if (c === '[') {
      // Skip a character class (a `]` right after `[` or `[^` is literal).
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j + 1;
      const q = repeatAt(i);
      if (q > 0) {
        stack[stack.length - 1] = true;
        i += q;
      }
    } else if (c === '(') {
      stack.push(false);
      i++;
    } else if (c === ')') {
      const inner = stack.length > 1 ? stack.pop()! : false;
      i++;
      const q = repeatAt(i);
      if (q > 0 && inner) return true;
      // The enclosing group now holds a repetition (inside this group, or of it).
      if (q > 0 || inner) stack[stack.length - 1] = true;
      i += q;
      continue;
    } else {
      const q = repeatAt(i);
      if (q > 0) {
        stack[stack.length - 1] = true;
        i += q;
      } else {
        i++;
      }
    }
  }
  return false;
}

function literal(query: string): RegExp {
  return new RegExp(query.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), 'i');
}

/** The pattern for a query: the query itself when it compiles (and cannot blow up), else the query as a literal. */
export function queryPattern(query: string): RegExp {
  if (hasNestedRepetition(query)) return literal(query);
  try {
    return new RegExp(query, 'i');
  } catch {
    return literal(query);
  }
}

export function createRegexScorer(tools: readonly ToolInfo[]): Scorer {
  return {
    name: 'regex',
    summary: 'the query as a case-insensitive regular expression over name and description',
    rank(query, limit) {
      if (query === '' || query.length > MAX_PATTERN_LENGTH) return [];
      const re = queryPattern(query);
      const byName: string[] = [];
      const byDescription: string[] = [];
      for (const t of tools) {
        if (re.test(t.name)) byName.push(t.name);
        else if (re.test(t.description)) byDescription.push(t.name);
      }
      return [...byName, ...byDescription].slice(0, limit);
    },
  };
}
