/** The scorer registry of `toolsearch eval`. */
import type { ToolInfo } from '../../../core/index.js';
import { createBm25Scorer } from './bm25.js';
import { createFuseScorer } from './fuse.js';
import { createRegexScorer } from './regex.js';
import { createSpecScorer } from './spec.js';
import { type Scorer, type ScorerFactory, type ScorerName } from './types.js';

export { SCORER_NAMES, type Scorer, type ScorerName, type ScorerFactory } from './types.js';
export { BM25_PARAMS } from './bm25.js';
export { FUSE_OPTIONS, FUSE_KEYS } from './fuse.js';
export { compilePattern, MAX_PATTERN_LENGTH, type CompiledPattern } from './regex.js';

const FACTORIES: { readonly [K in ScorerName]: ScorerFactory } = {
  spec: createSpecScorer,
  fuse: createFuseScorer,
  bm25: createBm25Scorer,
  regex: createRegexScorer,
};

/** Builds the named scorer over the tools. */
export async function createScorer(name: ScorerName, tools: readonly ToolInfo[]): Promise<Scorer> {
  return FACTORIES[name](tools);
}
