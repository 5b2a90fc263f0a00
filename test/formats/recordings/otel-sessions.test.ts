/**
 * OTel exports with several conversations (issue 28): the model-call spans are grouped into sessions
 * by continuity, a session of the call's own trace first, and the report says how.
 */
import { describe, expect, it } from 'vitest';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { OTEL_GROUPING_RULE } from '../../../src/formats/recordings/otel.js';
import type { Transcript } from '../../../src/formats/types.js';

const j = JSON.stringify;
/** A GenAI chat span: its input and output messages as the GenAI conventions write them. */
const chat = (trace: string, start: number, input: unknown[], output: unknown[]) => ({
  traceId: trace,
  spanId: `s${start}`,
  name: 'chat gpt-4.1',
  startTimeUnixNano: String(start),
  attributes: [
    { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
    { key: 'gen_ai.input.messages', value: { stringValue: j(input) } },
    { key: 'gen_ai.output.messages', value: { stringValue: j(output) } },
  ],
});
const user = (text: string) => ({ role: 'user', parts: [{ type: 'text', content: text }] });
const said = (text: string) => ({ role: 'assistant', parts: [{ type: 'text', content: text }] });
const call = (id: string, query: string) => ({
  role: 'assistant',
  parts: [{ type: 'tool_call', id, name: 'tool_search', arguments: { query } }],
});
const result = (id: string) => ({
  role: 'tool',
  parts: [{ type: 'tool_call_response', id, response: '{"matches":[]}' }],
});
const doc = (...spans: unknown[]) => j({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
const texts = (t: Transcript) => t.messages.map((m) => (m.kind === 'chat' ? `${m.role}:${m.content}` : m.role));

/** Two agents' conversations: A searches then answers, B answers at once then is asked again. */
function interleaved(traceA: string, traceB: string): string {
  const a1 = [user('find slack')];
  const a2 = [...a1, call('a', 'slack'), result('a')];
  const b1 = [user('hello')];
  const b2 = [...b1, said('hi'), user('again')];
  return doc(
    chat(traceA, 1, a1, [call('a', 'slack')]),
    chat(traceB, 2, b1, [said('hi')]),
    chat(traceA, 3, a2, [said('nothing found')]),
    chat(traceB, 4, b2, [said('hi again')]),
  );
}

describe('OTel exports with several conversations', () => {
  it('two traces interleaved: two sessions, each its own calls, the grouping said', () => {
    const text = interleaved('aaaa', 'bbbb');
    const t = loadRecordingText(text, { name: 'two.json' });
    const at = (span: string) => `two.json:1:${text.indexOf(`{"traceId":"aaaa","spanId":"${span}"`) + 1}`;
    expect(t.format).toBe('otel');
    expect(texts(t)).toEqual(['user:find slack', 'assistant:', 'tool:{"matches":[]}', 'assistant:nothing found']);
    expect(t.coverage?.sessions).toEqual({
      index: 1,
      count: 2,
      calls: [at('s1'), at('s3')],
      rule: OTEL_GROUPING_RULE,
    });
    expect(t.sidechains?.map(texts)).toEqual([['user:hello', 'assistant:hi', 'user:again', 'assistant:hi again']]);
    expect(t.sidechains?.[0]?.coverage).toMatchObject({
      conversation: 'session 2',
      sessions: { index: 2, count: 2, rule: OTEL_GROUPING_RULE },
    });
    expect(t.coverage?.unexplained).toEqual([]);
  });

  it('two conversations in one trace (or with no trace id) come apart by continuity', () => {
    for (const [a, b] of [
      ['t1', 't1'],
      ['', ''],
    ]) {
      const t = loadRecordingText(interleaved(a!, b!), { name: 'one.json' });
      expect(texts(t)).toEqual(['user:find slack', 'assistant:', 'tool:{"matches":[]}', 'assistant:nothing found']);
      expect(t.sidechains?.map(texts)).toEqual([['user:hello', 'assistant:hi', 'user:again', 'assistant:hi again']]);
    }
  });

  it('one conversation over the same trace is one session, with no sessions line', () => {
    const a1 = [user('find slack')];
    const t = loadRecordingText(
      doc(chat('t', 1, a1, [call('a', 'slack')]), chat('t', 2, [...a1, call('a', 'slack'), result('a')], [said('ok')])),
      { name: 'one.json' },
    );
    expect(t.sidechains).toBeUndefined();
    expect(t.coverage?.sessions).toBeUndefined();
    expect(texts(t)).toEqual(['user:find slack', 'assistant:', 'tool:{"matches":[]}', 'assistant:ok']);
  });

  it('a conversation whose calls are traces of their own is one session (one trace per client call)', () => {
    const a1 = [user('find slack')];
    const t = loadRecordingText(
      doc(chat('t1', 1, a1, [said('which?')]), chat('t2', 2, [...a1, said('which?'), user('the app')], [said('ok')])),
      { name: 'runs.json' },
    );
    expect(t.sidechains).toBeUndefined();
    expect(texts(t)).toEqual(['user:find slack', 'assistant:which?', 'user:the app', 'assistant:ok']);
  });

  it('two runs with the same start: each later call goes with its own trace, not the latest session', () => {
    const a1 = [user('hello')];
    const next = (text: string) => [...a1, said('hi'), user(text)];
    const t = loadRecordingText(
      doc(
        chat('t1', 1, a1, [said('hi')]),
        chat('t2', 2, a1, [said('hi')]),
        chat('t1', 3, next('one'), [said('1')]),
        chat('t2', 4, next('two'), [said('2')]),
      ),
      { name: 'same.json' },
    );
    expect(texts(t)).toEqual(['user:hello', 'assistant:hi', 'user:one', 'assistant:1']);
    expect(t.sidechains?.map(texts)).toEqual([['user:hello', 'assistant:hi', 'user:two', 'assistant:2']]);
    // Without trace ids the latest session continues (as in a call log): the calls cross over.
    const none = loadRecordingText(
      doc(
        chat('', 1, a1, [said('hi')]),
        chat('', 2, a1, [said('hi')]),
        chat('', 3, next('one'), [said('1')]),
        chat('', 4, next('two'), [said('2')]),
      ),
      { name: 'same.json' },
    );
    expect(texts(none)).toEqual(['user:hello', 'assistant:hi', 'user:two', 'assistant:2']);
  });
});

describe('simulate on an OTel export of two conversations', () => {
  it('replays each session; the text says its spans (line:column in a one-line export) and the rule', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { run } = await import('../../cli/helpers.js');
    const dir = mkdtempSync(join(tmpdir(), 'otel-sessions-'));
    const file = join(dir, 'two.otlp.json');
    const text = interleaved('aaaa', 'bbbb');
    writeFileSync(file, text);
    const col = (trace: string, span: string) => text.indexOf(`{"traceId":"${trace}","spanId":"${span}"`) + 1;
    const [r, json] = await Promise.all([
      run(['simulate', file, '-c', 'fixtures/catalogs/demo.yaml'], { env: { COLUMNS: '300' } }),
      run(['simulate', file, '-c', 'fixtures/catalogs/demo.yaml', '--json']),
    ]).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(r.code).toBe(0);
    const sessions = r.stdout.split('\n').filter((l) => l.startsWith('session '));
    expect(sessions).toEqual([
      `session 1 of 2: 2 logged calls (lines 1:${col('aaaa', 's1')}, 1:${col('aaaa', 's3')}), ${OTEL_GROUPING_RULE}`,
      `session 2 of 2: 2 logged calls (lines 1:${col('bbbb', 's2')}, 1:${col('bbbb', 's4')}), ${OTEL_GROUPING_RULE}`,
    ]);
    const reports = JSON.parse(json.stdout) as Array<{ coverage: { sessions: { index: number } }; turns: unknown[] }>;
    expect(reports.map((x) => [x.coverage.sessions.index, x.turns.length])).toEqual([
      [1, 2],
      [2, 2],
    ]);
  }, 90_000);
});

describe('an OTel export with no model call', () => {
  it('is an error naming what the spans were and what a model call span is', () => {
    const http = { traceId: 't', name: 'GET /', startTimeUnixNano: '1', attributes: [] };
    expect(() => loadRecordingText(doc(http, { ...http, name: 'execute_tool x' }), { name: 'h.json' })).toThrow(
      'OTLP traces with 2 spans, none a model call (spans without GenAI messages (HTTP, database and other ' +
        'spans: not model calls): 2): expected GenAI chat spans (gen_ai.input.messages / gen_ai.output.messages), ' +
        "the AI SDK's ai.generateText.doGenerate / ai.streamText.doStream spans, or OpenInference LLM spans",
    );
  });
});

describe('OTLP with the wrong envelope', () => {
  it('names otel as the closest family and the envelope it expects', () => {
    expect(() => loadRecordingText({ resourceSpans: {} }, { name: 'r.json' })).toThrow(
      'no known recording shape fits (found an object with "resourceSpans"); closest: otel (an object with ' +
        '"resourceSpans" (an object)), which expects OTLP JSON traces: {"resourceSpans": [{"scopeSpans": ' +
        '[{"spans": [...]}]}]}; tried ',
    );
  });
});
