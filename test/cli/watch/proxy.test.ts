/**
 * `watch --proxy` with real clients: the Anthropic SDK (any Node) and the
 * OpenAI SDK (Node >= 22: openai 7.60.0 requires it) pointed at the proxy,
 * which forwards to a provider on 127.0.0.1 answering as the APIs document,
 * plain and streamed. Checks the JSON lines, the -o recording (replayed by
 * simulate to the same report), that credentials reach neither a file nor
 * the screen, and that clients get the provider's bytes unchanged.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TurnReport } from '../../../src/jobs/simulate/report.js';
import type { WatchLine } from '../../../src/jobs/watch/live.js';
import { run } from '../helpers.js';
import { startWatch, type Watching } from './helpers.js';
import { type FakeProvider, fakeProvider } from './provider.js';

const NODE = Number(process.versions.node.split('.')[0]);
const OPENAI_OK = NODE >= 22;
if (!OPENAI_OK)
  console.log(`watch proxy: the openai SDK tests are skipped on Node ${NODE} (openai 7.60.0 needs Node >= 22)`);

const SECRETS = ['sk-ant-SECRET-one', 'sk-SECRET-two', 'SECRET-cookie', 'SECRET-query', 'SECRET-azure'];

const TOOLS_ANTHROPIC = [
  { name: 'tool_search', description: 'Search for tools', input_schema: { type: 'object' as const, properties: {} } },
  { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: {} } },
];
const TOOLS_OPENAI = TOOLS_ANTHROPIC.map((t) => ({
  type: 'function' as const,
  function: { name: t.name, description: t.description, parameters: t.input_schema },
}));

let dir: string;
let provider: FakeProvider;
let watching: Watching | null = null;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watch-proxy-'));
  provider = await fakeProvider();
});
afterEach(async () => {
  if (watching && watching.child.exitCode === null) await watching.stop();
  watching = null;
});
afterAll(async () => {
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A turn without what only a later call can tell (the search's result arrives with the next request). */
function settled(t: TurnReport): unknown {
  return { ...t, searches: t.searches.map(({ recorded, recorded_text, differs, ...s }) => s) };
}

async function replayed(file: string): Promise<{ turns: TurnReport[]; violations: unknown[] }[]> {
  const r = await run(['simulate', file, '--jsonl-input', 'sessions', '--jsonl', '--no-tokens']);
  expect(r.stderr).not.toMatch(/error/i);
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { report: { turns: TurnReport[]; violations: unknown[] } }).report);
}

describe('watch --proxy with the Anthropic SDK', () => {
  it('reads plain and streamed calls live, records them, keeps no credential', async () => {
    const out = join(dir, 'anthropic.jsonl');
    watching = await startWatch(['--proxy', provider.url, '--jsonl', '-o', out]);
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({
      apiKey: SECRETS[0],
      baseURL: watching.url,
      defaultHeaders: { cookie: `session=${SECRETS[2]}`, 'api-key': SECRETS[4] },
      maxRetries: 0,
    });
    const direct = new Anthropic({ apiKey: 'direct', baseURL: provider.url, maxRetries: 0 });
    type Param = Parameters<typeof client.messages.create>[0];
    const messages: Param['messages'] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const base = { model: 'claude-test', max_tokens: 100, tools: TOOLS_ANTHROPIC } as const;
    // Call 1 plain, call 2 streamed, call 3 plain; each answer compared with the provider's own.
    const first = await client.messages.create({ ...base, messages });
    expect(first).toEqual(await direct.messages.create({ ...base, messages }));
    const use = first.content.find((b) => b.type === 'tool_use')!;
    messages.push({ role: 'assistant', content: first.content });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: use.type === 'tool_use' ? use.id : '', content: 'get_weather' }],
    });
    const second = await client.messages.stream({ ...base, messages }).finalMessage();
    expect(second).toEqual(await direct.messages.stream({ ...base, messages }).finalMessage());
    const use2 = second.content.find((b) => b.type === 'tool_use')!;
    messages.push({ role: 'assistant', content: second.content });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: use2.type === 'tool_use' ? use2.id : '', content: 'sunny' }],
    });
    const third = await client.messages.create({ ...base, messages });
    expect(third.content).toEqual([{ type: 'text', text: expect.stringMatching(/^It is sunny/) }]);

    const lines = await watching.waitLines(3);
    expect(lines.map((l) => [l.session, l.call, l.provider, l.http?.streamed])).toEqual([
      ['s1', 1, 'anthropic', false],
      ['s1', 2, 'anthropic', true],
      ['s1', 3, 'anthropic', false],
    ]);
    expect(lines.map((l) => l.turn!.tool_calls.map((c) => c.name))).toEqual([['tool_search'], ['get_weather'], []]);
    // The request went upstream with its credentials (the provider needs them)...
    expect(provider.seen.some((r) => r.headers.authorization === `Bearer ${SECRETS[0]}`)).toBe(true);
    expect(provider.seen.some((r) => r.headers['api-key'] === SECRETS[4])).toBe(true);
    const stopped = await watching.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toMatch(/stopped; 1 sessions, 3 model calls, 3 proxied requests \(0 failed\)/);
    const recorded = readFileSync(out, 'utf8');
    // ...but none reached the screen or the file.
    for (const s of SECRETS) {
      expect(recorded).not.toContain(s);
      expect(stopped.stdout).not.toContain(s);
      expect(stopped.stderr).not.toContain(s);
    }
    const calls = recorded
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Array<{ http: { request_headers: Record<string, string> } }>);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(3);
    const kept = Object.keys(calls[0]![0]!.http.request_headers);
    expect(kept).toContain('anthropic-version');
    for (const h of ['x-api-key', 'api-key', 'cookie', 'authorization']) expect(kept).not.toContain(h);
    // simulate replays the recording to the same report.
    const [report] = await replayed(out);
    expect(report!.turns.map(settled)).toEqual(lines.map((l) => settled(l.turn!)));
    expect(report!.violations).toEqual(lines.flatMap((l) => l.violations));
  });
});

describe.skipIf(!OPENAI_OK)('watch --proxy with the OpenAI SDK (Node >= 22)', () => {
  it('reads Chat Completions (plain and streamed) and Responses calls as sessions', async () => {
    const out = join(dir, 'openai.jsonl');
    watching = await startWatch(['--proxy', `${provider.url}/v1`, '--jsonl', '-o', out]);
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: SECRETS[1], baseURL: watching.url, maxRetries: 0 });
    const direct = new OpenAI({ apiKey: 'direct', baseURL: `${provider.url}/v1`, maxRetries: 0 });
    type Msg = Parameters<typeof client.chat.completions.create>[0]['messages'][number];
    const messages: Msg[] = [{ role: 'user', content: 'Weather in Paris, please' }];
    const first = await client.chat.completions.create({ model: 'gpt-test', messages, tools: TOOLS_OPENAI });
    expect(first).toEqual(await direct.chat.completions.create({ model: 'gpt-test', messages, tools: TOOLS_OPENAI }));
    const m1 = first.choices[0]!.message;
    messages.push(m1, { role: 'tool', tool_call_id: m1.tool_calls![0]!.id, content: 'get_weather' });
    const stream = client.chat.completions.stream({ model: 'gpt-test', messages, tools: TOOLS_OPENAI });
    const second = await stream.finalChatCompletion();
    const m2 = second.choices[0]!.message;
    expect(m2.tool_calls!.map((c) => c.type === 'function' && c.function.name)).toEqual(['get_weather']);
    messages.push(
      { role: 'assistant', content: m2.content, tool_calls: m2.tool_calls! },
      { role: 'tool', tool_call_id: m2.tool_calls![0]!.id, content: 'sunny' },
    );
    await client.chat.completions.create({ model: 'gpt-test', messages, tools: TOOLS_OPENAI });
    // A Responses call: a session of its own.
    const resp = await client.responses.create({
      model: 'gpt-test',
      input: 'Find a tool for the weather',
      tools: TOOLS_OPENAI.map((t) => ({ type: 'function' as const, ...t.function, strict: false })),
    });
    expect(resp.output[0]).toMatchObject({ type: 'function_call', name: 'tool_search' });

    const lines = await watching.waitLines(4);
    expect(lines.map((l) => [l.session, l.call, l.provider, l.http?.streamed])).toEqual([
      ['s1', 1, 'openai', false],
      ['s1', 2, 'openai', true],
      ['s1', 3, 'openai', false],
      ['s2', 1, 'openai-responses', false],
    ]);
    const stopped = await watching.stop();
    expect(stopped.code).toBe(0);
    const recorded = readFileSync(out, 'utf8');
    expect(recorded).not.toContain(SECRETS[1]);
    expect(stopped.stdout).not.toContain(SECRETS[1]);
    const reports = await replayed(out);
    expect(reports.map((r) => r.turns.map(settled))).toEqual([
      lines.slice(0, 3).map((l) => settled(l.turn!)),
      [settled(lines[3]!.turn!)],
    ]);
  });
});

describe.skipIf(!OPENAI_OK)('watch --proxy with the Gemini client (Node >= 22)', () => {
  it('reads generateContent calls as a session of Gemini request/response pairs, a streamed answer too', async () => {
    const out = join(dir, 'gemini.jsonl');
    watching = await startWatch(['--proxy', provider.url, '--jsonl', '-o', out]);
    const { GoogleGenAI } = await import('@google/genai');
    const ai = new GoogleGenAI({ apiKey: SECRETS[3], httpOptions: { baseUrl: watching.url } });
    const declarations = ['tool_search', 'get_weather'].map((name) => ({
      name,
      description: `${name} tool`,
      parametersJsonSchema: { type: 'object', properties: {} },
    }));
    const config = { tools: [{ functionDeclarations: declarations }] };
    const contents: import('@google/genai').Content[] = [{ role: 'user', parts: [{ text: 'Weather in Rome?' }] }];
    for (let k = 0; k < 3; k++) {
      const res = await ai.models.generateContent({ model: 'gemini-test', contents: [...contents], config });
      const content = res.candidates![0]!.content!;
      contents.push(content);
      const call = content.parts?.find((p) => p.functionCall)?.functionCall;
      if (call)
        contents.push({
          role: 'user',
          parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: 'ok' } } }],
        });
    }
    // A streamed answer (streamGenerateContent, alt=sse) is passed through, then its chunks merged: call 4.
    const stream = await ai.models.generateContentStream({ model: 'gemini-test', contents: [...contents], config });
    for await (const _ of stream);
    const lines = await watching.waitLines(4);
    expect(lines.map((l) => [l.session, l.call, l.provider])).toEqual([
      ['s1', 1, 'gemini'],
      ['s1', 2, 'gemini'],
      ['s1', 3, 'gemini'],
      ['s1', 4, 'gemini'],
    ]);
    expect(lines.map((l) => l.turn?.tool_calls.map((c) => c.name) ?? null)).toEqual([
      ['tool_search'],
      ['get_weather'],
      [],
      [],
    ]);
    expect(lines[3]!.error).toBeUndefined();
    const stopped = await watching.stop();
    expect(stopped.code).toBe(0);
    const recorded = readFileSync(out, 'utf8');
    expect(recorded).not.toContain(SECRETS[3]);
    expect(stopped.stdout).not.toContain(SECRETS[3]);
    const [report] = await replayed(out);
    expect(report!.turns.map(settled)).toEqual(lines.map((l) => settled(l.turn!)));
  });
});

describe('watch --proxy passes answers through unchanged', () => {
  it('gives the client the provider bytes, plain and streamed, for each API', async () => {
    watching = await startWatch(['--proxy', provider.url, '--jsonl']);
    const body = (stream: boolean, extra: object): string =>
      JSON.stringify({ model: 'm', stream, ...extra, tools: TOOLS_OPENAI });
    const cases: Array<[string, string]> = [];
    for (const stream of [false, true]) {
      cases.push(['/v1/chat/completions', body(stream, { messages: [{ role: 'user', content: 'hi bytes' }] })]);
      cases.push(['/v1/messages', body(stream, { max_tokens: 10, messages: [{ role: 'user', content: 'hi bytes' }] })]);
      cases.push(['/v1/responses', body(stream, { input: 'hi bytes' })]);
    }
    for (const [path, b] of cases) {
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: b };
      const via = await fetch(`${watching.url}${path}`, init);
      const direct = await fetch(`${provider.url}${path}`, init);
      expect(via.status).toBe(direct.status);
      expect(via.headers.get('content-type')).toBe(direct.headers.get('content-type'));
      expect(Buffer.from(await via.arrayBuffer()).equals(Buffer.from(await direct.arrayBuffer()))).toBe(true);
    }
    const lines = await watching.waitLines(6);
    expect(lines.every((l: WatchLine) => l.turn !== null)).toBe(true);
  });
});
