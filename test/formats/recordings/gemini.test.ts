/**
 * Gemini generateContent recordings (issue 28): fixtures/recordings/gemini/
 * were written by the real `@google/genai` client against a local server
 * (test/tools/recordings/gen-gemini.mjs); each replays as its Eino original.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import type { Mode } from '../../../src/core/types.js';
import { assembleSse } from '../../../src/formats/recordings/sse.js';
import type { Transcript } from '../../../src/formats/types.js';
import type { SimulationReport } from '../../../src/jobs/simulate/report.js';
import { inputError } from '../helpers.js';
import { comparable, eino, RECORDINGS, replay } from './helpers.js';

const dir = `${RECORDINGS}gemini/`;
const SCENARIOS = ['keyword-search-then-call', 'deferred-tool-called-too-early'];

describe('gemini recordings made by @google/genai', () => {
  for (const s of SCENARIOS) {
    for (const file of [`${s}.gemini.jsonl`, `${s}.request.json`]) {
      it(`${file} replays as the Eino original, in both modes`, () => {
        const t = loadTranscriptFile(`${dir}${file}`);
        expect(t.format).toBe('gemini');
        expect(t.coverage?.unexplained).toEqual([]);
        expect(t.coverage?.unpaired).toEqual([]);
        for (const mode of ['default', 'native'] as const) {
          const r = replay(t, mode);
          const sent = r.violations.filter((v) => v.kind === 'sent-differs');
          // Every request sends what the reference offers in default mode.
          if (mode === 'default') expect(sent).toEqual([]);
          const rest = {
            ...r,
            violations: r.violations.filter((v) => v.kind !== 'sent-differs'),
            summary: { ...r.summary, warnings: r.summary.warnings - sent.length },
          };
          // keyword-search-then-call was answered without call ids: its calls are named by the reader.
          const ids = { ids: s !== 'keyword-search-then-call' };
          const want = eino(s, mode);
          if (file.endsWith('.jsonl')) expect(comparable(rest, ids), mode).toEqual(comparable(want, ids));
          else {
            // The last request asks for the last call: every call's tools, without its answer.
            const seen = (x: typeof r) => x.turns.map((u) => [u.call, u.message_count, u.visible, u.deferred, u.added]);
            expect(seen(rest), mode).toEqual(seen(want));
            expect(rest.violations).toEqual(want.violations);
          }
        }
      });
    }
  }

  it('coverage says how the file was read', () => {
    const t = loadTranscriptFile(`${dir}keyword-search-then-call.gemini.jsonl`);
    expect(t.coverage).toMatchObject({
      format: 'gemini',
      detected_by: '{"request", "response"} lines whose request has "contents"',
      items: 4,
      read: 4,
      skipped: [],
    });
    const body = loadTranscriptFile(`${dir}keyword-search-then-call.request.json`);
    expect(body.request).toBe(true);
    expect(body.coverage).toMatchObject({ detected_by: 'a generateContent request body with "contents"', read: 8 });
    expect(body.tools?.map((x) => x.name)).toContain('mcp__slack__send_message');
    expect(body.tools?.map((x) => x.name)).not.toContain('tool_search');
  });

  it('calls without ids are paired by name in order; the text of a result is response.output', () => {
    const t = loadRecordingText(
      [
        { role: 'user', parts: [{ text: 'weather in Paris and Rome?' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'c2ln' },
            { functionCall: { name: 'weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'weather', response: { output: 'sunny' } } },
            { functionResponse: { name: 'weather', response: { error: 'no data' } } },
          ],
        },
        { role: 'model', parts: [{ text: 'hmm', thought: true }, { text: 'Paris is sunny.' }] },
      ],
      { name: 'contents.json' },
    );
    expect(t.format).toBe('gemini');
    expect(t.coverage?.detected_by).toBe('4 contents with "parts" (role "model" is Gemini\'s)');
    expect(t.messages).toEqual([
      { kind: 'blocks', role: 'user', blocks: [{ type: 'text', text: 'weather in Paris and Rome?' }] },
      {
        kind: 'blocks',
        role: 'assistant',
        blocks: [
          { type: 'function_tool_call', callId: 'weather#1', name: 'weather', arguments: '{"city":"Paris"}' },
          { type: 'function_tool_call', callId: 'weather#2', name: 'weather', arguments: '{"city":"Rome"}' },
        ],
      },
      {
        kind: 'blocks',
        role: 'user',
        blocks: [
          {
            type: 'function_tool_result',
            callId: 'weather#1',
            name: 'weather',
            content: [{ type: 'text', text: 'sunny' }],
          },
          {
            type: 'function_tool_result',
            callId: 'weather#2',
            name: 'weather',
            content: [{ type: 'text', text: 'no data' }],
          },
        ],
      },
      {
        kind: 'blocks',
        role: 'assistant',
        blocks: [
          { type: 'other', description: 'thought' },
          { type: 'text', text: 'Paris is sunny.' },
        ],
      },
    ]);
  });

  it('a response alone is one model call; snake_case keys read as camelCase; unknown keys are errors', () => {
    const res = loadRecordingText({
      candidates: [
        { content: { role: 'model', parts: [{ function_call: { name: 'tool_search', args: { query: 'slack' } } }] } },
        { content: { role: 'model', parts: [{ text: 'other' }] } },
      ],
      usage_metadata: { total_token_count: 3 },
    });
    expect(res.format).toBe('gemini');
    expect(res.coverage?.skipped).toEqual([
      { rule: 'candidates after the first (candidateCount > 1: the conversation goes on with candidate 0)', count: 1 },
    ]);
    expect(replay(res).turns[0]!.searches.map((x) => x.arguments)).toEqual(['{"query":"slack"}']);
    expect(() => loadRecordingText({ contents: [{ role: 'user', parts: [{ text: 'hi', colour: 'red' }] }] })).toThrow(
      /unknown key "colour" in a Gemini part/,
    );
    expect(() => loadRecordingText({ contents: [{ role: 'system', parts: [] }] })).toThrow(
      /unknown role "system" \(expected user, model\)/,
    );
    expect(() =>
      loadRecordingText({ contents: [{ role: 'user', parts: [{ functionResponse: { name: 'x', response: {} } }] }] }),
    ).toThrow(/tool result for unknown call id "x#\?"/);
  });

  it('provider tools are skipped by rule; a request not continuing the earlier lines starts a session', () => {
    const t = loadRecordingText({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'a', description: 'A' }] }],
    });
    expect(t.coverage?.skipped).toEqual([
      { rule: 'provider tools (googleSearch): run by Google, not tools of the catalog', count: 1 },
    ]);
    expect(t.tools?.map((x) => x.name)).toEqual(['a']);
    const lines = readFileSync(`${dir}keyword-search-then-call.gemini.jsonl`, 'utf8').trim().split('\n');
    // Line 2 (call 3) extends call 1 and its answer; line 3 (call 2) then extends neither session's last call.
    const swapped = loadRecordingText([lines[0], lines[2], lines[1]].join('\n'), { name: 'x.jsonl' });
    expect(swapped.coverage?.unexplained).toEqual([]);
    expect([swapped, ...(swapped.sidechains ?? [])].map((t) => t.coverage?.sessions?.calls)).toEqual([
      ['x.jsonl:1:1', 'x.jsonl:2:1'],
      ['x.jsonl:3:1'],
    ]);
  });
});

/** A replay without sent-differs (every request sends what the reference offers in default mode). */
function withoutSent(t: Transcript, mode: Mode): SimulationReport {
  const r = replay(t, mode);
  const sent = r.violations.filter((v) => v.kind === 'sent-differs');
  if (mode === 'default') expect(sent).toEqual([]);
  return {
    ...r,
    violations: r.violations.filter((v) => v.kind !== 'sent-differs'),
    summary: { ...r.summary, warnings: r.summary.warnings - sent.length },
  };
}

describe("streamed Gemini: @google/genai's Chat (sendMessageStream) against a local server", () => {
  const KW = 'keyword-search-then-call';

  it('two Chats taking turns, recorded by nock: two sessions, each replaying as its Eino original', () => {
    const t = loadTranscriptFile(`${dir}interleaved.stream.nock.json`);
    expect(t.format).toBe('nock');
    expect(t.coverage?.unexplained).toEqual([]);
    expect(t.coverage?.skipped).toEqual([]);
    const sessions = [t, ...(t.sidechains ?? [])];
    const file = `${dir}interleaved.stream.nock.json`;
    // The definitions alternate: calls 1, 3, 5, 7 are keyword-search-then-call's, the rest the other Chat's.
    expect(sessions.map((s) => s.coverage?.sessions?.calls)).toEqual([
      [`${file}:2:3`, `${file}:312:3`, `${file}:783:3`, `${file}:1310:3`],
      [`${file}:157:3`, `${file}:602:3`, `${file}:1099:3`, `${file}:1653:3`, `${file}:2062:3`],
    ]);
    for (const mode of ['default', 'native'] as const) {
      expect(comparable(withoutSent(sessions[0]!, mode), { ids: false }), mode).toEqual(
        comparable(eino(KW, mode), { ids: false }),
      );
      expect(comparable(withoutSent(sessions[1]!, mode)), mode).toEqual(
        comparable(eino('deferred-tool-called-too-early', mode)),
      );
    }
  });

  it("the Chat's history (one model content per chunk) replays as the Eino original", () => {
    const t = loadTranscriptFile(`${dir}${KW}.chat-history.json`);
    const raw = JSON.parse(readFileSync(`${dir}${KW}.chat-history.json`, 'utf8')) as Array<{ role: string }>;
    // The last answer came in three chunks: three model contents, one assistant message.
    expect(raw.map((c) => c.role).slice(-4)).toEqual(['user', 'model', 'model', 'model']);
    expect(t.format).toBe('gemini');
    expect(t.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(t.messages.at(-1)).toEqual({
      kind: 'blocks',
      role: 'assistant',
      blocks: [
        {
          type: 'text',
          text: 'Done: I posted in #eng that 2.4.0 is live in production and all health checks are green.',
        },
      ],
    });
    const history = (x: SimulationReport) =>
      x.turns.map((u) => ({ ...u, assistant_text: undefined, visible: undefined, deferred: undefined }));
    // No system instruction in a Chat's history, and no tools: the turns' calls and searches are the original's.
    expect(history(replay(t)).map((u) => u.tool_calls.map((c) => c.name))).toEqual(
      history(eino(KW)).map((u) => u.tool_calls.map((c) => c.name)),
    );
  });

  it("the streams that Chat received: each assembled into the answer the Chat's history keeps", () => {
    const text = readFileSync(`${dir}${KW}.stream.sse`, 'utf8');
    const a = assembleSse(text);
    expect(a.problems).toEqual([]);
    expect(a.messages.map((m) => [m.provider, m.complete])).toEqual([
      ['gemini', true],
      ['gemini', true],
      ['gemini', true],
      ['gemini', true],
    ]);
    const history = JSON.parse(readFileSync(`${dir}${KW}.chat-history.json`, 'utf8')) as Array<{
      role: string;
      parts: unknown[];
    }>;
    // The parts of each answer's chunks, in order, are the parts of its run of model contents.
    const answers: unknown[][] = [];
    history.forEach((c, i) => {
      if (c.role !== 'model') return;
      if (history[i - 1]?.role === 'model') answers[answers.length - 1]!.push(...c.parts);
      else answers.push([...c.parts]);
    });
    expect(
      a.messages.map((m) => (m.value.candidates as Array<{ content: { parts: unknown[] } }>)[0]!.content.parts),
    ).toEqual(answers);
    expect(a.messages[3]!.value).toEqual({
      candidates: [
        {
          content: {
            parts: [
              { text: 'Done: I posted in #eng that 2.' },
              { text: '4.0 is live in production and ' },
              { text: 'all health checks are green.' },
            ],
            role: 'model',
          },
          index: 0,
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 1300, candidatesTokenCount: 24, totalTokenCount: 1324 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-keyword-search-then-call-4',
    });
    // Read as an SSE transcript: four model calls, the answers the history reads to.
    const t = loadTranscriptFile(`${dir}${KW}.stream.sse`);
    expect(t.format).toBe('sse');
    expect(t.coverage?.unexplained).toEqual([]);
    const chat = loadTranscriptFile(`${dir}${KW}.chat-history.json`);
    expect(t.messages).toEqual(chat.messages.filter((m) => m.role === 'assistant'));
  });

  it('a stream cut short, and chunks of another response before the finish, are not understood', () => {
    const chunk = (text: string, id: string, finish?: string) =>
      `data: ${JSON.stringify({
        candidates: [{ content: { role: 'model', parts: [{ text }] }, ...(finish ? { finishReason: finish } : {}) }],
        responseId: id,
      })}\r\n\r\n`;
    expect(assembleSse(chunk('a', 'r1')).problems).toEqual([
      { offset: 0, message: "the stream ends before its candidate's finishReason" },
    ]);
    const two = chunk('a', 'r1') + chunk('b', 'r2', 'STOP');
    const a = assembleSse(two);
    expect(a.problems).toEqual([{ offset: 0, message: "the stream ends before its candidate's finishReason" }]);
    expect(a.messages.map((m) => [m.value.responseId, m.complete])).toEqual([
      ['r1', false],
      ['r2', true],
    ]);
    expect(inputError(() => loadRecordingText(two, { name: 'x.sse' })).headline).toBe(
      "x.sse:1:1: the stream ends before its candidate's finishReason (--lenient replays the rest and counts it)",
    );
  });
});

describe('Gemini stream chunks as JSON (streamGenerateContent without alt=sse)', () => {
  const sse = readFileSync(`${dir}keyword-search-then-call.stream.sse`, 'utf8');
  const chunks = sse
    .split('\r\n\r\n')
    .filter((e) => e !== '')
    .map((e) => JSON.parse(e.slice('data: '.length)) as { responseId: string });

  it('a list, or JSON lines, of chunks: each stream one model call, as the SSE text reads', () => {
    const want = loadTranscriptFile(`${dir}keyword-search-then-call.stream.sse`).messages;
    for (const [name, text] of [
      ['x.json', JSON.stringify(chunks)],
      ['x.jsonl', chunks.map((c) => JSON.stringify(c)).join('\n')],
    ] as const) {
      const t = loadRecordingText(text, { name });
      expect(t.format, name).toBe('gemini');
      expect(t.coverage?.detected_by, name).toBe(
        `${chunks.length} GenerateContentResponse chunks (streamGenerateContent without alt=sse)`,
      );
      expect(t.coverage?.unexplained, name).toEqual([]);
      expect(t.messages, name).toEqual(want);
    }
  });

  it('a stream that ends before its finishReason is not understood, at its first chunk', () => {
    const cut = chunks.slice(0, -1);
    expect(
      inputError(() => loadRecordingText(cut.map((c) => JSON.stringify(c)).join('\n'), { name: 'x.jsonl' })).headline,
    ).toBe(
      `x.jsonl:${cut.length - 1}:1: a stream of chunks that ends before its candidate's finishReason ` +
        '(--lenient replays the rest and counts it)',
    );
  });
});

describe('consecutive model contents', () => {
  const text = (t: string) => ({ role: 'model', parts: [{ text: t }] });
  const fc = (id: string) => ({ role: 'model', parts: [{ functionCall: { id, name: 'tool_search', args: {} } }] });
  const user = { role: 'user', parts: [{ text: 'hi' }] };

  it('text pieces then a call are one answer; a model content after a call is another model call', () => {
    const t = loadRecordingText([user, text('Let me '), text('look.'), fc('a'), fc('b')], { name: 'c.json' });
    expect(t.messages).toEqual([
      { kind: 'blocks', role: 'user', blocks: [{ type: 'text', text: 'hi' }] },
      {
        kind: 'blocks',
        role: 'assistant',
        blocks: [
          { type: 'text', text: 'Let me look.' },
          { type: 'function_tool_call', callId: 'a', name: 'tool_search', arguments: '{}' },
        ],
      },
      {
        kind: 'blocks',
        role: 'assistant',
        blocks: [{ type: 'function_tool_call', callId: 'b', name: 'tool_search', arguments: '{}' }],
      },
    ]);
    expect(t.coverage?.read).toBe(5);
    expect(replay(t).turns.map((u) => u.tool_calls.map((c) => c.id))).toEqual([['a'], ['b']]);
  });
});
