/** The scorer registry of `toolsearch eval`: the reference, the baselines, the engines and a user's module. */
import type { EngineParams, ToolInfo } from '../../../core/index.js';
import { parseEngineSpec, type OpenOptions } from '../../engines/engine.js';
import { createBm25Scorer } from './bm25.js';
import { createEngineScorer } from './engine.js';
import { createFuseScorer } from './fuse.js';
import { createRegexScorer } from './regex.js';
import { createSpecScorer } from './spec.js';
import { type BaselineName, SCORER_NAMES, type Scorer, type ScorerFactory, type ScorerName } from './types.js';

export {
  ENGINE_SCORER_NAMES,
  SCORER_NAMES,
  type BaselineName,
  type Scorer,
  type ScorerName,
  type ScorerFactory,
} from './types.js';
export { BM25_PARAMS } from './bm25.js';
export { FUSE_OPTIONS, FUSE_KEYS } from './fuse.js';
export { compilePattern, MAX_PATTERN_LENGTH, type CompiledPattern } from './regex.js';

const FACTORIES: { readonly [K in BaselineName]: ScorerFactory } = {
  spec: createSpecScorer,
  fuse: createFuseScorer,
  bm25: createBm25Scorer,
  regex: createRegexScorer,
};

/** Whether a string names a baseline or the reference (`spec`). */
export function isScorerName(s: string): s is BaselineName {
  return (SCORER_NAMES as readonly string[]).includes(s);
}

/** Builds the named scorer over the tools (an engine with its parameters; a module in its worker). */
export async function createScorer(
  name: ScorerName,
  tools: readonly ToolInfo[],
  params: EngineParams = {},
  options: OpenOptions = {},
): Promise<Scorer> {
  if (isScorerName(name)) return FACTORIES[name](tools);
  return createEngineScorer(parseEngineSpec(name), tools, params, options);
}
