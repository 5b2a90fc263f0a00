/** `watch --jsonl` lines against their shipped JSON Schema: read calls (proxy and OTLP) and calls with an error. */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatch } from './helpers.js';
import { type FakeProvider, fakeProvider } from './provider.js';

let provider: FakeProvider;
beforeAll(async () => {
  provider = await fakeProvider();
});
afterAll(() => provider.close());

const schema = (name: string): object =>
  JSON.parse(readFileSync(new URL(`../../../src/schemas/${name}.schema.json`, import.meta.url), 'utf8')) as object;

describe('watch --jsonl against watch-jsonl.schema.json', () => {
  it('every kind of line validates, each starting with its version', async () => {
    const watching = await startWatch(['--proxy', provider.url, '--jsonl']);
    const post = (path: string, body: string, type = 'application/json') =>
      fetch(`${watching.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
    const chat = { model: 'm', messages: [{ role: 'user', content: 'schema' }], tools: [] as unknown[] };
    chat.tools = ['tool_search', 'get_weather'].map((name) => ({ type: 'function', function: { name } }));
    await post('/v1/chat/completions', JSON.stringify(chat));
    await post('/v1/messages', 'not json'); // the provider answers 400: a line with an error
    await post('/v1/traces', readFileSync('fixtures/transcripts/keyword-search-then-call.otel.json', 'utf8'));
    const lines = await watching.waitLines(3);
    await watching.stop();
    const validate = new Ajv({ allErrors: true, strict: true }).compile(schema('watch-jsonl'));
    expect(lines.some((l) => l.error !== undefined)).toBe(true);
    expect(lines.some((l) => l.source === 'otlp')).toBe(true);
    expect(lines.some((l) => l.source === 'proxy' && l.turn !== null)).toBe(true);
    for (const l of lines) {
      expect(Object.keys(l)[0]).toBe('schema_version');
      expect(validate(l), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});

describe('watch without --jsonl or a terminal', () => {
  it('prints one escaped line per call: session, call, what was visible, what was called, the findings', async () => {
    const watching = await startWatch(['--proxy', provider.url]);
    const tools = ['tool_search', 'get_weather'].map((name) => ({ type: 'function', function: { name } }));
    const messages: unknown[] = [{ role: 'user', content: 'plain \u001b[31mlines' }];
    const post = (body: unknown) =>
      fetch(`${watching.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const first = (await (await post({ model: 'm', messages, tools })).json()) as {
      choices: Array<{ message: { tool_calls: Array<{ id: string }> } }>;
    };
    const m = first.choices[0]!.message;
    messages.push(m, { role: 'tool', tool_call_id: m.tool_calls[0]!.id, content: '{"matches":[]}' });
    await post({ model: 'm', messages, tools });
    const until = Date.now() + 15_000;
    while (watching.stdout().split('\n').length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const stopped = await watching.stop();
    expect(stopped.stdout.split('\n')).toEqual([
      's1 call 1: 1 visible  tool_search {"query":"weather forecast"}  warning: sent-differs: the recorded request ' +
        'sent as visible that the reference would hide: get_weather',
      's1 call 2: 1 visible  not-loaded! get_weather  warning: sent-differs: the recorded request sent as visible ' +
        'that the reference would hide: get_weather  error: not-loaded: get_weather was called before any ' +
        'tool_search result named it (not visible at call 2)',
      '',
    ]);
  });
});
