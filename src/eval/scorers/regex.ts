/**
 * The query as a case-insensitive regular expression over each tool's name
 * and description, like the regex variant of Anthropic's tool search (where
 * the model writes a pattern for Python's `re.search`). Here the pattern is a
 * JavaScript `RegExp` with the `i` flag; a query that is not a valid pattern
 * is searched as an escaped literal instead. Queries longer than 200
 * characters are refused (no result), as Anthropic refuses such patterns;
 * this also bounds the cost of a pathological pattern.
 *
 * A regex only says yes or no, so results are ordered: tools whose name
 * matches first, then tools matched by their description only, each group in
 * catalog order.
 */
import type { ToolInfo } from '../../core/index.js';
import type { Scorer } from './types.js';

/** Longest pattern accepted (Anthropic's limit). */
export const MAX_PATTERN_LENGTH = 200;

/** The pattern for a query: the query itself when it compiles, else the query as a literal. */
export function queryPattern(query: string): RegExp {
  try {
    return new RegExp(query, 'i');
  } catch {
    return new RegExp(query.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), 'i');
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
