/**
 * What the loaders produce: core types plus where each item came from.
 * Loaders turn outside data (files, request bodies, MCP results) into these;
 * every parse or shape error is an `InputError` with file, line and column.
 */
import type { Message, ToolInfo } from '../core/types.js';
import type { SourceLocation } from '../io/errors.js';
import type { ShapeWarning } from './shape-warning.js';

/**
 * Catalog shapes the loaders recognise (src/formats/catalog.ts describes each in CATALOG_SHAPES):
 * - toolsearch: our own, {tools: [{name, description, parameters?, static?}]} or a bare list
 * - openai: chat, [{type: "function", function: {name, description, parameters}}], and the flat Responses form
 * - anthropic: [{name, description, input_schema, defer_loading?}]
 * - mcp: a tools/list result, {tools: [{name, description, inputSchema}]}
 * - eino: Eino ToolInfo, [{name, desc, params | json_schema}]
 * - request: a logged request body that carries `tools` (OpenAI or Anthropic)
 */
export const CATALOG_SHAPE_FORMATS = ['toolsearch', 'openai', 'anthropic', 'mcp', 'eino', 'request'] as const;

/** A value of {@link CATALOG_SHAPE_FORMATS}. */
export type CatalogFormat = (typeof CATALOG_SHAPE_FORMATS)[number];

/**
 * The values of `--catalog-format` and a suite's `catalog_format`: `auto` (detected per file: a data shape, or an
 * MCP client config, whose servers start), a data shape (the file is read as that shape only), `data` (any data
 * shape, detected; never a client config: an untrusted catalog read as plain data), or `mcp-config` (an MCP client
 * config, whose servers start).
 */
export const CATALOG_FORMATS = ['auto', ...CATALOG_SHAPE_FORMATS, 'data', 'mcp-config'] as const;

/** A value of {@link CATALOG_FORMATS}. */
export type CatalogFormatChoice = (typeof CATALOG_FORMATS)[number];

/** Whether a `--catalog-format` lets a catalog file be an MCP client config (whose servers start). */
export function configAllowed(format: CatalogFormatChoice | undefined): boolean {
  return format === undefined || format === 'auto' || format === 'mcp-config';
}

/** A tool of a loaded catalog. */
export interface CatalogTool extends ToolInfo {
  /** Static tools are always visible and never searched. */
  readonly static: boolean;
  /** Where the tool is defined. */
  readonly source: SourceLocation;
}

/** What one catalog file loads to (catalog.ts: `readCatalogDocument`). */
export interface CatalogFileResult {
  readonly tools: CatalogTool[];
  readonly format: CatalogFormat;
  readonly warnings: string[];
  /** The shape warnings among `warnings`, structured (`--strict` makes them errors); none when absent. */
  readonly shapeWarnings?: readonly ShapeWarning[];
}

/** A loaded (possibly merged) catalog. */
export interface Catalog {
  readonly tools: readonly CatalogTool[];
  /** Files it came from, with the detected format of each. */
  readonly sources: ReadonlyArray<{ readonly file: string; readonly format: CatalogFormat }>;
  /**
   * Non-fatal problems found while loading (e.g. a provider tool that is not a function, skipped), each
   * `file:line:column: text`.
   */
  readonly warnings?: readonly string[];
  /**
   * The shape warnings among `warnings` (an unknown key, a value of the wrong
   * type in a tool entry of our format), structured: `--strict` makes them errors.
   */
  readonly shapeWarnings?: readonly ShapeWarning[];
}

/** Recording (transcript) formats the loaders recognise; see src/formats/recordings/. */
export type TranscriptFormat =
  | 'eino'
  | 'openai'
  | 'openai-responses'
  | 'anthropic'
  | 'claude-code'
  | 'ai-sdk'
  | 'mastra'
  | 'openai-agents'
  | 'langchain'
  | 'otel'
  | 'response'
  | 'call-log'
  | 'gemini'
  | 'sse'
  | 'cline'
  | 'openai-agents-state'
  | 'nock'
  | 'vcr'
  | 'har';

/** Items of a recording skipped by one documented rule. */
export interface SkipCount {
  readonly rule: string;
  readonly count: number;
}

/** Something in a recording that no rule explains (an error unless lenient), at `file:line:column`. */
export interface CoverageProblem {
  readonly location: string;
  readonly message: string;
}

/**
 * How much of a recording was understood: every item is read, skipped by a
 * documented rule, or (only with `lenient`) counted as not understood.
 * Plain data: the `coverage` of `simulate --json`.
 */
export interface Coverage {
  /** The format read. */
  readonly format: TranscriptFormat;
  /** Why: `--format` when forced, else the evidence detection found. */
  readonly detected_by: string;
  /** Items seen: top-level items read or skipped (messages, lines, spans), plus each item or part not understood. */
  readonly items: number;
  /** Items read into the conversation. */
  readonly read: number;
  /** Items skipped by a documented rule, with counts per rule (in first-seen order). */
  readonly skipped: readonly SkipCount[];
  /** Items or parts no rule explains (lenient only; otherwise the load fails on the first). */
  readonly unexplained: readonly CoverageProblem[];
  /** Tool calls or results that cannot be paired (lenient only; otherwise the load fails). */
  readonly unpaired: readonly CoverageProblem[];
  /** The names read as the search tool, and where they come from (`--search-tool`, a format default), or null. */
  readonly search_tool: { readonly names: readonly string[]; readonly source: string } | null;
  /**
   * Conversation of this transcript: `main`, a sidechain's id (Claude Code subagents), or
   * `session k` (the k-th session of a log of model calls, k >= 2; the first is `main`).
   */
  readonly conversation: string;
  /**
   * Calls of the provider's own tools read (hosted or built in: an MCP, web search or computer call),
   * listed per model call in the report (`provider_calls`); absent when there are none.
   */
  readonly provider_calls?: number;
  /** A log of model calls (call log): the session this conversation is, and how the calls were grouped. */
  readonly sessions?: SessionCoverage;
}

/** Which session of a log of model calls a conversation is, and how the log's calls were grouped. */
export interface SessionCoverage {
  /** 1-based, in the order of the sessions' first calls. */
  readonly index: number;
  /** Sessions in the log. */
  readonly count: number;
  /** Where each call of this session is (`file:line:column`), in order. */
  readonly calls: readonly string[];
  /** How calls were grouped, in one sentence. */
  readonly rule: string;
}

/** The tools a recording says were sent with one model call (call logs, OTel spans). */
export interface SentTools {
  /** Sent as ordinary tools. */
  readonly visible: readonly string[];
  /** Sent deferred (`defer_loading: true`). */
  readonly deferred: readonly string[];
}

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
  /** What was read, skipped and not understood. */
  readonly coverage?: Coverage;
  /**
   * The tools sent with each model call, by call (index 0 is call 1), where
   * the recording holds them; null for a call it does not say.
   */
  readonly sentTools?: ReadonlyArray<SentTools | null>;
  /** The recording is a request body: itself one model call. */
  readonly request?: boolean;
  /**
   * When each message was made (ms since the epoch; same indexes as `messages`), where the recording says
   * (AI SDK UIMessage `createdAt`, a step's `response.timestamp`, Mastra's `providerOptions.mastra.createdAt`);
   * null for a message it does not date. Mastra's TTL needs them.
   */
  readonly times?: ReadonlyArray<number | null>;
  /** Other conversations of the same file (Claude Code subagent sidechains, with `sidechains`). */
  readonly sidechains?: readonly Transcript[];
}
