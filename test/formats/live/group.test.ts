/**
 * Which session a live call belongs to: the recordings' grouping by continuity (groupCalls), one call at
 * a time (CallGrouping), on calls read by the session's reader (recordedCallOf).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/types.js';
import type { LiveProvider } from '../../../src/formats/live/calls.js';
import { recordedCallOf } from '../../../src/formats/live/group.js';
import { CallGrouping, groupCalls, type RecordedCall } from '../../../src/formats/recordings/calls.js';

const user = (t: string) => ({ role: 'user', content: t });
const call = (id: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'tool_search', arguments: '{}' } }],
});
const completion = (message: object) => ({ object: 'chat.completion', choices: [{ index: 0, message }] });

/** Sessions as `s1`, `s2`, ... per call, as watch numbers them (one grouping per provider API). */
function assigner() {
  const groupings = new Map<LiveProvider, { g: CallGrouping; ids: string[] }>();
  let next = 1;
  return (provider: LiveProvider, request: unknown, response: unknown): string => {
    const rec = recordedCallOf(provider, request, response);
    if (rec === null) throw new Error('the call does not read');
    let p = groupings.get(provider);
    if (!p) {
      p = { g: new CallGrouping(), ids: [] };
      groupings.set(provider, p);
    }
    const k = p.g.add(rec);
    if (k === p.ids.length) p.ids.push(`s${next++}`);
    return p.ids[k]!;
  };
}

describe('live calls grouped as the recordings group them', () => {
  it('two agents with the same first request: told apart by the tool-call ids of their answers', () => {
    const assign = assigner();
    const first = { messages: [user('hi')] };
    expect(assign('openai', first, completion(call('A1')))).toBe('s1');
    expect(assign('openai', first, completion(call('B1')))).toBe('s2');
    const next = (id: string) => ({
      messages: [user('hi'), call(id), { role: 'tool', tool_call_id: id, content: 'r' }],
    });
    expect(assign('openai', next('B1'), completion({ role: 'assistant', content: 'done B' }))).toBe('s2');
    expect(assign('openai', next('A1'), completion({ role: 'assistant', content: 'done A' }))).toBe('s1');
    // A request that extends no session (or repeats one without its answer) starts one.
    expect(assign('openai', { messages: [user('other')] }, completion(call('C1')))).toBe('s3');
    expect(assign('openai', next('A1'), completion(call('D1')))).toBe('s4');
  });

  it('Anthropic: the system prompt is part of the conversation; another provider never continues it', () => {
    const assign = assigner();
    const answer = { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hello "you"' }] };
    const first = { system: 'S', max_tokens: 9, messages: [user('a')] };
    expect(assign('anthropic', first, answer)).toBe('s1');
    const follow = { ...first, messages: [user('a'), { role: 'assistant', content: 'Hello "you"' }, user('b')] };
    expect(assign('anthropic', follow, answer)).toBe('s1');
    expect(assign('anthropic', { ...follow, system: 'T' }, answer)).toBe('s2');
    expect(assign('openai', { messages: follow.messages }, completion(call('x')))).toBe('s3');
  });

  it('Responses: previous_response_id continues the session whose answer had that id', () => {
    const assign = assigner();
    const fc1 = { type: 'function_call', call_id: 'c1', name: 'tool_search', arguments: '{}' };
    const r1 = { id: 'resp_1', object: 'response', output: [fc1] };
    const r2 = { id: 'resp_2', object: 'response', output: [] };
    const later = (id: string) => ({ id, object: 'response', output: [] });
    expect(assign('openai-responses', { input: 'a' }, r1)).toBe('s1');
    expect(assign('openai-responses', { input: 'b' }, r2)).toBe('s2');
    const out = [{ type: 'function_call_output', call_id: 'c1', output: '{}' }];
    expect(assign('openai-responses', { previous_response_id: 'resp_1', input: out }, later('r3'))).toBe('s1');
    expect(assign('openai-responses', { previous_response_id: 'resp_9', input: [] }, later('r4'))).toBe('s3');
  });

  it('Gemini: a request continuing the contents of the last request and its answer', () => {
    const assign = assigner();
    const ask = { role: 'user', parts: [{ text: 'q' }] };
    const said = { role: 'model', parts: [{ text: 'a' }] };
    const answer = { candidates: [{ content: said }] };
    expect(assign('gemini', { contents: [ask] }, answer)).toBe('s1');
    expect(assign('gemini', { contents: [ask, said, ask] }, answer)).toBe('s1');
    expect(assign('gemini', { contents: [ask, said, { role: 'user', parts: [{ text: 'x' }] }] }, answer)).toBe('s2');
  });
});

/** groupCalls as it was written before it went call by call: the slow, obviously-correct model. */
function groupCallsModel(calls: readonly RecordedCall[]): number[][] {
  const same = (a: Message | undefined, b: Message | undefined) => JSON.stringify(a) === JSON.stringify(b);
  const startsWith = (m: readonly Message[], p: readonly Message[]) =>
    p.length <= m.length && p.every((x, i) => same(m[i], x));
  const sessions: Array<{ calls: number[]; last: number; touched: number }> = [];
  calls.forEach((call, i) => {
    let best: (typeof sessions)[number] | null = null;
    let bestLength = -1;
    for (const s of sessions) {
      const last = calls[s.last]!;
      if (call.previousResponseId != null) {
        if (last.responseId != null && last.responseId === call.previousResponseId) {
          best = s;
          bestLength = Number.POSITIVE_INFINITY;
        }
        continue;
      }
      const state = last.request.concat(last.response);
      if (last.previousResponseId != null) continue;
      if (!startsWith(call.request, state)) continue;
      if (state.length > bestLength || (state.length === bestLength && s.touched > best!.touched)) {
        best = s;
        bestLength = state.length;
      }
    }
    if (best) {
      best.calls.push(i);
      best.last = i;
      best.touched = i;
    } else sessions.push({ calls: [i], last: i, touched: i });
  });
  return sessions.map((s) => s.calls);
}

describe('groupCalls, one call at a time', () => {
  it('groups as the batch rule it replaced (fast-check)', () => {
    const msg = fc.constantFrom<Message>(
      { kind: 'chat', role: 'user', content: 'a' },
      { kind: 'chat', role: 'user', content: 'b' },
      { kind: 'chat', role: 'assistant', content: 'x' },
    );
    const recorded = fc.record({
      request: fc.array(msg, { maxLength: 5 }),
      response: fc.array(msg, { maxLength: 2 }),
      previousResponseId: fc.option(fc.constantFrom('r1', 'r2'), { nil: null }),
      responseId: fc.option(fc.constantFrom('r1', 'r2'), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(recorded, { maxLength: 12 }), (calls) => {
        expect(groupCalls(calls).map((s) => s.calls)).toEqual(groupCallsModel(calls));
      }),
      { numRuns: 300 },
    );
  });
});
