/**
 * The `spec` scorer IS the reference: the core's `tool_search` run on the
 * query text, with `max_results` set to the depth the metrics need. Nothing
 * is re-implemented here.
 */
import { searchDecoded, ToolIndex, type ToolInfo } from '../../../core/index.js';
import type { Scorer } from './types.js';

export function createSpecScorer(tools: readonly ToolInfo[]): Scorer {
  const index = new ToolIndex(tools);
  return {
    name: 'spec',
    summary: 'the reference keyword scorer (name parts 10/5/3, description 2; ties by name)',
    rank(query, limit) {
      const out = searchDecoded(index, { query, maxResults: limit });
      // An empty query is the reference's `query is required` error: no result.
      if (!out.ok) return [];
      return [...out.matches];
    },
  };
}
