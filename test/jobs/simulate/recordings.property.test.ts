/**
 * Property (issues 12, 28): a random conversation written out in every recording
 * format replays to the same turns, visibility and violations as its Eino
 * form, in both modes: every writer below (issue 28 adds Gemini bodies and
 * contents, Roo Code histories and Agents SDK RunStates; SSE transcripts
 * hold no inputs, and are checked against the clients' own assembly in
 * test/formats/recordings/sse.test.ts), and the recordings of its model
 * calls (a call log, nock definitions, a VCR cassette, a HAR file, the AI
 * SDK's and OpenInference's spans). Conversations have no system prompt, so
 * the Claude Code form (which logs none) compares directly. The second
 * property covers what issue 28's readers add: Responses hosted tool calls
 * (listed, nothing else changed), LangChain JS keys, Claude Code subagents
 * written into the session file (two conversations), a call log of two
 * interleaved agents (two sessions), and a call left unanswered (the same
 * `unanswered-call` warning in every format that can write one). Namespaced
 * Responses tools are checked in test/formats/recordings/responses.test.ts
 * (their qualified names change how the scorer splits them, so a search over
 * the demo catalog cannot stay the same).
 */
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeMatches, runToolSearch } from '../../../src/core/toolsearch.js';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { createMiddleware } from '../../../src/core/middleware.js';
import type { SimulationReport } from '../../../src/jobs/simulate/report.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';
import YAML from 'yaml';

const demo = loadCatalogFiles([fileURLToPath(new URL('../../../fixtures/catalogs/demo.yaml', import.meta.url))]);
const dynamic = demo.tools.filter((t) => !t.static);
const index = createMiddleware({ dynamicTools: dynamic }).index;
const names = demo.tools.map((t) => t.name);

/** Neutral messages: user text, assistant text or one call, tool results. */
type Msg =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; call?: { id: string; name: string; args: Record<string, unknown> } }
  | { role: 'tool'; id: string; name: string; content: string };

const QUERIES = [
  'slack send message',
  'calendar create event',
  'select:mcp__github__create_issue,mcp__github__list_issues',
  '+notion page',
  'read file',
  'nothing matches zzz',
];

const step = fc.oneof(
  fc.record({
    kind: fc.constant('user' as const),
    text: fc.constantFrom('Post the notes to #eng', 'What is on my calendar?', 'File a bug', 'ok'),
  }),
  fc.record({ kind: fc.constant('search' as const), query: fc.constantFrom(...QUERIES) }),
  fc.record({
    kind: fc.constant('call' as const),
    name: fc.constantFrom(...names, 'mcp__nowhere__tool'),
    result: fc.constantFrom('{"ok":true}', 'done', '[]'),
  }),
  fc.record({ kind: fc.constant('say' as const), text: fc.constantFrom('Done.', 'Here you go.') }),
);

function build(
  steps: ReadonlyArray<{ kind: string; text?: string; query?: string; name?: string; result?: string }>,
): Msg[] {
  const msgs: Msg[] = [{ role: 'user', content: 'Help me with my chores' }];
  let n = 0;
  for (const s of steps) {
    if (s.kind === 'user') msgs.push({ role: 'user', content: s.text! });
    // An answer ends a turn: the user speaks next (two assistant messages in a row are one model
    // response in the Responses item formats, two calls in chat formats: not a real conversation).
    else if (s.kind === 'say') msgs.push({ role: 'assistant', content: s.text! }, { role: 'user', content: 'thanks' });
    else {
      const id = `call_${++n}`;
      const name = s.kind === 'search' ? 'tool_search' : s.name!;
      const args = s.kind === 'search' ? { query: s.query! } : { note: `step ${n}` };
      let result = s.result ?? '';
      if (s.kind === 'search') {
        const r = runToolSearch(index, JSON.stringify(args));
        result = r.ok ? encodeMatches(r.matches) : r.error;
      }
      msgs.push(
        { role: 'assistant', content: '', call: { id, name, args } },
        { role: 'tool', id, name, content: result },
      );
    }
  }
  msgs.push({ role: 'assistant', content: 'All done.' });
  return msgs;
}

const eino = (msgs: Msg[]): unknown =>
  msgs.map((m) =>
    m.role === 'tool'
      ? { role: 'tool', content: m.content, tool_call_id: m.id, tool_name: m.name }
      : m.role === 'assistant' && m.call
        ? {
            role: 'assistant',
            content: '',
            tool_calls: [
              {
                id: m.call.id,
                type: 'function',
                function: { name: m.call.name, arguments: JSON.stringify(m.call.args) },
              },
            ],
          }
        : { role: m.role, content: m.content },
  );

const aiSdk = (msgs: Msg[]): unknown =>
  msgs.map((m) =>
    m.role === 'tool'
      ? {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: m.id, toolName: m.name, output: { type: 'text', value: m.content } },
          ],
        }
      : m.role === 'assistant'
        ? {
            role: 'assistant',
            content: m.call
              ? [{ type: 'tool-call', toolCallId: m.call.id, toolName: m.call.name, input: m.call.args }]
              : [{ type: 'text', text: m.content }],
          }
        : { role: 'user', content: m.content },
  );

const agentsJs = (msgs: Msg[]): unknown =>
  msgs.map((m) =>
    m.role === 'tool'
      ? { type: 'function_call_result', callId: m.id, name: m.name, status: 'completed', output: m.content }
      : m.role === 'assistant'
        ? m.call
          ? {
              type: 'function_call',
              callId: m.call.id,
              name: m.call.name,
              arguments: JSON.stringify(m.call.args),
              status: 'completed',
            }
          : {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: m.content }],
            }
        : { role: 'user', content: m.content },
  );

const langchain = (msgs: Msg[]): unknown =>
  msgs.map((m) =>
    m.role === 'tool'
      ? { type: 'tool', data: { content: m.content, tool_call_id: m.id, name: m.name } }
      : m.role === 'assistant'
        ? {
            type: 'ai',
            data: {
              content: m.content,
              tool_calls: m.call ? [{ name: m.call.name, args: m.call.args, id: m.call.id, type: 'tool_call' }] : [],
            },
          }
        : { type: 'human', data: { content: m.content } },
  );

const otelPart = (m: Msg): unknown =>
  m.role === 'tool'
    ? { role: 'tool', parts: [{ type: 'tool_call_response', id: m.id, response: m.content }] }
    : m.role === 'assistant'
      ? {
          role: 'assistant',
          parts: m.call
            ? [{ type: 'tool_call', id: m.call.id, name: m.call.name, arguments: m.call.args }]
            : [{ type: 'text', content: m.content }],
        }
      : { role: 'user', parts: [{ type: 'text', content: m.content }] };

function otel(msgs: Msg[]): unknown {
  const spans: unknown[] = [];
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    spans.push({
      name: 'chat m',
      startTimeUnixNano: String(1000 + i),
      attributes: [
        { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify(msgs.slice(0, i).map(otelPart)) } },
        { key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify([otelPart(m)]) } },
      ],
    });
  });
  return { resourceSpans: [{ scopeSpans: [{ spans }] }] };
}

function claudeCode(msgs: Msg[]): string {
  let n = 0;
  let parent: string | null = null;
  const out: unknown[] = [];
  const push = (o: Record<string, unknown>): void => {
    const uuid = `u${++n}`;
    out.push({ parentUuid: parent, isSidechain: false, sessionId: 's', ...o, uuid });
    parent = uuid;
  };
  msgs.forEach((m, i) => {
    if (m.role === 'user') push({ type: 'user', message: { role: 'user', content: m.content } });
    else if (m.role === 'tool')
      push({
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: m.id, content: m.content }] },
      });
    else {
      const block = m.call
        ? {
            type: 'tool_use',
            id: m.call.id,
            name: m.call.name === 'tool_search' ? 'ToolSearch' : m.call.name,
            input: m.call.args,
          }
        : { type: 'text', text: m.content };
      push({
        type: 'assistant',
        message: { id: `msg_${i}`, role: 'assistant', content: [{ type: 'thinking', thinking: '…' }] },
      });
      push({ type: 'assistant', message: { id: `msg_${i}`, role: 'assistant', content: [block] } });
    }
  });
  return out.map((o) => JSON.stringify(o)).join('\n');
}

/** OpenAI Chat messages (also the request bodies of call logs). */
const openaiMessages = (msgs: Msg[]): unknown[] =>
  msgs.map((m) =>
    m.role === 'tool'
      ? { role: 'tool', tool_call_id: m.id, content: m.content }
      : m.role === 'assistant' && m.call
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: m.call.id,
                type: 'function',
                function: { name: m.call.name, arguments: JSON.stringify(m.call.args) },
              },
            ],
          }
        : { role: m.role, content: m.content },
  );

const openaiBody = (msgs: Msg[]): unknown => ({ model: 'gpt-4.1', messages: openaiMessages(msgs) });

/** Responses input items, snake_case (a request body's `input`, and the Agents Python SDK's to_input_list()). */
const responsesItems = (msgs: Msg[]): unknown[] =>
  msgs.map((m) =>
    m.role === 'tool'
      ? { type: 'function_call_output', call_id: m.id, output: m.content }
      : m.role === 'assistant'
        ? m.call
          ? { type: 'function_call', call_id: m.call.id, name: m.call.name, arguments: JSON.stringify(m.call.args) }
          : {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: m.content, annotations: [] }],
            }
        : { role: 'user', content: m.content },
  );

const responsesBody = (msgs: Msg[]): unknown => ({ model: 'gpt-4.1', input: responsesItems(msgs) });

const anthropicBody = (msgs: Msg[]): unknown => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  messages: msgs.map((m) =>
    m.role === 'tool'
      ? { role: 'user', content: [{ type: 'tool_result', tool_use_id: m.id, content: m.content }] }
      : m.role === 'assistant' && m.call
        ? { role: 'assistant', content: [{ type: 'tool_use', id: m.call.id, name: m.call.name, input: m.call.args }] }
        : { role: m.role, content: m.content },
  ),
});

const einoJsonl = (msgs: Msg[]): string => (eino(msgs) as unknown[]).map((m) => JSON.stringify(m)).join('\n');

/** Eino with the text in the multi-content fields. */
const einoMulti = (msgs: Msg[]): unknown =>
  (eino(msgs) as Array<Record<string, unknown>>).map((m) =>
    m.role === 'user'
      ? { role: 'user', content: '', user_input_multi_content: [{ type: 'text', text: m.content }] }
      : m.role === 'assistant' && !m.tool_calls
        ? { role: 'assistant', content: '', assistant_output_multi_content: [{ type: 'text', text: m.content }] }
        : m,
  );

/** UIMessage[]: one assistant UIMessage per run of assistant turns, a step-start before each model call. */
function aiSdkUi(msgs: Msg[]): unknown {
  const out: Array<{ id: string; role: string; parts: unknown[] }> = [];
  let open: { id: string; role: string; parts: unknown[] } | null = null;
  msgs.forEach((m, i) => {
    if (m.role === 'user') {
      open = null;
      out.push({ id: `u${i}`, role: 'user', parts: [{ type: 'text', text: m.content }] });
      return;
    }
    if (m.role === 'tool') return; // its output sits in the call's part
    if (!open) {
      open = { id: `a${i}`, role: 'assistant', parts: [] };
      out.push(open);
    }
    open.parts.push({ type: 'step-start' });
    if (m.call) {
      const result = msgs.find((r): r is Extract<Msg, { role: 'tool' }> => r.role === 'tool' && r.id === m.call!.id);
      open.parts.push({
        type: `tool-${m.call.name}`,
        toolCallId: m.call.id,
        state: 'output-available',
        input: m.call.args,
        output: result!.content,
      });
    } else open.parts.push({ type: 'text', text: m.content, state: 'done' });
  });
  return out;
}

/** LangChain BaseMessage fields, as model_dump() writes them. */
const langchainData = (m: Msg): Record<string, unknown> => {
  const common = { additional_kwargs: {}, response_metadata: {}, name: null, id: null };
  if (m.role === 'tool')
    return { content: m.content, ...common, type: 'tool', name: m.name, tool_call_id: m.id, status: 'success' };
  if (m.role === 'user') return { content: m.content, ...common, type: 'human' };
  return {
    content: m.content,
    ...common,
    type: 'ai',
    tool_calls: m.call ? [{ name: m.call.name, args: m.call.args, id: m.call.id, type: 'tool_call' }] : [],
    invalid_tool_calls: [],
    usage_metadata: null,
  };
};

const langgraph = (msgs: Msg[]): unknown => ({ messages: msgs.map(langchainData) });

/** dumpd(): only the fields that are not their default (Serializable.to_json). */
const langchainLc = (msgs: Msg[]): unknown =>
  msgs.map((m) => {
    const cls = m.role === 'tool' ? 'ToolMessage' : m.role === 'user' ? 'HumanMessage' : 'AIMessage';
    const kwargs = Object.fromEntries(
      Object.entries(langchainData(m)).filter(
        ([k, v]) =>
          k === 'content' ||
          !(
            v === null ||
            (Array.isArray(v) && v.length === 0) ||
            (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0)
          ),
      ),
    );
    return { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', cls], kwargs };
  });

/** OpenLLMetry's flat attributes: gen_ai.prompt.N.* for the input, gen_ai.completion.0.* for the answer. */
function otelFlat(msgs: Msg[]): unknown {
  const attrs = (prefix: string, m: Msg): Array<[string, string]> => {
    const a: Array<[string, string]> = [[`${prefix}.role`, m.role]];
    if (m.role === 'tool') a.push([`${prefix}.tool_call_id`, m.id], [`${prefix}.content`, m.content]);
    else if (m.role === 'assistant' && m.call)
      a.push(
        [`${prefix}.tool_calls.0.id`, m.call.id],
        [`${prefix}.tool_calls.0.name`, m.call.name],
        [`${prefix}.tool_calls.0.arguments`, JSON.stringify(m.call.args)],
      );
    else a.push([`${prefix}.content`, m.content]);
    return a;
  };
  const spans: unknown[] = [];
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const list = [
      ['gen_ai.operation.name', 'chat'],
      ...msgs.slice(0, i).flatMap((p, k) => attrs(`gen_ai.prompt.${k}`, p)),
      ...attrs('gen_ai.completion.0', m),
    ];
    spans.push({
      name: 'chat gpt-4.1',
      startTimeUnixNano: String(1000 + i),
      attributes: list.map(([key, v]) => ({ key, value: { stringValue: v } })),
    });
  });
  return { resourceSpans: [{ scopeSpans: [{ spans }] }] };
}

/**
 * The model calls of a conversation as a client sends them: one {request, response} per call; each
 * request sends the tools the reference offers at that call in default mode (`visible`, from the Eino
 * replay).
 */
function modelCalls(
  msgs: Msg[],
  visible: ReadonlyArray<readonly string[]>,
): Array<{ request: unknown; response: unknown }> {
  const out: Array<{ request: unknown; response: unknown }> = [];
  let call = 0;
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const tools = visible[call++]!.map((name) => ({ type: 'function', function: { name, parameters: {} } }));
    out.push({
      request: { model: 'gpt-4.1', messages: openaiMessages(msgs.slice(0, i)), tools },
      response: {
        id: `chatcmpl-${i}`,
        object: 'chat.completion',
        model: 'gpt-4.1',
        choices: [{ index: 0, message: openaiMessages([m])[0], finish_reason: m.call ? 'tool_calls' : 'stop' }],
      },
    });
  });
  return out;
}

/** A proxy's call log: one {request, response} line per model call. */
const callLog = (msgs: Msg[], visible: ReadonlyArray<readonly string[]>): string =>
  modelCalls(msgs, visible)
    .map((c) => JSON.stringify(c))
    .join('\n');

const URL_CHAT = 'https://api.openai.com/v1/chat/completions';

type Call = { request: unknown; response: unknown };

/** A response body as sent: a streamed one is the stream's text (a string), any other its JSON. */
const bodyText = (response: unknown): string => (typeof response === 'string' ? response : JSON.stringify(response));
const mimeOf = (response: unknown): string => (typeof response === 'string' ? 'text/event-stream' : 'application/json');

/** nock definitions (nock.recorder output_objects), a model list first (skipped by rule). */
const nockOf = (calls: readonly Call[], url = URL_CHAT): unknown => [
  { scope: 'https://api.openai.com:443', method: 'GET', path: '/v1/models', body: '', status: 200, response: {} },
  ...calls.map((c) => ({
    scope: new URL(url).origin,
    method: 'POST',
    path: url.slice(new URL(url).origin.length),
    body: c.request,
    status: 200,
    response: c.response,
    rawHeaders: { 'content-type': mimeOf(c.response) },
    responseIsBinary: false,
  })),
];

/** A VCR.py cassette (YAML, bodies as JSON text). */
const vcrOf = (calls: readonly Call[], url = URL_CHAT): string =>
  YAML.stringify({
    interactions: calls.map((c) => ({
      request: {
        body: JSON.stringify(c.request),
        headers: { 'content-type': ['application/json'] },
        method: 'POST',
        uri: url,
      },
      response: {
        body: { string: bodyText(c.response) },
        headers: { 'Content-Type': [mimeOf(c.response)] },
        status: { code: 200, message: 'OK' },
      },
    })),
    version: 1,
  });

/** A HAR 1.2 file: a page load, then the calls. */
const harOf = (calls: readonly Call[], url = URL_CHAT): unknown => ({
  log: {
    version: '1.2',
    creator: { name: 'test', version: '1' },
    entries: [
      {
        startedDateTime: '2026-01-01T00:00:00.000Z',
        request: { method: 'GET', url: 'https://app.example/', headers: [] },
        response: { status: 200, headers: [], content: { size: 0, mimeType: 'text/html', text: '<p>' } },
      },
      ...calls.map((c, i) => ({
        startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i + 1)).toISOString(),
        request: {
          method: 'POST',
          url,
          headers: [{ name: 'content-type', value: 'application/json' }],
          postData: { mimeType: 'application/json', text: JSON.stringify(c.request) },
        },
        response: {
          status: 200,
          headers: [],
          content: { size: 1, mimeType: mimeOf(c.response), text: bodyText(c.response) },
        },
      })),
    ],
  },
});

/** The model calls of a log in each HTTP recording's envelope (and a call log's lines). */
const LOG_ENVELOPES: ReadonlyArray<readonly [string, string, (calls: readonly Call[]) => unknown]> = [
  ['calls.jsonl', 'call-log', (calls) => calls.map((c) => JSON.stringify(c)).join('\n')],
  ['nock.json', 'nock', nockOf],
  ['cassette.yaml', 'vcr', vcrOf],
  ['x.har', 'har', harOf],
];

/** Server-sent events as the providers write them: `event:` (when named) and `data:` lines, a blank line. */
const sseText = (events: ReadonlyArray<readonly [string | null, unknown]>): string =>
  events.map(([name, data]) => `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`).join('');

/** A text (or JSON text) in two pieces, as a stream delivers it. */
const halves = (text: string): string[] => {
  const k = Math.ceil(text.length / 2);
  return [text.slice(0, k), text.slice(k)].filter((x) => x !== '');
};

/** The model calls over Chat Completions, each answer streamed (chunks, then [DONE]). */
function chatStreamCalls(msgs: Msg[], visible: ReadonlyArray<readonly string[]>): Call[] {
  return modelCalls(msgs, visible).map((c, k) => {
    const m = (c.response as { choices: Array<{ message: Record<string, unknown> }> }).choices[0]!.message;
    const head = { id: `chatcmpl-${k}`, object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1' };
    const chunk = (delta: unknown, finish: string | null = null): [null, unknown] => [
      null,
      { ...head, choices: [{ index: 0, delta, finish_reason: finish }] },
    ];
    const calls = (m.tool_calls ?? []) as Array<{ id: string; function: { name: string; arguments: string } }>;
    const events = [
      chunk({ role: 'assistant', content: calls.length > 0 ? null : '' }),
      ...halves(typeof m.content === 'string' ? m.content : '').map((t) => chunk({ content: t })),
      ...calls.flatMap((tc, i) => [
        chunk({
          tool_calls: [{ index: i, id: tc.id, type: 'function', function: { name: tc.function.name, arguments: '' } }],
        }),
        ...halves(tc.function.arguments).map((a) => chunk({ tool_calls: [{ index: i, function: { arguments: a } }] })),
      ]),
      chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'),
    ];
    return { request: c.request, response: `${sseText(events)}data: [DONE]\n\n` };
  });
}

/** The model calls over Anthropic Messages, each answer streamed (message_start … message_stop). */
function anthropicStreamCalls(msgs: Msg[], visible: ReadonlyArray<readonly string[]>): Call[] {
  const body = anthropicBody(msgs) as { messages: unknown[] };
  const out: Call[] = [];
  let call = 0;
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const tools = visible[call++]!.map((name) => ({ name, input_schema: { type: 'object' } }));
    const block = m.call
      ? { type: 'tool_use', id: m.call.id, name: m.call.name, input: {} }
      : { type: 'text', text: '' };
    const deltas = m.call
      ? halves(JSON.stringify(m.call.args)).map((p) => ({ type: 'input_json_delta', partial_json: p }))
      : halves(m.content).map((t) => ({ type: 'text_delta', text: t }));
    const message = { id: `msg_${i}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [] };
    const usage = { input_tokens: 10, output_tokens: 1 };
    const stop = { stop_reason: m.call ? 'tool_use' : 'end_turn', stop_sequence: null };
    const events: Array<[string, unknown]> = [
      ['message_start', { type: 'message_start', message: { ...message, usage } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: block }],
      ['ping', { type: 'ping' }],
      ...deltas.map((delta): [string, unknown] => [
        'content_block_delta',
        { type: 'content_block_delta', index: 0, delta },
      ]),
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: stop, usage: { output_tokens: 5 } }],
      ['message_stop', { type: 'message_stop' }],
    ];
    out.push({
      request: { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: body.messages.slice(0, i), tools },
      response: sseText(events),
    });
  });
  return out;
}

/** The model calls over OpenAI Responses, each answer streamed (response.created … response.completed). */
function responsesStreamCalls(msgs: Msg[], visible: ReadonlyArray<readonly string[]>): Call[] {
  const items = responsesItems(msgs) as Array<Record<string, unknown>>;
  const out: Call[] = [];
  let call = 0;
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const tools = visible[call++]!.map((name) => ({ type: 'function', name, parameters: {} }));
    const item = { id: `item_${i}`, ...items[i]! };
    const response = { id: `resp_${i}`, object: 'response', status: 'in_progress', model: 'gpt-4.1', output: [] };
    const added = m.call ? { ...item, arguments: '' } : { ...item, content: [] };
    const at = { output_index: 0, item_id: item.id };
    const part = { type: 'output_text', text: '' };
    const build: Array<[string, unknown]> = m.call
      ? halves(JSON.stringify(m.call.args)).map((d): [string, unknown] => [
          'response.function_call_arguments.delta',
          { type: 'response.function_call_arguments.delta', ...at, delta: d },
        ])
      : [
          ['response.content_part.added', { type: 'response.content_part.added', ...at, content_index: 0, part }],
          ...halves(m.content).map((d): [string, unknown] => [
            'response.output_text.delta',
            { type: 'response.output_text.delta', ...at, content_index: 0, delta: d },
          ]),
        ];
    const completed = { ...response, status: 'completed', output: [item] };
    const events: Array<[string, unknown]> = [
      ['response.created', { type: 'response.created', response }],
      ['response.in_progress', { type: 'response.in_progress', response }],
      ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: added }],
      ...build,
      ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
      ['response.completed', { type: 'response.completed', response: completed }],
    ];
    out.push({ request: { model: 'gpt-4.1', input: items.slice(0, i), tools }, response: sseText(events) });
  });
  return out;
}

/** The model calls over Gemini generateContent; `stream`: each answer as streamGenerateContent's SSE chunks. */
function geminiCalls(msgs: Msg[], visible: ReadonlyArray<readonly string[]>, stream: boolean): Call[] {
  const contents = geminiContents(msgs) as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  const out: Call[] = [];
  let call = 0;
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const declarations = visible[call++]!.map((name) => ({ name, parametersJsonSchema: { type: 'object' } }));
    const request = { contents: contents.slice(0, i), tools: [{ functionDeclarations: declarations }] };
    const answer = contents[i]!;
    const meta = { modelVersion: 'gemini-2.5-flash', responseId: `resp-${i}` };
    if (!stream) {
      out.push({ request, response: { candidates: [{ content: answer, finishReason: 'STOP', index: 0 }], ...meta } });
      return;
    }
    // Text in pieces, a call alone; the finish on the last chunk.
    const pieces = answer.parts.flatMap((p) =>
      typeof p.text === 'string' ? halves(p.text).map((t) => ({ text: t })) : [p],
    );
    const chunks = pieces.map((p, k) => ({
      candidates: [
        {
          content: { role: 'model', parts: [p] },
          ...(k === pieces.length - 1 ? { finishReason: 'STOP' } : {}),
          index: 0,
        },
      ],
      ...meta,
    }));
    out.push({ request, response: chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('') });
  });
  return out;
}

const URL_MESSAGES = 'https://api.anthropic.com/v1/messages';
const URL_RESPONSES = 'https://api.openai.com/v1/responses';
const URL_GEMINI = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent';
const URL_GEMINI_STREAM = URL_GEMINI.replace(':generateContent', ':streamGenerateContent?alt=sse');

/** The AI SDK's language-model prompt (what `ai.prompt.messages` holds). */
const aiPrompt = (msgs: Msg[]): unknown =>
  msgs.map((m) =>
    m.role === 'tool'
      ? {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: m.id, toolName: m.name, output: { type: 'text', value: m.content } },
          ],
        }
      : m.role === 'assistant'
        ? {
            role: 'assistant',
            content: m.call
              ? [{ type: 'tool-call', toolCallId: m.call.id, toolName: m.call.name, input: m.call.args }]
              : [{ type: 'text', text: m.content }],
          }
        : { role: 'user', content: [{ type: 'text', text: m.content }] },
  );

const attr = (key: string, v: string | string[]): unknown => ({
  key,
  value: typeof v === 'string' ? { stringValue: v } : { arrayValue: { values: v.map((x) => ({ stringValue: x })) } },
});

/** The AI SDK's own spans: a run span, one doGenerate span per call, a tool span per call. */
function otelAiSdk(msgs: Msg[], visible: ReadonlyArray<readonly string[]>): unknown {
  const spans: unknown[] = [
    { name: 'ai.generateText', startTimeUnixNano: '1', attributes: [attr('ai.operationId', 'ai.generateText')] },
  ];
  let call = 0;
  msgs.forEach((m, i) => {
    if (m.role === 'tool')
      spans.push({
        name: 'ai.toolCall',
        startTimeUnixNano: String(1000 + i),
        attributes: [attr('ai.toolCall.name', m.name)],
      });
    if (m.role !== 'assistant') return;
    const tools = visible[call++]!.map((name) => JSON.stringify({ type: 'function', name, inputSchema: {} }));
    const calls = m.call ? [{ toolCallId: m.call.id, toolName: m.call.name, input: m.call.args }] : [];
    spans.push({
      name: 'ai.generateText.doGenerate',
      startTimeUnixNano: String(1000 + i),
      attributes: [
        attr('ai.operationId', 'ai.generateText.doGenerate'),
        attr('ai.prompt.messages', JSON.stringify(aiPrompt(msgs.slice(0, i)))),
        attr('ai.prompt.tools', tools),
        attr('ai.response.text', m.call ? '' : m.content),
        ...(calls.length > 0 ? [attr('ai.response.toolCalls', JSON.stringify(calls))] : []),
      ],
    });
  });
  return { resourceSpans: [{ scopeSpans: [{ spans }] }] };
}

/** OpenInference LLM spans: messages flattened into llm.input_messages.N.message.* attributes. */
function otelOpenInference(msgs: Msg[], visible: ReadonlyArray<readonly string[]>): unknown {
  const flat = (prefix: string, m: Msg): Array<[string, string]> => {
    const p = `${prefix}.message`;
    const a: Array<[string, string]> = [[`${p}.role`, m.role]];
    if (m.role === 'tool') a.push([`${p}.tool_call_id`, m.id], [`${p}.content`, m.content]);
    else if (m.role === 'assistant' && m.call)
      a.push(
        [`${p}.tool_calls.0.tool_call.id`, m.call.id],
        [`${p}.tool_calls.0.tool_call.function.name`, m.call.name],
        [`${p}.tool_calls.0.tool_call.function.arguments`, JSON.stringify(m.call.args)],
      );
    else a.push([`${p}.content`, m.content]);
    return a;
  };
  const spans: unknown[] = [];
  let call = 0;
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const tools = visible[call++]!.map((name, k): [string, string] => [
      `llm.tools.${k}.tool.json_schema`,
      JSON.stringify({ type: 'function', function: { name, parameters: {} } }),
    ]);
    const list = [
      ['openinference.span.kind', 'LLM'],
      ...msgs.slice(0, i).flatMap((x, k) => flat(`llm.input_messages.${k}`, x)),
      ...flat('llm.output_messages.0', m),
      ...tools,
    ];
    spans.push({
      name: 'OpenAI Chat Completions',
      startTimeUnixNano: String(1000 + i),
      attributes: list.map(([key, v]) => attr(key!, v!)),
    });
  });
  spans.push({ name: 'agent', startTimeUnixNano: '1', attributes: [attr('openinference.span.kind', 'AGENT')] });
  return { resourceSpans: [{ scopeSpans: [{ spans }] }] };
}

/** Writers of one conversation as model calls that send tools (compared as the call log is). */
const CALL_WRITERS: ReadonlyArray<
  readonly [string, string, string, (m: Msg[], visible: ReadonlyArray<readonly string[]>) => unknown]
> = [
  ['call-log', 'call-log', 'calls.jsonl', callLog],
  ['nock', 'nock', 'nock.json', (m, v) => nockOf(modelCalls(m, v))],
  ['vcr', 'vcr', 'cassette.yaml', (m, v) => vcrOf(modelCalls(m, v))],
  ['har', 'har', 'x.har', (m, v) => harOf(modelCalls(m, v))],
  // Streamed answers (server-sent events) of the three APIs, and Gemini's, in each HTTP envelope.
  ['nock-sse-chat', 'nock', 'nock.json', (m, v) => nockOf(chatStreamCalls(m, v))],
  ['vcr-sse-anthropic', 'vcr', 'cassette.yaml', (m, v) => vcrOf(anthropicStreamCalls(m, v), URL_MESSAGES)],
  ['har-sse-responses', 'har', 'x.har', (m, v) => harOf(responsesStreamCalls(m, v), URL_RESPONSES)],
  ['nock-gemini', 'nock', 'nock.json', (m, v) => nockOf(geminiCalls(m, v, false), URL_GEMINI)],
  ['har-gemini-stream', 'har', 'x.har', (m, v) => harOf(geminiCalls(m, v, true), URL_GEMINI_STREAM)],
  ['vcr-gemini-stream', 'vcr', 'cassette.yaml', (m, v) => vcrOf(geminiCalls(m, v, true), URL_GEMINI_STREAM)],
  ['otel-ai-sdk', 'otel', 'ai-sdk.otlp.json', otelAiSdk],
  ['otel-openinference', 'otel', 'openinference.otlp.json', otelOpenInference],
];

/** Gemini contents (calls with ids, which the client echoes in its functionResponses). */
const geminiContents = (msgs: Msg[]): unknown[] =>
  msgs.map((m) =>
    m.role === 'tool'
      ? { role: 'user', parts: [{ functionResponse: { id: m.id, name: m.name, response: { output: m.content } } }] }
      : m.role === 'assistant'
        ? {
            role: 'model',
            parts: m.call
              ? [{ functionCall: { id: m.call.id, name: m.call.name, args: m.call.args } }]
              : [{ text: m.content }],
          }
        : { role: 'user', parts: [{ text: m.content }] },
  );

/** Roo Code's api_conversation_history.json: Anthropic messages with `ts`, native tool_use blocks. */
const cline = (msgs: Msg[]): unknown =>
  (anthropicBody(msgs) as { messages: object[] }).messages.map((m, i) => ({ ...m, ts: 1748931130000 + i }));

/** An Agents JS SDK RunState: the history up to the last user message, then the generated items. */
function agentsState(msgs: Msg[]): unknown {
  const items = agentsJs(msgs) as unknown[];
  const lastUser = msgs.map((m) => m.role).lastIndexOf('user');
  const kind = (m: Msg): string =>
    m.role === 'tool'
      ? 'tool_call_output_item'
      : m.role === 'assistant' && m.call
        ? 'tool_call_item'
        : 'message_output_item';
  return {
    $schemaVersion: '1.22',
    currentTurn: 1,
    currentAgent: { name: 'Atlas' },
    originalInput: items.slice(0, lastUser + 1),
    modelResponses: [],
    generatedItems: msgs
      .slice(lastUser + 1)
      .map((m, i) => ({ type: kind(m), rawItem: items[lastUser + 1 + i], agent: { name: 'Atlas' } })),
  };
}

/**
 * The Python SDK's `RunState.to_json()` (openai-agents-python src/agents/run_state.py): snake_case,
 * the generated items again as `session_items` (mapped by `generated_session_item_indexes`), each
 * model output again in `model_responses`, and an approval item after a call awaiting approval.
 */
function agentsStatePy(msgs: Msg[]): unknown {
  const items = responsesItems(msgs);
  const lastUser = msgs.map((m) => m.role).lastIndexOf('user');
  const kind = (m: Msg): string =>
    m.role === 'tool'
      ? 'tool_call_output_item'
      : m.role === 'assistant' && m.call
        ? 'tool_call_item'
        : 'message_output_item';
  const generated = msgs
    .slice(lastUser + 1)
    .map((m, i) => ({ type: kind(m), raw_item: items[lastUser + 1 + i], agent: { name: 'Atlas' } }));
  const last = generated.at(-1);
  if (last?.type === 'tool_call_item') generated.push({ ...last, type: 'tool_approval_item' });
  return {
    $schemaVersion: '1.17',
    current_turn: 1,
    current_agent: { name: 'Atlas' },
    original_input: items.slice(0, lastUser + 1),
    pending_input: null,
    model_responses: generated
      .filter((g) => g.type !== 'tool_call_output_item')
      .map((g) => ({ output: [g.raw_item], response_id: null, request_id: null, usage: {} })),
    generated_items: generated,
    session_items: generated,
    generated_session_item_indexes: generated.map((_, i) => i),
    nested_history_owned_session_item_refs: [],
    no_active_agent_run: true,
  };
}

const WRITERS: ReadonlyArray<readonly [string, string, (m: Msg[]) => unknown]> = [
  ['eino-jsonl', 'eino', einoJsonl],
  ['eino-multi', 'eino', einoMulti],
  ['openai', 'openai', openaiBody],
  ['openai-responses', 'openai-responses', responsesBody],
  ['openai-agents-py', 'openai-responses', (m) => responsesItems(m)],
  ['anthropic', 'anthropic', anthropicBody],
  ['ai-sdk-ui', 'ai-sdk', aiSdkUi],
  ['langgraph', 'langchain', langgraph],
  ['langchain-lc', 'langchain', langchainLc],
  ['otel-flat', 'otel', otelFlat],
  ['ai-sdk', 'ai-sdk', aiSdk],
  ['openai-agents', 'openai-agents', agentsJs],
  ['langchain', 'langchain', langchain],
  ['otel', 'otel', otel],
  ['claude-code', 'claude-code', claudeCode],
  ['gemini', 'gemini', (m) => ({ contents: geminiContents(m) })],
  ['gemini-contents', 'gemini', geminiContents],
  ['cline', 'cline', cline],
  ['openai-agents-state', 'openai-agents-state', agentsState],
  ['openai-agents-state-py', 'openai-agents-state', agentsStatePy],
];

/** Writers whose text-only conversations are detected as another (equivalent) format. */
const TEXT_ONLY_AMBIGUOUS = [
  'ai-sdk',
  'openai-agents',
  'openai-agents-py',
  'eino-multi',
  'langgraph',
  'anthropic',
  // {role, parts} contents with no model text and no call: plain messages.
  'gemini-contents',
];

function comparable(r: SimulationReport): unknown {
  return {
    turns: r.turns.map((t) => ({ ...t, assistant_text: undefined })),
    violations: r.violations,
    summary: r.summary,
  };
}

describe('random conversations in every recording format', () => {
  it('replay to the same turns and violations as their Eino form, in both modes', () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 8 }),
        fc.constantFrom('default' as const, 'native' as const),
        (steps, mode) => {
          const msgs = build(steps);
          const want = comparable(
            simulate({
              transcript: loadRecordingText(eino(msgs), { name: 'eino.json' }),
              catalog: demo,
              mode,
              replay: false,
            }),
          );
          for (const [name, format, write] of WRITERS) {
            const jsonl = name === 'claude-code' || name === 'eino-jsonl';
            const t = loadRecordingText(write(msgs), { name: jsonl ? 'x.jsonl' : `${name}.json` });
            // Text-only messages of some SDKs have nothing only that SDK writes: they read (the same) as a chat format.
            if (!TEXT_ONLY_AMBIGUOUS.includes(name) || msgs.some((m) => m.role === 'tool'))
              expect(t.format, name).toBe(format);
            expect(t.coverage?.unexplained, name).toEqual([]);
            expect(comparable(simulate({ transcript: t, catalog: demo, mode, replay: false })), name).toEqual(want);
          }
          // Model calls sent with what the reference offers in default mode: no sent-differs there.
          const visible = simulate({
            transcript: loadRecordingText(eino(msgs), { name: 'eino.json' }),
            catalog: demo,
            mode: 'default',
            replay: false,
          }).turns.map((x) => x.visible);
          for (const [name, format, file, write] of CALL_WRITERS) {
            const t = loadRecordingText(write(msgs, visible), { name: file });
            expect(t.format, name).toBe(format);
            expect(t.coverage?.unexplained, name).toEqual([]);
            const r = simulate({ transcript: t, catalog: demo, mode, replay: false });
            const sent = r.violations.filter((v) => v.kind === 'sent-differs');
            if (mode === 'default') expect(sent, name).toEqual([]);
            const rest = {
              ...r,
              violations: r.violations.filter((v) => v.kind !== 'sent-differs'),
              summary: { ...r.summary, warnings: r.summary.warnings - sent.length },
            };
            expect(comparable(rest), name).toEqual(want);
          }
        },
      ),
      { numRuns: 40, seed: 12 },
    );
    // Twenty-two writers per run: generous room on a loaded machine (no assertion on time).
  }, 120_000);
});

/** A turn's fields without what only the provider's own tool calls add. */
function withoutProviderCalls(r: SimulationReport): unknown {
  return {
    turns: r.turns.map((t) => ({ ...t, assistant_text: undefined, provider_calls: undefined })),
    violations: r.violations,
    summary: { ...r.summary, provider_calls: undefined },
  };
}

/** Responses items with hosted calls in every response: a web search before each answer, an MCP call before calls. */
const responsesHosted = (msgs: Msg[]): unknown => ({
  model: 'gpt-4.1',
  input: (responsesItems(msgs) as Array<Record<string, unknown>>).flatMap((item, i) => {
    const m = msgs[i]!;
    if (m.role !== 'assistant') return [item];
    const hosted = m.call
      ? { type: 'mcp_call', id: `mcp_${i}`, server_label: 'wiki', name: 'ask', arguments: '{}', output: 'ok' }
      : { type: 'web_search_call', id: `ws_${i}`, status: 'completed', action: { type: 'search', query: 'q' } };
    return [hosted, item];
  }),
});

/** AI SDK ModelMessages with a web search the provider ran (`providerExecuted`) opening every answer. */
const aiSdkWebSearch = (msgs: Msg[]): unknown =>
  (aiSdk(msgs) as Array<{ role: string; content: unknown }>).map((m, i) =>
    m.role !== 'assistant'
      ? m
      : {
          role: 'assistant',
          content: [
            {
              type: 'tool-call',
              toolCallId: `ws_${i}`,
              toolName: 'web_search',
              input: { q: 'x' },
              providerExecuted: true,
            },
            { type: 'tool-result', toolCallId: `ws_${i}`, toolName: 'web_search', output: { type: 'json', value: [] } },
            ...(m.content as unknown[]),
          ],
        },
  );

/** OTel spans of two conversations in one export, each its own trace, their model calls interleaved. */
function otelInterleaved(mine: Msg[], theirs: Msg[]): unknown {
  const spans = (msgs: Msg[], trace: string, start: (i: number) => number) =>
    (
      otel(msgs) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ startTimeUnixNano: string }> }> }> }
    ).resourceSpans[0]!.scopeSpans[0]!.spans.map((x, i) => ({
      ...x,
      traceId: trace,
      startTimeUnixNano: String(start(i)),
    }));
  const all = [...spans(mine, 'aaaa', (i) => 10 * i), ...spans(theirs, 'bbbb', (i) => 10 * i + 5)];
  return { resourceSpans: [{ scopeSpans: [{ spans: all }] }] };
}

/** LangChain JS messages as @langchain/core's toJSON() writes them (a tool()'s ToolMessage: status, metadata). */
const langchainJs = (msgs: Msg[]): unknown =>
  msgs.map((m) => {
    const common = { additional_kwargs: {}, response_metadata: {} };
    const [cls, kwargs] =
      m.role === 'tool'
        ? [
            'ToolMessage',
            {
              status: 'success',
              content: m.content,
              tool_call_id: m.id,
              name: m.name,
              metadata: { versions: { '@langchain/core': '1.4.0' } },
              ...common,
            },
          ]
        : m.role === 'user'
          ? ['HumanMessage', { content: m.content, ...common }]
          : [
              'AIMessage',
              {
                content: m.content,
                tool_calls: m.call ? [{ name: m.call.name, args: m.call.args, id: m.call.id, type: 'tool_call' }] : [],
                response_metadata: { model_name: 'gpt-4.1', finish_reason: m.call ? 'tool_calls' : 'stop' },
                usage_metadata: { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
                invalid_tool_calls: [],
                additional_kwargs: {},
              },
            ];
    return { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', cls], kwargs };
  });

/** The Claude Code log with two subagents written into it (Claude Code 1.0.x: same sessionId, no agentId). */
function claudeCodeWithSubagents(msgs: Msg[]): string {
  const sub = (k: number, prompt: string): string[] =>
    [
      { parentUuid: null, type: 'user', uuid: `s${k}a`, message: { role: 'user', content: prompt } },
      {
        parentUuid: `s${k}a`,
        type: 'assistant',
        uuid: `s${k}b`,
        message: { id: `msg_s${k}`, role: 'assistant', content: [{ type: 'text', text: `answer ${k}` }] },
      },
    ].map((o) => JSON.stringify({ isSidechain: true, sessionId: 's', ...o }));
  return [claudeCode(msgs), ...sub(1, 'first task'), ...sub(2, 'second task')].join('\n');
}

/** The messages without the result of the first call that has one before the last message (an unanswered call). */
function dropFirstResult(msgs: Msg[]): Msg[] | null {
  const i = msgs.findIndex((m, k) => m.role === 'tool' && k < msgs.length - 2);
  return i < 0 ? null : [...msgs.slice(0, i), ...msgs.slice(i + 1)];
}

/**
 * Writers that can leave a call unanswered. Not: UI messages and Agents RunStates (a call's output sits
 * beside it), nor Responses items (two assistant-side items with no input between them are one response).
 */
const UNANSWERED_WRITERS: ReadonlyArray<readonly [string, (m: Msg[]) => unknown]> = [
  ['eino-jsonl', einoJsonl],
  ['openai', openaiBody],
  ['anthropic', anthropicBody],
  ['ai-sdk', aiSdk],
  ['langchain', langchain],
  ['langchain-js', langchainJs],
  ['otel', otel],
  ['claude-code', claudeCode],
  ['gemini', (m) => ({ contents: geminiContents(m) })],
];

/** Gemini calls in the HTTP envelopes: [file name, format, streamed, write]. */
const GEMINI_ENVELOPES: ReadonlyArray<readonly [string, string, boolean, (calls: readonly Call[]) => unknown]> = [
  ['nock.json', 'nock', false, (calls) => nockOf(calls, URL_GEMINI)],
  ['x.har', 'har', true, (calls) => harOf(calls, URL_GEMINI_STREAM)],
  ['cassette.yaml', 'vcr', true, (calls) => vcrOf(calls, URL_GEMINI_STREAM)],
];

describe('random conversations and what issue 28 reads', () => {
  it('hosted calls, LangChain JS keys, subagents, interleaved logs, unanswered calls: as the Eino form', () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 8 }),
        fc.constantFrom('default' as const, 'native' as const),
        (steps, mode) => {
          const msgs = build(steps);
          const run = (value: unknown, name: string, options: { sidechains?: boolean } = {}) => {
            const t = loadRecordingText(value, { name, ...options });
            expect(t.coverage?.unexplained, name).toEqual([]);
            return { t, r: simulate({ transcript: t, catalog: demo, mode, replay: false }) };
          };
          const base = run(eino(msgs), 'eino.json').r;
          // Hosted calls change nothing the reference sees; each is listed at its model call.
          const hosted = run(responsesHosted(msgs), 'hosted.json').r;
          expect(withoutProviderCalls(hosted)).toEqual(withoutProviderCalls(base));
          expect(hosted.turns.map((x) => x.provider_calls.map((c) => c.type))).toEqual(
            msgs.filter((m) => m.role === 'assistant').map((m) => [m.call ? 'mcp_call' : 'web_search_call']),
          );
          // The AI SDK's provider-executed calls: the provider's own, listed at their model call, never ours.
          const ws = run(aiSdkWebSearch(msgs), 'ws.json').r;
          expect(withoutProviderCalls(ws)).toEqual(withoutProviderCalls(base));
          expect(ws.turns.map((x) => x.provider_calls.map((c) => `${c.type} ${c.name} ${c.executed_by}`))).toEqual(
            msgs.filter((m) => m.role === 'assistant').map(() => ['tool-call web_search provider']),
          );
          // @langchain/core's keys are all known.
          const lc = run(langchainJs(msgs), 'lc.json');
          expect(lc.t.format).toBe('langchain');
          expect(comparable(lc.r)).toEqual(comparable(base));
          // Subagents written into the session file: skipped, or two conversations of their own.
          const cc = run(claudeCodeWithSubagents(msgs), 'x.jsonl', { sidechains: true });
          expect(comparable(cc.r)).toEqual(comparable(base));
          expect(cc.t.sidechains?.map((s) => [s.coverage?.conversation, s.messages.length])).toEqual([
            ['s', 2],
            ['s#2', 2],
          ]);
          // Two agents' calls interleaved in one log: two sessions, the first this conversation, in every log.
          const visible = simulate({
            transcript: loadRecordingText(eino(msgs), { name: 'eino.json' }),
            catalog: demo,
            mode: 'default',
            replay: false,
          }).turns.map((x) => x.visible);
          const other: Msg[] = [
            { role: 'user', content: 'A different agent' },
            { role: 'assistant', content: 'Hello.' },
          ];
          const mine = modelCalls(msgs, visible);
          const theirs = modelCalls(other, [visible[0]!]);
          const interleaved = [...mine.slice(0, 1), ...theirs, ...mine.slice(1)];
          // The same in a call log, nock definitions, a VCR cassette and a HAR file.
          for (const [name, format, write] of LOG_ENVELOPES) {
            const log = loadRecordingText(write(interleaved), { name });
            expect(log.format, name).toBe(format);
            expect(
              [log, ...(log.sidechains ?? [])].map((s) => s.coverage?.sessions?.calls.length),
              name,
            ).toEqual([mine.length, 1]);
            const first = simulate({ transcript: log, catalog: demo, mode, replay: false });
            const sent = first.violations.filter((v) => v.kind === 'sent-differs');
            expect(
              comparable({
                ...first,
                violations: first.violations.filter((v) => v.kind !== 'sent-differs'),
                summary: { ...first.summary, warnings: first.summary.warnings - sent.length },
              }),
              name,
            ).toEqual(comparable(base));
          }
          // Two conversations' spans interleaved in one OTel export: two sessions, the first this conversation.
          if (msgs.some((m) => m.role === 'assistant')) {
            const trace = run(otelInterleaved(msgs, other), 'two.otlp.json');
            expect(trace.t.format).toBe('otel');
            expect(trace.t.sidechains?.map((x) => x.messages.length)).toEqual([2]);
            expect(comparable(trace.r)).toEqual(comparable(run(otel(msgs), 'one.otlp.json').r));
          }
          // The same with Gemini calls, plain in nock definitions and streamed in a HAR file and a VCR cassette.
          for (const [name, format, stream, write] of GEMINI_ENVELOPES) {
            const calls = [geminiCalls(msgs, visible, stream), geminiCalls(other, [visible[0]!], stream)] as const;
            const log = loadRecordingText(write([...calls[0].slice(0, 1), ...calls[1], ...calls[0].slice(1)]), {
              name,
            });
            expect(log.format, name).toBe(format);
            expect(log.coverage?.unexplained, name).toEqual([]);
            expect(
              [log, ...(log.sidechains ?? [])].map((s) => s.coverage?.sessions?.calls.length),
              name,
            ).toEqual([mine.length, 1]);
            const first = simulate({ transcript: log, catalog: demo, mode, replay: false });
            const sent = first.violations.filter((v) => v.kind === 'sent-differs');
            expect(
              comparable({
                ...first,
                violations: first.violations.filter((v) => v.kind !== 'sent-differs'),
                summary: { ...first.summary, warnings: first.summary.warnings - sent.length },
              }),
              name,
            ).toEqual(comparable(base));
          }
          // A call with no result while the conversation goes on: replayed as recorded, the same warning everywhere.
          const dropped = dropFirstResult(msgs);
          if (dropped) {
            const noLocation = (r: SimulationReport): unknown =>
              comparable({ ...r, violations: r.violations.map(({ location: _, ...v }) => v) });
            const want = run(eino(dropped), 'eino.json').r;
            expect(want.violations.map((v) => v.kind)).toContain('unanswered-call');
            for (const [name, write] of UNANSWERED_WRITERS) {
              const jsonl = name === 'claude-code' || name === 'eino-jsonl';
              expect(noLocation(run(write(dropped), jsonl ? 'x.jsonl' : `${name}.json`).r), name).toEqual(
                noLocation(want),
              );
            }
          }
        },
      ),
      { numRuns: 30, seed: 28 },
    );
  }, 120_000);
});
