/**
 * The `tool_search` tool (SPEC §2): argument decoding with Go JSON semantics,
 * direct selection (`select:`), keyword search, and both result shapes.
 */
import { goFoldKey, goJsonKind, goMarshalString, parseGoInt64, parseGoJson, type GoJsonValue } from './gojson.js';
import type { ToolIndex } from './index/tool-index.js';
import { parseKeywords, type Keyword, type ScoredTool } from './scorer.js';
import { goTrimSpace } from './text.js';
import type { ToolInfo } from './types.js';

/** The meta-tool's name, as the reference registers it. */
export const TOOL_SEARCH_NAME = 'tool_search';

/** Results returned by a keyword search when `max_results` is absent or not positive. */
export const DEFAULT_MAX_RESULTS = 5;

/** Prefix of every argument decoding error, as in the reference. */
export const UNMARSHAL_ERROR_PREFIX = 'failed to unmarshal tool search arguments: ';

/** Error text for a query that is empty after trimming. */
export const QUERY_REQUIRED_ERROR = 'query is required';

/**
 * The definition of the `tool_search` tool offered to the model. Name and
 * parameters are the reference's; the description is our own text.
 */
export const TOOL_SEARCH_TOOL: ToolInfo = {
  name: TOOL_SEARCH_NAME,
  description:
    'Search the deferred tools that are not loaded yet, and load the ones you need. ' +
    'The names of all deferred tools are listed in <available-deferred-tools>. ' +
    'Pass keywords to rank tools by how well their names and descriptions match ' +
    '(prefix a keyword with + to require it), or "select:name1,name2" to load tools by exact name. ' +
    'Tools returned become callable from your next turn.',
  parameters: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description:
          'Query to find deferred tools. Use "select:<tool_name>" for direct selection, or keywords to search.',
      },
      max_results: {
        type: 'integer',
        description: 'Maximum number of results to return (default: 5)',
      },
    },
    required: ['query'],
  },
};

/** Arguments as Go decodes them into `toolSearchArgs` (null: the field was never set, or set to null). */
export interface ToolSearchArgs {
  readonly query: string;
  /**
   * Go `*int`: null when absent or reset by a JSON null. Values beyond 2^53 lose precision, which never changes a
   * result.
   */
  readonly maxResults: number | null;
}

/** Outcome of decoding: the arguments, or the full error text. */
export type DecodedArgs =
  | { readonly ok: true; readonly args: ToolSearchArgs }
  | { readonly ok: false; readonly error: string };

function typeError(value: string, field: string | null, goType: string): string {
  return field === null
    ? `json: cannot unmarshal ${value} into Go value of type ${goType}`
    : `json: cannot unmarshal ${value} into Go struct field toolSearchArgs.${field} of type ${goType}`;
}

/**
 * Decodes raw `tool_search` arguments as Go's `json.Unmarshal` into
 * `struct { Query string "query"; MaxResults *int "max_results" }`: keys match
 * case-insensitively with Go's folding, are applied in order (a later
 * duplicate decodes over an earlier one), unknown keys are ignored, `null`
 * leaves `query` alone but resets the `*int` to nil, `max_results` must be an
 * integer literal in 64-bit range, and the first type error is reported.
 */
export function decodeToolSearchArgs(input: string | Uint8Array): DecodedArgs {
  const parsed = parseGoJson(input);
  if (!parsed.ok) return { ok: false, error: UNMARSHAL_ERROR_PREFIX + parsed.error };
  const v = parsed.value;
  if (v.t === 'null') return { ok: true, args: { query: '', maxResults: null } };
  if (v.t !== 'object') {
    return { ok: false, error: UNMARSHAL_ERROR_PREFIX + typeError(goJsonKind(v), null, 'toolsearch.toolSearchArgs') };
  }
  let query = '';
  let maxResults: number | null = null;
  let firstError: string | null = null;
  const fail = (msg: string): void => {
    if (firstError === null) firstError = msg;
  };
  for (const [key, value] of v.entries) {
    const folded = key === 'query' || key === 'max_results' ? key.toUpperCase() : goFoldKey(key);
    if (folded === 'QUERY') {
      if (value.t === 'string') query = value.v;
      else if (value.t !== 'null') fail(typeError(goJsonKind(value), 'query', 'string'));
    } else if (folded === 'MAX_RESULTS') {
      if (value.t === 'null') maxResults = null;
      else if (value.t === 'number') {
        const n = parseGoInt64(value.raw);
        if (n === null) fail(typeError(`number ${value.raw}`, 'max_results', 'int'));
        else maxResults = Number(n);
      } else fail(typeError(goJsonKind(value), 'max_results', 'int'));
    }
  }
  if (firstError !== null) return { ok: false, error: UNMARSHAL_ERROR_PREFIX + firstError };
  return { ok: true, args: { query, maxResults } };
}

/**
 * Decodes a `{"matches": [...]}` text as the reference's forward selection
 * does (`json.Unmarshal` into `struct { Matches []string "matches" }`).
 * Returns null when Go would fail (the message is then skipped silently).
 *
 * Go decodes a repeated `matches` key into the slice it already holds, so a
 * `null` element keeps what an earlier array put at that index; a `null`
 * value or `[]` replaces the slice. This models that backing array.
 */
export function decodeMatches(text: string | Uint8Array): string[] | null {
  const parsed = parseGoJson(text);
  if (!parsed.ok) return null;
  const v = parsed.value;
  if (v.t === 'null') return [];
  if (v.t !== 'object') return null;
  let backing: string[] = [];
  let length = 0;
  for (const [key, value] of v.entries) {
    if ((key === 'matches' ? 'MATCHES' : goFoldKey(key)) !== 'MATCHES') continue;
    if (value.t === 'null') {
      backing = [];
      length = 0;
      continue;
    }
    if (value.t !== 'array') return null;
    if (value.items.length === 0) {
      backing = [];
      length = 0;
      continue;
    }
    for (let i = 0; i < value.items.length; i++) {
      const item: GoJsonValue = value.items[i]!;
      if (item.t === 'string') backing[i] = item.v;
      else if (item.t === 'null') backing[i] = backing[i] ?? '';
      else return null;
    }
    length = value.items.length;
  }
  return backing.slice(0, length);
}

/** A successful `tool_search` run. */
export type ToolSearchSuccess =
  | {
      readonly ok: true;
      readonly mode: 'select';
      /** The trimmed query. */
      readonly query: string;
      /** The decoded `max_results` (null when unset); it does not apply to `select:`. */
      readonly requestedMaxResults: number | null;
      /** The names requested, each piece trimmed, empty pieces dropped, in order. */
      readonly requested: readonly string[];
      /** Requested names that are not dynamic tools (skipped by the reference). */
      readonly unknown: readonly string[];
      /** The returned names: requested names that exist, in order, duplicates kept. */
      readonly matches: readonly string[];
    }
  | {
      readonly ok: true;
      readonly mode: 'keyword';
      readonly query: string;
      readonly requestedMaxResults: number | null;
      /** The limit applied: `max_results` when positive, else 5. */
      readonly maxResults: number;
      readonly keywords: readonly Keyword[];
      readonly matches: readonly string[];
      /** The matches with their scores (and explanations when asked). */
      readonly results: readonly ScoredTool[];
    };

/** Outcome of a `tool_search` run: a success, or the reference's error text. */
export type ToolSearchOutcome = ToolSearchSuccess | { readonly ok: false; readonly error: string };

/** Runs a query that is already decoded (the reference's `search` after unmarshalling). */
export function searchDecoded(
  index: ToolIndex,
  args: ToolSearchArgs,
  options: { explain?: boolean } = {},
): ToolSearchOutcome {
  const query = goTrimSpace(args.query);
  if (query === '') return { ok: false, error: QUERY_REQUIRED_ERROR };
  const maxResults = args.maxResults !== null && args.maxResults > 0 ? args.maxResults : DEFAULT_MAX_RESULTS;
  if (query.startsWith('select:')) {
    const requested: string[] = [];
    const unknown: string[] = [];
    const matches: string[] = [];
    for (const piece of query.slice('select:'.length).split(',')) {
      const name = goTrimSpace(piece);
      if (name === '') continue;
      requested.push(name);
      if (index.has(name)) matches.push(name);
      else unknown.push(name);
    }
    return { ok: true, mode: 'select', query, requestedMaxResults: args.maxResults, requested, unknown, matches };
  }
  const keywords = parseKeywords(query);
  const results = index.search(keywords, maxResults, options);
  return {
    ok: true,
    mode: 'keyword',
    query,
    requestedMaxResults: args.maxResults,
    maxResults,
    keywords,
    matches: results.map((r) => r.name),
    results,
  };
}

/** Runs `tool_search` on raw arguments text exactly as the model sent it. */
export function runToolSearch(
  index: ToolIndex,
  argumentsJson: string | Uint8Array,
  options: { explain?: boolean } = {},
): ToolSearchOutcome {
  const decoded = decodeToolSearchArgs(argumentsJson);
  if (!decoded.ok) return decoded;
  return searchDecoded(index, decoded.args, options);
}

/**
 * The default-mode result text, byte for byte as Go's `json.Marshal` writes
 * it: `{"matches":["a","b"]}`, and `{"matches":null}` when nothing matched.
 */
export function encodeMatches(matches: readonly string[]): string {
  if (matches.length === 0) return '{"matches":null}';
  return `{"matches":[${matches.map(goMarshalString).join(',')}]}`;
}

/** The model-native result: a tool search result part carrying the full definitions of the matches. */
export interface NativeToolSearchResult {
  readonly type: 'tool_search_result';
  readonly tools: readonly ToolInfo[];
}

/** Builds the model-native result for a list of matched names (unknown names skipped, order and duplicates kept). */
export function nativeResult(index: ToolIndex, matches: readonly string[]): NativeToolSearchResult {
  const tools: ToolInfo[] = [];
  for (const name of matches) {
    const t = index.get(name);
    if (t) tools.push(t);
  }
  return { type: 'tool_search_result', tools };
}
