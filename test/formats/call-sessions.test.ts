/**
 * Sessions from logs of model calls (issue 28, point 3): `groupCalls` groups calls by
 * continuity, the call-log reader replays each session, the report says how they were grouped.
 */
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/types.js';
import { loadCatalogFiles } from '../../src/formats/catalog.js';
import { groupCalls, GROUPING_RULE, type RecordedCall } from '../../src/formats/recordings/calls.js';
import { loadTranscriptFile, readTranscriptDocument } from '../../src/formats/transcript.js';
import { parseText } from '../../src/io/parse.js';
import { simulate } from '../../src/jobs/simulate/engine.js';
import { DEMO, run } from '../cli/helpers.js';

const dir = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
const demo = loadCatalogFiles([fileURLToPath(new URL('../../fixtures/catalogs/demo.yaml', import.meta.url))]);

const user = (content: string): Message => ({ kind: 'chat', role: 'user', content });
const said = (content: string): Message => ({ kind: 'chat', role: 'assistant', content });
const call = (request: Message[], response: Message[], ids: Partial<RecordedCall> = {}): RecordedCall => ({
  request,
  response,
  ...ids,
});

describe('groupCalls', () => {
  it('a conversation of three calls is one session', () => {
    const calls = [
      call([user('a')], [said('1')]),
      call([user('a'), said('1'), user('b')], [said('2')]),
      call([user('a'), said('1'), user('b'), said('2'), user('c')], [said('3')]),
    ];
    expect(groupCalls(calls)).toEqual([{ calls: [0, 1, 2] }]);
  });

  it('two interleaved conversations come apart; a call that goes back to an older state starts a session', () => {
    const calls = [
      call([user('a')], [said('1')]),
      call([user('x')], [said('9')]),
      call([user('a'), said('1'), user('b')], [said('2')]),
      call([user('x'), said('9'), user('y')], [said('8')]),
      // Extends call 0's state, but call 0 is no longer the last of its session: a fork.
      call([user('a'), said('1'), user('other')], [said('3')]),
    ];
    expect(groupCalls(calls)).toEqual([{ calls: [0, 2] }, { calls: [1, 3] }, { calls: [4] }]);
  });

  it('the session whose last call covers more of the request wins; a repeated request continues', () => {
    const calls = [
      call([user('a')], [said('1')]),
      call([user('a'), said('1'), user('b')], [said('2')]),
      // Goes back to call 0's state: a session of its own from there.
      call([user('a'), said('1')], []),
      // Extends both sessions' states; the first one's covers more.
      call([user('a'), said('1'), user('b'), said('2'), user('c')], []),
      call([user('a'), said('1'), user('z')], []),
      // The same request again (a retry after no response): the same session.
      call([user('a'), said('1'), user('z')], [said('3')]),
    ];
    expect(groupCalls(calls)).toEqual([{ calls: [0, 1, 3] }, { calls: [2, 4, 5] }]);
  });

  it('previous_response_id continues the session of the response it names; the request holds only new items', () => {
    const calls = [
      call([user('a')], [said('1')], { responseId: 'r1' }),
      call([user('x')], [said('9')], { responseId: 'r9' }),
      call([user('b')], [said('2')], { previousResponseId: 'r1', responseId: 'r2' }),
      call([user('y')], [said('8')], { previousResponseId: 'r9' }),
      call([user('c')], [], { previousResponseId: 'r404' }),
    ];
    expect(groupCalls(calls)).toEqual([{ calls: [0, 2] }, { calls: [1, 3] }, { calls: [4] }]);
  });

  it('property: interleaved conversations are found again, whatever the interleaving', () => {
    const conversation = fc.array(fc.constantFrom('q', 'r', 's'), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(
        fc.array(conversation, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (convs, picks) => {
          // Conversation k starts with its own text; its calls go in order, interleaved by `picks`.
          const steps = convs.map((turns, k) =>
            turns.map((_, t) => {
              const history: Message[] = [user(`start ${k}`)];
              for (let i = 0; i < t; i++) history.push(said(`${k}.${i}`), user(turns[i + 1] ?? 'next'));
              return { k, call: call(history, [said(`${k}.${t}`)]) };
            }),
          );
          const next = steps.map(() => 0);
          const order: Array<{ k: number; call: RecordedCall }> = [];
          let p = 0;
          while (order.length < steps.flat().length) {
            const open = steps.map((s, k) => (next[k]! < s.length ? k : -1)).filter((k) => k >= 0);
            const k = open[(picks[p++] ?? 0) % open.length]!;
            order.push(steps[k]![next[k]!++]!);
          }
          const want = new Map<number, number[]>();
          order.forEach((o, i) => want.set(o.k, [...(want.get(o.k) ?? []), i]));
          const expected = [...want.values()].sort((a, b) => a[0]! - b[0]!).map((calls) => ({ calls }));
          expect(groupCalls(order.map((o) => o.call))).toEqual(expected);
        },
      ),
      { numRuns: 200, seed: 28 },
    );
  });
});

describe('call logs read as sessions', () => {
  it("one conversation's call log is one session, replayed with no sent-differs in default mode", () => {
    const t = loadTranscriptFile(`${dir}keyword-search-then-call.call-log.jsonl`);
    expect(t.sidechains).toBeUndefined();
    expect(t.coverage?.sessions).toEqual({
      index: 1,
      count: 1,
      calls: [1, 2, 3, 4].map((l) => `${dir}keyword-search-then-call.call-log.jsonl:${l}:1`),
      rule: GROUPING_RULE,
    });
    const r = simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });
    expect(r.summary.calls).toBe(4);
    expect(r.violations).toEqual([]);
  });

  it('interleaved calls of two agents are two sessions, each its own scenario', () => {
    const t = loadTranscriptFile(`${dir}two-conversations.call-log.jsonl`);
    const sessions = [t, ...(t.sidechains ?? [])];
    expect(sessions.map((s) => s.coverage?.conversation)).toEqual(['main', 'session 2']);
    expect(sessions.map((s) => s.coverage?.sessions?.calls.map((l) => Number(l.split(':').at(-2))))).toEqual([
      [1, 3, 5, 7],
      [2, 4, 6, 8],
    ]);
    for (const [s, scenario] of [
      [t, 'keyword-search-then-call'],
      [t.sidechains![0]!, 'select-search'],
    ] as const) {
      const want = simulate({
        transcript: loadTranscriptFile(`${dir}${scenario}.call-log.jsonl`),
        catalog: demo,
        mode: 'default',
        replay: false,
      });
      const got = simulate({ transcript: s, catalog: demo, mode: 'default', replay: false });
      expect(got.turns).toEqual(want.turns);
      expect(got.violations).toEqual([]);
    }
  });

  it('two calls of unrelated conversations, once refused ("does not continue"), are two sessions', () => {
    const log = ['hi', 'bye']
      .map((text, i) =>
        JSON.stringify({
          request: { model: 'm', messages: [{ role: 'user', content: text }] },
          response: {
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: String(i) } }],
          },
        }),
      )
      .join('\n');
    const t = readTranscriptDocument(parseText('log.jsonl', log));
    expect(t.coverage?.sessions).toMatchObject({ index: 1, count: 2, calls: ['log.jsonl:1:1'] });
    expect(t.sidechains?.[0]?.coverage?.sessions).toMatchObject({ index: 2, count: 2, calls: ['log.jsonl:2:1'] });
  });
});

describe('a logged call without a response', () => {
  it('is a model call all the same: the session replays it as the pending call', () => {
    const t = readTranscriptDocument(
      parseText('log.jsonl', JSON.stringify({ request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] } })),
    );
    expect(t.request).toBe(true);
    const r = simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });
    expect(r.turns.map((x) => [x.call, x.message_index])).toEqual([[1, null]]);
  });
});

describe('the CLI', () => {
  it('a call log of one conversation is one recording, not one session per line (no sent-differs)', async () => {
    const r = await run([
      'simulate',
      '--no-tokens',
      '-c',
      DEMO,
      'fixtures/transcripts/keyword-search-then-call.call-log.jsonl',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.summary.calls).toBe(4);
    expect(report.violations).toEqual([]);
    expect(report.coverage.sessions.count).toBe(1);
  });

  it('two sessions: two reports, the text says how the calls were grouped; bulk counts two sessions', async () => {
    const file = 'fixtures/transcripts/two-conversations.call-log.jsonl';
    const [text, json, bulk] = await Promise.all([
      run(['simulate', '--no-tokens', '-c', DEMO, file]),
      run(['simulate', '--no-tokens', '-c', DEMO, file, '--json']),
      run(['simulate', '--no-tokens', '-c', DEMO, file, 'fixtures/transcripts/select-search.json', '--json']),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'session 1 of 2: 4 logged calls (lines 1, 3, 5, 7), grouped by continuity (a call whose request\n' +
        "  extends an earlier call's request and response, or names its response's id, continues that call's\n" +
        '  session)',
    );
    expect(text.stdout).toContain('session 2 of 2: 4 logged calls (lines 2, 4, 6, 8), grouped by continuity');
    const reports = JSON.parse(json.stdout) as Array<{ coverage: { conversation: string }; summary: object }>;
    expect(reports.map((x) => x.coverage.conversation)).toEqual(['main', 'session 2']);
    expect(JSON.parse(bulk.stdout).sessions).toMatchObject({ replayed: 3, failed: 0 });
  });
});
