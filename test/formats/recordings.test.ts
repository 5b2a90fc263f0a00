/**
 * Recording readers (issue 12): what each format refuses or counts, with
 * the exact error text; the fixtures of one kind each; coverage.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../src/formats/catalog.js';
import { parseText } from '../../src/io/parse.js';
import { READERS, requireModelCall } from '../../src/formats/recordings/registry.js';
import { loadTranscriptFile, readTranscriptDocument } from '../../src/formats/transcript.js';
import { simulate } from '../../src/jobs/simulate/engine.js';
import { TRANSCRIPT_FORMATS } from '../../src/cli/commands/simulate.js';
import type { Message } from '../../src/core/types.js';
import { inputError } from './helpers.js';

const dir = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
const demo = loadCatalogFiles([fileURLToPath(new URL('../../fixtures/catalogs/demo.yaml', import.meta.url))]);
const read = (name: string, text: string, lenient = false) =>
  readTranscriptDocument(parseText(name, text), { lenient });
const j = (v: unknown): string => JSON.stringify(v);
const lines = (...v: unknown[]): string => v.map(j).join('\n');
const LENIENT = ' (--lenient replays the rest and counts it)';

const user = { type: 'user', uuid: 'u1', sessionId: 's', message: { role: 'user', content: 'hi' } };
const answer = {
  type: 'assistant',
  uuid: 'u3',
  parentUuid: 'u1',
  sessionId: 's',
  message: { id: 'm', role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
};
const span = (attributes: Array<[string, string]>) =>
  j({
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                name: 'chat m',
                startTimeUnixNano: '1',
                attributes: attributes.map(([key, v]) => ({ key, value: { stringValue: v } })),
              },
            ],
          },
        ],
      },
    ],
  });

/** [name, text, the exact headline]: one row per shape a format must refuse. */
const REFUSED: Array<[string, string, string]> = [
  [
    'x.json',
    j([
      { role: 'user', blob: { x: 1 } },
      { role: 'assistant', blob: { tool: 'y' } },
    ]),
    'x.json:1:17: unknown key "blob" in an Eino message (no rule reads it; known keys: role, content, ' +
      'multi_content, user_input_multi_content, assistant_output_multi_content, ' +
      'assistant_gen_multi_content, name, tool_calls, tool_call_id, tool_name, response_meta, ' +
      'reasoning_content, extra) (and 1 more; --lenient replays the rest and counts them)',
  ],
  [
    'cc.jsonl',
    lines(user, { type: 'telemetry', uuid: 'u2' }, answer),
    `cc.jsonl:2:1: unknown Claude Code line type "telemetry" (known: user, assistant, summary, ` +
      `file-history-snapshot, system, result, stream_event, queue-operation, progress, custom-title, tag, ` +
      'attachment, pr-link, agent-name, ai-title, last-prompt, permission-mode, agent-setting, bridge-session, ' +
      `worktree-state)${LENIENT}`,
  ],
  [
    'cc.jsonl',
    lines(user, { type: 'assistant', uuid: 'u3', parentUuid: 'u1', sessionId: 's' }),
    `cc.jsonl:2:1: a Claude Code "assistant" line without a "message" object${LENIENT}`,
  ],
  [
    'cc.jsonl',
    lines(user, { ...answer, message: { id: 'm', role: 'assistant', content: [{ type: 'hologram' }] } }),
    `cc.jsonl:2:117: unknown Anthropic content block type "hologram"${LENIENT}`,
  ],
  [
    'ai.json',
    j([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 't', input: {} }, { type: 'sparkle' }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'text', value: 'x' } }],
      },
    ]),
    `ai.json:1:129: unknown AI SDK content part type "sparkle"${LENIENT}`,
  ],
  [
    'ai.json',
    j([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 't', input: {} }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'weird', value: 1 } }],
      },
    ]),
    `ai.json:1:190: unknown AI SDK tool output type "weird" (expected text, json, ` +
      `error-text, error-json, content, execution-denied)${LENIENT}`,
  ],
  [
    'agents.json',
    j([
      { role: 'user', content: 'hi' },
      { type: 'function_call', callId: 'c1', name: 't', arguments: '{}' },
      { type: 'function_call_result', callId: 'c9', name: 't', status: 'completed', output: 'x' },
    ]),
    `agents.json:1:100: tool result for unknown call id "c9": no earlier tool call has this id${LENIENT}`,
  ],
  [
    'agents.json',
    j([
      { role: 'user', content: 'hi' },
      { type: 'teleport_call', callId: 'c1' },
    ]),
    `agents.json:1:33: unknown Agents SDK item type "teleport_call"${LENIENT}`,
  ],
  [
    'lc.json',
    j([
      { type: 'human', data: { content: 'hi' } },
      { type: 'ai', data: { content: '', tool_calls: [{ name: 't', args: {}, id: 'c1' }], mystery: 1 } },
    ]),
    `lc.json:1:125: unknown key "mystery" in a LangChain message (no rule reads it; known keys: content, ` +
      `additional_kwargs, response_metadata, type, name, id, example, tool_calls, invalid_tool_calls, ` +
      `usage_metadata, tool_call_id, artifact, status, role, tool_call_chunks, chunk_position, metadata, ` +
      `content_blocks, lc_serializable, lc_kwargs, lc_namespace, contentBlocks)${LENIENT}`,
  ],
  [
    'lc.json',
    j({ messages: [{ type: 'human', content: 'hi' }, { kind: 'robot' }] }),
    `lc.json:1:46: not a LangChain message (expected {type, data}, {type, content, ` +
      `...} or {lc: 1, type: "constructor", id, kwargs})${LENIENT}`,
  ],
  [
    'otel.json',
    span([
      ['gen_ai.input.messages', j([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }])],
      ['gen_ai.output.messages', j([{ role: 'assistant', parts: [{ type: 'hologram' }] }])],
    ]),
    `otel.json:1:322: gen_ai.output.messages: unknown GenAI message part type "hologram"${LENIENT}`,
  ],
  [
    'otel.json',
    span([['gen_ai.input.messages', '[{oops']]),
    `otel.json:1:153: gen_ai.input.messages is not JSON: invalid JSON: expected a string key, found 'o' ` +
      `(line 1, column 3 of the text)${LENIENT}`,
  ],
  [
    'resp.json',
    j({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'a', blob: 1 } }] }),
    `resp.json:1:95: unknown key "blob" in an OpenAI Chat message (no rule reads it; ` +
      `known keys: role, content, name, tool_calls, tool_call_id, refusal, audio, ` +
      `annotations, reasoning_content, reasoning, tool_name)${LENIENT}`,
  ],
  [
    'nothing.json',
    j({ hello: 1 }),
    'nothing.json:1:1: no known recording shape fits (found an object with "hello"); tried ' +
      `${READERS.map((r) => r.format).join(', ')} (see simulate --help, or force one with --format)`,
  ],
];

describe('shapes each format refuses, at their location', () => {
  for (const [name, text, headline] of REFUSED) {
    it(headline.replace(/^[^:]+:\d+:\d+: /, '').slice(0, 90), () => {
      expect(inputError(() => read(name, text)).headline).toBe(headline);
    });
  }

  it('--lenient counts what it could not read instead (the before-stop check)', () => {
    const t = read('x.json', REFUSED[0]![1], true);
    expect(t.coverage).toMatchObject({
      format: 'eino',
      items: 4,
      read: 2,
      unexplained: [
        { location: 'x.json:1:17', message: expect.stringMatching(/^unknown key "blob" in an Eino message/) },
        { location: 'x.json:1:53', message: expect.stringMatching(/^unknown key "blob" in an Eino message/) },
      ],
    });
    expect(t.warnings).toHaveLength(2);
  });

  it('Claude Code lines with no conversation line name claude-code, not the chat format that would take them', () => {
    const lines = [
      { type: 'summary', summary: 'x', leafUuid: 'u' },
      { type: 'user', uuid: 'u1', sessionId: 's', parentUuid: null },
    ];
    expect(inputError(() => read('x.jsonl', lines.map((l) => j(l)).join('\n'))).message).toBe(
      '1 line with Claude Code\'s session fields ("type", "uuid" / "sessionId"): signs of claude-code, which ' +
        'expects at least one {"type": "user" | "assistant", "message": {role, content}} line; no format takes ' +
        'it (openai-responses only by 2 messages have keys or part types only OpenAI Responses uses: ' +
        '--format openai-responses reads it so)',
    );
  });

  it('a recording with no model call has nothing to replay', () => {
    // A Claude Code session log of one user line (an OTel export without a model-call span is refused by its reader).
    const t = read(
      'x.jsonl',
      j({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'hi' } }),
    );
    expect(t.format).toBe('claude-code');
    expect(inputError(() => requireModelCall(t)).message).toBe(
      'no model call: the recording logs no model call (no assistant message) and is not a request body, ' +
        'so there is nothing to replay',
    );
  });

  it('--format names every reader, and every reader has a shape line', () => {
    expect([...TRANSCRIPT_FORMATS].slice(1).sort()).toEqual(READERS.map((r) => r.format).sort());
    for (const r of READERS) expect(r.shape.startsWith(`${r.format}: `), r.format).toBe(true);
  });
});

describe('Claude Code', () => {
  const file = `${dir}toolsearch-references.claude-code.jsonl`;

  it('a session log: skip rules counted, lines of one response joined, ToolSearch as the search tool', () => {
    const t = loadTranscriptFile(file);
    expect(t.coverage).toMatchObject({
      format: 'claude-code',
      items: 15,
      read: 9,
      skipped: [
        { rule: 'summary lines (a session title; not sent to the model)', count: 1 },
        { rule: 'file-history-snapshot lines (checkpoints of edited files)', count: 1 },
        {
          rule:
            'system lines (local command output, compaction boundaries, ' +
            'notices, stream-json init: not model messages)',
          count: 1,
        },
        { rule: "sidechain lines (a subagent's conversation; --sidechains replays each)", count: 2 },
        { rule: 'lines off the main chain (an abandoned branch: a message edited or retried)', count: 1 },
      ],
      search_tool: {
        names: ['ToolSearch'],
        source: "claude-code default: Claude Code's tool search tool is ToolSearch",
      },
    });
    // The thinking line and the tool_use line of msg_01A are one assistant message.
    expect(t.messages[1]).toEqual({
      kind: 'blocks',
      role: 'assistant',
      blocks: [
        { type: 'other', description: 'thinking' },
        {
          type: 'function_tool_call',
          callId: 'toolu_01',
          name: 'tool_search',
          arguments: '{"query":"select:mcp__linear__create_issue"}',
        },
      ],
    });
    expect(t.sidechains).toBeUndefined();
  });

  it(
    'tool_reference results: a load in native mode; in default mode the reference would not load them, and says ' +
      'so',
    () => {
      const t = loadTranscriptFile(file);
      const dflt = simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });
      expect(dflt.violations.map((v) => [v.kind, v.tool, v.call])).toEqual([
        ['reference-result', null, 1],
        ['not-loaded', 'mcp__linear__create_issue', 2],
        ['unknown', 'Task', 3],
      ]);
      expect(dflt.violations[0]!.message).toBe(
        "the search result is tool_reference blocks (mcp__linear__create_issue): the reference's forward " +
          'selection reads only {"matches": [...]} text, so in default mode it loads none of them; the ' +
          'provider expands references in model-native mode (try --mode native)',
      );
      const native = simulate({ transcript: t, catalog: demo, mode: 'native', replay: false });
      expect(native.violations.map((v) => [v.kind, v.tool, v.call])).toEqual([['unknown', 'Task', 3]]);
      expect(native.summary.tools_loaded).toBe(1);
    },
  );

  it('--sidechains: each subagent is its own conversation', () => {
    const t = loadTranscriptFile(file, { sidechains: true });
    expect(t.coverage?.skipped.map((s) => s.rule)).not.toContain(
      "sidechain lines (a subagent's conversation; --sidechains replays each)",
    );
    expect(t.sidechains?.map((s) => [s.coverage?.conversation, s.messages.map((m) => m.role)])).toEqual([
      ['a7c1e9f0', ['user', 'assistant']],
    ]);
  });

  it('--sidechains: two Task subagents written into the session file, each from its own root, are two', () => {
    // Claude Code 1.0.x writes subagents' lines into the session file, with the session's id and no agentId.
    const two = `${dir}two-subagents.claude-code.jsonl`;
    const t = loadTranscriptFile(two, { sidechains: true });
    const text = (m: Message): string => (m.kind === 'blocks' && m.blocks[0]?.type === 'text' ? m.blocks[0].text : '');
    expect(
      t.sidechains?.map((s) => [s.coverage?.conversation, s.messages.map((m) => m.role), text(s.messages[0]!)]),
    ).toEqual([
      [
        '5f0b8e2a-7c41-4d3e-9a6b-1e2d3c4b5a69',
        ['user', 'assistant', 'user', 'assistant'],
        'Find out why the checkout e2e test fails in CI.',
      ],
      [
        '5f0b8e2a-7c41-4d3e-9a6b-1e2d3c4b5a69#2',
        ['user', 'assistant', 'user', 'assistant'],
        'What time is it in Lisbon now?',
      ],
    ]);
    for (const s of t.sidechains!) {
      const r = simulate({ transcript: s, catalog: demo, mode: 'default', replay: false });
      expect(r.turns).toHaveLength(2);
      expect(r.violations).toEqual([]);
    }
    // Without --sidechains their 8 lines are skipped and counted; the main conversation is the same.
    const main = loadTranscriptFile(two);
    expect(main.coverage?.skipped).toEqual([
      { rule: "sidechain lines (a subagent's conversation; --sidechains replays each)", count: 8 },
    ]);
    expect(main.messages).toEqual(t.messages);
  });

  it("--sidechains: a subagent's retried message is a branch of its chain, skipped and counted there", () => {
    const line = (uuid: string, parent: string | null, type: string, content: unknown) =>
      j({
        parentUuid: parent,
        isSidechain: true,
        sessionId: 's',
        type,
        uuid,
        message:
          type === 'user'
            ? { role: 'user', content }
            : { id: `m_${uuid}`, role: 'assistant', content: [{ type: 'text', text: content }] },
      });
    const text = [
      j({ ...user, isSidechain: false }),
      j({ ...answer, isSidechain: false }),
      line('s1', null, 'user', 'task'),
      line('s2', 's1', 'assistant', 'first try'),
      line('s3', 's1', 'assistant', 'second try'),
      line('s4', 's3', 'user', 'more'),
      line('s5', 's4', 'assistant', 'done'),
    ].join('\n');
    const t = readTranscriptDocument(parseText('cc.jsonl', text), { sidechains: true });
    expect(t.sidechains).toHaveLength(1);
    expect(t.sidechains![0]!.messages).toHaveLength(4);
    expect(t.sidechains![0]!.coverage?.skipped).toEqual([
      { rule: 'lines off the main chain (an abandoned branch: a message edited or retried)', count: 1 },
    ]);
  });

  it('claude -p stream-json; --search-tool replaces the default', () => {
    const t = loadTranscriptFile(`${dir}stream-json.claude-code.jsonl`);
    expect(t.coverage?.detected_by).toBe(
      '5 lines with "type": "user"/"assistant", a "message" and session fields (claude -p --output-format stream-json)',
    );
    const r = simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });
    expect(r.turns.map((x) => x.added.length)).toEqual([0, 5, 0]);
    expect(r.violations).toEqual([]);
    // Named otherwise, ToolSearch is an unknown tool and nothing is loaded.
    const other = loadTranscriptFile(`${dir}stream-json.claude-code.jsonl`, { searchTools: ['Finder'] });
    expect(other.coverage?.search_tool).toEqual({ names: ['Finder'], source: '--search-tool' });
    const r2 = simulate({ transcript: other, catalog: demo, mode: 'default', replay: false });
    expect(r2.violations.map((v) => [v.kind, v.tool, v.call])).toEqual([
      ['unknown', 'ToolSearch', 1],
      ['not-loaded', 'mcp__slack__send_message', 2],
    ]);
  });
});

describe('response objects', () => {
  it('one call each; a Responses response echoes the tools it was sent (sent-differs)', () => {
    for (const [f, calls] of [
      ['chat-completion.response.json', [['call_1', 'tool_search']]],
      ['anthropic-message.response.json', [['toolu_01', 'tool_search']]],
      ['responses-response.response.json', [['call_1', 'mcp__linear__create_issue']]],
    ] as const) {
      const r = simulate({
        transcript: loadTranscriptFile(`${dir}${f}`),
        catalog: demo,
        mode: 'default',
        replay: false,
      });
      expect(r.coverage?.format, f).toBe('response');
      expect(
        r.turns.map((t) => t.tool_calls.map((c) => [c.id, c.name])),
        f,
      ).toEqual([calls]);
    }
    const r = simulate({
      transcript: loadTranscriptFile(`${dir}responses-response.response.json`),
      catalog: demo,
      mode: 'default',
      replay: false,
    });
    expect(r.violations.map((v) => [v.kind, v.message])).toEqual([
      [
        'sent-differs',
        'the recorded request did not send as visible what the reference would ' +
          'offer: ask_user, read_todo_list, write_todo_list, think',
      ],
      [
        'not-loaded',
        'mcp__linear__create_issue was called before any tool_search result named it (not visible at call 1)',
      ],
    ]);
  });
});

describe('AI SDK generateText results', () => {
  it('response.messages (steps skipped by rule: the same calls), or steps alone, give the same turns', () => {
    const a = loadTranscriptFile(`${dir}generate-text-result.ai-sdk.json`);
    const b = loadTranscriptFile(`${dir}generate-text-steps.ai-sdk.json`);
    expect(a.coverage).toMatchObject({
      detected_by: 'a generateText result with "response.messages"',
      read: 5,
      skipped: [{ rule: 'steps of a result (the same calls as response.messages)', count: 1 }],
    });
    expect(b.coverage).toMatchObject({ detected_by: 'a generateText result with "steps"', read: 3, skipped: [] });
    const ra = simulate({ transcript: a, catalog: demo, mode: 'default', replay: false });
    const rb = simulate({ transcript: b, catalog: demo, mode: 'default', replay: false });
    expect(ra.turns.map((t) => t.added.length)).toEqual([0, 5, 0]);
    expect(rb.turns.map((t) => ({ ...t, assistant_text: '' }))).toEqual(
      ra.turns.map((t) => ({ ...t, assistant_text: '' })),
    );
    expect(ra.violations).toEqual([]);
  });
});

describe('OTel tool definitions', () => {
  it(
    'gen_ai.tool.definitions are the tools sent with the call: ' +
      'sent-differs when the agent sends every tool in default mode',
    () => {
      const all = demo.tools.map((t) => ({ type: 'function', name: t.name }));
      const text = span([
        ['gen_ai.input.messages', j([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }])],
        ['gen_ai.output.messages', j([{ role: 'assistant', parts: [{ type: 'text', content: 'hello' }] }])],
        ['gen_ai.tool.definitions', j(all)],
      ]);
      const t = read('otel.json', text);
      expect(t.sentTools).toEqual([{ visible: demo.tools.map((x) => x.name), deferred: [] }]);
      const r = simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });
      expect(r.violations.map((v) => v.kind)).toEqual(['sent-differs']);
      expect(r.violations[0]!.message).toMatch(
        new RegExp(
          '^the recorded request sent as visible that the reference would hide: ' +
            'mcp__filesystem__read_file, .* and 117 more; ' +
            'did not send as visible what the reference would offer: tool_search$',
        ),
      );
    },
  );
});

describe('a file no reader takes names the family nearest to it (issue 28)', () => {
  const events = lines(
    { type: 'message_start', message: { id: 'm1', type: 'message', role: 'assistant', content: [], model: 'c' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } },
    { type: 'message_stop' },
  );

  it('stream events kept as JSON lines are the sse format, not unknown Responses items', () => {
    expect(inputError(() => read('ev.jsonl', events)).headline).toBe(
      "ev.jsonl:1:1: 3 Anthropic Messages stream events as JSON values: signs of sse, which expects the stream's " +
        'raw text (event: / data: lines, as a proxy or a test fixture keeps it); no format takes it ' +
        '(openai-responses only by 3 messages have keys or part types only OpenAI Responses uses: ' +
        '--format openai-responses reads it so)',
    );
    // Forced, a format reads what it is given (and says what it does not understand).
    expect(
      inputError(() => readTranscriptDocument(parseText('ev.jsonl', events), { format: 'openai-responses' })).message,
    ).toMatch(/^unknown Responses item type "message_start"/);
  });

  it('no reader at all: the nearest family and what it expects are named', () => {
    expect(inputError(() => read('g.json', j({ contents: 'nope' }))).message).toBe(
      'no known recording shape fits (found an object with "contents"); closest: gemini (a request body whose ' +
        '"contents" is a string), which expects "contents" to be a list of {role, parts}; tried ' +
        `${READERS.map((r) => r.format).join(', ')} (see simulate --help, or force one with --format)`,
    );
  });

  it("Gemini contents with a key of their own are Gemini's to refuse, not the AI SDK's (untyped parts)", () => {
    const text = j([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ functionCall: { name: 'x', args: {} } }], bogus: 1 },
    ]);
    expect(inputError(() => read('g.json', text)).message).toMatch(/^unknown key "bogus" in a Gemini content/);
  });
});
