import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import type { ToolInfo } from '../../../src/core/types.js';
import { UsageError } from '../../../src/io/errors.js';
import { accountTokens, cacheSummaryOf } from '../../../src/jobs/tokens/account.js';
import { firstDifference, parseToolFormat, serializeTools } from '../../../src/jobs/tokens/serialize.js';
import { loadTokenizer, parseEncodingName } from '../../../src/jobs/tokens/tokenizer.js';

const think: ToolInfo = { name: 'think', description: 'Think.' };
const weather: ToolInfo = {
  name: 'get_weather',
  description: 'Get the weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const email: ToolInfo = { name: 'send_email', description: 'Send an email.' };
const REMINDER = '<available-deferred-tools>\nget_weather\nsend_email\n</available-deferred-tools>';

describe('serializeTools', () => {
  it('writes the OpenAI tools array (parameters left out when absent)', () => {
    expect(serializeTools([think, weather], 'openai')).toBe(
      '[{"type":"function","function":{"name":"think","description":"Think."}},' +
        '{"type":"function","function":{"name":"get_weather","description":"Get the weather for a city.",' +
        '"parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]',
    );
  });

  it("writes Anthropic's shape (input_schema is required there)", () => {
    expect(serializeTools([think], 'anthropic')).toBe(
      '[{"name":"think","description":"Think.","input_schema":{"type":"object","properties":{}}}]',
    );
  });

  it('marks deferred tools with defer_loading, and writes nothing for no tools', () => {
    expect(serializeTools([email], 'openai', { deferLoading: true })).toBe(
      '[{"type":"function","function":{"name":"send_email","description":"Send an email."},"defer_loading":true}]',
    );
    expect(serializeTools([], 'anthropic')).toBe('');
  });
});

describe('firstDifference', () => {
  it.each([
    ['abc', 'abc', null],
    ['abc', 'abd', 2],
    ['ab', 'abc', 2], // a prefix: differs at the end of the shorter
    ['', 'x', 0],
    ['😀a', '😀b', 1], // code points, not UTF-16 units
    ['\u{1F600}', '\u{1F601}', 0], // same high surrogate, different low: the character starts at 0
  ])('%j vs %j → %j', (a, b, at) => {
    expect(firstDifference(a, b)).toBe(at);
  });
});

describe('accountTokens', () => {
  // Default mode with one static tool: the tools block grows twice.
  const calls = [
    { visible: [think], deferred: [], reminderText: REMINDER },
    { visible: [think], deferred: [], reminderText: REMINDER },
    { visible: [think, weather], deferred: [], reminderText: REMINDER },
    { visible: [think, weather, email], deferred: [], reminderText: REMINDER },
  ];
  const allTools = [think, weather, email];

  it('counts exact tokens per call (o200k_base, OpenAI shape)', async () => {
    const acc = await accountTokens({ calls, allTools });
    expect(acc.per_call).toEqual([
      {
        tools: 18,
        reminder: 18,
        loaded: 0,
        deferred: 0,
        total: 36,
        all_up_front: 78,
        saved: 42,
        cache: { state: 'cold', hit: false, first_diff: null },
      },
      {
        tools: 18,
        reminder: 18,
        loaded: 0,
        deferred: 0,
        total: 36,
        all_up_front: 78,
        saved: 42,
        cache: { state: 'hit', hit: true, first_diff: null },
      },
      {
        tools: 59,
        reminder: 18,
        loaded: 0,
        deferred: 0,
        total: 77,
        all_up_front: 78,
        saved: 1,
        cache: { state: 'break', hit: false, first_diff: 71 },
      },
      {
        tools: 78,
        reminder: 18,
        loaded: 0,
        deferred: 0,
        total: 96,
        all_up_front: 78,
        saved: -18,
        cache: { state: 'break', hit: false, first_diff: 260 },
      },
    ]);
    expect(acc.summary).toEqual({
      tokens: {
        encoding: 'o200k_base',
        tool_format: 'openai',
        calls: 4,
        tools: 173,
        reminder: 72,
        loaded: 0,
        deferred: 0,
        total: 245,
        all_up_front: 312,
        saved: 67,
        saved_percent: 21.5,
        note:
          'estimates for o200k_base, tools serialized as OpenAI JSON; a ' +
          "provider's own template and tokenizer give other exact numbers",
      },
      cache: { calls: 4, compared: 3, hits: 1, breaks: 2, break_calls: [3, 4] },
    });
    expect(acc.note).toBe(acc.summary.tokens.note);
  });

  it('each call is counted from its own tool objects (lists are reused by identity, never by name)', async () => {
    const a: ToolInfo = { name: 'x', description: 'short' };
    const b: ToolInfo = { name: 'x', description: 'a much longer description of the very same name' };
    const acc = await accountTokens({
      calls: [
        { visible: [a], deferred: [b], reminderText: null },
        { visible: [b], deferred: [a], reminderText: null },
      ],
      allTools: [a],
    });
    const tok = await loadTokenizer('o200k_base');
    expect(acc.per_call.map((c) => [c.tools, c.deferred])).toEqual([
      [tok.count(serializeTools([a], 'openai')), tok.count(serializeTools([b], 'openai', { deferLoading: true }))],
      [tok.count(serializeTools([b], 'openai')), tok.count(serializeTools([a], 'openai', { deferLoading: true }))],
    ]);
    expect(acc.per_call[1]!.cache.state).toBe('break');
  });

  it("agrees with gpt-tokenizer's encode", async () => {
    const block = serializeTools(allTools, 'openai');
    expect(encode(block).length).toBe(78);
    expect((await loadTokenizer('o200k_base')).count(block)).toBe(78);
    // The first difference of call 4 is where send_email starts: after `[…get_weather…}` and a comma.
    expect(block.slice(260, 262)).toBe(',{');
  });

  it('counts deferred definitions separately (model-native), outside the total', async () => {
    const acc = await accountTokens({
      calls: [{ visible: [think], deferred: [weather, email], reminderText: REMINDER }],
      allTools,
    });
    expect(acc.per_call[0]).toMatchObject({ tools: 18, reminder: 18, deferred: 73, total: 36 });
    expect(acc.summary.cache).toEqual({ calls: 1, compared: 0, hits: 0, breaks: 0, break_calls: [] });
  });

  it('counts definitions loaded into the context by earlier searches', async () => {
    const acc = await accountTokens({
      calls: [{ visible: [think], deferred: [weather, email], reminderText: null, loaded: [email] }],
      allTools,
    });
    expect(acc.per_call[0]).toMatchObject({ tools: 18, reminder: 0, loaded: 21, total: 39 });
  });

  it("uses Anthropic's shape and other encodings", async () => {
    const anthropic = await accountTokens({ calls: [calls[3]!], allTools, toolFormat: 'anthropic' });
    expect(anthropic.per_call[0]).toMatchObject({ tools: 81, all_up_front: 81 });
    expect(anthropic.summary.tokens.note).toMatch(/^estimates for o200k_base, tools serialized as Anthropic JSON/);
    const cl100k = await accountTokens({
      calls: [calls[3]!],
      allTools,
      toolFormat: 'anthropic',
      encoding: 'cl100k_base',
    });
    expect(cl100k.per_call[0]).toMatchObject({ tools: 80, reminder: 20 });
    expect(cl100k.summary.tokens.encoding).toBe('cl100k_base');
  });

  it('counts special-token text as ordinary text', async () => {
    const t = await loadTokenizer();
    expect(t.count('a <|endoftext|> b')).toBe(9);
    expect(t.count('')).toBe(0);
  });

  it('gives the cache view without a tokenizer', () => {
    expect(cacheSummaryOf(calls)).toEqual({ calls: 4, compared: 3, hits: 1, breaks: 2, break_calls: [3, 4] });
    // Model-native: the visible list stays put.
    expect(cacheSummaryOf([{ visible: [think] }, { visible: [think] }, { visible: [think] }])).toEqual({
      calls: 3,
      compared: 2,
      hits: 2,
      breaks: 0,
      break_calls: [],
    });
  });
});

describe('flag values', () => {
  it('accepts known encodings and tool formats, refuses others as usage errors', () => {
    expect(parseEncodingName('cl100k_base')).toBe('cl100k_base');
    expect(() => parseEncodingName('o300k')).toThrow(UsageError);
    expect(() => parseEncodingName('o300k')).toThrow(
      'unknown tokenizer "o300k"; choose one of o200k_base, ' +
        'o200k_harmony, cl100k_base, p50k_base, p50k_edit, r50k_base, gpt2',
    );
    expect(parseToolFormat('anthropic')).toBe('anthropic');
    expect(() => parseToolFormat('gemini')).toThrow('unknown tool format "gemini"; choose one of openai, anthropic');
  });
});
