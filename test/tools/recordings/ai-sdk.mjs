#!/usr/bin/env node
/**
 * fixtures/recordings/ai-sdk/: what the Vercel AI SDK 7 (`ai` 7.0.173, the `ai-v7` devDependency) writes,
 * made by running it: `generateText` / `streamText` with the SDK's own mock model (`ai/test`
 * MockLanguageModelV4) answering each step with the scenario's next answer (conversations.mjs), real
 * `tool()`s that return the scenario's results, and `prepareStep` offering the tools the reference
 * offers at that call (`activeTools`). Written:
 *
 * - `<scenario>.model-messages.json`: the ModelMessage[] a chat app keeps (the user message, then
 *   `result.responseMessages`);
 * - `<scenario>.ui-messages.json`: the UIMessage[] of a chat UI (the user's, then the assistant's as
 *   `readUIMessageStream` builds it from `result.toUIMessageStream()`);
 * - `<scenario>.legacy.otlp.json` and `<scenario>.stream.legacy.otlp.json`: the spans of
 *   `LegacyOpenTelemetry` (@ai-sdk/otel 1.0.173: `ai.generateText.doGenerate` / `ai.streamText.doStream`
 *   with `ai.prompt.messages`, `ai.prompt.tools`, `ai.response.toolCalls`, `ai.response.text`, and
 *   `ai.toolCall` spans), as OTLP JSON (otlp.mjs);
 * - `<scenario>.otlp.json`: the spans of `OpenTelemetry`, the GenAI semantic conventions;
 * - `<scenario>.web-search.{model-messages,ui-messages,legacy.otlp}.json`: the same run with a web search
 *   the provider runs (WEB_SEARCH) in the first answer.
 *
 *   npm run build && <node 22 or later> test/tools/recordings/ai-sdk.mjs [out-dir]
 */
import fs from 'node:fs';
import path from 'node:path';
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
import { generateText, isStepCount, jsonSchema, readUIMessageStream, streamText, tool } from 'ai-v7';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai-v7/test';
import { memoryTracing, otlpJson } from './otlp.mjs';
import { loadScenario, ROOT } from './conversations.mjs';

const out = process.argv[2] ?? path.join(ROOT, 'fixtures/recordings/ai-sdk');
fs.mkdirSync(out, { recursive: true });
const write = (file, text) => fs.writeFileSync(path.join(out, file), text.endsWith('\n') ? text : `${text}\n`);
const TIMING = (k) => /msTo|PerSecond|duration/i.test(k);

const answeredIn = (prompt) => prompt.filter((m) => m.role === 'assistant').length;
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/**
 * A web search the provider runs (as OpenAI's or Anthropic's hosted web search comes back through their
 * providers): a `tool-call` and its `tool-result`, both `providerExecuted` and `dynamic` (no client tool
 * of that name), in the first answer, before the scenario's own calls.
 */
const WEB_SEARCH = [
  {
    type: 'tool-call',
    toolCallId: 'ws_1',
    toolName: 'web_search',
    input: '{"query":"slack api send message"}',
    providerExecuted: true,
    dynamic: true,
  },
  {
    type: 'tool-result',
    toolCallId: 'ws_1',
    toolName: 'web_search',
    result: [{ url: 'https://api.slack.com/methods/chat.postMessage', title: 'chat.postMessage' }],
    providerExecuted: true,
    dynamic: true,
  },
];

/** The SDK's mock model, answering the scenario's model call k with its k-th answer (`webSearch`: see WEB_SEARCH). */
function mockModel(s, webSearch = false) {
  const provider = (k) => (webSearch && k === 0 ? WEB_SEARCH : []);
  const answer = (prompt) => {
    const k = answeredIn(prompt);
    return { k, a: s.answers[k] };
  };
  const finishReason = (a) => ({ unified: a.calls ? 'tool-calls' : 'stop', raw: a.calls ? 'tool_calls' : 'stop' });
  const response = (k) => ({ id: `resp-${k + 1}`, modelId: 'mock-model-id', timestamp: new Date(0) });
  return new MockLanguageModelV4({
    provider: 'mock-provider',
    modelId: 'mock-model-id',
    doGenerate: async ({ prompt }) => {
      const { k, a } = answer(prompt);
      const content = [
        ...provider(k),
        ...(a.calls
          ? a.calls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.arguments }))
          : [{ type: 'text', text: a.content }]),
      ];
      return { content, finishReason: finishReason(a), usage, warnings: [], response: response(k) };
    },
    doStream: async ({ prompt }) => {
      const { k, a } = answer(prompt);
      const parts = [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', ...response(k) },
        ...provider(k),
      ];
      if (a.calls)
        for (const c of a.calls)
          parts.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.arguments });
      else
        parts.push(
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: a.content },
          { type: 'text-end', id: 't1' },
        );
      parts.push({ type: 'finish', finishReason: finishReason(a), usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

/** The scenario's tools as AI SDK tools, each returning the recorded result of its call. */
function sdkTools(s) {
  const defs = new Map(s.tools.flat().map((t) => [t.name, t]));
  return Object.fromEntries(
    [...defs.values()].map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: jsonSchema(t.parameters),
        execute: async (_input, { toolCallId }) => s.results.get(toolCallId),
      }),
    ]),
  );
}

function options(s, integrations, webSearch = false) {
  return {
    model: mockModel(s, webSearch),
    system: s.system,
    messages: [{ role: 'user', content: s.user }],
    tools: sdkTools(s),
    stopWhen: isStepCount(s.answers.length),
    prepareStep: ({ stepNumber }) => ({ activeTools: s.tools[stepNumber].map((t) => t.name) }),
    telemetry: { integrations },
    _internal: { generateId: counter('id'), generateCallId: counter('call') },
  };
}

function counter(prefix) {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

// generateText: ModelMessage[] and the legacy spans; the GenAI spans of the same run.
{
  const s = loadScenario('keyword-search-then-call');
  const legacy = memoryTracing();
  const genai = memoryTracing();
  const result = await generateText(
    options(s, [
      new LegacyOpenTelemetry({ tracer: legacy.provider.getTracer('ai') }),
      new OpenTelemetry({ tracer: genai.provider.getTracer('ai') }),
    ]),
  );
  const messages = [{ role: 'user', content: s.user }, ...result.responseMessages];
  write(`${s.name}.model-messages.json`, JSON.stringify(messages, null, 2));
  write(`${s.name}.legacy.otlp.json`, otlpJson(legacy.exporter, TIMING));
  write(`${s.name}.otlp.json`, otlpJson(genai.exporter, TIMING));
}

// streamText: UIMessage[] and the legacy spans of a stream.
{
  const s = loadScenario('deferred-tool-called-too-early');
  const legacy = memoryTracing();
  const result = streamText(options(s, [new LegacyOpenTelemetry({ tracer: legacy.provider.getTracer('ai') })]));
  let assistant = null;
  for await (const m of readUIMessageStream({ stream: result.toUIMessageStream({ generateMessageId: () => 'msg-2' }) }))
    assistant = m;
  await result.consumeStream?.();
  const ui = [{ id: 'msg-1', role: 'user', parts: [{ type: 'text', text: s.user }] }, assistant];
  write(`${s.name}.ui-messages.json`, JSON.stringify(ui, null, 2));
  write(`${s.name}.stream.legacy.otlp.json`, otlpJson(legacy.exporter, TIMING));
}

// A provider-executed web search in the first answer: ModelMessage[], UIMessage[] and the legacy spans.
{
  const s = loadScenario('keyword-search-then-call');
  const legacy = memoryTracing();
  const result = await generateText(
    options(s, [new LegacyOpenTelemetry({ tracer: legacy.provider.getTracer('ai') })], true),
  );
  const messages = [{ role: 'user', content: s.user }, ...result.responseMessages];
  write(`${s.name}.web-search.model-messages.json`, JSON.stringify(messages, null, 2));
  write(`${s.name}.web-search.legacy.otlp.json`, otlpJson(legacy.exporter, TIMING));
  const streamed = streamText(options(s, [], true));
  let assistant = null;
  for await (const m of readUIMessageStream({
    stream: streamed.toUIMessageStream({ generateMessageId: () => 'msg-2' }),
  }))
    assistant = m;
  await streamed.consumeStream?.();
  const ui = [{ id: 'msg-1', role: 'user', parts: [{ type: 'text', text: s.user }] }, assistant];
  write(`${s.name}.web-search.ui-messages.json`, JSON.stringify(ui, null, 2));
}
