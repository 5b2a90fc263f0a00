/**
 * Recording readers checked against their formats' real sources (issue 12,
 * session 5): shapes the sources define that the readers must read, skip
 * by a counted rule, or refuse with a located error.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../src/formats/catalog.js';
import { parseText } from '../../src/io/parse.js';
import { readTranscriptDocument } from '../../src/formats/transcript.js';
import { simulate } from '../../src/jobs/simulate/engine.js';
import { inputError } from './helpers.js';

const demo = loadCatalogFiles([fileURLToPath(new URL('../../fixtures/catalogs/demo.yaml', import.meta.url))]);
const read = (name: string, text: string, lenient = false) =>
  readTranscriptDocument(parseText(name, text), { lenient });
const j = (v: unknown): string => JSON.stringify(v);
const lines = (...v: unknown[]): string => v.map(j).join('\n');
/** The provider-executed web search of these tests, as the report lists it. */
const webSearch = (kind: string, id: string, args = '{}') => ({
  type: 'provider_tool_call',
  callId: id,
  kind,
  name: 'web_search',
  server: '',
  arguments: args,
  executedBy: 'provider',
});

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

  it("ModelMessage[]: a provider-executed call is the provider's, its result part of it; never dropped", () => {
    const t = read('m.json', j(modelMessages));
    expect(t.coverage?.skipped).toEqual([]);
    expect(t.coverage?.read).toBe(4);
    expect(t.coverage?.provider_calls).toBe(1);
    expect(t.messages[1]).toEqual({
      kind: 'blocks',
      role: 'assistant',
      blocks: [
        webSearch('tool-call', 'ws1', '{"q":"x"}'),
        { type: 'function_tool_call', callId: 'c1', name: 'tool_search', arguments: '{"query":"slack send message"}' },
      ],
    });
    const r = simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });
    expect(r.turns.map((x) => x.added)).toEqual([[], ['mcp__slack__send_message']]);
    expect(r.turns.map((x) => x.provider_calls)).toEqual([
      [
        {
          id: 'ws1',
          type: 'tool-call',
          name: 'web_search',
          server: null,
          arguments: '{"q":"x"}',
          executed_by: 'provider',
        },
      ],
      [],
    ]);
    expect(r.turns.map((x) => x.tool_calls.map((c) => c.name))).toEqual([['tool_search'], []]);
    expect(r.summary.provider_calls).toBe(1);
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

  it("UIMessage[]: a provider-executed part is the provider's; input-streaming counted; a denial: the SDK text", () => {
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
      { rule: 'tool parts in state input-streaming (the SDK sends no tool call for them)', count: 1 },
    ]);
    expect(t.messages.slice(1)).toEqual([
      {
        kind: 'blocks',
        role: 'assistant',
        blocks: [
          webSearch('tool-web_search', 'ws'),
          { type: 'function_tool_call', callId: 'b', name: 'think', arguments: '{"thought":"x"}' },
        ],
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

  it('steps[].content: a provider-executed call is listed, its result part of it', () => {
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
    expect(t.coverage?.skipped).toEqual([]);
    expect(t.messages).toEqual([
      { kind: 'blocks', role: 'assistant', blocks: [{ type: 'text', text: 'hi' }, webSearch('tool-call', 'ws')] },
    ]);
  });
});

describe('Claude Code: line and message keys (Claude Code 2.1.144 session-log schema)', () => {
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd: '/w', sessionId: 's' };
  const user = { ...base, type: 'user', uuid: 'u1', version: '2.1.144', gitBranch: 'main', isMeta: false };
  const real = [
    { ...user, message: { role: 'user', content: 'hi' }, timestamp: '2026-01-01T00:00:00.000Z', promptId: 'p' },
    {
      ...base,
      parentUuid: 'u1',
      type: 'attachment',
      uuid: 'u2',
      attachment: { type: 'deferred_tools_delta', addedNames: ['x'] },
    },
    {
      ...base,
      parentUuid: 'u2',
      type: 'assistant',
      uuid: 'u3',
      requestId: 'req_1',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-6',
        content: [{ type: 'text', text: 'hello' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        stop_details: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    },
    { type: 'ai-title', aiTitle: 'Greeting', sessionId: 's' },
    { type: 'last-prompt', lastPrompt: '', sessionId: 's', leafUuid: 'u3' },
  ];

  it('keys of the real schema read; attachment, ai-title and last-prompt lines skipped by rule (on the chain)', () => {
    const t = read('cc.jsonl', lines(...real));
    expect(t.coverage?.skipped).toEqual([
      {
        rule:
          'attachment lines (context Claude Code adds to a request: hook output, reminders, files, ' +
          'deferred-tool lists; no tool call or result)',
        count: 1,
      },
      { rule: 'ai-title lines (a session title)', count: 1 },
      { rule: 'last-prompt lines (the prompt box at exit)', count: 1 },
    ]);
    expect(t.messages).toEqual([
      { kind: 'blocks', role: 'user', blocks: [{ type: 'text', text: 'hi' }] },
      { kind: 'blocks', role: 'assistant', blocks: [{ type: 'text', text: 'hello' }] },
    ]);
  });

  it('an unknown line key is a located error naming the known keys; --lenient counts it', () => {
    const text = lines(real[0], { ...real[2], parentUuid: 'u1', replayedFrom: 'u0' });
    const e = inputError(() => read('cc.jsonl', text));
    expect(e.headline.replace(/:\d+: /, ':N: ')).toMatch(
      new RegExp(
        '^cc\\.jsonl:2:N: unknown key "replayedFrom" in a Claude Code assistant line ' +
          '\\(no rule reads it; known keys: type, uuid, parentUuid, ',
      ),
    );
    expect(e.headline.endsWith('attributionSkill) (--lenient replays the rest and counts it)')).toBe(true);
    const t = read('cc.jsonl', text, true);
    expect(t.coverage?.unexplained.map((u) => u.message.slice(0, 60))).toEqual([
      'unknown key "replayedFrom" in a Claude Code assistant line (',
    ]);
    expect(t.messages).toHaveLength(2);
  });

  it('an unknown message key is a located error', () => {
    const text = lines(
      { ...real[0], message: { role: 'user', content: 'hi', cache: true } },
      {
        ...real[2],
        parentUuid: 'u1',
      },
    );
    expect(inputError(() => read('cc.jsonl', text)).headline).toBe(
      'cc.jsonl:1:209: unknown key "cache" in a Claude Code user message ' +
        '(no rule reads it; known keys: role, content, id, type) (--lenient replays the rest and counts it)',
    );
  });
});

describe('Anthropic blocks and Responses parts: keys checked', () => {
  it('an unknown key on a tool_use block is a located error; cache_control and caller are known', () => {
    const ok = [
      { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'think', input: {}, caller: { type: 'direct' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok', is_error: false }] },
    ];
    expect(read('a.json', j({ model: 'm', messages: ok })).messages).toHaveLength(3);
    const bad = structuredClone(ok);
    (bad[1]!.content[0] as Record<string, unknown>).parallel = true;
    expect(inputError(() => read('a.json', j({ model: 'm', messages: bad }))).headline).toBe(
      'a.json:1:232: unknown key "parallel" in an Anthropic tool_use block (no rule reads it; known keys: type, id, ' +
        'name, input, cache_control, caller) (--lenient replays the rest and counts it)',
    );
  });

  it('an unknown key on a Responses output_text part is a located error; annotations are known', () => {
    const items = [
      { role: 'user', content: 'hi' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'x', annotations: [], id: 1 }] },
    ];
    expect(inputError(() => read('r.json', j({ model: 'm', input: items }))).headline).toBe(
      'r.json:1:152: unknown key "id" in a Responses output_text part (no rule reads it; known keys: type, text, ' +
        'annotations, logprobs, providerData) (--lenient replays the rest and counts it)',
    );
  });
});

describe('sent-differs from a single request body and from AI SDK steps[].request.body', () => {
  const fn = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object' } } });
  const statics = demo.tools.filter((t) => t.static).map((t) => t.name);
  const run = (t: ReturnType<typeof read>) =>
    simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });

  it('a request body: its tools are compared at the call it asks for (the last)', () => {
    const messages = [
      { role: 'user', content: 'post it' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'tool_search', arguments: '{"query":"slack send message"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"matches":["mcp__slack__send_message"]}' },
    ];
    const exact = [...statics, 'tool_search', 'mcp__slack__send_message'].map(fn);
    const same = read('req.json', j({ model: 'm', messages, tools: exact }));
    expect(same.sentTools).toEqual([
      null,
      { visible: [...statics, 'tool_search', 'mcp__slack__send_message'], deferred: [] },
    ]);
    expect(run(same).violations).toEqual([]);
    const early = read('req.json', j({ model: 'm', messages, tools: [...statics, 'tool_search'].map(fn) }));
    expect(run(early).violations).toEqual([
      {
        call: 2,
        tool: null,
        kind: 'sent-differs',
        severity: 'warning',
        message:
          'the recorded request did not send as visible what the reference would offer: mcp__slack__send_message',
      },
    ]);
  });

  it('an Anthropic request body with every tool visible: sent-differs at its one call', () => {
    const tools = demo.tools.slice(0, 7).map((t) => ({ name: t.name, input_schema: { type: 'object' } }));
    const t = read('a.json', j({ model: 'm', max_tokens: 9, messages: [{ role: 'user', content: 'hi' }], tools }));
    const v = run(t).violations;
    expect(v.map((x) => [x.call, x.kind])).toEqual([[1, 'sent-differs']]);
    expect(v[0]!.message).toBe(
      'the recorded request sent as visible that the reference would hide: ' +
        `${demo.tools
          .filter((x, i) => i < 7 && !x.static)
          .map((x) => x.name)
          .join(', ')}; ` +
        'did not send as visible what the reference would offer: ' +
        `${[...demo.tools.filter((x, i) => i >= 7 && x.static).map((x) => x.name), 'tool_search'].join(', ')}`,
    );
  });

  it('AI SDK steps[].request.body.tools: each step is one call; a step without a body says nothing', () => {
    const result = {
      steps: [
        {
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'tool_search', input: { query: 'slack send message' } },
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'tool_search',
              output: { matches: ['mcp__slack__send_message'] },
            },
          ],
          request: { body: { model: 'm', tools: [...statics, 'tool_search', 'mcp__slack__send_message'].map(fn) } },
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
    };
    const t = read('r.json', j(result));
    expect(t.sentTools?.map((s) => s?.visible.length ?? null)).toEqual([7, null]);
    expect(run(t).violations.map((v) => [v.call, v.kind, v.message])).toEqual([
      [
        1,
        'sent-differs',
        'the recorded request sent as visible that the reference would hide: mcp__slack__send_message',
      ],
    ]);
  });
});

describe('OTel GenAI parts (semantic-conventions gen-ai-input-messages.json)', () => {
  const chat = (input: unknown, output: unknown) =>
    j({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  name: 'chat m',
                  startTimeUnixNano: '1',
                  attributes: [
                    { key: 'gen_ai.input.messages', value: { stringValue: j(input) } },
                    { key: 'gen_ai.output.messages', value: { stringValue: j(output) } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });

  it('compaction, reasoning and server tool parts carry no client tool use: read past', () => {
    const input = [
      {
        role: 'user',
        parts: [
          { type: 'compaction', id: 'c', content: 'summary' },
          { type: 'text', content: 'hi' },
        ],
      },
    ];
    const output = [
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', content: 'hm' },
          { type: 'server_tool_call', name: 'web_search', server_tool_call: { type: 'web_search' } },
          { type: 'text', content: 'hello' },
        ],
        finish_reason: 'stop',
      },
    ];
    expect(read('o.json', chat(input, output)).messages).toEqual([
      { kind: 'chat', role: 'user', content: 'hi' },
      { kind: 'chat', role: 'assistant', content: 'hello' },
    ]);
  });

  it('a part type the schema does not define is a located error', () => {
    const input = [{ role: 'user', parts: [{ type: 'hologram', content: 'x' }] }];
    const e = inputError(() => read('o.json', chat(input, [{ role: 'assistant', parts: [] }])));
    expect(e.headline).toMatch(/^o\.json:1:\d+: gen_ai\.input\.messages: unknown GenAI message part type "hologram"/);
  });
});

describe("AI SDK: the provider's own tool search (vercel/ai packages/anthropic, tool_search_tool_regex)", () => {
  const msgs = [
    { role: 'user', content: 'post it' },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'srv_1',
          toolName: 'tool_search_tool_regex',
          input: '{"pattern":"slack.*send"}',
          providerExecuted: true,
        },
        {
          type: 'tool-result',
          toolCallId: 'srv_1',
          toolName: 'tool_search_tool_regex',
          output: { type: 'json', value: [{ type: 'tool_reference', toolName: 'mcp__slack__send_message' }] },
        },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'mcp__slack__send_message', input: { channel: '#eng' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'mcp__slack__send_message',
          output: { type: 'text', value: 'ok' },
        },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
  ];

  it('tool_reference results are a server-side search: read, not skipped; they load in model-native mode', () => {
    const t = read('m.json', j(msgs));
    expect(t.coverage?.skipped).toEqual([]);
    expect(t.messages[1]).toEqual({
      kind: 'blocks',
      role: 'assistant',
      blocks: [
        { type: 'server_tool_search', callId: 'srv_1', query: 'slack.*send' },
        { type: 'server_tool_search_result', callId: 'srv_1', tools: ['mcp__slack__send_message'] },
        {
          type: 'function_tool_call',
          callId: 'c1',
          name: 'mcp__slack__send_message',
          arguments: '{"channel":"#eng"}',
        },
      ],
    });
    const native = simulate({ transcript: t, catalog: demo, mode: 'native', replay: false });
    expect(native.violations).toEqual([]);
    expect(native.summary.server_searches).toBe(1);
    const plain = simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });
    expect(plain.violations.map((v) => [v.kind, v.tool, v.call])).toEqual([
      ['not-loaded', 'mcp__slack__send_message', 1],
    ]);
  });
});

describe('AI SDK UIMessage: a provider tool search part', () => {
  it('a provider-executed part whose output is tool_reference items is read as a server-side search', () => {
    const ui = [
      { id: '1', role: 'user', parts: [{ type: 'text', text: 'post it' }] },
      {
        id: '2',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          {
            type: 'tool-tool_search_tool_regex',
            toolCallId: 'srv_1',
            state: 'output-available',
            input: { pattern: 'slack.*send' },
            output: [{ type: 'tool_reference', toolName: 'mcp__slack__send_message' }],
            providerExecuted: true,
          },
          { type: 'text', text: 'found it' },
        ],
      },
    ];
    const t = read('ui.json', j(ui));
    expect(t.coverage?.skipped).toEqual([]);
    expect(t.messages[1]).toEqual({
      kind: 'blocks',
      role: 'assistant',
      blocks: [
        { type: 'text', text: 'found it' },
        { type: 'server_tool_search', callId: 'srv_1', query: 'slack.*send' },
        { type: 'server_tool_search_result', callId: 'srv_1', tools: ['mcp__slack__send_message'] },
      ],
    });
  });
});
