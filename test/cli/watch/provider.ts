/**
 * A provider on 127.0.0.1 that answers as the OpenAI (Chat Completions,
 * Responses), Anthropic (Messages) and Gemini (generateContent) APIs document, plain or streamed
 * (server-sent events), for `watch --proxy` tests. What the model "does" is
 * scripted: by default it calls `tool_search`, then `get_weather`, then
 * answers in text, by how many tool results the request carries.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Step {
  readonly text?: string;
  readonly calls?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly input: unknown }>;
}

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface FakeProvider {
  readonly url: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** How many tool results the request's conversation carries. */
function results(body: Json): number {
  let n = 0;
  if (Array.isArray(body.contents))
    for (const c of body.contents as Json[])
      for (const p of (Array.isArray(c.parts) ? c.parts : []) as Json[]) if (p.functionResponse) n++;
  const msgs = (body.messages ?? body.input ?? []) as unknown[];
  if (!Array.isArray(msgs)) return 0;
  for (const m of msgs as Json[]) {
    if (m.role === 'tool' || m.type === 'function_call_output') n++;
    if (Array.isArray(m.content)) for (const b of m.content as Json[]) if (b.type === 'tool_result') n++;
  }
  return n;
}

/** The default script; `tag` makes ids unique per conversation (the first user text's hash). */
export function defaultStep(body: Json, tag: string): Step {
  const n = results(body);
  if (n === 0) return { calls: [{ id: `call_${tag}_1`, name: 'tool_search', input: { query: 'weather forecast' } }] };
  if (n === 1) return { calls: [{ id: `call_${tag}_2`, name: 'get_weather', input: { city: 'Paris' } }] };
  return { text: `It is sunny (${tag}).` };
}

function firstUserText(body: Json): string {
  if (Array.isArray(body.contents)) {
    const parts = ((body.contents as Json[])[0]?.parts ?? []) as Json[];
    return typeof parts[0]?.text === 'string' ? parts[0].text : '';
  }
  const msgs = (body.messages ?? body.input ?? []) as Json[];
  if (typeof msgs === 'string') return msgs;
  for (const m of Array.isArray(msgs) ? msgs : []) {
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) for (const b of m.content as Json[]) if (typeof b.text === 'string') return b.text;
  }
  return '';
}

function tagOf(body: Json): string {
  let h = 0;
  for (const c of firstUserText(body)) h = (h * 31 + c.codePointAt(0)!) >>> 0;
  return h.toString(36);
}

const sse = (data: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

function chatPlain(step: Step, id: string): Json {
  const message: Json = { role: 'assistant', content: step.text ?? null, refusal: null, annotations: [] };
  if (step.calls)
    message.tool_calls = step.calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.input) },
    }));
  return {
    id,
    object: 'chat.completion',
    created: 1767225600,
    model: 'gpt-test',
    choices: [{ index: 0, message, logprobs: null, finish_reason: step.calls ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    system_fingerprint: null,
  };
}

function chatChunks(step: Step, id: string): string[] {
  const chunk = (delta: Json, finish: string | null): string =>
    sse({
      id,
      object: 'chat.completion.chunk',
      created: 1767225600,
      model: 'gpt-test',
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  const out = [chunk({ role: 'assistant', content: step.calls ? null : '', refusal: null }, null)];
  if (step.text) for (const piece of step.text.match(/.{1,4}/gs) ?? []) out.push(chunk({ content: piece }, null));
  for (const [i, c] of (step.calls ?? []).entries()) {
    out.push(
      chunk(
        { tool_calls: [{ index: i, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] },
        null,
      ),
    );
    for (const piece of JSON.stringify(c.input).match(/.{1,5}/gs) ?? [])
      out.push(chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }, null));
  }
  out.push(chunk({}, step.calls ? 'tool_calls' : 'stop'));
  out.push(sse('[DONE]'));
  return out;
}

function anthropicPlain(step: Step, id: string): Json {
  const content: Json[] = [];
  if (step.text) content.push({ type: 'text', text: step.text });
  for (const c of step.calls ?? []) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content,
    stop_reason: step.calls ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

function anthropicEvents(step: Step, id: string): string[] {
  const ev = (type: string, data: Json): string => sse({ type, ...data }, type);
  const out = [
    ev('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
  ];
  let i = 0;
  if (step.text) {
    out.push(ev('content_block_start', { index: i, content_block: { type: 'text', text: '' } }));
    for (const piece of step.text.match(/.{1,4}/gs) ?? [])
      out.push(ev('content_block_delta', { index: i, delta: { type: 'text_delta', text: piece } }));
    out.push(ev('content_block_stop', { index: i }));
    i++;
  }
  for (const c of step.calls ?? []) {
    out.push(
      ev('content_block_start', { index: i, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } }),
    );
    for (const piece of JSON.stringify(c.input).match(/.{1,5}/gs) ?? [])
      out.push(ev('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: piece } }));
    out.push(ev('content_block_stop', { index: i }));
    i++;
  }
  out.push(
    ev('message_delta', {
      delta: { stop_reason: step.calls ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    }),
  );
  out.push(ev('message_stop', {}));
  return out;
}

function geminiPlain(step: Step, id: string): Json {
  const parts: Json[] = [];
  if (step.text) parts.push({ text: step.text });
  for (const c of step.calls ?? []) parts.push({ functionCall: { id: c.id, name: c.name, args: c.input } });
  return {
    candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'gemini-test',
    responseId: id,
  };
}

/**
 * A streamed generateContent answer (`streamGenerateContent?alt=sse`) as the API sends it: chunks of the
 * text, then the function calls with the finish reason and the usage.
 */
function geminiChunks(step: Step, id: string): string[] {
  const chunk = (parts: Json[], last: boolean): Json => ({
    candidates: [{ content: { parts, role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
    usageMetadata: last
      ? { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }
      : { promptTokenCount: 10, totalTokenCount: 10 },
    modelVersion: 'gemini-test',
    responseId: id,
  });
  const out: Json[] = [];
  const text = step.text ?? '';
  if (text !== '') {
    const half = Math.ceil(text.length / 2);
    out.push(chunk([{ text: text.slice(0, half) }], false), chunk([{ text: text.slice(half) }], false));
  }
  const calls = (step.calls ?? []).map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.input } }));
  out.push(chunk(calls, true));
  return out.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`);
}

function responsesPlain(step: Step, id: string, body: Json): Json {
  const output: Json[] = [];
  if (step.text)
    output.push({
      type: 'message',
      id: `msg_${id}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: step.text, annotations: [] }],
    });
  for (const c of step.calls ?? [])
    output.push({
      type: 'function_call',
      id: `fc_${c.id}`,
      call_id: c.id,
      name: c.name,
      arguments: JSON.stringify(c.input),
      status: 'completed',
    });
  return {
    id,
    object: 'response',
    created_at: 1767225600,
    status: 'completed',
    model: 'gpt-test',
    output,
    tools: body.tools ?? [],
    parallel_tool_calls: true,
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  };
}

export interface ProviderOptions {
  /** Milliseconds between streamed chunks (and before a plain answer). */
  readonly chunkDelayMs?: number;
  /** Milliseconds before any answer starts. */
  readonly delayMs?: number;
  readonly step?: (body: Json, tag: string) => Step;
}

export async function fakeProvider(options: ProviderOptions = {}): Promise<FakeProvider> {
  const seen: SeenRequest[] = [];
  const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: text });
      if (options.delayMs) await wait(options.delayMs);
      let body: Json;
      try {
        body = JSON.parse(text) as Json;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"not JSON"}}');
        return;
      }
      const tag = tagOf(body);
      const step = (options.step ?? defaultStep)(body, tag);
      // The same request gets the same answer, byte for byte.
      const id = `${tag}-${results(body)}`;
      const path = (req.url ?? '').split('?')[0]!;
      let plain: Json;
      let events: string[];
      if (path.endsWith('/chat/completions')) {
        plain = chatPlain(step, `chatcmpl-${id}`);
        events = chatChunks(step, `chatcmpl-${id}`);
      } else if (path.endsWith('/messages')) {
        plain = anthropicPlain(step, `msg_${id}`);
        events = anthropicEvents(step, `msg_${id}`);
      } else if (/:(stream)?generateContent$/i.test(path)) {
        plain = geminiPlain(step, `resp-${id}`);
        events = geminiChunks(step, `resp-${id}`);
        if (/:streamGenerateContent$/i.test(path)) body.stream = true;
      } else if (path.endsWith('/responses')) {
        plain = responsesPlain(step, `resp_${id}`, body);
        events = [
          sse(
            { type: 'response.created', sequence_number: 0, response: { ...plain, status: 'in_progress', output: [] } },
            'response.created',
          ),
          sse({ type: 'response.completed', sequence_number: 1, response: plain }, 'response.completed'),
        ];
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': id });
        for (const e of events) {
          res.write(e);
          if (options.chunkDelayMs) await wait(options.chunkDelayMs);
        }
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': id });
        res.end(JSON.stringify(plain));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
