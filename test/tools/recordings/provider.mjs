/**
 * The provider's side of the recording fixtures: a local HTTP server on 127.0.0.1 that answers OpenAI
 * Chat Completions, OpenAI Responses and Anthropic Messages requests with payloads shaped as each API
 * documents them (JSON, or server-sent events when the request says `stream`), the answer being the
 * scenario's next assistant message (conversations.mjs). The clients, their instrumentation and the
 * recorders that hold the traffic are the real libraries; only the model is scripted.
 *
 * Also: `GET /v1/models` (a model list), `POST /v1/messages/count_tokens`, a page at `/` (for a
 * browser), and, for the calls named in `failOnce`, one 429 first (the client retries at once).
 * Everything is deterministic: ids from the scenario, fixed times, no Date header.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { answerFor } from './conversations.mjs';

const CREATED = 1767225600; // 2026-01-01T00:00:00Z
const CHAT_MODEL = 'gpt-4.1-2025-04-14';
const CLAUDE_MODEL = 'claude-sonnet-4-5-20250929';

const textOf = (content) =>
  typeof content === 'string'
    ? content
    : (content ?? [])
        .filter((p) => p.type === 'text' || p.type === 'input_text')
        .map((p) => p.text)
        .join('');

/** The first user text and the number of model answers a request holds, by API. */
function position(api, body) {
  if (api === 'responses') {
    if (typeof body.input === 'string') return { user: body.input, answered: 0 };
    const first = body.input.find((i) => i.role === 'user');
    const answered = body.input.filter(
      (i) => i.type === 'function_call' || (i.role === 'assistant' && (i.type ?? 'message') === 'message'),
    ).length;
    return { user: textOf(first.content), answered };
  }
  const first = body.messages.find((m) => m.role === 'user');
  return { user: textOf(first.content), answered: body.messages.filter((m) => m.role === 'assistant').length };
}

const tokens = (v) => Math.ceil(JSON.stringify(v).length / 4);
const argsObject = (a) => JSON.parse(a);

/** Chat Completions: the response object, and its stream of chunks. */
function chat(id, answer, usage) {
  const message = answer.calls
    ? {
        role: 'assistant',
        content: null,
        tool_calls: answer.calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
        refusal: null,
        annotations: [],
      }
    : { role: 'assistant', content: answer.content, refusal: null, annotations: [] };
  const finish = answer.calls ? 'tool_calls' : 'stop';
  const full = {
    id,
    object: 'chat.completion',
    created: CREATED,
    model: CHAT_MODEL,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_b3f1157249',
  };
  const chunk = (delta, finish_reason = null) => ({
    id,
    object: 'chat.completion.chunk',
    created: CREATED,
    model: CHAT_MODEL,
    service_tier: 'default',
    system_fingerprint: 'fp_b3f1157249',
    choices: [{ index: 0, delta, logprobs: null, finish_reason }],
  });
  const chunks = [];
  if (answer.calls) {
    answer.calls.forEach((c, index) => {
      chunks.push(
        chunk({
          ...(index === 0 ? { role: 'assistant', content: null } : {}),
          tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }],
        }),
      );
      for (const piece of pieces(c.arguments))
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  } else {
    chunks.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const piece of pieces(answer.content)) chunks.push(chunk({ content: piece }));
  }
  chunks.push(chunk({}, finish));
  const events = chunks.map((c) => ({ data: c }));
  events.push({ data: '[DONE]' });
  return { full, events };
}

/** Text cut in pieces of at most 12 characters, as a model streams it. */
function pieces(text) {
  const out = [];
  for (let i = 0; i < text.length; i += 12) out.push(text.slice(i, i + 12));
  return out.length > 0 ? out : [''];
}

/** Responses: the response object, and its stream of events. */
function responses(id, tag, answer, body, usage) {
  const item = answer.calls
    ? answer.calls.map((c, i) => ({
        id: `fc_${tag}${i}`,
        type: 'function_call',
        status: 'completed',
        arguments: c.arguments,
        call_id: c.id,
        name: c.name,
      }))
    : [
        {
          id: `msg_${tag}`,
          type: 'message',
          status: 'completed',
          content: [{ type: 'output_text', annotations: [], logprobs: [], text: answer.content }],
          role: 'assistant',
        },
      ];
  const base = (status, output) => ({
    id,
    object: 'response',
    created_at: CREATED,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: null,
    model: CHAT_MODEL,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: 1.0,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: (body.tools ?? []).map((t) => ({ ...t, strict: t.strict ?? true })),
    top_p: 1.0,
    truncation: 'disabled',
    usage:
      status === 'completed'
        ? {
            input_tokens: usage.input,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: usage.output,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: usage.input + usage.output,
          }
        : null,
    user: null,
    metadata: {},
  });
  const full = base('completed', item);
  const events = [];
  let seq = 0;
  const ev = (type, rest) => events.push({ event: type, data: { type, sequence_number: seq++, ...rest } });
  ev('response.created', { response: base('in_progress', []) });
  ev('response.in_progress', { response: base('in_progress', []) });
  item.forEach((it, output_index) => {
    if (it.type === 'function_call') {
      ev('response.output_item.added', { output_index, item: { ...it, status: 'in_progress', arguments: '' } });
      for (const delta of pieces(it.arguments))
        ev('response.function_call_arguments.delta', { item_id: it.id, output_index, delta });
      ev('response.function_call_arguments.done', { item_id: it.id, output_index, arguments: it.arguments });
      ev('response.output_item.done', { output_index, item: it });
    } else {
      const text = it.content[0].text;
      ev('response.output_item.added', { output_index, item: { ...it, status: 'in_progress', content: [] } });
      const part = { type: 'output_text', annotations: [], logprobs: [], text: '' };
      ev('response.content_part.added', { item_id: it.id, output_index, content_index: 0, part });
      for (const delta of pieces(text))
        ev('response.output_text.delta', { item_id: it.id, output_index, content_index: 0, delta, logprobs: [] });
      ev('response.output_text.done', { item_id: it.id, output_index, content_index: 0, text, logprobs: [] });
      ev('response.content_part.done', { item_id: it.id, output_index, content_index: 0, part: it.content[0] });
      ev('response.output_item.done', { output_index, item: it });
    }
  });
  ev('response.completed', { response: full });
  return { full, events };
}

/** Anthropic Messages: the message, and its stream of events. */
function anthropic(id, answer, usage) {
  const content = answer.calls
    ? [
        ...(answer.content ? [{ type: 'text', text: answer.content }] : []),
        ...answer.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: argsObject(c.arguments) })),
      ]
    : [{ type: 'text', text: answer.content }];
  const stop = answer.calls ? 'tool_use' : 'end_turn';
  const u = {
    input_tokens: usage.input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: usage.output,
    service_tier: 'standard',
  };
  const full = {
    id,
    type: 'message',
    role: 'assistant',
    model: CLAUDE_MODEL,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: u,
  };
  const events = [];
  const ev = (type, rest) => events.push({ event: type, data: { type, ...rest } });
  ev('message_start', { message: { ...full, content: [], stop_reason: null, usage: { ...u, output_tokens: 1 } } });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
      if (index === 0) ev('ping', {});
      for (const text of pieces(block.text)) ev('content_block_delta', { index, delta: { type: 'text_delta', text } });
    } else {
      ev('content_block_start', { index, content_block: { ...block, input: {} } });
      for (const partial_json of pieces(JSON.stringify(block.input)))
        ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    }
    ev('content_block_stop', { index });
  });
  ev('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } });
  ev('message_stop', {});
  return { full, events };
}

const sse = (events) =>
  events
    .map((e) => {
      const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
      return `${e.event ? `event: ${e.event}\n` : ''}data: ${data}\n\n`;
    })
    .join('');

const PAGE = '<!doctype html><html><head><title>Atlas</title></head><body><p>Atlas</p></body></html>';

/**
 * Starts the server. `scenarios`: from loadScenario; `gzip`: compress JSON answers for clients that
 * accept it (as the providers' edge does); `failOnce`: keys `${api}:${scenario}:${call}` answered 429
 * once; `onExchange`: called with each exchange as it went over the wire ({method, path, requestHeaders
 * (raw name/value list), requestBody, status, statusMessage, responseHeaders ([name, value] as sent),
 * responseBody}: bodies as Buffers). Resolves to {url, port, close}.
 */
export async function startProvider({ scenarios, gzip = false, failOnce = [], onExchange = () => {} }) {
  const pendingFailures = new Set(failOnce);
  const server = http.createServer((req, res) => {
    res.sendDate = false;
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const requestBody = Buffer.concat(chunks);
      const reply = (status, headers, body) => {
        res.writeHead(status, headers);
        res.end(body);
        onExchange({
          method: req.method,
          path: req.url,
          requestHeaders: req.rawHeaders,
          requestBody,
          status,
          statusMessage: http.STATUS_CODES[status],
          responseHeaders: Object.entries(headers),
          responseBody: Buffer.from(body),
        });
      };
      try {
        answer(req, requestBody.toString('utf8'), reply);
      } catch (err) {
        reply(500, { 'content-type': 'text/plain' }, String(err?.stack ?? err));
      }
    });
  });
  const send = (req, reply, status, value, headers = {}) => {
    let body = Buffer.from(JSON.stringify(value));
    const h = { 'content-type': 'application/json', ...headers };
    if (gzip && /gzip/.test(req.headers['accept-encoding'] ?? '')) {
      body = zlib.gzipSync(body, { level: 6 });
      h['content-encoding'] = 'gzip';
    }
    reply(status, { ...h, 'content-length': String(body.length) }, body);
  };
  function answer(req, text, reply) {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/') {
      reply(200, { 'content-type': 'text/html; charset=utf-8' }, PAGE);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      send(req, reply, 200, {
        object: 'list',
        data: [{ id: CHAT_MODEL, object: 'model', created: CREATED, owned_by: 'system' }],
      });
      return;
    }
    const body = text === '' ? null : JSON.parse(text);
    if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
      send(req, reply, 200, { input_tokens: tokens(body) });
      return;
    }
    const api =
      url.pathname === '/v1/chat/completions'
        ? 'chat'
        : url.pathname === '/v1/responses'
          ? 'responses'
          : url.pathname === '/v1/messages'
            ? 'anthropic'
            : null;
    if (req.method !== 'POST' || api === null) {
      reply(
        404,
        { 'content-type': 'application/json' },
        JSON.stringify({ error: { message: `no route ${url.pathname}` } }),
      );
      return;
    }
    const { user, answered } = position(api, body);
    const { scenario, answer: a, call } = answerFor(scenarios, user, answered);
    const key = `${api}:${scenario.name}:${call}`;
    if (pendingFailures.delete(key)) {
      const error =
        api === 'anthropic'
          ? { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests exceeded' } }
          : { error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } };
      send(req, reply, 429, error, { 'retry-after-ms': '0', 'retry-after': '0', 'x-should-retry': 'true' });
      return;
    }
    const tag = `${scenario.name
      .split('-')
      .map((w) => w[0])
      .join('')}${call}`;
    const usage = { input: tokens(body), output: tokens(a) };
    const made =
      api === 'chat'
        ? chat(`chatcmpl-${tag}`, a, usage)
        : api === 'responses'
          ? responses(`resp_${tag}`, tag, a, body, usage)
          : anthropic(`msg_${tag}`, a, usage);
    if (body.stream) {
      reply(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' }, sse(made.events));
      return;
    }
    send(req, reply, 200, made.full);
  }
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
