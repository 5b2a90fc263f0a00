/**
 * What the loaders produce: core types plus where each item came from.
 * Loaders turn outside data (files, request bodies, MCP results) into these;
 * every parse or shape error is an `InputError` with file, line and column.
 */
import type { Message, ToolInfo } from '../core/types.js';
import type { SourceLocation } from '../errors.js';

/** Catalog shapes the loaders recognise. */
export type CatalogFormat =
  | 'toolsearch' // our own: {tools: [{name, description, parameters?, static?}]} or a bare list
  | 'openai' // chat: [{type: "function", function: {name, description, parameters}}] and the flat Responses form
  | 'anthropic' // [{name, description, input_schema, defer_loading?}]
  | 'mcp' // tools/list result: {tools: [{name, description, inputSchema}]}
  | 'eino' // Eino ToolInfo: [{name, desc, params | json_schema}]
  | 'request'; // a logged request body that carries `tools` (OpenAI or Anthropic)

/** A tool of a loaded catalog. */
export interface CatalogTool extends ToolInfo {
  /** Static tools are always visible and never searched. */
  readonly static: boolean;
  /** Where the tool is defined. */
  readonly source: SourceLocation;
}

/** A loaded (possibly merged) catalog. */
export interface Catalog {
  readonly tools: readonly CatalogTool[];
  /** Files it came from, with the detected format of each. */
  readonly sources: ReadonlyArray<{ readonly file: string; readonly format: CatalogFormat }>;
  /** Non-fatal problems found while loading (e.g. a provider tool that is not a function, skipped), each `file:line:column: text`. */
  readonly warnings?: readonly string[];
}

/** Transcript shapes the loaders recognise. */
export type TranscriptFormat = 'eino' | 'openai' | 'openai-responses' | 'anthropic';

/** A loaded transcript. */
export interface Transcript {
  readonly file: string;
  readonly format: TranscriptFormat;
  readonly messages: readonly Message[];
  /** Where each message starts in the file (same indexes as `messages`). */
  readonly locations: readonly SourceLocation[];
  /** Tools carried by the transcript itself (a logged request body), if any. */
  readonly tools: readonly CatalogTool[] | null;
  /** Non-fatal problems found while loading (e.g. a tool result pointing to an unknown call id). */
  readonly warnings: readonly string[];
}
