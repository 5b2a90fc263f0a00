/**
 * An engine as an `eval` scorer: the AI SDK 7 port, the Mastra port, the
 * reference under its engine name (`eino`), or a user's module. Each ranks a
 * query with its limit set to the evaluation depth (10): for Mastra that is
 * `topK` 10, whose name boost looks at the best 20 BM25 results (a topK 5
 * search looks at 10, so its first five can differ).
 */
import type { EngineParams, EngineTool } from '../../../core/engines/index.js';
import { engineName, type EngineSpec, openEngine, type OpenOptions } from '../../engines/engine.js';
import type { Scorer } from './types.js';

/** The parameters an engine reads, with its defaults filled in, for the report. */
function paramsOf(spec: EngineSpec, params: EngineParams): Record<string, number | boolean> {
  if (spec.kind === 'module') return {};
  if (spec.id === 'mastra') return { minScore: params.minScore ?? 0, autoLoad: params.autoLoad ?? false };
  return {};
}

export async function createEngineScorer(
  spec: EngineSpec,
  tools: readonly EngineTool[],
  params: EngineParams = {},
  options: OpenOptions = {},
): Promise<Scorer> {
  const engine = await openEngine(spec, tools, params, options);
  return {
    name: engineName(spec),
    summary: engine.summary.replace(/; (maxResults|topK) \d+/, ''),
    params: paramsOf(spec, params),
    async rank(query, limit) {
      const out = await engine.search(query, limit);
      return out.ok ? [...out.matches] : [];
    },
    close: () => engine.close(),
  };
}
