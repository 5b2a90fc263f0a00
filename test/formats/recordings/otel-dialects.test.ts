/**
 * The OTel reader's dialects (issue 28): the AI SDK's own spans, OpenInference's, and the GenAI spans of
 * agents and tools — what each reads as a model call, what it skips by which rule, and where a problem
 * inside an attribute's JSON is.
 */
import { describe, expect, it } from 'vitest';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { AGENT_SPANS, TOOL_SPANS } from '../../../src/formats/recordings/otel.js';
import { inputError } from '../helpers.js';

type Attr = readonly [string, string | readonly string[]];
const attr = ([key, v]: Attr) => ({
  key,
  value: typeof v === 'string' ? { stringValue: v } : { arrayValue: { values: v.map((x) => ({ stringValue: x })) } },
});
const span = (name: string, start: number, attrs: readonly Attr[]) => ({
  name,
  startTimeUnixNano: String(start),
  attributes: attrs.map(attr),
});
const trace = (...spans: unknown[]): string => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
const j = JSON.stringify;
const view = (t: ReturnType<typeof loadRecordingText>) =>
  t.messages.map((m) =>
    m.kind === 'chat'
      ? [m.role, m.content, ...(m.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`), m.toolName ?? '']
      : [m.role],
  );

describe("the AI SDK's spans", () => {
  const user = { role: 'user', content: [{ type: 'text', text: 'post it' }] };
  const call = {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'tool_search', input: { query: 'slack' } }],
  };
  const result = {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'tool_search',
        output: { type: 'json', value: { matches: [] } },
      },
    ],
  };
  const tools = [j({ type: 'function', name: 'tool_search', inputSchema: { type: 'object' }, description: 'Search' })];

  it('doGenerate / doStream spans are the calls; the run and ai.toolCall spans are skipped by rule', () => {
    const t = loadRecordingText(
      trace(
        span('ai.streamText', 1, [['ai.operationId', 'ai.streamText']]),
        span('ai.streamText.doStream', 2, [
          ['ai.operationId', 'ai.streamText.doStream'],
          ['ai.prompt.messages', j([{ role: 'system', content: 'Be brief.' }, user])],
          ['ai.prompt.tools', tools],
          ['ai.response.text', ''],
          ['ai.response.toolCalls', j([{ toolCallId: 'c1', toolName: 'tool_search', input: { query: 'slack' } }])],
        ]),
        span('ai.toolCall', 3, [['ai.operationId', 'ai.toolCall']]),
        span('ai.streamText.doStream', 4, [
          ['ai.operationId', 'ai.streamText.doStream'],
          ['ai.prompt.messages', j([{ role: 'system', content: 'Be brief.' }, user, call, result])],
          ['ai.prompt.tools', tools],
          ['ai.response.text', 'Nothing found.'],
        ]),
      ),
      { name: 'ai.json' },
    );
    expect(view(t)).toEqual([
      ['system', 'Be brief.', ''],
      ['user', 'post it', ''],
      ['assistant', '', 'tool_search {"query":"slack"}', ''],
      ['tool', '{"matches":[]}', 'tool_search'],
      ['assistant', 'Nothing found.', ''],
    ]);
    expect(t.coverage?.skipped).toEqual([
      { rule: AGENT_SPANS, count: 1 },
      { rule: TOOL_SPANS, count: 1 },
    ]);
    expect(t.sentTools).toEqual([
      { visible: ['tool_search'], deferred: [] },
      { visible: ['tool_search'], deferred: [] },
    ]);
  });

  it('AI SDK 4: tool-call `args`, tool-result `result`, tools with `parameters`', () => {
    const v4call = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', args: { q: 1 } }],
    };
    const v4result = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'lookup', result: 'ok' }],
    };
    const t = loadRecordingText(
      trace(
        span('ai.generateText.doGenerate', 2, [
          ['ai.prompt.messages', j([user])],
          ['ai.prompt.tools', [j({ type: 'function', name: 'lookup', parameters: { type: 'object' } })]],
          [
            'ai.response.toolCalls',
            j([{ toolCallType: 'function', toolCallId: 'c1', toolName: 'lookup', args: '{"q":1}' }]),
          ],
        ]),
        span('ai.generateText.doGenerate', 3, [
          ['ai.prompt.messages', j([user, v4call, v4result])],
          ['ai.response.text', 'done'],
        ]),
      ),
      { name: 'ai.json' },
    );
    expect(view(t)).toEqual([
      ['user', 'post it', ''],
      ['assistant', '', 'lookup {"q":1}', ''],
      ['tool', 'ok', 'lookup'],
      ['assistant', 'done', ''],
    ]);
    expect(t.tools?.map((x) => x.name)).toEqual(['lookup']);
  });

  it('a model call recorded without its prompt (recordInputs: false) is not understood', () => {
    expect(
      inputError(() =>
        loadRecordingText(trace(span('ai.generateText.doGenerate', 2, [['ai.response.text', 'hi']])), {
          name: 'ai.json',
        }),
      ).message,
    ).toBe(
      'span "ai.generateText.doGenerate": an AI SDK model call without "ai.prompt.messages" (recorded with ' +
        'recordInputs: false?): its conversation is not in the trace (--lenient replays the rest and counts it)',
    );
  });

  it("a problem inside ai.prompt.messages is located in the attribute's text", () => {
    const e = inputError(() =>
      loadRecordingText(
        trace(span('ai.generateText.doGenerate', 2, [['ai.prompt.messages', j([{ role: 'wizard', content: 'x' }])]])),
        { name: 'ai.json' },
      ),
    );
    expect(e.headline).toBe(
      'ai.json:1:172: unknown AI SDK message role "wizard" (expected system, user, assistant, tool) ' +
        '(--lenient replays the rest and counts it)',
    );
  });

  it("a provider-executed call in ai.response.toolCalls is the provider's own call, listed", () => {
    const t = loadRecordingText(
      trace(
        span('ai.generateText.doGenerate', 2, [
          ['ai.prompt.messages', j([user])],
          ['ai.response.text', 'searched the web'],
          [
            'ai.response.toolCalls',
            j([{ toolCallId: 'w1', toolName: 'web_search', input: {}, providerExecuted: true }]),
          ],
        ]),
      ),
      { name: 'ai.json' },
    );
    expect(t.messages[1]).toEqual({
      kind: 'blocks',
      role: 'assistant',
      blocks: [
        { type: 'text', text: 'searched the web' },
        {
          type: 'provider_tool_call',
          callId: 'w1',
          kind: 'tool-call',
          name: 'web_search',
          server: '',
          arguments: '{}',
          executedBy: 'provider',
        },
      ],
    });
    expect(t.coverage).toMatchObject({ skipped: [], provider_calls: 1 });
  });
});

describe("OpenInference's spans", () => {
  const m = (p: string, role: string, rest: Array<[string, string]> = []): Attr[] => [
    [`${p}.message.role`, role],
    ...rest.map(([k, v]): Attr => [`${p}.message.${k}`, v]),
  ];

  it('Responses items one message each: consecutive assistant messages are one answer; web search listed', () => {
    const t = loadRecordingText(
      trace(
        span('agent', 1, [['openinference.span.kind', 'AGENT']]),
        span('OpenAI Responses', 2, [
          ['openinference.span.kind', 'LLM'],
          ...m('llm.input_messages.0', 'user', [['content', 'find it']]),
          ...m('llm.output_messages.0', 'assistant', [
            ['contents.0.message_content.type', 'reasoning'],
            ['contents.0.message_content.text', 'thinking'],
          ]),
          ...m('llm.output_messages.1', 'assistant', [
            ['tool_calls.0.tool_call.id', 'ws'],
            ['tool_calls.0.tool_call.function.name', 'web_search_call'],
          ]),
          ...m('llm.output_messages.2', 'assistant', [
            ['tool_calls.0.tool_call.id', 'c1'],
            ['tool_calls.0.tool_call.function.name', 'lookup'],
            ['tool_calls.0.tool_call.function.arguments', '{"q":1}'],
          ]),
          ['llm.tools.0.tool.json_schema', j({ type: 'function', name: 'lookup', parameters: {} })],
        ]),
        span('lookup', 3, [['openinference.span.kind', 'TOOL']]),
        span('OpenAI Responses', 4, [
          ['openinference.span.kind', 'LLM'],
          ...m('llm.input_messages.0', 'user', [['content', 'find it']]),
          ...m('llm.input_messages.1', 'assistant', [['contents.0.message_content.type', 'reasoning']]),
          ...m('llm.input_messages.2', 'assistant', [
            ['tool_calls.0.tool_call.id', 'c1'],
            ['tool_calls.0.tool_call.function.name', 'lookup'],
            ['tool_calls.0.tool_call.function.arguments', '{"q":1}'],
          ]),
          ...m('llm.input_messages.3', 'tool', [
            ['tool_call_id', 'c1'],
            ['content', 'found'],
          ]),
          ...m('llm.output_messages.0', 'assistant', [
            ['contents.0.message_content.type', 'output_text'],
            ['contents.0.message_content.text', 'Here.'],
          ]),
        ]),
      ),
      { name: 'oi.json' },
    );
    expect(view(t)).toEqual([
      ['user', 'find it', ''],
      ['assistant'],
      ['tool', 'found', 'lookup'],
      ['assistant', 'Here.', ''],
    ]);
    expect(t.messages[1]).toEqual({
      kind: 'blocks',
      role: 'assistant',
      blocks: [
        {
          type: 'provider_tool_call',
          callId: 'ws',
          kind: 'web_search_call',
          name: '',
          server: '',
          arguments: '{}',
          executedBy: 'provider',
        },
        { type: 'function_tool_call', callId: 'c1', name: 'lookup', arguments: '{"q":1}' },
      ],
    });
    expect(t.coverage?.skipped).toEqual([
      { rule: AGENT_SPANS, count: 1 },
      { rule: TOOL_SPANS, count: 1 },
    ]);
    expect(t.coverage?.provider_calls).toBe(1);
    expect(t.tools?.map((x) => x.name)).toEqual(['lookup']);
  });

  it('an unknown content type or role is an error at its attribute', () => {
    const e = inputError(() =>
      loadRecordingText(
        trace(span('llm', 2, [['openinference.span.kind', 'LLM'], ...m('llm.input_messages.0', 'narrator')])),
        { name: 'oi.json' },
      ),
    );
    expect(e.headline).toBe(
      'oi.json:1:226: llm.input_messages.0.message.role: unknown role "narrator" (expected system, user, ' +
        'assistant, tool) (--lenient replays the rest and counts it)',
    );
  });
});

describe('GenAI agent and tool spans', () => {
  it('invoke_agent (with messages) and execute_tool spans are skipped; definitions are the catalog', () => {
    const input = j([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]);
    const output = j([{ role: 'assistant', parts: [{ type: 'text', content: 'hello' }] }]);
    const t = loadRecordingText(
      trace(
        span('invoke_agent a', 1, [
          ['gen_ai.operation.name', 'invoke_agent'],
          ['gen_ai.input.messages', input],
          ['gen_ai.output.messages', output],
        ]),
        span('chat m', 2, [
          ['gen_ai.operation.name', 'chat'],
          ['gen_ai.input.messages', input],
          ['gen_ai.output.messages', output],
          ['gen_ai.tool.definitions', j([{ type: 'function', name: 'lookup', parameters: { type: 'object' } }])],
        ]),
        span('execute_tool lookup', 3, [['gen_ai.operation.name', 'execute_tool']]),
      ),
      { name: 'g.json' },
    );
    expect(view(t)).toEqual([
      ['user', 'hi', ''],
      ['assistant', 'hello', ''],
    ]);
    expect(t.coverage?.skipped).toEqual([
      { rule: AGENT_SPANS, count: 1 },
      { rule: TOOL_SPANS, count: 1 },
    ]);
    expect(t.tools?.map((x) => x.name)).toEqual(['lookup']);
  });
});
