/**
 * What the HTTP recordings test suites keep (nock, VCR cassettes, HAR)
 * share: each holds HTTP exchanges, some of them model calls. An exchange
 * is a model call when it is a POST to a model endpoint — OpenAI Chat
 * (`…/chat/completions`), OpenAI Responses (`…/responses`), Anthropic
 * Messages (`…/messages`), Gemini (`…:generateContent`) — whose JSON body
 * has that API's messages (`messages`, `input`, `contents`), or a POST elsewhere (a gateway's own path) whose
 * body has them and whose answer is a model response. Its request and
 * response bodies, decoded (base64, hex, gzip / deflate / br / zstd,
 * UTF-8, JSON; a streamed response's server-sent events assembled as the
 * provider's client does, sse.ts; Gemini's streamGenerateContent chunks,
 * as SSE or a JSON list, merged into one response), become one logged model call; the calls
 * are read as a call log (calls.ts; Gemini's by gemini.ts), grouped into
 * sessions together. Everything else is skipped by a rule and counted: other
 * methods, other endpoints, failed calls (status 400 and above).
 */
import { type Decoded, fromBase64, looksGzipped, undoContentEncoding, utf8 } from '../../io/decode.js';
import { nodesOf, parseEmbedded } from '../../io/embedded.js';
import type { JsonValue } from '../../core/types.js';
import { field, type Node, type ObjectNode, type StringNode, toJsonValue } from '../../io/nodes.js';
import type { Limits } from '../../io/read.js';
import { TranscriptBuilder } from '../transcript-common.js';
import {
  type LoggedCall,
  loggedSessionCall,
  type Provider,
  readSessions,
  responseProvider,
  type SessionCall,
} from './calls.js';
import { geminiSessionCall, isGeminiChunk, mergeGeminiChunks } from './gemini.js';
import { assembleSse } from './sse.js';

/** A body as a recording keeps it. */
export type RecordedBody =
  /** A JSON value written into the file as such (nock's parsed JSON bodies). */
  | { readonly kind: 'json'; readonly node: Node }
  /** Text in a string of the file (a HAR `text`, a VCR `string`, a nock string body). */
  | { readonly kind: 'text'; readonly node: StringNode }
  /** Bytes the file holds encoded (base64, hex), found at `at`. */
  | { readonly kind: 'bytes'; readonly at: Node; readonly bytes: Uint8Array };

/** One HTTP exchange of a recording, as its reader finds it. */
export interface HttpExchange {
  /** The entry (errors about the whole exchange point here). */
  readonly at: Node;
  /** What messages call it: `HAR entry 3`. */
  readonly label: string;
  readonly method: string | null;
  /** The URL, or only its path (nock keeps the origin apart). */
  readonly url: string | null;
  /** The response status; null when the recording has none. */
  readonly status: number | null;
  readonly request: RecordedBody | null;
  readonly response: RecordedBody | null;
  /** Header values by lower-case name (the first, when repeated). */
  readonly requestHeaders: ReadonlyMap<string, string>;
  readonly responseHeaders: ReadonlyMap<string, string>;
  /**
   * Whether recorded bytes are still as sent, `Content-Encoding` applied (VCR, nock), or already decoded
   * (HAR's content, which the specification keeps decoded).
   */
  readonly encodedAsSent: boolean;
}

export const NOT_POST = 'HTTP requests other than POST (page loads, model lists, preflights: not model calls)';
export const OTHER_POST =
  'POST requests that are not model calls (another endpoint, or a body without the API messages)';
export const FAILED = 'model calls that failed (HTTP status 400 and above, or none: the model answered nothing)';

/** The API of a model endpoint. */
export type Endpoint = Provider | 'gemini';

/** The API a URL's path names, from its last segment; null for any other path. */
export function endpointOf(url: string | null): Endpoint | null {
  if (url === null) return null;
  const path = url.replace(/[?#].*$/s, '').replace(/\/+$/, '');
  if (/\/chat\/completions$/.test(path)) return 'openai';
  if (/\/responses$/.test(path)) return 'openai-responses';
  if (/\/messages$/.test(path)) return 'anthropic';
  if (/:(stream)?generateContent$/i.test(path)) return 'gemini';
  return null;
}

/** The member a request body of `endpoint` must have to be a model call. */
const MESSAGES_KEY: Readonly<Record<Endpoint, string>> = {
  openai: 'messages',
  'openai-responses': 'input',
  anthropic: 'messages',
  gemini: 'contents',
};

function hasMessages(body: Node, endpoint: Endpoint | null): boolean {
  if (body.kind !== 'object') return false;
  if (endpoint !== null) return field(body, MESSAGES_KEY[endpoint]) !== undefined;
  return field(body, 'messages')?.kind === 'array' || field(body, 'input') !== undefined;
}

/** Whether a `Content-Encoding` is gzip alone (the one coding whose data shows by its first bytes). */
const isGzip = (coding: string): boolean => /^\s*(x-)?gzip\s*$/i.test(coding);

/**
 * The text of a body: its string, or its bytes read as UTF-8 after undoing the content encoding where the
 * bytes still have it: bytes recorded as sent have it (VCR), except gzip bytes that do not start as gzip
 * does and other codings' bytes that do not decode but are UTF-8 text (nock 15's fetch interception keeps
 * the body decoded under the header); bytes recorded decoded (HAR,
 * by its specification) have it only when they start as gzip data, whatever the headers say (some writers
 * keep the bytes as sent).
 */
function bodyText(
  body: Exclude<RecordedBody, { kind: 'json' }>,
  coding: string | undefined,
  encodedAsSent: boolean,
  limits: Limits,
): Decoded<string> {
  if (body.kind === 'text') return { ok: true, value: body.node.value };
  let bytes = body.bytes;
  const encoded = encodedAsSent
    ? coding !== undefined && (!isGzip(coding) || looksGzipped(bytes))
    : looksGzipped(bytes);
  if (encoded) {
    const undone = undoContentEncoding(bytes, encodedAsSent ? coding! : 'gzip', limits.maxBytes);
    if (undone.ok) bytes = undone.value;
    // Bytes that are no such data but are text were kept decoded under the header (nock 15's fetch
    // interception does so for every coding: br, deflate, several).
    else if (!/^not \S+ data /.test(undone.error) || !utf8(bytes).ok) return undone;
  }
  return utf8(bytes);
}

/** A body's JSON value, or null after recording why not. */
function jsonBody(
  b: TranscriptBuilder,
  body: RecordedBody,
  coding: string | undefined,
  encodedAsSent: boolean,
  limits: Limits,
  what: string,
): Node | null {
  if (body.kind === 'json') return body.node;
  const at = body.kind === 'text' ? body.node : body.at;
  const text = bodyText(body, coding, encodedAsSent, limits);
  if (!text.ok) {
    b.unexplained(at, `${what}: ${text.error}`);
    return null;
  }
  const parsed = parseEmbedded(b.doc, text.value, at, body.kind === 'text' ? body.node : null, limits);
  if ('error' in parsed) {
    b.unexplained(at, `${what} is not JSON: ${parsed.error}`);
    return null;
  }
  return parsed.root;
}

/** Whether a response is a stream of server-sent events (its type, or text that starts as one). */
function isEventStream(ex: HttpExchange, text: string | null): boolean {
  const type = ex.responseHeaders.get('content-type') ?? '';
  if (/text\/event-stream/i.test(type)) return true;
  return text !== null && /^\s*(event|data):/.test(text);
}

/**
 * Reads a list of exchanges into `b`: model calls as a call log (calls.ts; Gemini's by gemini.ts), the
 * rest skipped by rule.
 */
export function readHttpExchanges(b: TranscriptBuilder, exchanges: readonly HttpExchange[], limits: Limits): void {
  const calls: SessionCall[] = [];
  for (const ex of exchanges) {
    const call = modelCall(b, ex, limits);
    if (call === null) continue;
    // Gemini's calls and the others' are read each their own way, then grouped together, in order:
    // a recording of an app that calls several APIs comes apart into each API's conversations.
    const read =
      call.provider === 'gemini'
        ? geminiSessionCall(b, { ...call, at: ex.at })
        : loggedSessionCall(b, call as LoggedCall);
    if (read !== null) calls.push(read);
  }
  readSessions(b, calls);
}

/** A model call of an exchange: a logged call, with the API its endpoint names. */
type ModelCall = Omit<LoggedCall, 'provider'> & { readonly provider?: Endpoint };

/** One exchange as a model call, or null when it is skipped by a rule or not understood (both recorded). */
function modelCall(b: TranscriptBuilder, ex: HttpExchange, limits: Limits): ModelCall | null {
  if (ex.method === null || ex.method.toUpperCase() !== 'POST') {
    b.skip(NOT_POST);
    return null;
  }
  const endpoint = endpointOf(ex.url);
  if (ex.request === null) {
    if (endpoint !== null) b.unexplained(ex.at, `${ex.label}: a POST to a model endpoint without a request body`);
    else b.skip(OTHER_POST);
    return null;
  }
  const reqCoding = ex.requestHeaders.get('content-encoding');
  if (endpoint === null) {
    // Another path: a model call only when its body and its answer say so (a gateway's own route).
    const probe = new Probe(b);
    const req = jsonBody(probe.b, ex.request, reqCoding, ex.encodedAsSent, limits, `${ex.label}: the request body`);
    if (req === null || !hasMessages(req, null) || !probe.quiet()) {
      b.skip(OTHER_POST);
      return null;
    }
    const res = ex.response ? readResponseBody(probe.b, ex, limits) : undefined;
    if (res === undefined || res === null || !probe.quiet() || responseProvider(res) === null) {
      b.skip(OTHER_POST);
      return null;
    }
    return failed(b, ex) ? null : { at: ex.at, request: req as ObjectNode, response: res, label: ex.label };
  }
  const req = jsonBody(b, ex.request, reqCoding, ex.encodedAsSent, limits, `${ex.label}: the request body`);
  if (req === null) return null;
  if (!hasMessages(req, endpoint)) {
    b.skip(OTHER_POST);
    return null;
  }
  if (failed(b, ex)) return null;
  let response: Node | undefined;
  if (ex.response === null) {
    b.warn(ex.at, `${ex.label}: the response body is not recorded; what the model answered shows in the next request`);
  } else {
    const res = readResponseBody(b, ex, limits);
    if (res === null) return null;
    response = endpoint === 'gemini' ? geminiChunks(res) : res;
  }
  return { at: ex.at, request: req as ObjectNode, response, label: ex.label, provider: endpoint };
}

/**
 * A streamGenerateContent answer without `alt=sse` (a JSON list of GenerateContentResponse chunks) as the
 * one response they make (gemini.ts `mergeGeminiChunks`); any other value as it is.
 */
function geminiChunks(res: Node): Node {
  if (res.kind !== 'array' || res.items.length === 0) return res;
  const chunks = res.items.map((n) => toJsonValue(n));
  if (!chunks.every(isGeminiChunk)) return res;
  return nodesOf(mergeGeminiChunks(chunks as Array<{ [key: string]: JsonValue }>), res.offset);
}

/** Skips a failed call (status 400 and above, or 0: no answer); whether it did. */
function failed(b: TranscriptBuilder, ex: HttpExchange): boolean {
  if (ex.status !== null && (ex.status >= 400 || ex.status < 100)) {
    b.skip(FAILED);
    return true;
  }
  return false;
}

/** A response body's value (a response object), or null after recording why not. */
function readResponseBody(b: TranscriptBuilder, ex: HttpExchange, limits: Limits): Node | null {
  const body = ex.response!;
  const coding = ex.responseHeaders.get('content-encoding');
  const what = `${ex.label}: the response body`;
  if (body.kind !== 'json') {
    const at = body.kind === 'text' ? body.node : body.at;
    const text = bodyText(body, coding, ex.encodedAsSent, limits);
    if (!text.ok) {
      b.unexplained(at, `${what}: ${text.error}`);
      return null;
    }
    if (isEventStream(ex, text.value)) return streamedResponse(b, text.value, at, what);
  }
  return jsonBody(b, body, coding, ex.encodedAsSent, limits, what);
}

/**
 * A streamed body (server-sent events) assembled as the provider's client assembles it (sse.ts): the one
 * response it streams, or null after recording why not. Pings, comments and `[DONE]` are skipped by the
 * stream's rules, counted as streamed events.
 */
function streamedResponse(b: TranscriptBuilder, text: string, at: Node, what: string): Node | null {
  const a = assembleSse(text);
  for (const [rule, n] of a.skipped) b.skip(`events of streamed responses: ${rule}`, n);
  for (const p of a.problems) b.unexplained(at, `${what} (a stream of server-sent events): ${p.message}`);
  if (a.problems.length > 0) return null;
  if (a.messages.length !== 1) {
    b.unexplained(at, `${what} streams ${a.messages.length} responses (a model call answers with one)`);
    return null;
  }
  return nodesOf(a.messages[0]!.value, at.offset);
}

/** A scratch builder for trying a reading whose problems must not count (an exchange that may not be a call). */
class Probe {
  readonly b: TranscriptBuilder;
  constructor(outer: TranscriptBuilder) {
    this.b = new TranscriptBuilder(outer.doc, outer.maxMessages, true);
  }
  quiet(): boolean {
    return this.b.unexplainedItems.length === 0;
  }
}

/** Headers as a map by lower-case name, first value kept, from name/value pairs. */
export function headerMap(pairs: Iterable<readonly [string, string]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of pairs) {
    const k = name.toLowerCase();
    if (!out.has(k)) out.set(k, value);
  }
  return out;
}

/** A base64 body (HAR `encoding: "base64"`, Ruby VCR's `base64_string`), or null after recording why not. */
export function base64Body(b: TranscriptBuilder, node: StringNode, what: string): RecordedBody | null {
  const bytes = fromBase64(node.value);
  if (!bytes.ok) {
    b.unexplained(node, `${what}: ${bytes.error}`);
    return null;
  }
  return { kind: 'bytes', at: node, bytes: bytes.value };
}
