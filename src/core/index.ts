/**
 * The pure core: an exact port of the Eino `toolsearch` middleware (see SPEC).
 * No I/O, no dependencies; everything is deterministic.
 */
export * from './types.js';
export * from './text.js';
export { splitToolName, splitCamelCase } from './names.js';
export {
  RULES,
  parseKeywords,
  type Rule,
  type Keyword,
  type KeywordScore,
  type ScoredTool,
  type ToolExplanation,
} from './scorer.js';
export { ToolIndex, type PrefilterMode, type ToolIndexOptions, PREFILTER_SCAN_BUDGET } from './index/tool-index.js';
export {
  parseGoJson,
  goMarshalString,
  goQuoteChar,
  GO_JSON_MAX_DEPTH,
  type GoJsonValue,
  type GoJsonParse,
} from './gojson.js';
export * from './toolsearch.js';
export * from './middleware.js';
export * from './run.js';
export * from './engines/index.js';
