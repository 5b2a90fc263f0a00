/**
 * The loaders: files in, core types out. Every problem with an input is an
 * `InputError` with `file:line:column` and a caret excerpt where a position
 * exists. Input files are only ever read.
 */
export { DEFAULT_LIMITS, type InputFile, type Limits, readInputFile, resolveLimits } from '../io/read.js';
export { parseFile, parseText, syntaxFromName } from '../io/parse.js';
export {
  errorAt,
  field,
  formatLocation,
  locate,
  looseField,
  type Node,
  type ObjectNode,
  type ArrayNode,
  type ParsedDocument,
  type Syntax,
  toJsonValue,
} from '../io/nodes.js';
export { CATALOG_SHAPES, type CatalogOptions, loadCatalogFiles, mergeTools, readCatalogDocument } from './catalog.js';
export { loadTranscriptFile, readTranscriptDocument, TRANSCRIPT_SHAPES, type TranscriptOptions } from './transcript.js';
export { isReminderText } from './transcript-common.js';
export type { Catalog, CatalogFormat, CatalogTool, Transcript, TranscriptFormat } from './types.js';
export type { ShapeWarning } from './shape-warning.js';
export {
  FORMAT_CHOICES,
  READERS,
  RECORDING_FORMATS,
  readRecording,
  requireModelCall,
  type RecordingOptions,
} from './recordings/registry.js';
export type { Evidence, NearMiss, RecordingReader } from './recordings/types.js';
export { type CallSession, groupCalls, type RecordedCall } from './recordings/calls.js';
export type { Coverage, CoverageProblem, SentTools, SessionCoverage, SkipCount } from './types.js';
export { loadRecordingText, loadCatalogText } from './from-text.js';
export { assembleSse, type SseAssembly, type SseProvider, type StreamedMessage } from './recordings/sse.js';
