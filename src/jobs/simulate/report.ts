/**
 * The simulation report: plain, serializable data holding everything any view
 * (text, JSON, TUI, test suites) shows about a replayed conversation. Keys are
 * the `simulate --json` contract, so the report is written out as it is.
 */
import type { KeywordScore } from '../../core/scorer.js';
import type { Mode } from '../../core/types.js';
import type { Coverage } from '../../formats/types.js';
import type { CallTokens, ReportCacheSummary, TokenSummary } from '../tokens/account.js';

/** How a tool call relates to what the model was offered at that call. */
export type ToolCallStatus =
  /** The tool was visible (or is the `tool_search` tool in default mode). */
  | 'ok'
  /** A deferred tool called before any tool_search result named it. */
  | 'not-loaded'
  /** A tool that exists nowhere: neither static, nor dynamic, nor tool_search. */
  | 'unknown';

/** A tool call the assistant made at one model call. */
export interface ToolCallReport {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly status: ToolCallStatus;
}

/** The outcome of a `tool_search` run: its matches, or its error text. */
export type SearchOutcome = { readonly matches: readonly string[] } | { readonly error: string };

/** A `tool_search` call the assistant made (client side), with its recorded and, on replay, fresh result. */
export interface SearchReport {
  readonly call_id: string;
  readonly arguments: string;
  /** `select` or `keyword`, or null when the arguments do not decode. */
  readonly mode: 'select' | 'keyword' | null;
  /** The result text found in the transcript, decoded; null when the transcript holds no result for this call. */
  readonly recorded: SearchOutcome | null;
  /** The raw recorded result text, when there is one. */
  readonly recorded_text: string | null;
  /** The result of running the same arguments against the catalog now (always computed; shown with --replay). */
  readonly replayed: SearchOutcome;
  /** True when `recorded` is present and differs from `replayed`. */
  readonly differs: boolean;
  /**
   * Model-native mode: the model called `tool_search` and the client ran the
   * search for it (the client-proxied path), returning full tool definitions;
   * they reach the model with the next call. False in default mode, where
   * `tool_search` is the middleware's ordinary tool.
   */
  readonly client_proxied: boolean;
  /**
   * With `details` only: the per-keyword account of a keyword search (what
   * `search --explain` and `--why` show) for every tool the recorded or the
   * replayed result names (`select:`: the decoded query, no scores); null
   * when the arguments do not decode.
   */
  readonly explain?: SearchExplanation | null;
}

/**
 * The decoded arguments of one search and, for a keyword search, the per-keyword account against the catalog as it is
 * now.
 */
export interface SearchExplanation {
  /** The query as the reference reads it (Go JSON decoding, trimmed). */
  readonly query: string;
  /** `max_results` as sent, or null. */
  readonly requested_max_results: number | null;
  /** The limit applied (`max_results` when positive, else 5); null for `select:`. */
  readonly max_results: number | null;
  /** Keyword mode: the parsed keywords; empty for `select:`. */
  readonly keywords: ReadonlyArray<{ readonly keyword: string; readonly required: boolean }>;
  /** Keyword mode: how many tools score above 0 before the limit cuts; select: the names found. */
  readonly total_matches: number;
  /**
   * The tools of the recorded and the replayed result (replayed first, then recorded-only ones), each with its account.
   */
  readonly tools: readonly ExplainedTool[];
}

/** Where one tool stands for a search, and why. */
export interface ExplainedTool {
  readonly name: string;
  /** Rank in the full ranking (1-based), or null when it scores 0 (or is not a dynamic tool). */
  readonly rank: number | null;
  readonly score: number;
  /** The required keyword that excluded it, or null. */
  readonly excluded_by: string | null;
  /** Not a dynamic tool of the catalog (a recorded result may name one that is gone). */
  readonly unknown: boolean;
  readonly keywords: readonly KeywordScore[];
}

/** A search the provider ran itself (model-native, server side): information beyond the reference state. */
export interface ServerSearchReport {
  readonly call_id: string;
  readonly query: string;
  /** Tools the provider's result referenced (loaded for the model). */
  readonly loaded: readonly string[];
  /**
   * `server`: the provider ran it within the response. `client` (OpenAI Responses `execution:
   * "client"`): the model asked the client to run it; what it loads reaches the model with the call
   * after the client's `tool_search_output`.
   */
  readonly execution: 'server' | 'client';
  /** A client search whose output the recording does not hold (yet): it loaded nothing so far. */
  readonly pending: boolean;
}

/**
 * A call of one of the provider's own tools at one model call: a hosted tool the provider runs (an
 * MCP server's tool, web or file search, code interpreter, image generation) or a built-in tool the
 * client runs (computer use, shell). Not a catalog tool: beyond the reference state, never a violation.
 */
export interface ProviderCallReport {
  readonly id: string;
  /** The provider's name for the call: `mcp_call`, `web_search_call`, `server_tool_use`, … */
  readonly type: string;
  /** The tool's name where it has one (an MCP tool, an Anthropic server tool), else null. */
  readonly name: string | null;
  /** The MCP server's label, else null. */
  readonly server: string | null;
  /** What it was asked: its arguments, query, action or code, as text. */
  readonly arguments: string;
  readonly executed_by: 'provider' | 'client';
}

/** One model call. */
export interface TurnReport {
  /** 1-based model call number. */
  readonly call: number;
  /**
   * Index in the transcript of the assistant message that answered this call; null for a final call with no recorded
   * answer.
   */
  readonly message_index: number | null;
  /** Number of messages the model received (including the reminder). */
  readonly message_count: number;
  /** Names of the visible tools, in the state's order. */
  readonly visible: readonly string[];
  /** Names of the deferred tools (model-native mode), in the state's order. */
  readonly deferred: readonly string[];
  /** Tools forward selection added at this call. */
  readonly added: readonly string[];
  /** Index of the reminder in the messages the model receives. */
  readonly reminder_index: number | null;
  /** The middleware inserted the reminder at this call. */
  readonly reminder_inserted: boolean;
  /** The framework refilled a nil tool list before this call (the model-native pitfall). */
  readonly refilled: boolean;
  /** Dynamic tools neither visible nor deferred at this call. */
  readonly hidden_count: number;
  readonly tool_calls: readonly ToolCallReport[];
  readonly searches: readonly SearchReport[];
  readonly server_searches: readonly ServerSearchReport[];
  /** Calls of the provider's own tools (hosted or built in), in the order the response made them. */
  readonly provider_calls: readonly ProviderCallReport[];
  /** A short text of what the assistant said (first line), for views. */
  readonly assistant_text: string;
  /** Token estimates for this call (present unless turned off with `--no-tokens`). */
  readonly tokens?: CallTokens;
}

/** What a tool is at one model call, for the visibility timeline. */
export type TimelineState =
  /** A static tool: always visible, never searched. */
  | 'static'
  /** Visible (a dynamic tool loaded before this call, or `tool_search`). */
  | 'visible'
  /**
   * Loaded at this call: forward selection added it (default mode), or a search of the previous call loaded it
   * (model-native).
   */
  | 'loaded'
  /** Model-native: a definition in the context since an earlier call. */
  | 'in-context'
  /** Model-native: deferred (sent with `defer_loading`, not in the context). */
  | 'deferred'
  /** Not offered at this call. */
  | 'hidden';

/** One cell of the timeline: the state, and how the assistant called the tool at this call. */
export interface TimelineCell {
  readonly state: TimelineState;
  /**
   * `ok`: called and allowed; `violation`: called while not loaded, or a tool that exists nowhere; null: not called.
   */
  readonly called: 'ok' | 'violation' | null;
}

/** One tool across all model calls. */
export interface TimelineRow {
  readonly name: string;
  readonly kind: 'static' | 'tool_search' | 'dynamic' | 'unknown';
  /** Same indexes as `turns`. */
  readonly cells: readonly TimelineCell[];
  /** Loaded or called at some call (the rows a collapsed timeline keeps); static tools count only when called. */
  readonly active: boolean;
}

/** Data beyond the `--json` contract that the HTML report shows (present with the `details` option). */
export interface SimulationDetails {
  /** Tool names in catalog order. */
  readonly tools: { readonly static: readonly string[]; readonly dynamic: readonly string[] };
  /** Rows: `tool_search`, static tools, dynamic tools, then unknown tools that were called. */
  readonly timeline: readonly TimelineRow[];
  /** With replay: the visible tools of each call when every search returns what the catalog returns now. */
  readonly replay_visible: ReadonlyArray<readonly string[]> | null;
}

/** Kinds of findings. */
export type ViolationKind =
  | 'not-loaded'
  | 'unknown'
  | 'redundant-select'
  | 'native-refill'
  | 'unknown-call-id'
  /** A tool call no result answers while the conversation goes on (warning; the reference replays it as is). */
  | 'unanswered-call'
  /** The tools the recording sent with a call differ from what the reference offers (warning). */
  | 'sent-differs'
  /** A search result of tool_reference blocks in default mode, which the reference does not load (warning). */
  | 'reference-result'
  /** Mastra: the time between two calls passed the TTL and a cleanup: the loaded tools were dropped (warning). */
  | 'ttl-expired'
  /** Mastra: past the TTL but not a cleanup interval more: dropped or not, by the timer's phase (warning). */
  | 'ttl-uncertain';

/** A finding at one model call. `warning`s never fail `--fail-on-violation`. */
export interface Violation {
  readonly call: number;
  readonly tool: string | null;
  readonly kind: ViolationKind;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** The transcript message the finding is about (`unknown-call-id`: the tool result). */
  readonly message_index?: number;
  /** Where that message starts in the transcript file. */
  readonly location?: { readonly file: string; readonly line: number; readonly column: number };
}

/** How replaying the searches would change what the model sees at one call. */
export interface VisibilityChange {
  readonly call: number;
  /** Tools visible with the replayed results but not with the recorded ones. */
  readonly gained: readonly string[];
  /** Tools visible with the recorded results but not with the replayed ones. */
  readonly lost: readonly string[];
}

/** Which engine's loading rule the simulation ran, and why. */
export interface EngineReport {
  /** `eino` (the reference), `ai-sdk` or `mastra`. */
  readonly name: string;
  /** `--engine`, detected from the recording (the search tool's shape), or the default (the reference). */
  readonly by: 'flag' | 'recording' | 'default';
  /** What in the recording showed the engine (with `by: recording`, or a flag the recording contradicts). */
  readonly evidence: string | null;
  /** The engine's parameters, defaults filled in. */
  readonly params: Readonly<Record<string, number | boolean>>;
}

/** The whole report. */
export interface SimulationReport {
  readonly mode: Mode;
  /** The engine whose loading rule ran (the reference, Eino's middleware, unless another is named or detected). */
  readonly engine: EngineReport;
  readonly transcript: {
    readonly file: string;
    readonly format: string;
    readonly messages: number;
    /**
     * Index of the message the loader recognised as the middleware's reminder
     * by its text alone (a provider log drops Eino's marker field), or null.
     * Beyond the reference, which only knows the marker; never set for Eino
     * transcripts.
     */
    readonly reminder_recognised_by_text: number | null;
  };
  readonly catalog: { readonly dynamic: number; readonly static: number; readonly source: string };
  /**
   * What the loader read of the recording: items read, skipped by which
   * documented rule, not understood (lenient only), the format and why.
   * Null when the transcript was built in code, not loaded.
   */
  readonly coverage: Coverage | null;
  readonly turns: readonly TurnReport[];
  readonly violations: readonly Violation[];
  /** Present when replay was requested. */
  readonly replay: { readonly differences: number; readonly visibility: readonly VisibilityChange[] } | null;
  readonly summary: {
    readonly calls: number;
    readonly searches: number;
    readonly server_searches: number;
    /** Calls of the provider's own tools (hosted or built in) over every model call. */
    readonly provider_calls: number;
    /** Default mode: dynamic tools visible at the last call. Model-native mode: deferred tools that searches loaded. */
    readonly tools_loaded: number;
    readonly errors: number;
    readonly warnings: number;
    /** Recorded searches whose fresh result differs (0 unless replayed). */
    readonly replay_differences: number;
    /** Token totals over the conversation (present with token accounting). */
    readonly tokens?: TokenSummary;
    /** Prompt-cache view of the tools block (present with token accounting). */
    readonly cache?: ReportCacheSummary;
  };
  /** With the `details` option (the HTML report): the timeline, tool lists and the replayed visibility. */
  readonly details?: SimulationDetails;
}
