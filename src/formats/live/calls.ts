/**
 * Model calls as the `watch` proxy sees them: which provider API a request
 * path is, the response object of a streamed answer (server-sent events put
 * back together), and a call-log line (`{request, response}`, what the
 * call-log reader of src/formats/recordings/calls.ts reads).
 *
 * The stream assembly here covers the events the call-log reader needs
 * (text, tool calls, stop reasons) for OpenAI Chat, OpenAI Responses and
 * Anthropic; a Gemini stream is kept as its chunks (not read yet).
 */

/** The APIs the proxy recognises by path. */
export type LiveProvider = 'openai' | 'openai-responses' | 'anthropic' | 'gemini';

/**
 * Which model API a request path (without query) is, or null for any other
 * path (listed models, files, ...: forwarded, not read as a model call).
 */
export function providerOfPath(path: string): LiveProvider | null {
  const p = path.replace(/\/+$/, '');
  if (/\/chat\/completions$/.test(p)) return 'openai';
  if (/\/responses$/.test(p)) return 'openai-responses';
  if (/\/messages$/.test(p)) return 'anthropic';
  if (/:(stream)?generateContent$/i.test(p)) return 'gemini';
  return null;
}

/** The `data:` payloads of a server-sent event stream, with their event names. */
export function sseEvents(text: string): Array<{ event: string | null; data: string }> {
  const out: Array<{ event: string | null; data: string }> = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) out.push({ event, data: data.join('\n') });
  }
  return out;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function parsed(data: string): Json | null {
  try {
    const v: unknown = JSON.parse(data);
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

function openaiChat(events: ReadonlyArray<{ data: string }>): Json | null {
  let head: Json | null = null;
  let content: string | null = null;
  let finish: unknown = null;
  const calls: Array<{ id: string; type: string; function: { name: string; arguments: string } }> = [];
  for (const e of events) {
    if (e.data === '[DONE]') continue;
    const c = parsed(e.data);
    if (!c || !Array.isArray(c.choices)) continue;
    head ??= c;
    const choice = c.choices.find((x) => isObj(x) && (x.index ?? 0) === 0);
    if (!isObj(choice)) continue;
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) finish = choice.finish_reason;
    const d = choice.delta;
    if (!isObj(d)) continue;
    if (typeof d.content === 'string') content = (content ?? '') + d.content;
    if (Array.isArray(d.tool_calls)) {
      for (const t of d.tool_calls) {
        if (!isObj(t)) continue;
        const i = typeof t.index === 'number' ? t.index : calls.length;
        calls[i] ??= { id: '', type: 'function', function: { name: '', arguments: '' } };
        const call = calls[i]!;
        if (typeof t.id === 'string') call.id = t.id;
        const f = t.function;
        if (isObj(f)) {
          if (typeof f.name === 'string') call.function.name += f.name;
          if (typeof f.arguments === 'string') call.function.arguments += f.arguments;
        }
      }
    }
  }
  if (!head) return null;
  const message: Json = { role: 'assistant', content };
  const present = calls.filter((c) => c !== undefined);
  if (present.length > 0) message.tool_calls = present;
  return {
    id: head.id,
    object: 'chat.completion',
    created: head.created,
    model: head.model,
    choices: [{ index: 0, message, finish_reason: finish }],
  };
}

function openaiResponses(events: ReadonlyArray<{ data: string }>): Json | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = parsed(events[i]!.data);
    if (e && (e.type === 'response.completed' || e.type === 'response.incomplete') && isObj(e.response))
      return e.response;
  }
  return null;
}

function anthropic(events: ReadonlyArray<{ data: string }>): Json | null {
  let message: Json | null = null;
  const blocks: Json[] = [];
  const partial = new Map<number, string>();
  for (const e of events) {
    const d = parsed(e.data);
    if (!d) continue;
    switch (d.type) {
      case 'message_start':
        if (isObj(d.message)) message = { ...d.message };
        break;
      case 'content_block_start':
        if (typeof d.index === 'number' && isObj(d.content_block)) blocks[d.index] = { ...d.content_block };
        break;
      case 'content_block_delta': {
        if (typeof d.index !== 'number' || !isObj(d.delta)) break;
        const b = blocks[d.index];
        if (!b) break;
        const delta = d.delta;
        if (delta.type === 'text_delta' && typeof delta.text === 'string') b.text = String(b.text ?? '') + delta.text;
        else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string')
          partial.set(d.index, (partial.get(d.index) ?? '') + delta.partial_json);
        else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string')
          b.thinking = String(b.thinking ?? '') + delta.thinking;
        else if (delta.type === 'signature_delta' && typeof delta.signature === 'string') b.signature = delta.signature;
        break;
      }
      case 'message_delta':
        if (message && isObj(d.delta)) Object.assign(message, d.delta);
        break;
      default:
        break;
    }
  }
  if (!message) return null;
  for (const [i, json] of partial) {
    const b = blocks[i];
    if (!b) continue;
    try {
      b.input = json === '' ? {} : JSON.parse(json);
    } catch {
      b.input = json;
    }
  }
  return { ...message, content: blocks.filter((b) => b !== undefined) };
}

/**
 * The response object a streamed answer stands for (a `chat.completion`, a
 * Responses `response`, an Anthropic `message`), or null when the stream
 * does not hold one (cut short, or Gemini's).
 */
export function assembleStream(provider: LiveProvider, text: string): Json | null {
  const events = sseEvents(text);
  switch (provider) {
    case 'openai':
      return openaiChat(events);
    case 'openai-responses':
      return openaiResponses(events);
    case 'anthropic':
      return anthropic(events);
    default:
      return null;
  }
}

/** A call as the proxy passes it on: the request body and the answer's text (decoded), or null when none. */
export interface Exchange {
  readonly request: string;
  readonly response: string | null;
  readonly streamed: boolean;
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The request body and response object of an exchange (a stream put back
 * together), or why the call cannot be read.
 */
export function readExchange(
  provider: LiveProvider,
  exchange: Exchange,
): { readonly request: unknown; readonly response: unknown; readonly error?: string } {
  const request = parseText(exchange.request);
  if (request === undefined) return { request: null, response: null, error: 'the request body is not JSON' };
  if (exchange.response === null) return { request, response: null };
  if (provider === 'gemini')
    return { request, response: null, error: 'Gemini calls are forwarded but not read (no Gemini reader yet)' };
  const response = exchange.streamed ? assembleStream(provider, exchange.response) : parseText(exchange.response);
  if (response === null || response === undefined)
    return {
      request,
      response: null,
      error: exchange.streamed ? 'the stream holds no complete answer' : 'the answer is not JSON',
    };
  return { request, response };
}
