/**
 * The `spec` scorer IS the reference: the core's `tool_search` run on the
 * query text, with `max_results` set to the depth the metrics need. Nothing
 * is re-implemented here.
 */
import { RULES, searchDecoded, ToolIndex, type ToolInfo } from '../../../core/index.js';
import type { Scorer } from './types.js';

export function createSpecScorer(tools: readonly ToolInfo[]): Scorer {
  const index = new ToolIndex(tools);
  return {
    name: 'spec',
    summary:
      `the reference keyword scorer (name parts ${RULES['exact-part'].points}/${RULES['part-substring'].points}/` +
      `${RULES['name-substring'].points}, description ${RULES.description.points}; ties by name)`,
    rank(query, limit) {
      const out = searchDecoded(index, { query, maxResults: limit });
      // An empty query is the reference's `query is required` error: no result.
      if (!out.ok) return [];
      return [...out.matches];
    },
  };
}
