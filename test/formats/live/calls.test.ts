/**
 * An exchange read as the proxy hands it over: streamed answers (put back
 * together by the recordings' assembleSse) compared with what the
 * providers' own SDKs make of the same stream (Anthropic's `finalMessage()`,
 * OpenAI's `finalChatCompletion()`, Node >= 22), from a provider on
 * 127.0.0.1 that streams as the APIs document; the errors; which API a path is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveProvider, providerOfPath, readExchange } from '../../../src/formats/live/calls.js';
import { type FakeProvider, fakeProvider, type Step } from '../../cli/watch/provider.js';

const NODE = Number(process.versions.node.split('.')[0]);
if (NODE < 22)
  console.log(`live calls: the openai SDK comparison is skipped on Node ${NODE} (openai 7.60.0 needs Node >= 22)`);

const STEPS: Step[] = [
  { text: 'Hello, wörld — ✓ "quoted"' },
  { calls: [{ id: 'c1', name: 'tool_search', input: { query: 'weather', max_results: 3 } }] },
  {
    text: 'Two calls:',
    calls: [
      { id: 'c2', name: 'get_weather', input: { city: 'Zürich' } },
      { id: 'c3', name: 'send_email', input: {} },
    ],
  },
];

let provider: FakeProvider;
let step = 0;
beforeAll(async () => {
  provider = await fakeProvider({ step: () => STEPS[step]! });
});
afterAll(() => provider.close());

/** What readExchange makes of a stream. */
function streamed(provider: LiveProvider, text: string): unknown {
  const r = readExchange(provider, { request: '{}', response: text, streamed: true });
  expect(r.error).toBe(undefined);
  return r.response;
}

async function raw(path: string, body: object): Promise<string> {
  const r = await fetch(`${provider.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  return r.text();
}

describe('readExchange', () => {
  it('Anthropic: the message the SDK assembles', async () => {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ apiKey: 'k', baseURL: provider.url, maxRetries: 0 });
    for (step = 0; step < STEPS.length; step++) {
      const body = { model: 'm', max_tokens: 10, messages: [{ role: 'user' as const, content: 'hi' }] };
      const sdk = await client.messages.stream(body).finalMessage();
      const ours = streamed('anthropic', await raw('/v1/messages', body)) as Record<string, unknown>;
      // Fields the SDK adds of its own (not on the wire), and usage, which the reader does not need.
      const { parsed_output, stop_details, usage, ...wire } = sdk as unknown as Record<string, unknown>;
      expect([parsed_output, stop_details]).toEqual([null, undefined]);
      expect({ ...ours, usage: undefined }).toEqual({ ...wire, usage: undefined });
    }
  });

  it.skipIf(NODE < 22)('OpenAI Chat: the completion the SDK assembles', async () => {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: 'k', baseURL: `${provider.url}/v1`, maxRetries: 0 });
    for (step = 0; step < STEPS.length; step++) {
      const body = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
      const sdk = await client.chat.completions.stream(body).finalChatCompletion();
      const ours = streamed('openai', await raw('/v1/chat/completions', body)) as {
        id: string;
        choices: Array<{ message: { content: string | null; tool_calls?: unknown[] }; finish_reason: string }>;
      };
      expect(ours.id).toBe(sdk.id);
      expect(ours.choices[0]!.finish_reason).toBe(sdk.choices[0]!.finish_reason);
      expect(ours.choices[0]!.message.content).toBe(sdk.choices[0]!.message.content);
      expect(ours.choices[0]!.message.tool_calls ?? []).toEqual(
        (sdk.choices[0]!.message.tool_calls ?? []).map((c) => ({
          id: c.id,
          type: c.type,
          function: c.type === 'function' ? { name: c.function.name, arguments: c.function.arguments } : null,
        })),
      );
    }
  });

  it('Responses: the response of response.completed', async () => {
    step = 2;
    const text = await raw('/v1/responses', { model: 'm', input: 'hi' });
    const r = streamed('openai-responses', text) as { output: Array<{ type: string }> };
    expect(r.output.map((o) => o.type)).toEqual(['message', 'function_call', 'function_call']);
  });

  it('says why an exchange cannot be read', () => {
    const read = (provider: LiveProvider, request: string, response: string | null, isStream = false) =>
      readExchange(provider, { request, response, streamed: isStream });
    expect(read('openai', 'nope', '{}')).toEqual({
      request: null,
      response: null,
      error: 'the request body is not JSON',
    });
    expect(read('openai', '{}', null)).toEqual({ request: {}, response: null });
    expect(read('openai', '{}', '<html>')).toEqual({ request: {}, response: null, error: 'the answer is not JSON' });
    expect(read('gemini', '{}', '{"candidates":[]}')).toEqual({ request: {}, response: { candidates: [] } });
    // A Gemini stream: its chunks merged (SSE, or a JSON list without alt=sse); cut short, not read.
    expect(read('gemini', '{}', 'data: {"candidates":[]}\n\n', true).error).toBe(
      "the stream holds no complete answer (the stream ends before its candidate's finishReason)",
    );
    const chunk = (text: string, finish?: string) => ({
      candidates: [{ content: { role: 'model', parts: [{ text }] }, ...(finish ? { finishReason: finish } : {}) }],
    });
    const merged = {
      candidates: [{ content: { parts: [{ text: 'a' }, { text: 'b' }], role: 'model' }, finishReason: 'STOP' }],
    };
    const events = `data: ${JSON.stringify(chunk('a'))}\r\n\r\ndata: ${JSON.stringify(chunk('b', 'STOP'))}\r\n\r\n`;
    expect(read('gemini', '{}', events, true)).toEqual({ request: {}, response: merged });
    expect(read('gemini', '{}', JSON.stringify([chunk('a'), chunk('b', 'STOP')]))).toEqual({
      request: {},
      response: merged,
    });
    expect(
      read(
        'openai-responses',
        '{}',
        'event: response.created\ndata: {"type":"response.created","response":{"id":"r","output":[]}}\n\n',
        true,
      ).error,
    ).toBe('the stream holds no complete answer (the stream ends before response.completed)');
    expect(read('anthropic', '{}', ': ping\n\n', true).error).toBe('the stream holds no complete answer (no message)');
  });
});

describe('providerOfPath', () => {
  it.each([
    ['/v1/chat/completions', 'openai'],
    ['/openai/deployments/d/chat/completions', 'openai'],
    ['/v1/responses', 'openai-responses'],
    ['/v1/messages', 'anthropic'],
    ['/v1/messages/', 'anthropic'],
    ['/v1beta/models/gemini-2.5-flash:generateContent', 'gemini'],
    ['/v1beta/models/gemini-2.5-flash:streamGenerateContent', 'gemini'],
    ['/v1/models', null],
    ['/v1/messages/count_tokens', null],
  ])('%s: %s', (path, provider) => {
    expect(providerOfPath(path)).toBe(provider);
  });
});
