/**
 * Recordings of model calls as a client or proxy sees them:
 *
 * - `response`: one response object — a Chat Completions `chat.completion`
 *   (its first choice's message), a Responses `response` (its `output`
 *   items), or an Anthropic `message`. It is one model call with no
 *   recorded input: what the model answered, checked against call 1.
 * - `call-log`: JSON Lines (or a JSON list) where each line is one model
 *   call as a proxy logs it, `{request: <request body>, response: <response
 *   object>}`, for OpenAI Chat, OpenAI Responses and Anthropic. The calls
 *   are grouped into sessions by continuity ({@link groupCalls}, the one
 *   grouping every log of model calls uses: call logs, HTTP cassettes, HAR
 *   files): a request that extends an earlier call's request and response
 *   continues that conversation, so a log of interleaved conversations
 *   comes apart and a log of one conversation is one session. In a session,
 *   a call appends what its request adds, then its response. A Responses
 *   request with `previous_response_id` carries only the new items. Each
 *   request's `tools` are the tools sent with that call (compared with the
 *   reference: `sent-differs`); a session's last request's tools are its own
 *   catalog. Keys other than `request` and `response` on a line
 *   (timestamps, ids, status) are the proxy's metadata and not read.
 */
import { append } from '../../core/append.js';
import type { Message } from '../../core/types.js';
import { quote } from '../../io/errors.js';
import { field, kindName, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import { readAnthropicMessages, readAnthropicSystem } from '../transcript-anthropic.js';
import { TranscriptBuilder } from '../transcript-common.js';
import { readOpenAIMessages } from '../transcript-openai.js';
import { readResponsesItems } from '../transcript-responses.js';
import { readCarriedTools } from './chat.js';
import { sentToolsOf } from './sent.js';
import type { CatalogTool, SentTools } from '../types.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type RecordingReader } from './types.js';

/** The API of a model call. */
export type Provider = 'openai' | 'openai-responses' | 'anthropic';

const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);

/** Which provider a response object is from, or null. */
export function responseProvider(n: Node | undefined): Provider | null {
  if (n?.kind !== 'object') return null;
  const object = str(field(n, 'object'));
  if (object === 'chat.completion' && field(n, 'choices')?.kind === 'array') return 'openai';
  if (object === 'response' && field(n, 'output')?.kind === 'array') return 'openai-responses';
  if (
    str(field(n, 'type')) === 'message' &&
    str(field(n, 'role')) === 'assistant' &&
    field(n, 'content')?.kind === 'array'
  )
    return 'anthropic';
  return null;
}

const PROVIDER_NAMES: Readonly<Record<Provider, string>> = {
  openai: 'a chat.completion',
  'openai-responses': 'a Responses "response"',
  anthropic: 'an Anthropic "message"',
};

/** Reads a response object's output (the assistant's answer) into `b`. */
function readResponse(b: TranscriptBuilder, node: ObjectNode, provider: Provider): void {
  if (provider === 'openai') {
    const choices = field(node, 'choices') as { items: readonly Node[] };
    const first = choices.items[0];
    if (first?.kind !== 'object') {
      b.unexplained(node, 'a chat.completion without choices');
      return;
    }
    if (choices.items.length > 1)
      b.skip('choices after the first (n > 1: the conversation goes on with choice 0)', choices.items.length - 1);
    const msg = field(first, 'message');
    if (msg?.kind !== 'object') {
      b.unexplained(first, 'a chat.completion choice without "message"');
      return;
    }
    const before = b.itemsRead;
    readOpenAIMessages(b, [msg]);
    b.itemsRead = before;
  } else if (provider === 'openai-responses') {
    const before = b.itemsRead;
    readResponsesItems(b, (field(node, 'output') as { items: readonly Node[] }).items);
    b.itemsRead = before;
  } else {
    const before = b.itemsRead;
    readAnthropicMessages(b, [node]);
    b.itemsRead = before;
  }
}

function detectResponse(doc: ParsedDocument): Evidence | null {
  const p = responseProvider(doc.root);
  return p ? { score: DISTINCTIVE + 1, detected_by: `${PROVIDER_NAMES[p]} response object` } : null;
}

/** A response object without its `object` / `type` marker: its own list and one of its own keys. */
function nearUntyped(root: ObjectNode): NearMiss | null {
  const has = (k: string, kind: Node['kind']): boolean => field(root, k)?.kind === kind;
  const provider: Provider | null =
    has('choices', 'array') && root.members.has('created')
      ? 'openai'
      : has('output', 'array') && root.members.has('created_at')
        ? 'openai-responses'
        : str(field(root, 'role')) === 'assistant' && has('content', 'array') && root.members.has('stop_reason')
          ? 'anthropic'
          : null;
  if (provider === null) return null;
  const keys =
    provider === 'openai'
      ? '"choices", "created"'
      : provider === 'anthropic'
        ? '"role", "content", "stop_reason"'
        : '"output", "created_at"';
  const marker =
    provider === 'anthropic'
      ? '"type": "message"'
      : `"object": "${provider === 'openai' ? 'chat.completion' : 'response'}"`;
  return {
    score: DISTINCTIVE,
    found: `the keys of ${PROVIDER_NAMES[provider]} (${keys}) without ${marker}`,
    expected: `${marker} (one response object)`,
  };
}

/**
 * A provider's response envelope in the wrong shape: a `chat.completion` whose `choices`, or a
 * Responses `response` whose `output`, is no list; an Anthropic assistant `message` whose
 * `content` is none.
 */
function nearResponse(doc: ParsedDocument): NearMiss | null {
  const root = doc.root;
  if (root.kind !== 'object' || responseProvider(root) !== null) return null;
  const object = str(field(root, 'object'));
  const key =
    object === 'chat.completion'
      ? 'choices'
      : object === 'response'
        ? 'output'
        : str(field(root, 'type')) === 'message' && str(field(root, 'role')) === 'assistant'
          ? 'content'
          : null;
  if (key === null && str(field(root, 'type')) === 'message' && root.members.has('stop_reason')) {
    const role = field(root, 'role');
    return {
      score: DISTINCTIVE,
      found: `an Anthropic "message" whose "role" is ${role?.kind === 'string' ? quote(role.value) : kindName(role)}`,
      expected: '"role": "assistant" (an Anthropic "message" response object)',
    };
  }
  if (key === null) return nearUntyped(root);
  const provider: Provider = key === 'choices' ? 'openai' : key === 'output' ? 'openai-responses' : 'anthropic';
  const what = key === 'content' ? 'an Anthropic "message"' : `an "object": "${object}"`;
  return {
    score: DISTINCTIVE,
    found: `${what} whose "${key}" is ${kindName(field(root, key))}`,
    expected: `"${key}" to be a list (${PROVIDER_NAMES[provider]} response object)`,
  };
}

function readResponseObject(doc: ParsedDocument, b: TranscriptBuilder): void {
  const p = responseProvider(doc.root);
  if (!p)
    throw b.error(
      doc.root,
      'not a response recording: expected a chat.completion, a Responses response or an Anthropic message object',
    );
  b.read();
  readResponse(b, doc.root as ObjectNode, p);
  // A Responses response echoes the tools it was sent.
  const tools = field(doc.root as ObjectNode, 'tools');
  if (p === 'openai-responses' && tools?.kind === 'array' && tools.items.length > 0) {
    b.sentTools.push(sentToolsOf(tools));
    b.tools = readCarriedTools(b, tools);
  }
}

export const responseReader: RecordingReader = {
  format: 'response',
  records: 'calls',
  summary: 'one chat.completion, Responses response or Anthropic message',
  shape: 'response: one response object (chat.completion, Responses response, Anthropic message)',
  detect: detectResponse,
  near: nearResponse,
  read: readResponseObject,
};

function requestProvider(req: ObjectNode, res: Node | undefined): Provider | null {
  const fromResponse = responseProvider(res);
  if (fromResponse) return fromResponse;
  if (field(req, 'input') !== undefined) return 'openai-responses';
  if (field(req, 'system') !== undefined || field(req, 'max_tokens') !== undefined) return 'anthropic';
  if (field(req, 'messages') !== undefined) return 'openai';
  return null;
}

/** Reads one request's conversation into a fresh builder (same document, so locations stay right). */
function readRequest(b: TranscriptBuilder, req: ObjectNode, provider: Provider): TranscriptBuilder {
  const t = new TranscriptBuilder(b.doc, b.maxMessages, true);
  if (provider === 'openai-responses') {
    const instructions = field(req, 'instructions');
    if (instructions?.kind === 'string')
      t.push({ kind: 'blocks', role: 'system', blocks: [{ type: 'text', text: instructions.value }] }, instructions);
    const input = field(req, 'input');
    if (input?.kind === 'string')
      t.push({ kind: 'blocks', role: 'user', blocks: [{ type: 'text', text: input.value }] }, input);
    else if (input?.kind === 'array') readResponsesItems(t, input.items);
    else t.unexplained(req, 'a Responses request without "input"');
  } else {
    if (provider === 'anthropic') {
      const system = field(req, 'system');
      if (system && system.kind !== 'null') readAnthropicSystem(t, system);
    }
    const messages = field(req, 'messages');
    if (messages?.kind !== 'array') t.unexplained(req, 'a request without "messages"');
    else if (provider === 'anthropic') readAnthropicMessages(t, messages.items);
    else readOpenAIMessages(t, messages.items);
  }
  return t;
}

/** One model call as the grouping sees it: the messages of its request and of its response, already read. */
export interface RecordedCall {
  /** The messages the request sent: the whole conversation so far, or (with `previousResponseId`) only the new ones. */
  readonly request: readonly Message[];
  /** What the model answered (its assistant message); empty when the log holds no response. */
  readonly response: readonly Message[];
  /** OpenAI Responses: the request's `previous_response_id` (the conversation before it is the server's). */
  readonly previousResponseId?: string | null;
  /** The response's own id (what a later call's `previous_response_id` names). */
  readonly responseId?: string | null;
}

/** One session found in a list of model calls. */
export interface CallSession {
  /** Indexes of its calls in the list given, in order. */
  readonly calls: readonly number[];
}

/**
 * Groups model calls, in the order they were made, into sessions by continuity: the one place
 * that decides it for every log of model calls (call logs, HTTP cassettes, HAR files, a proxy).
 *
 * `groupCalls(calls: readonly RecordedCall[]): CallSession[]`
 *
 * - A call whose request messages start with an earlier call's request messages followed by that
 *   call's response messages continues that call's session, provided that call is the last of its
 *   session so far (a conversation goes on from its latest state; two calls that extend the same
 *   state are two conversations from there). Of several such sessions, the one whose last call
 *   covers more of the request wins; of equally long ones, the one continued or started latest.
 * - A call with `previousResponseId` continues the session whose last call's `responseId` it
 *   names (its request holds only the new messages).
 * - Any other call starts a new session. Interleaved conversations thus come apart, and a call
 *   log of one conversation is one session.
 *
 * Sessions are listed in the order of their first calls; every call is in exactly one.
 * Two calls are compared as read (core messages), so the keys a provider echoes differently
 * (ids, statuses) do not matter. Runs in O(calls × sessions × messages).
 * A call's session depends only on the calls before it, so {@link CallGrouping} decides the
 * same one call at a time, as calls arrive (`watch`).
 */
export function groupCalls(calls: readonly RecordedCall[]): CallSession[] {
  const grouping = new CallGrouping();
  const sessions: number[][] = [];
  calls.forEach((call, i) => {
    const k = grouping.add(call);
    if (k === sessions.length) sessions.push([i]);
    else sessions[k]!.push(i);
  });
  return sessions.map((calls) => ({ calls }));
}

/** A session's state as the grouping keeps it: its last call, its messages as JSON texts. */
interface GroupState {
  /** The last call's request and response messages, each as JSON text (compared as read). */
  readonly state: readonly string[];
  /** The last call continued from a response id (its conversation so far is not all in the log). */
  readonly byId: boolean;
  readonly responseId: string | null;
  /** When the session was last continued or started (the later wins a tie). */
  touched: number;
}

/**
 * {@link groupCalls} one call at a time: `add` puts a call in the session it continues (or a new
 * one) and says which, `find` only says which it would continue. Sessions are numbered 0, 1, ...
 * in the order of their first calls. Each message is made JSON text once.
 */
export class CallGrouping {
  private readonly sessions: GroupState[] = [];
  private clock = 0;

  /** How many sessions there are. */
  get size(): number {
    return this.sessions.length;
  }

  /**
   * The session `call` continues, or null when it starts one. `adds`: only a session whose state the
   * request goes beyond (an OTLP trace that repeats a session's conversation and adds nothing is its own).
   */
  find(call: RecordedCall, adds = false): number | null {
    return this.findKeys(call, keys(call.request), adds);
  }

  private findKeys(call: RecordedCall, request: readonly string[], adds = false): number | null {
    let best: number | null = null;
    let bestLength = -1;
    this.sessions.forEach((s, k) => {
      if (call.previousResponseId != null) {
        if (s.responseId != null && s.responseId === call.previousResponseId) {
          best = k;
          bestLength = Number.POSITIVE_INFINITY;
        }
        return;
      }
      if (s.byId || !startsWith(request, s.state) || (adds && request.length === s.state.length)) return;
      if (s.state.length > bestLength || (s.state.length === bestLength && s.touched > this.sessions[best!]!.touched)) {
        best = k;
        bestLength = s.state.length;
      }
    });
    return best;
  }

  /**
   * Adds a call and returns its session: `session` when given (a caller that knows it, as an OTLP
   * trace's later calls), else the one it continues, else a new one (numbered `size` before).
   */
  add(call: RecordedCall, session?: number): number {
    const request = keys(call.request);
    const k = session ?? this.findKeys(call, request) ?? this.sessions.length;
    const state: GroupState = {
      state: append(request.slice(), keys(call.response)),
      byId: call.previousResponseId != null,
      responseId: call.responseId ?? null,
      touched: this.clock++,
    };
    if (k >= this.sessions.length) this.sessions.push(state);
    else this.sessions[k] = state;
    return k;
  }
}

const keys = (messages: readonly Message[]): string[] => messages.map((m) => JSON.stringify(m));

/** Whether `prefix` is the start of `messages`. */
function startsWith(messages: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > messages.length) return false;
  for (let i = 0; i < prefix.length; i++) if (messages[i] !== prefix[i]) return false;
  return true;
}

/**
 * How {@link groupCalls} decides, in one sentence for the report
 * (`coverage.sessions.rule`).
 */
export const GROUPING_RULE =
  "grouped by continuity (a call whose request extends an earlier call's request and response, " +
  "or names its response's id, continues that call's session)";

/** One model call of a log, as its reader found it (nodes of the builder's document). */
export interface LoggedCall {
  /** Where the call is (its line, entry or interaction), for locations. */
  readonly at: Node;
  /** How to name it in messages, e.g. `call log line 3`. */
  readonly label: string;
  /** The request body. */
  readonly request: ObjectNode;
  /** The response object, when the log holds one (undefined or a null node when it does not). */
  readonly response: Node | undefined;
  /** The provider the endpoint says (an HTTP recording's URL), when the response does not. */
  readonly provider?: Provider;
}

interface ReadCall extends RecordedCall {
  readonly call: LoggedCall;
  readonly requestBuilder: TranscriptBuilder;
  readonly responseBuilder: TranscriptBuilder;
  readonly tools: Node | undefined;
}

/** Reads one logged call's request and response into builders of their own; null when it is no request we know. */
function readLoggedCall(b: TranscriptBuilder, call: LoggedCall): ReadCall | null {
  const { request: req, response: res, label } = call;
  const provider = responseProvider(res) ?? call.provider ?? requestProvider(req, res);
  if (!provider) {
    b.unexplained(
      req,
      `${label}: a request that is neither OpenAI Chat ("messages"), ` +
        `Responses ("input") nor Anthropic ("system"/"max_tokens")`,
    );
    return null;
  }
  const t = readRequest(b, req, provider);
  const r = new TranscriptBuilder(b.doc, b.maxMessages, true);
  const resProvider = responseProvider(res);
  if (resProvider && res?.kind === 'object') readResponse(r, res, resProvider);
  else if (res !== undefined && res.kind !== 'null')
    r.unexplained(res, `${label}: "response" is not a chat.completion, Responses response or Anthropic message`);
  const previous = field(req, 'previous_response_id');
  const id = res?.kind === 'object' ? field(res, 'id') : undefined;
  return {
    call,
    requestBuilder: t,
    responseBuilder: r,
    request: t.messages,
    response: r.messages,
    previousResponseId: previous?.kind === 'string' ? previous.value : null,
    responseId: id?.kind === 'string' ? id.value : null,
    tools: field(req, 'tools'),
  };
}

/**
 * Reads a log of model calls (in the order they were made) into sessions: the calls are read,
 * grouped by {@link groupCalls}, and each session becomes one conversation ({@link readSessions}).
 */
export function readLoggedCalls(b: TranscriptBuilder, calls: readonly LoggedCall[]): void {
  readSessions(
    b,
    calls.map((c) => loggedSessionCall(b, c)).filter((c): c is SessionCall => c !== null),
  );
}

/** One logged call read for {@link readSessions}; null when it is no request we know (recorded in `b`). */
export function loggedSessionCall(b: TranscriptBuilder, call: LoggedCall): SessionCall | null {
  const c = readLoggedCall(b, call);
  if (c === null) return null;
  const listed = c.tools?.kind === 'array';
  return {
    ...c,
    at: c.call.at,
    sent: listed ? sentToolsOf(c.tools!) : { visible: [], deferred: [] },
    tools: listed ? c.tools : undefined,
    catalog: readCarriedTools,
  };
}

/** One model call read for {@link readSessions}: its request's and response's messages in builders of their own. */
export interface SessionCall extends RecordedCall {
  /** Where the call is (its line, entry or interaction). */
  readonly at: Node;
  readonly requestBuilder: TranscriptBuilder;
  readonly responseBuilder: TranscriptBuilder;
  /** The tools the request sent (compared with the reference: `sent-differs`). */
  readonly sent: SentTools;
  /** The request's tools, when it has a list of them (the last such is the session's own catalog). */
  readonly tools: Node | undefined;
  /** Reads `tools` as the session's catalog (each API declares its tools its own way). */
  readonly catalog: (s: TranscriptBuilder, tools: Node) => CatalogTool[];
}

/**
 * Reads model calls (in the order they were made, each read on its own) into sessions grouped by
 * {@link groupCalls}: the first in `b`, the others in `b.sidechains` (`session 2`, …). In each, a call
 * appends what its request adds to the conversation so far, then its response; the tools each request
 * sends are that call's (`sent-differs`), the last request's are the session's own catalog (read by
 * `catalog`). `coverage.sessions` says which calls each session has and how they were grouped.
 */
export function readSessions(b: TranscriptBuilder, read: readonly SessionCall[]): void {
  const sessions = groupCalls(read);
  sessions.forEach((session, k) => {
    const s = k === 0 ? b : new TranscriptBuilder(b.doc, b.maxMessages, true);
    if (k > 0) b.sidechains.push({ id: `session ${k + 1}`, builder: s });
    // Every logged call is a model call, answered or not (a failed call's log has no response).
    s.isRequest = true;
    let last: SessionCall | null = null;
    for (const i of session.calls) {
      const c = read[i]!;
      s.read();
      // The grouping checked that the request starts with the conversation so far (or continues a response by id).
      s.adopt(c.requestBuilder, c.previousResponseId != null ? 0 : s.messages.length);
      s.sentTools.push(c.sent);
      if (c.tools !== undefined) last = c;
      s.adopt(c.responseBuilder, 0);
    }
    // The last request's tools are the recording's own catalog (as a request body's are).
    if (last) s.tools = last.catalog(s, last.tools!);
    s.session = {
      index: k + 1,
      count: sessions.length,
      calls: session.calls.map((i) => b.where(read[i]!.at)),
      rule: GROUPING_RULE,
    };
  });
}

function callLines(doc: ParsedDocument): readonly ObjectNode[] | null {
  const root = doc.root;
  const items = root.kind === 'array' ? root.items : root.kind === 'object' ? [root] : [];
  const lines = items.filter((n): n is ObjectNode => n.kind === 'object' && field(n, 'request')?.kind === 'object');
  return lines.length > 0 ? lines : null;
}

function detectCallLog(doc: ParsedDocument): Evidence | null {
  const lines = callLines(doc);
  if (!lines) return null;
  return {
    score: DISTINCTIVE + lines.length,
    detected_by:
      `${lines.length} ${lines.length === 1 ? 'line' : 'lines'} of ` +
      `{"request": ..., "response": ...} (a proxy's call log)`,
  };
}

const HTTP_KEYS = ['scope', 'method', 'path', 'status', 'rawHeaders'];

/**
 * A call log's lines with no request object: a `request` that is no object (a body kept as text),
 * or a provider's response with no `request` beside it.
 */
function nearCallLog(doc: ParsedDocument): NearMiss | null {
  if (callLines(doc) !== null) return null;
  const root = doc.root;
  const items = root.kind === 'array' ? root.items : root.kind === 'object' ? [root] : [];
  let text = 0;
  let bare = 0;
  for (const n of items) {
    if (n.kind !== 'object') continue;
    if (n.members.has('request')) text++;
    // HTTP recordings keep the response beside the request's method and path (nock's definitions).
    else if (responseProvider(field(n, 'response')) !== null && !HTTP_KEYS.some((k) => n.members.has(k))) bare++;
  }
  if (text + bare === 0) return null;
  const said = [
    text > 0 ? `${text} ${text === 1 ? 'line' : 'lines'} whose "request" is no object` : '',
    bare > 0 ? `${bare} ${bare === 1 ? 'line' : 'lines'} with a "response" but no "request"` : '',
  ].filter((x) => x !== '');
  return {
    score: DISTINCTIVE + text + bare,
    found: said.join(', '),
    expected: '{"request": <request body, an object>, "response": <response object>} lines',
  };
}

function readCallLog(doc: ParsedDocument, b: TranscriptBuilder): void {
  const root = doc.root;
  const items = root.kind === 'array' ? root.items : [root];
  const calls: LoggedCall[] = [];
  items.forEach((n, i) => {
    const label = `call log line ${i + 1}`;
    const request = n.kind === 'object' ? field(n, 'request') : undefined;
    if (n.kind !== 'object' || request?.kind !== 'object') {
      b.unexplained(n, `${label}: expected {"request": <request body>, "response": <response>}`);
      return;
    }
    calls.push({ at: n, label, request, response: field(n, 'response') });
  });
  readLoggedCalls(b, calls);
}

export const callLogReader: RecordingReader = {
  format: 'call-log',
  records: 'calls',
  summary: 'JSONL of {request, response} lines, grouped into sessions',
  shape:
    'call-log: JSONL of model calls as a proxy logs them, {request: <request body>, ' +
    'response: <response object>} (OpenAI Chat, Responses, Anthropic), grouped into sessions',
  detect: detectCallLog,
  near: nearCallLog,
  read: readCallLog,
};
