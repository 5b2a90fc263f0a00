/**
 * Streaming transcripts (issue 28 §4): fixtures/recordings/sse/ hold the raw
 * SSE text a local server streamed to the real `openai` and
 * `@anthropic-ai/sdk` clients (test/tools/recordings/gen-sse.mjs), with what
 * each client assembled; our assembly must give the same messages.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { assembleSse } from '../../../src/formats/recordings/sse.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { parseSse } from '../../../src/io/sse.js';
import { eino, RECORDINGS, replay } from './helpers.js';

const dir = `${RECORDINGS}sse/`;
const APIS = ['anthropic', 'openai', 'openai-responses'] as const;

/** What the clients add to the wire objects (parsed output helpers): not part of the stream. */
function wire(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v), (k, x) =>
    ['parsed', 'parsed_output', 'output_text', 'output_parsed', 'parsed_arguments'].includes(k) ? undefined : x,
  );
}

describe('SSE transcripts streamed to the real clients', () => {
  for (const api of APIS) {
    const text = readFileSync(`${dir}keyword-search-then-call.${api}.sse`, 'utf8');
    const finals = JSON.parse(readFileSync(`${dir}keyword-search-then-call.${api}.final.json`, 'utf8')) as unknown[];

    it(`${api}: assembleSse gives what the client assembled, message by message`, () => {
      const a = assembleSse(text);
      expect(a.problems).toEqual([]);
      expect(a.messages.map((m) => [m.provider, m.complete])).toEqual(finals.map(() => [api, true]));
      expect(a.messages.map((m) => m.value)).toEqual(finals.map(wire));
      // Bytes read the same as text.
      expect(assembleSse(new TextEncoder().encode(text)).messages).toEqual(a.messages);
    });

    it(`${api}: the model calls replay the scenario's calls (results are not in a stream)`, () => {
      const t = loadTranscriptFile(`${dir}keyword-search-then-call.${api}.sse`, { lenient: true });
      expect(t.format).toBe('sse');
      expect(t.coverage?.unexplained).toEqual([]);
      const calls = replay(t).turns.map((u) => u.tool_calls.map((c) => [c.id, c.name, c.arguments]));
      const want = eino('keyword-search-then-call').turns.map((u) =>
        u.tool_calls.map((c) => [c.id, c.name, c.arguments]),
      );
      expect(calls).toEqual(want);
    });

    it(`${api}: one stream is one model call, read without --lenient`, () => {
      const first =
        api === 'anthropic'
          ? text.split('event: message_stop\n')[0]! + 'event: message_stop\ndata: {"type":"message_stop"}\n\n'
          : api === 'openai'
            ? `${text.split('data: [DONE]')[0]!}data: [DONE]\n\n`
            : `${text.split('event: response.completed')[0]!}event: response.completed\n` +
              `${text.split('event: response.completed\n')[1]!.split('\n')[0]!}\n\n`;
      const t = loadRecordingText(first, { name: `one.${api}.sse` });
      expect(t.coverage?.read).toBe(1);
      const r = replay(t);
      expect(r.turns.map((u) => u.searches.map((s) => s.arguments))).toEqual([
        ['{"query":"slack send message channel"}'],
      ]);
    });
  }

  it('parses event streams as the HTML standard says', () => {
    const s = parseSse(
      '\uFEFF: hi\r\nevent:a\r\ndata:x\ndata: y\nid: 7\nretry: 5\n\nevent: lone\n\ndata:  two spaces\rfoo: bar\n\n',
    );
    expect(s.comments).toBe(1);
    expect(s.events.map((e) => [e.event, e.data, e.id, e.oneDataLine])).toEqual([
      ['a', 'x\ny', '7', false],
      // The last event id carries over to later events (the standard's "last event ID buffer").
      ['message', ' two spaces', '7', true],
    ]);
    expect(s.events[1]!.unknown.map((u) => u.field)).toEqual(['foo']);
  });

  it('a stream cut short, an error event or an unknown event is not understood', () => {
    const start =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant",' +
      '"content":[],"model":"c","stop_reason":null,"stop_sequence":null,' +
      '"usage":{"input_tokens":1,"output_tokens":1}}}\n\n';
    expect(() => loadRecordingText(start, { name: 'cut.sse' })).toThrow(/^the stream ends before message_stop/);
    const err =
      `${start}event: error\n` +
      'data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    expect(() => loadRecordingText(err, { name: 'err.sse' })).toThrow(/^the stream reports an error: Overloaded/);
    expect(() => loadRecordingText('data: {"type":"surprise"}\n\n', { name: 'x.sse' })).toThrow(
      /^unknown stream event "surprise"/,
    );
    expect(() => loadRecordingText('data: {"type":\n\n', { name: 'x.sse' })).toThrow(/^event data is not JSON/);
    const cut = loadRecordingText(start, { name: 'cut.sse', lenient: true });
    expect(cut.coverage?.unexplained.map((u) => u.location)).toEqual(['cut.sse:1:1']);
  });

  it('detection: text of SSE lines is an event stream whatever its name; other text is not', () => {
    const t = loadRecordingText(readFileSync(`${dir}keyword-search-then-call.openai.sse`, 'utf8'), {
      name: 'capture.txt',
      lenient: true,
    });
    expect(t.coverage?.detected_by).toBe('an SSE event stream (40 events)');
  });
});
