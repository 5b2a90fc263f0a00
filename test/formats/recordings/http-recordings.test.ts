/**
 * The HTTP recordings test suites keep (issue 28): nock definitions, VCR cassettes, HAR files. Each
 * exchange that is a model call is read as a call log; the rest is skipped by a counted rule; bodies are
 * decoded (base64, hex, gzip, UTF-8, JSON) and problems inside them located in the file.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { FAILED, NOT_POST, OTHER_POST } from '../../../src/formats/recordings/http.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { inputError } from '../helpers.js';

const j = (v: unknown): string => JSON.stringify(v, null, 1);
const user = { role: 'user', content: 'Post it to #eng' };
const call = {
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'c1', type: 'function', function: { name: 'tool_search', arguments: '{"query":"slack"}' } }],
};
const result = { role: 'tool', tool_call_id: 'c1', content: '{"matches":["mcp__slack__send_message"]}' };
const done = { role: 'assistant', content: 'Posted.' };
const tools = [{ type: 'function', function: { name: 'tool_search', parameters: {} } }];
const request = (messages: unknown[]) => ({ model: 'gpt-4.1', messages, tools });
const completion = (message: unknown) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message, finish_reason: 'stop' }],
});
const CALL_1 = { request: request([user]), response: completion(call) };
const CALL_2 = { request: request([user, call, result]), response: completion(done) };

const summary = (t: ReturnType<typeof loadRecordingText>) => ({
  format: t.format,
  roles: t.messages.map((m) => m.role),
  read: t.coverage?.read,
  items: t.coverage?.items,
  skipped: t.coverage?.skipped,
});

describe('nock definitions', () => {
  const def = (c: { request: unknown; response: unknown }, extra: Record<string, unknown> = {}) => ({
    scope: 'https://api.openai.com:443',
    method: 'POST',
    path: '/v1/chat/completions',
    body: c.request,
    status: 200,
    response: c.response,
    rawHeaders: { 'content-type': 'application/json' },
    responseIsBinary: false,
    ...extra,
  });

  it('reads the model calls; a GET, a token count and a failed call are skipped by rule and counted', () => {
    const list = [
      { scope: 'https://api.openai.com:443', method: 'GET', path: '/v1/models', body: '', status: 200, response: {} },
      def(CALL_1, { status: 429, response: { error: { message: 'Rate limit reached' } } }),
      def(CALL_1),
      { ...def(CALL_1), path: '/v1/messages/count_tokens', response: { input_tokens: 3 } },
      def(CALL_2),
    ];
    const t = loadRecordingText(j(list), { name: 'n.json' });
    expect(summary(t)).toEqual({
      format: 'nock',
      roles: ['user', 'assistant', 'tool', 'assistant'],
      read: 2,
      items: 5,
      skipped: [
        { rule: NOT_POST, count: 1 },
        { rule: FAILED, count: 1 },
        { rule: OTHER_POST, count: 1 },
      ],
    });
    expect(t.coverage?.detected_by).toBe('5 nock definitions {"scope", "method", "path", ...} (nock\'s recorder)');
    expect(t.sentTools).toEqual([
      { visible: ['tool_search'], deferred: [] },
      { visible: ['tool_search'], deferred: [] },
    ]);
  });

  it('a gzip response kept as hex chunks, a binary (hex) response, older flat rawHeaders', () => {
    const gz = gzipSync(JSON.stringify(CALL_1.response)).toString('hex');
    const list = [
      def(CALL_1, { response: [gz.slice(0, 40), gz.slice(40)], rawHeaders: ['Content-Encoding', 'gzip'] }),
      def(CALL_2, {
        response: Buffer.from(JSON.stringify(CALL_2.response)).toString('hex'),
        responseIsBinary: true,
      }),
    ];
    expect(summary(loadRecordingText(j(list), { name: 'n.json' }))).toMatchObject({
      format: 'nock',
      roles: ['user', 'assistant', 'tool', 'assistant'],
      read: 2,
    });
  });

  it("every body nock's recorder writes (nock 13, 14, 15 lib/recorder.js getBodyFromChunks)", () => {
    const text = JSON.stringify(CALL_2.response);
    const sse =
      'data: {"id":"c2","object":"chat.completion.chunk","created":1,"model":"m",' +
      '"choices":[{"index":0,"delta":{"role":"assistant","content":"Pos"},"finish_reason":null}]}\n\n' +
      'data: {"id":"c2","object":"chat.completion.chunk","created":1,"model":"m",' +
      '"choices":[{"index":0,"delta":{"content":"ted."},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    // Each: [what, the definition's changed members]; all read to the same two calls.
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
      ['a JSON value', {}],
      ['JSON text that is a string (hand-written fixtures)', { response: text }],
      ['a stream: text that is not JSON', { response: sse, rawHeaders: { 'content-type': 'text/event-stream' } }],
      [
        'nock 15 with fetch: chunks decoded under the header',
        { response: [Buffer.from(text).toString('hex')], rawHeaders: { 'content-encoding': 'gzip' } },
      ],
      [
        'nock 15 with fetch: br and several codings, decoded under the header',
        { response: [Buffer.from(text).toString('hex')], rawHeaders: { 'content-encoding': 'gzip, br' } },
      ],
      [
        'nock 14: fetch answers compressed again',
        { response: [gzipSync(text).toString('hex')], rawHeaders: { 'content-encoding': 'gzip' } },
      ],
      [
        'nock 13: one hex chunk per data event, flat rawHeaders',
        {
          response: [gzipSync(text).toString('hex').slice(0, 30), gzipSync(text).toString('hex').slice(30)],
          rawHeaders: ['Content-Type', 'application/json', 'Content-Encoding', 'gzip'],
        },
      ],
      [
        'a request body that is not UTF-8: hex (gzip), no flag',
        { body: gzipSync(JSON.stringify(CALL_2.request)).toString('hex') },
      ],
    ];
    for (const [what, extra] of cases) {
      const t = loadRecordingText(j([def(CALL_1), def(CALL_2, extra)]), { name: 'n.json' });
      expect(t.coverage?.unexplained, what).toEqual([]);
      expect(t.messages, what).toEqual(loadRecordingText(j([def(CALL_1), def(CALL_2)]), { name: 'n.json' }).messages);
    }
    // Hex digits whose bytes are UTF-8 are text (nock would have written the text): here, not JSON.
    const headline = (body: string) =>
      inputError(() => loadRecordingText(j([def(CALL_1, { body })]), { name: 'n.json' })).headline;
    expect(headline('7b7d')).toBe(
      "n.json:6:11: nock definition 1: the request body is not JSON: invalid JSON: unexpected 'b' after the value " +
        '(line 1, column 2 of the text) (--lenient replays the rest and counts it)',
    );
    // Bytes that are not UTF-8 (0xCA 0xFE) and not gzip: no text at all.
    expect(headline('cafe')).toBe(
      'n.json:6:11: nock definition 1: the request body: not UTF-8 text (--lenient replays the rest and counts it)',
    );
  });

  it('a request body kept as text is JSON read in place: a problem inside it points into the string', () => {
    const text = JSON.stringify({ model: 'm', messages: [{ role: 'wizard', content: 'x' }] });
    const e = inputError(() =>
      loadRecordingText(j([def({ request: text, response: CALL_1.response })]), { name: 'n.json' }),
    );
    // The message object starts inside the string literal on line 6 (its `{` after `[`).
    expect(e.location).toEqual({ file: 'n.json', line: 6, column: 43 });
    expect(e.message).toMatch(/unknown role|wizard/);
  });

  it('an unknown key and a body that is not JSON are errors at their place', () => {
    expect(inputError(() => loadRecordingText(j([def(CALL_1, { replyWith: 1 })]), { name: 'n.json' })).headline).toBe(
      'n.json:53:3: unknown key "replyWith" in nock definition 1 (no rule reads it; known keys: scope, method, ' +
        'path, body, status, response, rawHeaders, headers, reqheaders, badheaders, responseIsBinary, options) ' +
        '(--lenient replays the rest and counts it)',
    );
    expect(
      inputError(() => loadRecordingText(j([def({ request: '{"model":', response: {} })]), { name: 'n.json' }))
        .headline,
    ).toBe(
      'n.json:6:11: nock definition 1: the request body is not JSON: invalid JSON: unexpected end of input ' +
        '(line 1, column 10 of the text) (--lenient replays the rest and counts it)',
    );
  });
});

describe('VCR cassettes', () => {
  const b64 = (s: string | Buffer) => (typeof s === 'string' ? Buffer.from(s) : s).toString('base64');

  it('VCR.py YAML: a JSON body as text, a gzip response as !!binary, a GET skipped', () => {
    const gz = b64(gzipSync(JSON.stringify(CALL_1.response)));
    const yaml = [
      'interactions:',
      '- request:',
      '    body: null',
      '    headers: {}',
      '    method: GET',
      '    uri: https://api.openai.com/v1/models',
      '  response:',
      '    body: {string: "{}"}',
      '    headers: {}',
      '    status: {code: 200, message: OK}',
      '- request:',
      `    body: '${JSON.stringify(CALL_1.request)}'`,
      '    headers: {content-type: [application/json]}',
      '    method: POST',
      '    uri: https://api.openai.com/v1/chat/completions',
      '  response:',
      '    body:',
      '      string: !!binary |',
      `        ${gz.slice(0, 60)}`,
      `        ${gz.slice(60)}`,
      '    headers:',
      '      Content-Encoding:',
      '      - gzip',
      '    status:',
      '      code: 200',
      '      message: OK',
      'version: 1',
    ].join('\n');
    const t = loadRecordingText(yaml, { name: 'c.yaml' });
    expect(summary(t)).toEqual({
      format: 'vcr',
      roles: ['user', 'assistant'],
      read: 1,
      items: 2,
      skipped: [{ rule: NOT_POST, count: 1 }],
    });
    // The user message is located inside the single-quoted body on line 12.
    expect(t.locations[0]).toEqual({ file: 'c.yaml', line: 12, column: 43 });
  });

  it('Ruby VCR: http_interactions with base64_string bodies', () => {
    const cassette = {
      http_interactions: [
        {
          request: {
            method: 'post',
            uri: 'https://api.openai.com/v1/chat/completions',
            body: { encoding: 'UTF-8', string: JSON.stringify(CALL_1.request) },
            headers: {},
          },
          response: {
            status: { code: 200, message: 'OK' },
            headers: {},
            body: { encoding: 'ASCII-8BIT', base64_string: b64(JSON.stringify(CALL_1.response)) },
            http_version: null,
          },
          recorded_at: 'Wed, 01 Jan 2026 00:00:00 GMT',
        },
      ],
      recorded_with: 'VCR 6.3.1',
    };
    expect(summary(loadRecordingText(j(cassette), { name: 'c.json' }))).toMatchObject({
      format: 'vcr',
      roles: ['user', 'assistant'],
      read: 1,
    });
  });

  it("!!binary is a recording's tag only: a catalog keeps refusing it", async () => {
    const { loadCatalogText } = await import('../../../src/formats/from-text.js');
    expect(inputError(() => loadCatalogText('tools:\n- name: !!binary aGk=\n', { name: 'c.yaml' })).headline).toBe(
      'c.yaml:2:9: unsupported YAML tag "!!binary" (quote the value if it is text)',
    );
  });
});

describe('HAR files', () => {
  const entry = (start: string, c: { request: unknown; response: unknown }, extra: Record<string, unknown> = {}) => ({
    startedDateTime: start,
    time: 1,
    request: {
      method: 'POST',
      url: 'https://api.openai.com/v1/chat/completions',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'content-type', value: 'application/json' }],
      postData: { mimeType: 'application/json', text: JSON.stringify(c.request) },
    },
    response: {
      status: 200,
      statusText: 'OK',
      headers: [],
      content: { size: 1, mimeType: 'application/json', text: JSON.stringify(c.response) },
    },
    _resourceType: 'fetch',
    ...extra,
  });
  const har = (entries: unknown[]) => ({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries } });

  it('entries in startedDateTime order (the file need not be sorted); a page load skipped', () => {
    const page = {
      ...entry('2026-01-01T00:00:00.000Z', CALL_1),
      request: { method: 'GET', url: 'https://app.example/', headers: [] },
    };
    const t = loadRecordingText(
      j(har([entry('2026-01-01T00:00:02.000Z', CALL_2), page, entry('2026-01-01T00:00:01.000Z', CALL_1)])),
      { name: 'x.har' },
    );
    expect(summary(t)).toEqual({
      format: 'har',
      roles: ['user', 'assistant', 'tool', 'assistant'],
      read: 2,
      items: 3,
      skipped: [{ rule: NOT_POST, count: 1 }],
    });
  });

  it('base64 content (mitmproxy, Proxyman), kept decoded or still gzip', () => {
    const e1 = entry('2026-01-01T00:00:01Z', CALL_1);
    e1.response.content = {
      size: 1,
      mimeType: 'application/json',
      text: Buffer.from(JSON.stringify(CALL_1.response)).toString('base64'),
      encoding: 'base64',
    } as typeof e1.response.content;
    const e2 = entry('2026-01-01T00:00:02Z', CALL_2);
    e2.response.content = {
      size: 1,
      mimeType: 'application/json',
      text: gzipSync(JSON.stringify(CALL_2.response)).toString('base64'),
      encoding: 'base64',
    } as typeof e2.response.content;
    expect(summary(loadRecordingText(j(har([e1, e2])), { name: 'x.har' }))).toMatchObject({
      roles: ['user', 'assistant', 'tool', 'assistant'],
      read: 2,
    });
  });

  it('a POST to a gateway path is a model call when its body and answer are one', () => {
    const e = entry('2026-01-01T00:00:01Z', CALL_1);
    e.request.url = 'https://gateway.example/api/llm';
    const other = entry('2026-01-01T00:00:02Z', { request: { query: 'x' }, response: { ok: true } });
    other.request.url = 'https://gateway.example/api/search';
    expect(summary(loadRecordingText(j(har([e, other])), { name: 'x.har' }))).toEqual({
      format: 'har',
      roles: ['user', 'assistant'],
      read: 1,
      items: 2,
      skipped: [{ rule: OTHER_POST, count: 1 }],
    });
  });

  it('a custom field is allowed, a key outside HAR 1.2 is an error; a model call without a body is one', () => {
    const bad = entry('2026-01-01T00:00:01Z', CALL_1, { comments: 'x' });
    expect(inputError(() => loadRecordingText(j(har([bad])), { name: 'x.har' })).message).toMatch(
      /^unknown key "comments" in HAR entry 1 \(no rule reads it; known keys: pageref, startedDateTime/,
    );
    const empty = entry('2026-01-01T00:00:01Z', CALL_1);
    delete (empty.request as { postData?: unknown }).postData;
    expect(inputError(() => loadRecordingText(j(har([empty])), { name: 'x.har' })).message).toBe(
      'HAR entry 1: a POST to a model endpoint without a request body (--lenient replays the rest and counts it)',
    );
  });

  it('a model call whose response body is not recorded: a warning, the answer shows in the next request', () => {
    const e1 = entry('2026-01-01T00:00:01Z', CALL_1);
    delete (e1.response.content as { text?: string }).text;
    const t = loadRecordingText(j(har([e1, entry('2026-01-01T00:00:02Z', CALL_2)])), { name: 'x.har' });
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(t.warnings).toEqual([
      'x.har:9:4: HAR entry 1: the response body is not recorded; what the model answered shows in the next request',
      "x.har:53:415: skipped tool_search (the middleware's own tool, not a catalog tool)",
    ]);
  });

  it('decompression is bounded by maxBytes', () => {
    const e = entry('2026-01-01T00:00:01Z', CALL_1);
    e.response.content = {
      size: 1,
      mimeType: 'application/json',
      text: gzipSync(Buffer.alloc(4096, 32)).toString('base64'),
      encoding: 'base64',
    } as typeof e.response.content;
    expect(
      inputError(() => loadRecordingText(j(har([e])), { name: 'x.har', limits: { maxBytes: 1000 } })).message,
    ).toBe(
      'HAR entry 1: the response body: gzip body larger than 1000 bytes when decoded (set TOOLSEARCH_MAX_BYTES ' +
        'to raise the limit) (--lenient replays the rest and counts it)',
    );
  });
});

describe('Gemini calls in HTTP recordings', () => {
  // The {request, response} lines @google/genai produced against a local server (fixtures/recordings/gemini/).
  const pairs = fileURLToPath(
    new URL('../../../fixtures/recordings/gemini/keyword-search-then-call.gemini.jsonl', import.meta.url),
  );
  const lines = readFileSync(pairs, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { request: unknown; response: unknown });
  const url = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent';

  it('generateContent POSTs read as the Gemini reader reads the same pairs', () => {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 't', version: '1' },
        entries: lines.map((l, i) => ({
          startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
          request: {
            method: 'POST',
            url,
            headers: [],
            postData: { mimeType: 'application/json', text: JSON.stringify(l.request) },
          },
          response: {
            status: 200,
            headers: [],
            content: { mimeType: 'application/json', text: JSON.stringify(l.response) },
          },
        })),
      },
    };
    const t = loadRecordingText(JSON.stringify(har), { name: 'g.har' });
    const want = loadTranscriptFile(pairs);
    expect(t.format).toBe('har');
    expect(t.messages).toEqual(want.messages);
    expect(t.sentTools).toEqual(want.sentTools);
    expect(t.tools?.map((x) => x.name)).toEqual(want.tools?.map((x) => x.name));
  });

  it("an app calling two APIs: Gemini's and OpenAI's calls come apart into each API's sessions", () => {
    const entry = (u: string, req: unknown, res: unknown, i: number) => ({
      startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      request: { method: 'POST', url: u, headers: [], postData: { mimeType: 'application/json', text: j(req) } },
      response: { status: 200, headers: [], content: { mimeType: 'application/json', text: j(res) } },
    });
    const chat = 'https://api.openai.com/v1/chat/completions';
    // Gemini call 1, OpenAI call 1, Gemini calls 2 to 4, OpenAI call 2.
    const list = [
      [url, lines[0]!],
      [chat, CALL_1],
      [url, lines[1]!],
      [url, lines[2]!],
      [url, lines[3]!],
      [chat, CALL_2],
    ] as const;
    const har = { log: { entries: list.map(([u, c], i) => entry(u, c.request, c.response, i)) } };
    const t = loadRecordingText(JSON.stringify(har, null, 1), { name: 'm.har' });
    expect(t.coverage?.unexplained).toEqual([]);
    const sessions = [t, ...(t.sidechains ?? [])];
    expect(sessions.map((x) => x.coverage?.sessions?.calls.length)).toEqual([4, 2]);
    expect(t.messages).toEqual(loadTranscriptFile(pairs).messages);
    expect(sessions[1]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(sessions[1]!.sentTools).toEqual([
      { visible: ['tool_search'], deferred: [] },
      { visible: ['tool_search'], deferred: [] },
    ]);
    expect(t.tools?.map((x) => x.name)).toEqual(loadTranscriptFile(pairs).tools?.map((x) => x.name));
  });

  it('a streamed Gemini response (SSE, or a JSON list of chunks) is assembled into the one response', () => {
    const l = lines[0]!;
    const response = l.response as { candidates: Array<{ content: { parts: unknown[] } }> };
    // Each part in a chunk of its own, the finish on the last (as the API streams them).
    const parts = response.candidates[0]!.content.parts;
    const chunks = parts.map((p, i) => ({
      candidates: [
        {
          content: { role: 'model', parts: [p] },
          ...(i === parts.length - 1 ? { finishReason: 'STOP' } : {}),
          index: 0,
        },
      ],
      modelVersion: 'gemini-2.5-flash',
    }));
    const har = (suffix: string, mimeType: string, text: string) => ({
      log: {
        entries: [
          {
            startedDateTime: '2026-01-01T00:00:00Z',
            request: {
              method: 'POST',
              url: url.replace(':generateContent', ':streamGenerateContent') + suffix,
              headers: [],
              postData: { mimeType: 'application/json', text: JSON.stringify(l.request) },
            },
            response: { status: 200, headers: [], content: { mimeType, text } },
          },
        ],
      },
    });
    const plain = loadRecordingText(JSON.stringify(har('', 'application/json', JSON.stringify(l.response))), {
      name: 'g.har',
    });
    const sse = chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('');
    for (const [suffix, mime, text] of [
      ['?alt=sse', 'text/event-stream', sse],
      ['', 'application/json', JSON.stringify(chunks)],
    ] as const) {
      const t = loadRecordingText(JSON.stringify(har(suffix, mime, text)), { name: 'g.har' });
      expect(t.coverage?.unexplained, suffix).toEqual([]);
      expect(t.messages, suffix).toEqual(plain.messages);
      expect(t.messages.length, suffix).toBe(3);
    }
    expect(
      inputError(() =>
        loadRecordingText(JSON.stringify(har('?alt=sse', 'text/event-stream', 'data: {}\n\n')), {
          name: 'g.har',
        }),
      ).headline,
    ).toBe(
      'g.har:1:3087: HAR entry 1: the response body (a stream of server-sent events): unknown stream event ' +
        '"message" (--lenient replays the rest and counts it)',
    );
  });
});

describe('--format nock | vcr | har', () => {
  const har = j({ log: { version: '1.2', entries: [] } });
  it('each reads its own shape when forced, and refuses another at its root', () => {
    expect(loadRecordingText(har, { name: 'x.har', format: 'har' }).coverage?.detected_by).toBe('--format har');
    expect(inputError(() => loadRecordingText(har, { name: 'x.har', format: 'nock' })).headline).toBe(
      'x.har:1:1: not a nock recording: expected a JSON list of nock definitions {"scope", "method", "path", ' +
        '"body", "status", "response"} (nock.recorder with output_objects: true, or a nock.back fixture)',
    );
    expect(inputError(() => loadRecordingText(har, { name: 'x.har', format: 'vcr' })).headline).toBe(
      'x.har:1:1: not a VCR cassette: expected {"interactions": [{"request": ..., "response": ...}]} (VCR.py, ' +
        'pytest-recording) or {"http_interactions": [...]} (Ruby VCR)',
    );
    expect(inputError(() => loadRecordingText('[]', { name: 'x.json', format: 'har' })).headline).toBe(
      'x.json:1:1: not a HAR file: expected {"log": {"entries": [...]}} (HTTP Archive 1.2)',
    );
  });
});

describe('a file no reader takes names the family closest and what it expects, never a wrong family', () => {
  const headline = (v: unknown, name: string) =>
    inputError(() => loadRecordingText(typeof v === 'string' ? v : JSON.stringify(v), { name })).headline;
  const anthropicEvents = [
    { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', content: [] } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'message_stop' },
  ];

  it('stream events kept as JSON values (a list, JSON lines): sse, not Responses or Eino', () => {
    const sse =
      "signs of sse, which expects the stream's raw text (event: / data: lines, as a proxy or a test fixture " +
      'keeps it); no format takes it';
    expect(headline(anthropicEvents, 'x.json')).toBe(
      `x.json:1:1: 3 Anthropic Messages stream events as JSON values: ${sse} (openai-responses only by 3 ` +
        'messages have keys or part types only OpenAI Responses uses: --format openai-responses reads it so)',
    );
    expect(headline(anthropicEvents.map((e) => JSON.stringify(e)).join('\n'), 'x.jsonl')).toBe(
      `x.jsonl:1:1: 3 Anthropic Messages stream events as JSON values: ${sse} (openai-responses only by 3 ` +
        'messages have keys or part types only OpenAI Responses uses: --format openai-responses reads it so)',
    );
    expect(
      headline(
        [{ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'x' } }] }],
        'x.json',
      ),
    ).toBe(
      `x.json:1:1: 1 OpenAI Chat Completions stream event as JSON values: ${sse} (eino only by a list of plain ` +
        'role/content messages: --format eino reads it so)',
    );
  });

  it("nock's keys without a path, a HAR log without entries, Gemini chunks among other values", () => {
    expect(headline([{ scope: 'https://api.openai.com:443', method: 'POST', body: {}, status: 200 }], 'n.json')).toBe(
      'n.json:1:1: 1 object with nock\'s "scope" and "method" but no "path" string: signs of nock, which expects ' +
        'nock definitions {"scope", "method", "path", "body", "status", "response"}; no format takes it (eino only ' +
        'by a list of plain role/content messages: --format eino reads it so)',
    );
    expect(headline({ log: { version: '1.2', creator: { name: 'x' } } }, 'x.har').split('; tried ')[0]).toBe(
      'x.har:1:1: no known recording shape fits (found an object with "log"); closest: har (a "log" with ' +
        '"version", "creator" but no "entries"), which expects HAR 1.2\'s "log": ' +
        '{"entries": [{request, response}, ...]}',
    );
    expect(headline({ log: { entries: {} } }, 'x.har').split('; tried ')[0]).toBe(
      'x.har:1:1: no known recording shape fits (found an object with "log"); closest: har (a "log" whose ' +
        '"entries" is an object), which expects HAR 1.2\'s "log": {"entries": [{request, response}, ...]}',
    );
    expect(headline([{ candidates: [] }, { x: 1 }], 'g.json')).toBe(
      'g.json:1:1: 1 GenerateContentResponse chunk among 2 values: signs of gemini, which expects a list (or JSON ' +
        'lines) of GenerateContentResponse chunks only (streamGenerateContent); no format takes it (eino only by a ' +
        'list of plain role/content messages: --format eino reads it so)',
    );
  });

  it('an Anthropic stream with an event no rule explains is an sse error, not another family', () => {
    const text =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message",' +
      '"role":"assistant","content":[]}}\n\nevent: weird\ndata: {"type":"weird"}\n\n' +
      'event: message_stop\ndata: {"type":"message_stop"}\n\n';
    expect(headline(text, 'x.txt')).toBe(
      'x.txt:4:1: unknown stream event "weird" (--lenient replays the rest and counts it)',
    );
  });
});
