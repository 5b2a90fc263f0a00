/** The engines of tool search: the reference and the ports, built by name. */
import { createAiSdkEngine } from './ai-sdk.js';
import { createEinoEngine } from './eino.js';
import { createMastraEngine } from './mastra.js';
import type { EngineId, EngineTool, SearchEngine } from './types.js';

export * from './types.js';
export {
  aiSdkTokenize,
  aiSdkToolSearchDescription,
  AI_SDK_DEFAULT_MAX_RESULTS,
  AI_SDK_TOOL_SEARCH_PARAMETERS,
  createAiSdkEngine,
  type AiSdkOptions,
} from './ai-sdk.js';
export {
  createMastraEngine,
  mastraShortDescription,
  mastraTokenize,
  MASTRA_BM25,
  MASTRA_DEFAULTS,
  type MastraEngine,
  type MastraLoadInput,
  type MastraLoadOutput,
  type MastraOptions,
  type MastraResult,
  type MastraSearchOutput,
} from './mastra.js';
export { createEinoEngine, type EinoOptions } from './eino.js';
export { AiSdkDiscovery, MastraLoadedStore, mastraFormattedKey, type TtlCheck } from './visibility.js';

/** Every engine's parameters; each engine reads its own and has its own defaults. */
export interface EngineParams {
  /** eino: max_results (default 5); ai-sdk: `toolSearch({ maxResults })` (default 5). */
  readonly maxResults?: number;
  /** mastra: `search.topK` (default 5). */
  readonly topK?: number;
  /** mastra: `search.minScore` (default 0): results scoring at most this are dropped. */
  readonly minScore?: number;
  /** mastra: `search.autoLoad` (default false). */
  readonly autoLoad?: boolean;
  /** mastra: the store's `ttl` in ms (default one hour). */
  readonly ttl?: number;
}

/** Builds a built-in engine over the searchable tools of a catalog (in catalog order). */
export function createEngine(id: EngineId, tools: readonly EngineTool[], params: EngineParams = {}): SearchEngine {
  switch (id) {
    case 'eino':
      return createEinoEngine(tools, params.maxResults !== undefined ? { maxResults: params.maxResults } : {});
    case 'ai-sdk':
      return createAiSdkEngine(tools, params.maxResults !== undefined ? { maxResults: params.maxResults } : {});
    case 'mastra':
      return createMastraEngine(tools, {
        ...(params.topK !== undefined ? { topK: params.topK } : {}),
        ...(params.minScore !== undefined ? { minScore: params.minScore } : {}),
        ...(params.autoLoad !== undefined ? { autoLoad: params.autoLoad } : {}),
      });
    default: {
      const never: never = id;
      return never;
    }
  }
}
