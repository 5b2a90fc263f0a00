/** Token and prompt-cache accounting (gpt-tokenizer is loaded only when counting). */
export {
  ENCODINGS,
  DEFAULT_ENCODING,
  parseEncodingName,
  loadTokenizer,
  type EncodingName,
  type Tokenizer,
} from './tokenizer.js';
export { TOOL_FORMATS, serializeTools, firstDifference, parseToolFormat, type ToolFormat } from './serialize.js';
export {
  accountTokens,
  accountTokensWith,
  cacheViews,
  cacheSummary,
  cacheSummaryOf,
  estimateNote,
  type AccountTokensInput,
  type CallInput,
  type CallTokens,
  type CacheView,
  type CacheSummary,
  type TokenSummary,
  type TokenAccount,
} from './account.js';
export {
  tokenAccountingForReport,
  withTokens,
  type ReportTokens,
  type ReportTokenOptions,
  type ReportCacheSummary,
  type ReportTools,
  type ReportWithTokens,
} from './report.js';
export { formatCount, formatCache, formatCallTokens, formatTokenSummary } from './format.js';
