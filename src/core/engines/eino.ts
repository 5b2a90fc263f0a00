/**
 * The reference (Eino's `tool_search`) behind the engine interface. Nothing
 * is re-implemented: every result is the core's own `searchDecoded` over a
 * `ToolIndex`, exactly as `search` runs it.
 */
import { ToolIndex } from '../index/tool-index.js';
import { parseKeywords } from '../scorer.js';
import { goTrimSpace } from '../text.js';
import { DEFAULT_MAX_RESULTS, searchDecoded } from '../toolsearch.js';
import type { EngineOutcome, EngineTool, SearchEngine } from './types.js';

/** Options of {@link createEinoEngine}. */
export interface EinoOptions {
  /** `max_results` of every search (default 5). */
  readonly maxResults?: number;
  /** An index already built over the same tools. */
  readonly index?: ToolIndex;
}

export function createEinoEngine(tools: readonly EngineTool[], options: EinoOptions = {}): SearchEngine {
  const index = options.index ?? new ToolIndex(tools);
  const maxResults = options.maxResults ?? DEFAULT_MAX_RESULTS;
  const searchWithLimit = (query: string, limit: number): EngineOutcome => {
    const out = searchDecoded(index, { query, maxResults: limit });
    if (!out.ok) return out;
    if (out.mode === 'select')
      return {
        ok: true,
        matches: out.matches,
        scores: out.matches.map(() => 0),
        result: { matches: out.matches.length === 0 ? null : out.matches },
        total: out.matches.length,
        limit: out.matches.length,
      };
    return {
      ok: true,
      matches: out.matches,
      scores: out.results.map((r) => r.score),
      result: { matches: out.matches.length === 0 ? null : out.matches },
      total: index.rankAll(out.keywords).length,
      limit: out.maxResults,
    };
  };
  return {
    id: 'eino',
    loading: {
      resultShape: 'matches',
      loadsBy: 'search',
      visibleFrom: 'next-call',
      keeps: 'conversation',
      directSelection: 'select:',
    },
    limit: maxResults,
    summary: 'the reference: Eino tool_search (name parts 10/5/3, description 2; ties by name)',
    search: (query) => searchWithLimit(query, maxResults),
    searchWithLimit,
    rankAll(query) {
      const q = goTrimSpace(query);
      if (q === '' || q.startsWith('select:')) {
        const out = searchDecoded(index, { query, maxResults: null });
        return out.ok ? out.matches.map((name) => ({ name, score: 0 })) : [];
      }
      return index.rankAll(parseKeywords(q)).map((r) => ({ name: r.name, score: r.score }));
    },
    explain(query, name) {
      const q = goTrimSpace(query);
      if (q === '' || q.startsWith('select:')) return [];
      const ex = index.explainTool(name, parseKeywords(q));
      return (ex?.keywords ?? []).map((k) => ({
        term: `${k.required ? '+' : ''}${k.keyword}`,
        rule: k.part === null ? k.rule : `${k.rule} ${k.part}`,
        points: k.points,
      }));
    },
    nameTokens: (name) => index.partsOf(name) ?? [],
  };
}
