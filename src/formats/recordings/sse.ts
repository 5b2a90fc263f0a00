/**
 * Streaming transcripts: the raw `event:` / `data:` text of provider
 * streams (what a proxy or a test fixture keeps), assembled into the
 * messages they stream, as the providers' own clients assemble them:
 *
 * - Anthropic Messages: one message per `message_start` … `message_stop`
 *   (`content_block_start` adds a block; `text_delta`, `input_json_delta`
 *   (the tool input is the JSON of the joined pieces, `{}` when empty),
 *   `thinking_delta`, `signature_delta`, `citations_delta` fill it;
 *   `message_delta` sets the stop reason and usage), as `@anthropic-ai/sdk`'s
 *   MessageStream does;
 * - OpenAI Chat Completions: one `chat.completion` per chunk `id` (or up to
 *   `data: [DONE]`): each choice's `delta` role, content, refusal and tool
 *   calls (by `index`: id, type, name, arguments joined), finish reason, as
 *   `openai`'s ChatCompletionStream does;
 * - OpenAI Responses: one response per `response.created`: the response of
 *   `response.completed` (or `.incomplete` / `.failed`), else what the
 *   output item, content part, text and arguments events built;
 * - Gemini `streamGenerateContent?alt=sse`: `data:` lines of
 *   GenerateContentResponse chunks (no event names), one response per run
 *   of chunks up to the one whose first candidate has a `finishReason` (or
 *   whose `responseId` changes): the parts of every chunk in order, as
 *   gemini.ts `mergeGeminiChunks` says.
 *
 * {@link assembleSse} is that assembly alone (text → messages), for any
 * caller; the `sse` reader reads each assembled message as the `response`
 * reader reads a response object: one model call's answer. Keep-alive
 * `ping`s, comments, `[DONE]` and progress events the final response
 * carries are skipped by rule; an event no rule explains, a stream that
 * ends before its message does, or an `error` event is not understood.
 */
import type { JsonValue } from '../../core/types.js';
import { type Node, type ObjectNode, type ParsedDocument, toJsonValue } from '../../io/nodes.js';
import { parseJsonValue } from '../../io/json.js';
import { jsonInText } from '../../io/parse.js';
import { type Limits, resolveLimits } from '../../io/read.js';
import { parseSse, type SseEvent } from '../../io/sse.js';
import { readAnthropicMessages } from '../transcript-anthropic.js';
import { isGeminiChunk, mergeGeminiChunks, readGeminiResponses } from './gemini.js';
import type { TranscriptBuilder } from '../transcript-common.js';
import { readOpenAIMessages } from '../transcript-openai.js';
import { readResponsesItems } from '../transcript-responses.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type RecordingReader } from './types.js';

/** The API a stream comes from. */
export type SseProvider = 'anthropic' | 'openai' | 'openai-responses' | 'gemini';

/** One streamed message: the provider's response object, as its client assembles it. */
export interface StreamedMessage {
  readonly provider: SseProvider;
  /** An Anthropic `message`, a `chat.completion`, a Responses `response` or a GenerateContentResponse. */
  readonly value: { [key: string]: JsonValue };
  /** Offset of the stream's first event. */
  readonly offset: number;
  /** The stream reached its end (`message_stop`, `[DONE]` or a final chunk, `response.completed`). */
  readonly complete: boolean;
}

/** What {@link assembleSse} found. */
export interface SseAssembly {
  readonly messages: StreamedMessage[];
  /** Events skipped by a documented rule, by rule. */
  readonly skipped: ReadonlyMap<string, number>;
  /** Events no rule explains, and streams cut short, at their offsets. */
  readonly problems: ReadonlyArray<{ readonly offset: number; readonly message: string }>;
  readonly events: number;
}

type Obj = { [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const clone = <T extends JsonValue>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');

const ANTHROPIC_EVENTS = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
]);

/** The JSON of an event's data (our reader: exact strings, duplicate keys refused), or a problem. */
function decode(text: string, e: SseEvent, depth: number): { value: JsonValue } | { error: string } {
  const fail = (offset: number, message: string): never => {
    throw Object.assign(new Error(message), { at: offset });
  };
  try {
    const node = e.oneDataLine
      ? parseJsonValue(text, e.dataOffset, e.dataOffset + e.data.length, depth, fail, String)
      : parseJsonValue(e.data, 0, e.data.length, depth, fail, String);
    return { value: toJsonValue(node) };
  } catch (err) {
    return { error: `event data is not JSON (${(err as Error).message})` };
  }
}

/** Assembles the messages of an event stream (see the module comment). */
export function assembleSse(input: string | Uint8Array, limits?: Partial<Limits>): SseAssembly {
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  // Every event's data, and a tool input streamed in pieces, nests no deeper than TOOLSEARCH_MAX_DEPTH.
  const depth = resolveLimits(limits).maxDepth;
  const parsed = parseSse(text);
  const messages: StreamedMessage[] = [];
  const skipped = new Map<string, number>();
  const problems: Array<{ offset: number; message: string }> = [];
  const skip = (rule: string): void => void skipped.set(rule, (skipped.get(rule) ?? 0) + 1);
  if (parsed.comments > 0) skipped.set('comments (keep-alive)', parsed.comments);

  // Anthropic: the message being streamed, and the JSON pieces of each tool input.
  let message: { value: Obj; offset: number; json: Map<number, string> } | null = null;
  // Chat Completions: the completion being streamed.
  let chat: { value: Obj; offset: number; finished: boolean } | null = null;
  // Responses: the response being streamed.
  let resp: { value: Obj; offset: number } | null = null;
  // Gemini: the chunks of the response being streamed.
  let gem: { chunks: Obj[]; offset: number } | null = null;

  const endChat = (complete: boolean): void => {
    if (!chat) return;
    messages.push({ provider: 'openai', value: chat.value, offset: chat.offset, complete });
    chat = null;
  };
  const endMessage = (e: SseEvent | null): void => {
    if (!message) return;
    if (e === null) problems.push({ offset: message.offset, message: 'the stream ends before message_stop' });
    for (const [i, buf] of message.json) {
      const block = (message.value.content as JsonValue[])[i];
      if (!isObj(block)) continue;
      const input = buf === '' ? {} : jsonInText(buf, { maxDepth: depth });
      if (input !== undefined) block.input = input;
      else
        problems.push({
          offset: message.offset,
          message: `the input of content block ${i} is not JSON (or nests deeper than ${depth} levels): ${buf}`,
        });
    }
    messages.push({ provider: 'anthropic', value: message.value, offset: message.offset, complete: e !== null });
    message = null;
  };
  const endResponse = (final: Obj | null): void => {
    if (!resp) return;
    if (final === null) problems.push({ offset: resp.offset, message: 'the stream ends before response.completed' });
    messages.push({
      provider: 'openai-responses',
      value: final ?? resp.value,
      offset: resp.offset,
      complete: final !== null,
    });
    resp = null;
  };

  const endGemini = (complete: boolean): void => {
    if (!gem) return;
    if (!complete)
      problems.push({ offset: gem.offset, message: "the stream ends before its candidate's finishReason" });
    messages.push({ provider: 'gemini', value: mergeGeminiChunks(gem.chunks), offset: gem.offset, complete });
    gem = null;
  };

  for (const e of parsed.events) {
    for (const u of e.unknown)
      problems.push({ offset: u.offset, message: `unknown SSE field ${JSON.stringify(u.field)}` });
    if (e.data === '[DONE]') {
      endChat(true);
      skip('[DONE] markers');
      continue;
    }
    const d = decode(text, e, depth);
    if ('error' in d) {
      problems.push({ offset: e.dataOffset, message: d.error });
      continue;
    }
    const data = d.value;
    if (!isObj(data)) {
      problems.push({ offset: e.dataOffset, message: 'event data is not a JSON object' });
      continue;
    }
    const type = str(data.type);
    if (isGeminiChunk(data)) {
      // Gemini (streamGenerateContent?alt=sse): chunks up to one whose first candidate has a finishReason.
      if (gem && data.responseId !== undefined && gem.chunks[0]!.responseId !== data.responseId) endGemini(false);
      gem ??= { chunks: [], offset: e.offset };
      gem.chunks.push(data);
      const first = Array.isArray(data.candidates) ? data.candidates[0] : undefined;
      if (isObj(first) && first.finishReason !== undefined) endGemini(true);
    } else if (data.object === 'chat.completion.chunk') {
      if (chat && (chat.value.id !== data.id || chat.finished)) endChat(chat.finished);
      chat ??= {
        value: {
          id: data.id ?? null,
          object: 'chat.completion',
          created: data.created ?? null,
          model: data.model ?? null,
          choices: [],
        },
        offset: e.offset,
        finished: false,
      };
      chat.finished = chunk(chat.value, data);
    } else if (type === 'ping') skip('pings (keep-alive)');
    else if (type === 'error') {
      const err = isObj(data.error) ? data.error : data;
      problems.push({
        offset: e.offset,
        message: `the stream reports an error: ${str(err.message) || JSON.stringify(err)}`,
      });
    } else if (ANTHROPIC_EVENTS.has(type)) {
      if (type === 'message_start') {
        if (message) {
          problems.push({ offset: e.offset, message: 'message_start before the previous message_stop' });
          endMessage(null);
        }
        const m = isObj(data.message) ? clone(data.message) : {};
        if (!Array.isArray(m.content)) m.content = [];
        message = { value: m, offset: e.offset, json: new Map() };
      } else if (!message) problems.push({ offset: e.offset, message: `${type} outside a message (no message_start)` });
      else if (type === 'message_stop') endMessage(e);
      else {
        const problem = anthropicEvent(message, type, data);
        if (problem) problems.push({ offset: e.offset, message: problem });
      }
    } else if (type.startsWith('response.')) {
      if (type === 'response.created') {
        endResponse(null);
        resp = { value: isObj(data.response) ? clone(data.response) : {}, offset: e.offset };
        if (!Array.isArray(resp.value.output)) resp.value.output = [];
      } else if (!resp)
        problems.push({ offset: e.offset, message: `${type} outside a response (no response.created)` });
      else if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed')
        endResponse(isObj(data.response) ? data.response : resp.value);
      else if (!responsesEvent(resp.value, type, data)) skip('progress events the final response carries');
    } else problems.push({ offset: e.offset, message: `unknown stream event ${JSON.stringify(type || e.event)}` });
  }
  endMessage(null);
  endChat(false);
  endResponse(null);
  endGemini(false);
  return { messages, skipped, problems, events: parsed.events.length };
}

/** Applies one Anthropic event to the message; returns a problem, or null. */
function anthropicEvent(m: { value: Obj; json: Map<number, string> }, type: string, data: Obj): string | null {
  const content = m.value.content as JsonValue[];
  const index = typeof data.index === 'number' ? data.index : -1;
  if (type === 'content_block_start') {
    if (!isObj(data.content_block)) return 'content_block_start without a content_block';
    content.push({ ...data.content_block });
    return null;
  }
  if (type === 'content_block_stop') return null;
  if (type === 'message_delta') {
    const delta = isObj(data.delta) ? data.delta : {};
    m.value.stop_reason = delta.stop_reason ?? null;
    m.value.stop_sequence = delta.stop_sequence ?? null;
    if (delta.stop_details !== undefined) m.value.stop_details = delta.stop_details;
    if (delta.container != null) m.value.container = delta.container;
    const usage = isObj(data.usage) ? data.usage : {};
    const into = isObj(m.value.usage) ? m.value.usage : (m.value.usage = {});
    if (usage.output_tokens !== undefined) into.output_tokens = usage.output_tokens;
    for (const k of [
      'input_tokens',
      'cache_creation_input_tokens',
      'cache_read_input_tokens',
      'server_tool_use',
      'output_tokens_details',
    ])
      if (usage[k] != null) into[k] = usage[k]!;
    return null;
  }
  // content_block_delta
  const block = content[index];
  const delta = isObj(data.delta) ? data.delta : {};
  if (!isObj(block)) return `content_block_delta for block ${index}, which did not start`;
  switch (delta.type) {
    case 'text_delta':
      if (block.type === 'text') block.text = str(block.text) + str(delta.text);
      return null;
    case 'citations_delta':
      if (block.type === 'text')
        block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation ?? null];
      return null;
    case 'input_json_delta':
      if (block.type === 'tool_use' || block.type === 'server_tool_use')
        m.json.set(index, (m.json.get(index) ?? '') + str(delta.partial_json));
      return null;
    case 'thinking_delta':
      if (block.type === 'thinking') block.thinking = str(block.thinking) + str(delta.thinking);
      return null;
    case 'signature_delta':
      if (block.type === 'thinking') block.signature = delta.signature ?? null;
      return null;
    default:
      return `unknown content_block_delta type ${JSON.stringify(delta.type ?? null)}`;
  }
}

/** Applies one chunk to the completion; returns whether a choice finished. */
function chunk(c: Obj, data: Obj): boolean {
  for (const k of ['system_fingerprint', 'service_tier', 'usage'] as const) if (data[k] != null) c[k] = data[k]!;
  const choices = c.choices as Obj[];
  let finished = false;
  for (const ch of Array.isArray(data.choices) ? data.choices : []) {
    if (!isObj(ch)) continue;
    const i = typeof ch.index === 'number' ? ch.index : 0;
    const snap = (choices[i] ??= {
      index: i,
      message: { role: 'assistant', content: null, refusal: null },
      finish_reason: null,
      logprobs: null,
    });
    const msg = snap.message as Obj;
    const delta = isObj(ch.delta) ? ch.delta : {};
    if (typeof delta.role === 'string') msg.role = delta.role;
    if (typeof delta.content === 'string') msg.content = str(msg.content) + delta.content;
    if (typeof delta.refusal === 'string') msg.refusal = str(msg.refusal) + delta.refusal;
    for (const tc of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      if (!isObj(tc)) continue;
      const calls = (msg.tool_calls ??= []) as Obj[];
      const at = typeof tc.index === 'number' ? tc.index : calls.length;
      const call = (calls[at] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
      const fn = call.function as Obj;
      if (typeof tc.id === 'string') call.id = tc.id;
      if (typeof tc.type === 'string') call.type = tc.type;
      if (isObj(tc.function)) {
        if (typeof tc.function.name === 'string') fn.name = str(fn.name) + tc.function.name;
        if (typeof tc.function.arguments === 'string') fn.arguments = str(fn.arguments) + tc.function.arguments;
      }
    }
    if (ch.finish_reason != null) {
      snap.finish_reason = ch.finish_reason;
      finished = true;
    }
    if (ch.logprobs != null) snap.logprobs = ch.logprobs;
  }
  return finished;
}

/** Applies one Responses event that builds the output; false for a progress event that builds nothing. */
function responsesEvent(r: Obj, type: string, data: Obj): boolean {
  const output = r.output as JsonValue[];
  const oi = typeof data.output_index === 'number' ? data.output_index : -1;
  const item = output[oi];
  const ci = typeof data.content_index === 'number' ? data.content_index : -1;
  const part = isObj(item) && Array.isArray(item.content) ? item.content[ci] : undefined;
  switch (type) {
    case 'response.output_item.added':
    case 'response.output_item.done':
      if (isObj(data.item)) output[oi] = clone(data.item);
      return true;
    case 'response.content_part.added':
    case 'response.content_part.done':
      if (isObj(item) && isObj(data.part)) {
        if (!Array.isArray(item.content)) item.content = [];
        (item.content as JsonValue[])[ci] = clone(data.part);
      }
      return true;
    case 'response.output_text.delta':
      if (isObj(part)) part.text = str(part.text) + str(data.delta);
      return true;
    case 'response.output_text.done':
      if (isObj(part)) part.text = str(data.text);
      return true;
    case 'response.function_call_arguments.delta':
      if (isObj(item)) item.arguments = str(item.arguments) + str(data.delta);
      return true;
    case 'response.function_call_arguments.done':
      if (isObj(item)) item.arguments = str(data.arguments);
      return true;
    default:
      return false;
  }
}

/** A JSON value as nodes, every one at `offset` (the stream it was assembled from). */
function nodeOf(v: JsonValue, offset: number): Node {
  if (v === null) return { kind: 'null', offset };
  if (typeof v === 'boolean') return { kind: 'bool', offset, value: v };
  if (typeof v === 'number') return { kind: 'number', offset, value: v, raw: JSON.stringify(v) };
  if (typeof v === 'string') return { kind: 'string', offset, value: v };
  if (Array.isArray(v)) return { kind: 'array', offset, items: v.map((x) => nodeOf(x, offset)) };
  const members = new Map(
    Object.entries(v).map(([key, x]) => [key, { key, keyOffset: offset, value: nodeOf(x, offset) }] as const),
  );
  return { kind: 'object', offset, members };
}

const PROVIDER_NAMES: Readonly<Record<SseProvider, string>> = {
  anthropic: 'Anthropic Messages',
  openai: 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  gemini: 'Gemini streamGenerateContent',
};

function detect(doc: ParsedDocument): Evidence | null {
  if (doc.syntax !== 'sse') return null;
  const n = doc.root.kind === 'array' ? doc.root.items.length : 0;
  return { score: 2 * DISTINCTIVE, detected_by: `an SSE event stream (${n} ${n === 1 ? 'event' : 'events'})` };
}

function read(doc: ParsedDocument, b: TranscriptBuilder): void {
  if (doc.syntax !== 'sse')
    throw b.error(doc.root, 'not an sse transcript: expected the text of an event stream (event: / data: lines)');
  const a = assembleSse(doc.text, doc.limits);
  for (const [rule, n] of a.skipped) b.skip(rule, n);
  for (const p of a.problems) b.unexplained(p.offset, p.message);
  const providers = new Set(a.messages.map((m) => m.provider));
  if (providers.size > 1)
    b.unexplained(
      0,
      `streams of several APIs in one file (${[...providers].map((p) => PROVIDER_NAMES[p]).join(', ')})`,
    );
  if (a.messages.length === 0 && a.problems.length === 0)
    throw b.error(
      0,
      'an event stream with no streamed message (no message_start, chunk, response.created or Gemini candidates)',
    );
  const gemini = a.messages.filter((m) => m.provider === 'gemini');
  if (gemini.length > 0)
    readGeminiResponses(
      b,
      gemini.map((m) => nodeOf(m.value, m.offset) as ObjectNode),
    );
  for (const m of a.messages) {
    if (m.provider === 'gemini') continue;
    b.read();
    const node = nodeOf(m.value, m.offset) as ObjectNode;
    const before = b.itemsRead;
    if (m.provider === 'anthropic') readAnthropicMessages(b, [node]);
    else if (m.provider === 'openai-responses') {
      const output = node.members.get('output')?.value;
      readResponsesItems(b, output?.kind === 'array' ? output.items : []);
    } else {
      const list = node.members.get('choices')?.value;
      const choices = list?.kind === 'array' ? list.items : [];
      if (choices.length > 1)
        b.skip('choices after the first (n > 1: the conversation goes on with choice 0)', choices.length - 1);
      const first = choices[0];
      const msg = first?.kind === 'object' ? first.members.get('message')?.value : undefined;
      if (msg?.kind === 'object') readOpenAIMessages(b, [msg]);
      else b.unexplained(m.offset, 'a streamed chat completion without choices');
    }
    b.itemsRead = before;
  }
}

/** The provider whose stream an event (a JSON value) belongs to, or null. */
function eventProvider(n: Node): SseProvider | null {
  if (n.kind !== 'object') return null;
  const type = n.members.get('type')?.value;
  if (type?.kind === 'string') {
    if (ANTHROPIC_EVENTS.has(type.value) || type.value === 'ping') return 'anthropic';
    if (type.value.startsWith('response.')) return 'openai-responses';
  }
  const object = n.members.get('object')?.value;
  return object?.kind === 'string' && object.value === 'chat.completion.chunk' ? 'openai' : null;
}

/**
 * Stream events kept as JSON values (a list, or JSON lines) rather than as the stream's text: a
 * near miss, so that they are not read as another format's items (Anthropic `message_start`
 * events as "unknown Responses items").
 */
function near(doc: ParsedDocument): NearMiss | null {
  if (doc.syntax === 'sse' || doc.root.kind !== 'array') return null;
  const items = doc.root.items;
  const counts = new Map<SseProvider, number>();
  for (const n of items) {
    const p = eventProvider(n);
    if (p) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  const [provider, n] = [...counts].sort((x, y) => y[1] - x[1])[0] ?? [null, 0];
  if (provider === null || 2 * n < items.length) return null;
  return {
    score: DISTINCTIVE + n,
    found: `${n} ${PROVIDER_NAMES[provider]} stream ${n === 1 ? 'event' : 'events'} as JSON values`,
    expected: "the stream's raw text (event: / data: lines, as a proxy or a test fixture keeps it)",
  };
}

export const sseReader: RecordingReader = {
  format: 'sse',
  records: 'calls',
  summary: 'raw SSE text of model streams (Anthropic, OpenAI, Gemini)',
  shape:
    'sse: the raw text of provider streams (Anthropic Messages events, OpenAI Chat Completions chunks, ' +
    'OpenAI Responses events, Gemini streamGenerateContent chunks), one model call per streamed message',
  detect,
  near,
  read,
};
