/** Which session a live call belongs to: continuity of the request with an earlier request and its answer. */
import { describe, expect, it } from 'vitest';
import { CallGrouper, conversationItems, responseMarks } from '../../../src/formats/live/group.js';

const user = (t: string) => ({ role: 'user', content: t });
const call = (id: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'tool_search', arguments: '{}' } }],
});
const completion = (message: object) => ({ object: 'chat.completion', choices: [{ index: 0, message }] });

describe('CallGrouper', () => {
  it('two agents with the same first request: told apart by the tool-call ids of their answers', () => {
    const g = new CallGrouper();
    const first = { messages: [user('hi')] };
    expect(g.assign('openai', first, completion(call('A1')))).toBe('s1');
    expect(g.assign('openai', first, completion(call('B1')))).toBe('s2');
    const next = (id: string) => ({
      messages: [user('hi'), call(id), { role: 'tool', tool_call_id: id, content: 'r' }],
    });
    expect(g.assign('openai', next('B1'), completion({ role: 'assistant', content: 'done B' }))).toBe('s2');
    expect(g.assign('openai', next('A1'), completion({ role: 'assistant', content: 'done A' }))).toBe('s1');
    // A request that extends no session (or repeats one without new items) starts one.
    expect(g.assign('openai', { messages: [user('other')] }, completion(call('C1')))).toBe('s3');
    expect(g.assign('openai', next('A1'), completion(call('D1')))).toBe('s4');
  });

  it('Anthropic: the system prompt is part of the conversation; text answers mark by their text', () => {
    const g = new CallGrouper();
    const answer = { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hello "you"' }] };
    expect(g.assign('anthropic', { system: 'S', messages: [user('a')] }, answer)).toBe('s1');
    const follow = { system: 'S', messages: [user('a'), { role: 'assistant', content: 'Hello "you"' }, user('b')] };
    expect(g.assign('anthropic', follow, answer)).toBe('s1');
    // Same messages under another system prompt: not the same conversation.
    expect(g.assign('anthropic', { ...follow, system: 'T' }, answer)).toBe('s2');
    // Another provider never continues it.
    expect(g.assign('openai', follow, completion(call('x')))).toBe('s3');
  });

  it('Responses: previous_response_id continues the session whose answer had that id', () => {
    const g = new CallGrouper();
    const r1 = { id: 'resp_1', object: 'response', output: [{ type: 'function_call', call_id: 'c1' }] };
    const r2 = { id: 'resp_2', object: 'response', output: [] };
    expect(g.assign('openai-responses', { input: 'a' }, r1)).toBe('s1');
    expect(g.assign('openai-responses', { input: 'b' }, r2)).toBe('s2');
    expect(g.assign('openai-responses', { previous_response_id: 'resp_1', input: [] }, { id: 'resp_3' })).toBe('s1');
    expect(g.assign('openai-responses', { previous_response_id: 'resp_9', input: [] }, { id: 'resp_4' })).toBe('s3');
  });
});

describe('conversationItems and responseMarks', () => {
  it('items per API, marks as they appear in JSON text', () => {
    expect(conversationItems('openai-responses', { instructions: 'I', input: 'x' })).toEqual([
      '{"instructions":"I"}',
      '"x"',
    ]);
    expect(conversationItems('gemini', { systemInstruction: { parts: [] }, contents: [{ role: 'user' }] })).toEqual([
      '{"system":{"parts":[]}}',
      '{"role":"user"}',
    ]);
    expect(responseMarks('openai', completion({ role: 'assistant', content: 'a "q"' }))).toEqual(['a \\"q\\"']);
    expect(responseMarks('openai', completion(call('id1')))).toEqual(['id1']);
    expect(responseMarks('anthropic', null)).toEqual([]);
  });
});
