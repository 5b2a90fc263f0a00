/**
 * Gemini generateContent recordings (issue 28): fixtures/recordings/gemini/
 * were written by the real `@google/genai` client against a local server
 * (test/tools/recordings/gen-gemini.mjs); each replays as its Eino original.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
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

  it('provider tools are skipped by rule; a request that does not continue the earlier lines is an error', () => {
    const t = loadRecordingText({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'a', description: 'A' }] }],
    });
    expect(t.coverage?.skipped).toEqual([
      { rule: 'provider tools (googleSearch): run by Google, not tools of the catalog', count: 1 },
    ]);
    expect(t.tools?.map((x) => x.name)).toEqual(['a']);
    const lines = readFileSync(`${dir}keyword-search-then-call.gemini.jsonl`, 'utf8').trim().split('\n');
    const swapped = [lines[0], lines[2], lines[1]].join('\n');
    expect(() => loadRecordingText(swapped, { name: 'x.jsonl' })).toThrow(
      /^line 3: the request does not continue the conversation of the earlier lines \(message 4 differs\)/,
    );
  });
});
