/**
 * `watch` as a server: bounded request sizes (TOOLSEARCH_MAX_BYTES, also
 * after gzip), malformed exports answered with the OTLP error status and
 * counted, a dead or slow upstream reported for that call, Ctrl-C in the
 * middle of a streamed answer ending cleanly with -o complete.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWatch, type Watching } from './helpers.js';
import { type FakeProvider, fakeProvider } from './provider.js';

let dir: string;
let watching: Watching | null = null;
const providers: FakeProvider[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'watch-robust-'));
});
afterEach(async () => {
  if (watching && watching.child.exitCode === null) await watching.stop();
  watching = null;
});
afterAll(async () => {
  for (const p of providers) await p.close();
  rmSync(dir, { recursive: true, force: true });
});

const chat = (text: string, stream = false): string =>
  JSON.stringify({
    model: 'm',
    stream,
    messages: [{ role: 'user', content: text }],
    tools: [
      { type: 'function', function: { name: 'tool_search', parameters: { type: 'object' } } },
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } },
    ],
  });

const post = (url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });

describe('watch: bounds and malformed input', () => {
  it('refuses large bodies (413), answers malformed exports with the OTLP status and counts them', async () => {
    const provider = await fakeProvider();
    providers.push(provider);
    watching = await startWatch(['--proxy', provider.url, '--jsonl'], { TOOLSEARCH_MAX_BYTES: '4096' });
    const big = 'x'.repeat(10_000);
    const r1 = await post(`${watching.url}/v1/chat/completions`, chat(big));
    expect(r1.status).toBe(413);
    expect(await r1.json()).toEqual({
      error: { message: 'toolsearch watch: the request is larger than TOOLSEARCH_MAX_BYTES (4096 bytes)' },
    });
    const r2 = await post(`${watching.url}/v1/traces`, JSON.stringify({ resourceSpans: [], pad: big }));
    expect(r2.status).toBe(413);
    expect(await r2.json()).toEqual({
      code: 8,
      message: 'the export is larger than TOOLSEARCH_MAX_BYTES (4096 bytes)',
    });
    // A small gzip body that inflates past the bound.
    const bomb = gzipSync(Buffer.from(JSON.stringify({ resourceSpans: [], pad: 'y'.repeat(100_000) })));
    expect(bomb.length).toBeLessThan(4096);
    const r3 = await post(`${watching.url}/v1/traces`, bomb, { 'content-encoding': 'gzip' });
    expect(r3.status).toBe(413);
    const r4 = await post(`${watching.url}/v1/traces`, '{"resourceSpans": 5}');
    expect(r4.status).toBe(400);
    expect(await r4.json()).toEqual({ code: 3, message: '"resourceSpans" must be a list' });
    const r5 = await post(`${watching.url}/v1/traces`, 'not json');
    expect(r5.status).toBe(400);
    expect(((await r5.json()) as { message: string }).message).toMatch(/^not JSON: /);
    const r6 = await post(`${watching.url}/v1/traces`, Buffer.from([0x0a, 0xff]), {
      'content-type': 'application/x-protobuf',
    });
    expect(r6.status).toBe(400);
    expect(r6.headers.get('content-type')).toBe('application/x-protobuf');
    const status = Buffer.from(await r6.arrayBuffer());
    // google.rpc.Status: code 3 (INVALID_ARGUMENT), then the message.
    expect([...status.subarray(0, 2)]).toEqual([0x08, 3]);
    expect(status.subarray(4).toString('utf8')).toMatch(/runs past the end|truncated varint/);
    const r7 = await post(`${watching.url}/v1/traces`, '{}', { 'content-type': 'text/plain' });
    expect(r7.status).toBe(415);
    const r8 = await post(`${watching.url}/v1/traces`, Buffer.from('garbage'), { 'content-encoding': 'gzip' });
    expect(r8.status).toBe(400);
    // Still serving: a good export and a good call.
    expect((await post(`${watching.url}/v1/traces`, '{"resourceSpans": []}')).status).toBe(200);
    expect((await post(`${watching.url}/v1/chat/completions`, chat('small'))).status).toBe(200);
    await watching.waitLines(1);
    const stopped = await watching.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toMatch(/1 OTLP exports \(0 spans\), 8 rejected/);
    expect(stopped.stderr).toMatch(/warning: OTLP export rejected \(400\): "resourceSpans" must be a list/);
  });
});

describe('watch: a session past TOOLSEARCH_MAX_BYTES', () => {
  it('is recorded but no longer simulated; its calls say so', async () => {
    const provider = await fakeProvider();
    providers.push(provider);
    const out = join(dir, 'large.jsonl');
    watching = await startWatch(['--proxy', provider.url, '--jsonl', '-o', out], { TOOLSEARCH_MAX_BYTES: '2500' });
    const messages: unknown[] = [{ role: 'user', content: 'grow' }];
    const tools = JSON.parse(chat('x')).tools;
    for (let k = 0; k < 3; k++) {
      const r = await post(`${watching.url}/v1/chat/completions`, JSON.stringify({ model: 'm', messages, tools }));
      const m = ((await r.json()) as { choices: Array<{ message: { tool_calls?: Array<{ id: string }> } }> })
        .choices[0]!.message;
      messages.push(m, { role: 'tool', tool_call_id: m.tool_calls?.[0]?.id ?? '', content: 'r' });
    }
    const lines = await watching.waitLines(3);
    expect(lines.map((l) => [l.session, l.call, l.turn === null])).toEqual([
      ['s1', 1, false],
      ['s1', 2, false],
      ['s1', 3, true],
    ]);
    expect(lines[2]!.error).toBe(
      'the session is larger than TOOLSEARCH_MAX_BYTES (2500 bytes): recorded, no longer simulated',
    );
    const stopped = await watching.stop();
    expect(stopped.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(3);
  });
});

describe('watch: a dead or slow upstream is reported per call', () => {
  it('answers 502 when the upstream refuses the connection', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    watching = await startWatch(['--proxy', `http://127.0.0.1:${port}`, '--jsonl']);
    const r = await post(`${watching.url}/v1/chat/completions`, chat('hello'));
    expect(r.status).toBe(502);
    const [line] = await watching.waitLines(1);
    expect(line).toMatchObject({ source: 'proxy', session: null, call: null, provider: 'openai', turn: null });
    expect(line!.error).toMatch(new RegExp(`^upstream http://127\\.0\\.0\\.1:${port}: ECONNREFUSED`));
    expect(line!.http!.status).toBe(502);
  });

  it('answers 504 when the upstream does not answer within --upstream-timeout', async () => {
    const slow = await fakeProvider({ delayMs: 2500 });
    providers.push(slow);
    watching = await startWatch(['--proxy', slow.url, '--jsonl', '--upstream-timeout', '1']);
    const r = await post(`${watching.url}/v1/messages`, chat('hello'));
    expect(r.status).toBe(504);
    const [line] = await watching.waitLines(1);
    expect(line!.error).toBe(`upstream ${slow.url}: no answer within 1000 ms`);
    expect(line!.provider).toBe('anthropic');
  });
});

describe('watch: a client that goes away mid-stream', () => {
  it('cuts the upstream request, reports the call and keeps serving', async () => {
    const provider = await fakeProvider({ chunkDelayMs: 200 });
    providers.push(provider);
    watching = await startWatch(['--proxy', provider.url, '--jsonl']);
    const abort = new AbortController();
    const res = await fetch(`${watching.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chat('leave early', true),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    const [line] = await watching.waitLines(1);
    expect(line).toMatchObject({ session: null, call: null, turn: null, provider: 'openai' });
    expect(line!.error).toBe('the client closed the connection before the answer ended');
    expect(line!.http!.status).toBe(499);
    expect((await post(`${watching.url}/v1/chat/completions`, chat('still here'))).status).toBe(200);
    await watching.waitLines(2);
  });
});

describe('watch: Ctrl-C', () => {
  it('lets a streamed answer in flight finish, writes -o complete and exits 0', async () => {
    const provider = await fakeProvider({ chunkDelayMs: 150 });
    providers.push(provider);
    const out = join(dir, 'interrupted.jsonl');
    watching = await startWatch(['--proxy', provider.url, '--jsonl', '-o', out]);
    const res = await post(`${watching.url}/v1/chat/completions`, chat('stream me', true));
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    const stopping = watching.stop();
    let text = Buffer.from(first.value!).toString('utf8');
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const stopped = await stopping;
    expect(stopped.code).toBe(0);
    expect(stopped.stdout.trim().split('\n')).toHaveLength(1);
    const recorded = readFileSync(out, 'utf8').trim().split('\n');
    expect(recorded).toHaveLength(1);
    expect(JSON.parse(recorded[0]!)[0].response.object).toBe('chat.completion');
  });
});

describe('watch: a second Ctrl-C', () => {
  it('cuts the calls still in flight at once and still ends cleanly (exit 0, the cut call reported)', async () => {
    // A slow stream: several seconds to its last chunk.
    const provider = await fakeProvider({ chunkDelayMs: 4000 });
    providers.push(provider);
    const out = join(dir, 'cut.jsonl');
    watching = await startWatch(['--proxy', provider.url, '--jsonl', '-o', out]);
    const w = watching;
    const res = await post(`${w.url}/v1/chat/completions`, chat('stream me', true));
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    const exited = new Promise<number | null>((r) => w.child.on('close', (code) => r(code)));
    const started = Date.now();
    w.child.kill('SIGINT');
    for (let i = 0; i < 500 && !w.stderr().includes('in flight'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(w.stderr()).toContain(
      'toolsearch watch: stopping; waiting for 1 call in flight (at most 30 s; Ctrl-C again cuts it)\n',
    );
    w.child.kill('SIGINT');
    expect(await exited).toBe(0);
    // Cut, not waited for: the stream had seconds left.
    expect(Date.now() - started).toBeLessThan(4000);
    await reader.read().catch(() => undefined);
    // The call cut is reported, as a call whose client went away is.
    const [line] = w.lines();
    expect([line?.http?.status, line?.error]).toEqual([
      499,
      'the client closed the connection before the answer ended',
    ]);
    expect(w.stderr()).toContain(
      'toolsearch watch: stopped; 0 sessions, 0 model calls, 1 proxied requests (1 failed), 0 OTLP exports ' +
        `(0 spans), 0 rejected; nothing to record (no call was read), ${out} not written\n`,
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe('watch: where it listens', () => {
  it('127.0.0.1 by default, said with where to point the agent; another address is warned about', async () => {
    watching = await startWatch(['--jsonl']);
    expect(watching.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(watching.stderr()).toContain(`OTEL_EXPORTER_OTLP_ENDPOINT=${watching.url} (POST /v1/traces`);
    expect(watching.stderr()).not.toContain('warning');
    expect((await watching.stop()).code).toBe(0);
    watching = await startWatch(['--jsonl', '--host', '0.0.0.0']);
    expect(watching.stderr()).toContain(
      'listening on 0.0.0.0, not 127.0.0.1: anyone who can reach it can send spans and, with --proxy, ' +
        'use the credentials their requests carry',
    );
    expect((await watching.stop()).code).toBe(0);
  });
});
