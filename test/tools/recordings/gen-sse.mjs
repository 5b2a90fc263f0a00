#!/usr/bin/env node
/**
 * Streaming (SSE) transcripts made by the real clients, `openai` and
 * `@anthropic-ai/sdk` (pinned in package.json; `openai` needs Node >= 22):
 *
 *   /root/.cache/toolsearch-ci/node-22.23.5/bin/node test/tools/recordings/gen-sse.mjs [out-dir]
 *
 * A local server on 127.0.0.1 streams each model call of a scenario as the
 * providers document their event sequences (Anthropic Messages
 * "Streaming Messages": message_start, content_block_start/delta/stop with
 * text_delta and input_json_delta, ping, message_delta, message_stop; OpenAI
 * Chat Completions `chat.completion.chunk`s then `data: [DONE]`; OpenAI
 * Responses `response.created` … `response.completed` with output_item,
 * content_part, output_text and function_call_arguments events). The clients
 * stream it with their stream helpers and run the agent loop (each request
 * carries the conversation so far and the tool results).
 *
 * Writes to fixtures/recordings/sse/ (or out-dir), per API:
 * - `<scenario>.<api>.sse`: the raw SSE text of every call, exactly as sent,
 *   one stream after another (as a proxy that keeps the streams appends them);
 * - `<scenario>.<api>.final.json`: what the client assembled from each stream
 *   (`finalMessage()`, `finalChatCompletion()`, `finalResponse()`), the
 *   oracle our assembly is checked against.
 */
import fs from 'node:fs';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { json, outDir, scenario, serve } from './scenario.mjs';

const out = outDir('fixtures/recordings/sse');
const SCENARIO = 'keyword-search-then-call';

/** Splits text into pieces of at most n characters (the deltas of a stream). */
const pieces = (s, n) => {
  const out = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
};
const sse = (events) => events.map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${data}\n\n`).join('');

function anthropicStream(step, k) {
  const ev = [];
  const push = (type, data) => ev.push([type, JSON.stringify({ type, ...data })]);
  push('message_start', {
    message: {
      id: `msg_01ATLAS${k}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1200 + k, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
    },
  });
  let index = 0;
  if (step.text !== '') {
    push('content_block_start', { index, content_block: { type: 'text', text: '' } });
    ev.push(['ping', JSON.stringify({ type: 'ping' })]);
    for (const t of pieces(step.text, 12))
      push('content_block_delta', { index, delta: { type: 'text_delta', text: t } });
    push('content_block_stop', { index });
    index++;
  }
  for (const c of step.calls) {
    push('content_block_start', { index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } });
    push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const t of pieces(JSON.stringify(c.args), 9))
      push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: t } });
    push('content_block_stop', { index });
    index++;
  }
  push('message_delta', {
    delta: { stop_reason: step.calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 30 + k },
  });
  push('message_stop', {});
  return sse(ev);
}

function chatStream(step, k) {
  const base = {
    id: `chatcmpl-ATLAS${k}`,
    object: 'chat.completion.chunk',
    created: 1748931130 + k,
    model: 'gpt-4.1-2025-04-14',
    system_fingerprint: 'fp_atlas',
    service_tier: 'default',
  };
  const chunk = (delta, finish = null) => [
    '',
    JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
  ];
  const ev = [];
  if (step.calls.length === 0) {
    ev.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const t of pieces(step.text, 12)) ev.push(chunk({ content: t }));
    ev.push(chunk({}, 'stop'));
  } else {
    step.calls.forEach((c, i) => {
      const head = { index: i, id: c.id, type: 'function', function: { name: c.name, arguments: '' } };
      ev.push(chunk(i === 0 ? { role: 'assistant', content: null, tool_calls: [head] } : { tool_calls: [head] }));
      for (const t of pieces(JSON.stringify(c.args), 9))
        ev.push(chunk({ tool_calls: [{ index: i, function: { arguments: t } }] }));
    });
    ev.push(chunk({}, 'tool_calls'));
  }
  ev.push(['', '[DONE]']);
  return sse(ev);
}

function responsesStream(step, k) {
  let seq = 0;
  const ev = [];
  const push = (type, data) => ev.push([type, JSON.stringify({ type, sequence_number: seq++, ...data })]);
  const response = (status, output, usage) => ({
    id: `resp_ATLAS${k}`,
    object: 'response',
    created_at: 1748931130 + k,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: 'gpt-4.1-2025-04-14',
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage,
    metadata: {},
  });
  push('response.created', { response: response('in_progress', [], null) });
  push('response.in_progress', { response: response('in_progress', [], null) });
  const done = [];
  let o = 0;
  if (step.text !== '') {
    const id = `msg_ATLAS${k}`;
    push('response.output_item.added', {
      output_index: o,
      item: { id, type: 'message', status: 'in_progress', content: [], role: 'assistant' },
    });
    push('response.content_part.added', {
      item_id: id,
      output_index: o,
      content_index: 0,
      part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
    });
    for (const t of pieces(step.text, 12))
      push('response.output_text.delta', { item_id: id, output_index: o, content_index: 0, delta: t, logprobs: [] });
    push('response.output_text.done', {
      item_id: id,
      output_index: o,
      content_index: 0,
      text: step.text,
      logprobs: [],
    });
    const part = { type: 'output_text', annotations: [], logprobs: [], text: step.text };
    push('response.content_part.done', { item_id: id, output_index: o, content_index: 0, part });
    const item = { id, type: 'message', status: 'completed', content: [part], role: 'assistant' };
    push('response.output_item.done', { output_index: o, item });
    done.push(item);
    o++;
  }
  for (const c of step.calls) {
    const id = `fc_ATLAS${k}_${o}`;
    const args = JSON.stringify(c.args);
    push('response.output_item.added', {
      output_index: o,
      item: { id, type: 'function_call', status: 'in_progress', arguments: '', call_id: c.id, name: c.name },
    });
    for (const t of pieces(args, 9))
      push('response.function_call_arguments.delta', { item_id: id, output_index: o, delta: t });
    push('response.function_call_arguments.done', { item_id: id, output_index: o, arguments: args });
    const item = { id, type: 'function_call', status: 'completed', arguments: args, call_id: c.id, name: c.name };
    push('response.output_item.done', { output_index: o, item });
    done.push(item);
    o++;
  }
  const usage = {
    input_tokens: 1200 + k,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 30 + k,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 1230 + 2 * k,
  };
  push('response.completed', { response: response('completed', done, usage) });
  return sse(ev);
}

async function record(api, stream, client) {
  const { steps, tools } = scenario(SCENARIO);
  const bodies = [];
  let k = 0;
  const server = await serve(({ url }) => {
    const step = steps.filter((s) => s.kind === 'model')[k];
    k++;
    const body = stream(step, k);
    bodies.push(body);
    return { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, body };
  });
  const finals = await client(server.url, steps, tools);
  await server.close();
  fs.writeFileSync(path.join(out, `${SCENARIO}.${api}.sse`), bodies.join(''));
  fs.writeFileSync(path.join(out, `${SCENARIO}.${api}.final.json`), json(finals));
}

const fn = (t) => ({
  name: t.name,
  description: t.description,
  parameters: t.parameters ?? { type: 'object', properties: {} },
});

await record('anthropic', anthropicStream, async (baseURL, steps, tools) => {
  const client = new Anthropic({ apiKey: 'test-key', baseURL, maxRetries: 0 });
  const messages = [];
  let system;
  const finals = [];
  let k = 0;
  for (const s of steps) {
    if (s.kind === 'system') system = s.text;
    else if (s.kind === 'user') messages.push({ role: 'user', content: s.text });
    else if (s.kind === 'model') {
      const t = tools[k++].map((x) => ({ name: x.name, description: x.description, input_schema: fn(x).parameters }));
      const stream = client.messages.stream({
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        system,
        messages: [...messages],
        tools: t,
      });
      const msg = await stream.finalMessage();
      finals.push(msg);
      messages.push({ role: 'assistant', content: msg.content });
    } else
      messages.push({
        role: 'user',
        content: s.results.map((r) => ({ type: 'tool_result', tool_use_id: r.id, content: r.content })),
      });
  }
  return finals;
});

await record('openai', chatStream, async (baseURL, steps, tools) => {
  const client = new OpenAI({ apiKey: 'test-key', baseURL, maxRetries: 0 });
  const messages = [];
  const finals = [];
  let k = 0;
  for (const s of steps) {
    if (s.kind === 'system' || s.kind === 'user') messages.push({ role: s.kind, content: s.text });
    else if (s.kind === 'model') {
      const t = tools[k++].map((x) => ({ type: 'function', function: fn(x) }));
      const stream = client.chat.completions.stream({ model: 'gpt-4.1', messages: [...messages], tools: t });
      const completion = await stream.finalChatCompletion();
      finals.push(completion);
      messages.push(completion.choices[0].message);
    } else for (const r of s.results) messages.push({ role: 'tool', tool_call_id: r.id, content: r.content });
  }
  return finals;
});

await record('openai-responses', responsesStream, async (baseURL, steps, tools) => {
  const client = new OpenAI({ apiKey: 'test-key', baseURL, maxRetries: 0 });
  const input = [];
  let instructions;
  const finals = [];
  let k = 0;
  for (const s of steps) {
    if (s.kind === 'system') instructions = s.text;
    else if (s.kind === 'user') input.push({ role: 'user', content: s.text });
    else if (s.kind === 'model') {
      const t = tools[k++].map((x) => ({ type: 'function', strict: false, ...fn(x) }));
      const stream = client.responses.stream({ model: 'gpt-4.1', instructions, input: [...input], tools: t });
      const response = await stream.finalResponse();
      finals.push(response);
      input.push(...response.output);
    } else for (const r of s.results) input.push({ type: 'function_call_output', call_id: r.id, output: r.content });
  }
  return finals;
});
