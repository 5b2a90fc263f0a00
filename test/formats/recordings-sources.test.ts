/**
 * Recording readers checked against their formats' real sources (issue 12,
 * session 5): shapes the sources define that the readers must read, skip
 * by a counted rule, or refuse with a located error.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../src/formats/catalog.js';
import { parseText } from '../../src/formats/parse.js';
import { readTranscriptDocument } from '../../src/formats/transcript.js';
import { simulate } from '../../src/simulate/engine.js';
import { inputError } from './helpers.js';

const demo = loadCatalogFiles([fileURLToPath(new URL('../../fixtures/catalogs/demo.yaml', import.meta.url))]);
const read = (name: string, text: string, lenient = false) =>
  readTranscriptDocument(parseText(name, text), { lenient });
const j = (v: unknown): string => JSON.stringify(v);
const lines = (...v: unknown[]): string => v.map(j).join('\n');
const PROVIDER =
  'provider-executed tool calls and results (the provider ran the tool, e.g. web search: ' +
  'not a client tool call the reference checks)';

describe('AI SDK: provider-executed tools, approvals, streaming parts (vercel/ai provider-utils, ai/src/ui)', () => {
  const search = { query: 'slack send message' };
  const modelMessages = [
    { role: 'user', content: 'post it' },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'ws1', toolName: 'web_search', input: { q: 'x' }, providerExecuted: true },
        { type: 'tool-result', toolCallId: 'ws1', toolName: 'web_search', output: { type: 'json', value: [] } },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'tool_search', input: search },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'tool_search',
          output: { type: 'json', value: { matches: ['mcp__slack__send_message'] } },
        },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
  ];

  it('ModelMessage[]: a provider-executed call and its result in the assistant message are skipped and counted', () => {
    const t = read('m.json', j(modelMessages));
    expect(t.coverage?.skipped).toEqual([{ rule: PROVIDER, count: 2 }]);
    expect(t.coverage?.read).toBe(4);
    expect(t.messages[1]).toEqual({
      kind: 'chat',
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'tool_search', arguments: '{"query":"slack send message"}' }],
    });
    const r = simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });
    expect(r.turns.map((x) => x.added)).toEqual([[], ['mcp__slack__send_message']]);
  });

  it('a tool-result in an assistant message whose call is not provider-executed is a located error', () => {
    const bad = [
      modelMessages[0],
      {
        role: 'assistant',
        content: [{ type: 'tool-result', toolCallId: 'zz', toolName: 'x', output: { type: 'text', value: 'v' } }],
      },
    ];
    expect(inputError(() => read('m.json', j(bad))).headline).toBe(
      'm.json:1:69: an AI SDK tool-result in an assistant message whose call "zz" is not a provider-executed ' +
        'tool-call of that message (--lenient replays the rest and counts it)',
    );
  });

  it('UIMessage[]: provider-executed and input-streaming parts are counted; a denied approval reads the SDK text', () => {
    const ui = [
      { id: '1', role: 'user', parts: [{ type: 'text', text: 'go' }] },
      {
        id: '2',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          {
            type: 'tool-web_search',
            toolCallId: 'ws',
            state: 'output-available',
            input: {},
            output: [],
            providerExecuted: true,
          },
          { type: 'tool-get_current_time', toolCallId: 'a', state: 'input-streaming', input: {} },
          {
            type: 'tool-think',
            toolCallId: 'b',
            state: 'approval-responded',
            input: { thought: 'x' },
            approval: { id: 'ap', approved: false },
          },
          { type: 'step-start' },
          { type: 'text', text: 'ok' },
        ],
      },
    ];
    const t = read('ui.json', j(ui));
    expect(t.coverage?.skipped).toEqual([
      { rule: PROVIDER, count: 1 },
      { rule: 'tool parts in state input-streaming (the SDK sends no tool call for them)', count: 1 },
    ]);
    expect(t.messages.slice(1)).toEqual([
      {
        kind: 'chat',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'b', name: 'think', arguments: '{"thought":"x"}' }],
      },
      { kind: 'chat', role: 'tool', content: 'Tool call execution denied.', toolCallId: 'b', toolName: 'think' },
      { kind: 'chat', role: 'assistant', content: 'ok' },
    ]);
  });

  it('an unknown UI tool state is a located error', () => {
    const ui = [
      { id: '1', role: 'user', parts: [{ type: 'text', text: 'go' }] },
      { id: '2', role: 'assistant', parts: [{ type: 'tool-think', toolCallId: 'b', state: 'done', input: {} }] },
    ];
    expect(inputError(() => read('ui.json', j(ui))).headline).toBe(
      'ui.json:1:103: unknown AI SDK tool part state "done" (expected input-available, approval-requested, ' +
        'approval-responded, output-available, output-error, output-denied) (--lenient replays the rest and counts it)',
    );
  });

  it('steps[].content: provider-executed parts are counted', () => {
    const result = {
      steps: [
        {
          content: [
            { type: 'tool-call', toolCallId: 'ws', toolName: 'web_search', input: {}, providerExecuted: true },
            { type: 'tool-result', toolCallId: 'ws', toolName: 'web_search', output: [], providerExecuted: true },
            { type: 'text', text: 'hi' },
          ],
        },
      ],
    };
    const t = read('r.json', j(result));
    expect(t.coverage?.skipped).toEqual([{ rule: PROVIDER, count: 2 }]);
    expect(t.messages).toEqual([{ kind: 'chat', role: 'assistant', content: 'hi' }]);
  });
});

export { lines };
