/**
 * Mastra's stored messages (issue 29): fixtures/engines/recordings/mastra-memory.json is what
 * `memory.recall({ threadId })` of @mastra/core 1.71.0 returned after two `agent.generate` calls with
 * the ToolSearchProcessor (fixtures/engines/make-recordings.mjs); it reads as the same conversation as
 * the messages `generate` returned (mastra-ttl.json), dated by each message's and each step's createdAt.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { ROOT } from '../../cli/helpers.js';
import { inputError } from '../helpers.js';

const DIR = `${ROOT}fixtures/engines/recordings/`;
const stored = (): { messages: Array<{ role: string; content: { parts: unknown[] } }> } =>
  JSON.parse(readFileSync(`${DIR}mastra-memory.json`, 'utf8'));
const names = (t: ReturnType<typeof loadRecordingText>) =>
  t.messages.map((m) => ('toolCalls' in m && m.toolCalls ? `${m.role}:${m.toolCalls[0]!.name}` : m.role));

describe('mastra stored messages', () => {
  it("memory.recall()'s messages read as the conversation generate returned, one model call per step", () => {
    const t = loadTranscriptFile(`${DIR}mastra-memory.json`);
    expect(t.format).toBe('mastra');
    expect(t.coverage).toMatchObject({
      detected_by: '4 Mastra stored messages ("content": {"format": 2, "parts"}) in "messages"',
      read: 4,
      skipped: [],
      unexplained: [],
      unpaired: [],
    });
    const returned = loadTranscriptFile(`${DIR}mastra-ttl.json`);
    expect(t.messages).toEqual(returned.messages);
    // The user message's createdAt, then each step: the message's createdAt, then each step-start's.
    const at = (h: number, m: number, s: number) => Date.UTC(2026, 0, 15, h, m, s);
    expect(t.times).toEqual([
      at(9, 0, 0),
      at(9, 0, 5),
      at(9, 0, 5),
      at(9, 0, 5),
      at(9, 0, 5),
      at(9, 0, 10),
      at(9, 0, 10),
      at(9, 0, 15),
      at(9, 20, 20),
      at(9, 20, 25),
      at(9, 20, 25),
      at(9, 20, 25),
      at(9, 20, 25),
      at(9, 20, 30),
      at(9, 20, 30),
      at(9, 20, 35),
    ]);
  });

  it('a bare list of stored messages; parts with no tool use and streaming calls are skipped and counted', () => {
    const doc = stored();
    const parts = doc.messages[1]!.content.parts;
    parts.splice(
      1,
      0,
      { type: 'reasoning', reasoning: 'hm', details: [] },
      { type: 'data-progress', data: {} },
      { type: 'tool-invocation', toolInvocation: { state: 'partial-call', toolCallId: 'p', toolName: 'x', args: {} } },
    );
    const t = loadRecordingText(doc.messages, { name: 'm.json' });
    expect(t.format).toBe('mastra');
    expect(t.coverage?.skipped).toEqual([
      { rule: 'reasoning, source, file, error and data-* parts (no tool use)', count: 2 },
      { rule: 'tool invocations in state partial-call (still streaming: no call was made)', count: 1 },
    ]);
    expect(names(t)).toEqual(names(loadTranscriptFile(`${DIR}mastra-ttl.json`)));
  });

  it("a provider-executed invocation is the provider's own call, listed at its model call, never dropped", () => {
    const doc = stored();
    doc.messages[1]!.content.parts.splice(1, 0, {
      type: 'tool-invocation',
      providerExecuted: true,
      toolInvocation: { state: 'result', toolCallId: 'ws1', toolName: 'web_search', args: { q: 'x' }, result: [] },
    });
    const t = loadRecordingText(doc.messages, { name: 'm.json' });
    expect(t.coverage).toMatchObject({ skipped: [], provider_calls: 1, unexplained: [] });
    const blocks = t.messages.flatMap((m) => (m.kind === 'blocks' ? m.blocks : []));
    expect(blocks.filter((x) => x.type === 'provider_tool_call')).toEqual([
      {
        type: 'provider_tool_call',
        callId: 'ws1',
        kind: 'tool-invocation',
        name: 'web_search',
        server: '',
        arguments: '{"q":"x"}',
        executedBy: 'provider',
      },
    ]);
    // The calls of the catalog are those of the conversation without it.
    const calls = (x: typeof t) =>
      x.messages.flatMap((m) =>
        m.kind === 'chat'
          ? (m.toolCalls ?? []).map((c) => c.name)
          : m.blocks.flatMap((bl) => (bl.type === 'function_tool_call' ? [bl.name] : [])),
      );
    expect(calls(t)).toEqual(calls(loadTranscriptFile(`${DIR}mastra-ttl.json`)));
  });

  it('error, denied and bare calls: the result the model read, or none', () => {
    const msg = (parts: unknown[]) => ({
      id: 'a',
      role: 'assistant',
      createdAt: '2026-01-15T09:00:00.000Z',
      content: { format: 2, parts },
    });
    const inv = (state: string, extra: Record<string, unknown> = {}) => ({
      type: 'tool-invocation',
      toolInvocation: { state, toolCallId: `c_${state}`, toolName: 'x', args: { a: 1 }, ...extra },
    });
    const t = loadRecordingText(
      [
        { id: 'u', role: 'user', createdAt: '2026-01-15T08:59:00.000Z', content: { format: 2, parts: [] } },
        {
          id: 'a0',
          role: 'assistant',
          createdAt: '2026-01-15T08:59:30.000Z',
          content: { format: 2, parts: [], content: 'on it' },
        },
        msg([
          inv('output-error', { errorText: 'boom' }),
          inv('output-denied'),
          inv('approval-responded', { approval: { id: 'ap', approved: false, reason: 'no' } }),
        ]),
      ],
      { name: 'm.json' },
    );
    // A message with no parts keeps its text in content.content.
    expect(t.messages[1]).toEqual({ kind: 'chat', role: 'assistant', content: 'on it' });
    expect(t.messages.slice(3).map((m) => [m.role, 'content' in m ? m.content : null])).toEqual([
      ['tool', 'boom'],
      ['tool', 'Tool call execution denied.'],
      ['tool', 'no'],
    ]);
    expect(t.times).toEqual([
      Date.UTC(2026, 0, 15, 8, 59),
      Date.UTC(2026, 0, 15, 8, 59, 30),
      ...Array(4).fill(Date.UTC(2026, 0, 15, 9)),
    ]);
  });

  it('an unknown part type, invocation state, role or key is an error at its place', () => {
    const withPart = (part: unknown) => {
      const doc = stored();
      doc.messages[1]!.content.parts.push(part);
      return inputError(() => loadRecordingText(doc, { name: 'm.json' }));
    };
    const surprise = withPart({ type: 'surprise' });
    expect(surprise.message).toBe(
      'unknown Mastra message part type "surprise" (--lenient replays the rest and counts it)',
    );
    expect(surprise.location).toMatchObject({ file: 'm.json', line: 123 });
    expect(
      withPart({ type: 'tool-invocation', toolInvocation: { state: 'done', toolCallId: 'z', toolName: 'x' } }).message,
    ).toBe(
      'unknown Mastra tool invocation state "done" (expected partial-call, call, result, output-error, ' +
        'output-denied, approval-requested, approval-responded) (--lenient replays the rest and counts it)',
    );
    const doc = stored() as unknown as { messages: Array<Record<string, unknown>> };
    doc.messages[0]!.role = 'robot';
    doc.messages[0]!.extra = 1;
    const e = inputError(() => loadRecordingText(doc, { name: 'm.json' }));
    expect(e.message).toBe(
      'unknown key "extra" in a Mastra stored message (no rule reads it; known keys: id, role, createdAt, ' +
        'threadId, resourceId, type, content) (and 1 more; --lenient replays the rest and counts them)',
    );
    expect(e.location).toMatchObject({ file: 'm.json', line: 21 });
    const lenient = loadRecordingText(doc, { name: 'm.json', lenient: true });
    expect(lenient.coverage?.unexplained.map((u) => u.message)).toEqual([
      'unknown key "extra" in a Mastra stored message (no rule reads it; known keys: id, role, createdAt, ' +
        'threadId, resourceId, type, content)',
      'unknown Mastra message role "robot" (expected user, assistant, system, signal)',
    ]);
  });

  it('signals: a user signal is a user message, other signals are skipped and counted', () => {
    const signal = (type: string) => ({
      id: `s_${type}`,
      role: 'signal',
      createdAt: '2026-01-15T09:00:00.000Z',
      content: { format: 2, parts: [{ type: 'text', text: `a ${type} signal` }], metadata: { signal: { type } } },
    });
    const t = loadRecordingText([signal('user'), signal('system-reminder')], { name: 'm.json' });
    expect(t.format).toBe('mastra');
    expect(t.messages).toEqual([{ kind: 'chat', role: 'user', content: 'a user signal' }]);
    expect(t.coverage?.skipped).toEqual([
      { rule: 'signal messages other than user messages (reminders, notifications)', count: 1 },
    ]);
  });
});
