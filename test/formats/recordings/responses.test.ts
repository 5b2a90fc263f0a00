/**
 * OpenAI Responses, complete (issue 28, point 2): functions inside `namespace` tools, hosted and
 * built-in tool calls reported per model call, client-executed tool search. The fixtures in
 * fixtures/recordings/responses/ are the `openai` client's own requests against a local server
 * playing the API (test/tools/recordings/gen-responses.mjs).
 */
import { describe, expect, it } from 'vitest';
import type { ContentBlock, Message } from '../../../src/core/types.js';
import { readFileSync } from 'node:fs';
import { loadCatalogText, loadRecordingText } from '../../../src/formats/from-text.js';
import { sentToolsOf } from '../../../src/formats/recordings/sent.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { parseText } from '../../../src/io/parse.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';
import { run } from '../../cli/helpers.js';
import { RECORDINGS } from './helpers.js';

const dir = `${RECORDINGS}responses/`;
const fn = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'function', name, ...extra });
const blocksOf = (m: Message | undefined): readonly ContentBlock[] => (m?.kind === 'blocks' ? m.blocks : []);

describe('namespace tools', () => {
  const tools = [
    fn('get_time'),
    {
      type: 'namespace',
      name: 'crm',
      description: 'CRM',
      tools: [fn('search', { defer_loading: true }), fn('get_order', { defer_loading: true })],
    },
    { type: 'namespace', name: 'billing', description: 'Billing', tools: [fn('search', { defer_loading: true })] },
    // A deferred top-level function comes back from the API with its own name as namespace.
    { type: 'namespace', name: 'think', description: 'x', tools: [fn('think', { defer_loading: true })] },
    { type: 'tool_search' },
  ];

  it('are functions named <namespace>.<name>, two namespaces may share a name (no "duplicate tool name")', () => {
    const want = [
      ['get_time', true],
      ['crm.search', false],
      ['crm.get_order', false],
      ['billing.search', false],
      ['think', false],
    ];
    // A catalog (the tools list alone) and a request body that carries it.
    expect(loadCatalogText(tools).tools.map((x) => [x.name, x.static])).toEqual(want);
    expect(loadRecordingText({ model: 'm', input: 'hi', tools }).tools?.map((x) => [x.name, x.static])).toEqual(want);
    expect(sentToolsOf(parseText('t.json', JSON.stringify(tools)).root as never)).toEqual({
      visible: ['get_time'],
      deferred: ['crm.search', 'crm.get_order', 'billing.search', 'think'],
    });
  });

  it('a namespace marked defer_loading defers its functions (as the tool search guide allows)', () => {
    const t = loadRecordingText({
      model: 'm',
      input: 'hi',
      tools: [fn('get_time'), { type: 'namespace', name: 'crm', defer_loading: true, tools: [fn('search')] }],
    });
    expect(t.tools?.map((x) => [x.name, x.static])).toEqual([
      ['get_time', true],
      ['crm.search', false],
    ]);
  });

  it('a call names its namespace beside its name; a tool_search_output loads a namespace as its functions', () => {
    const t = loadRecordingText([
      { role: 'user', content: 'hi' },
      { type: 'function_call', call_id: 'c1', namespace: 'crm', name: 'search', arguments: '{}' },
      { type: 'custom_tool_call', call_id: 'c2', namespace: 'think', name: 'think', input: 'x' },
      { type: 'function_call_output', call_id: 'c1', output: 'found' },
      { type: 'custom_tool_call_output', call_id: 'c2', output: 'ok' },
      {
        type: 'tool_search_output',
        call_id: null,
        execution: 'server',
        tools: [{ type: 'namespace', name: 'billing', tools: [fn('search'), fn('refund')] }, fn('get_time')],
      },
    ]);
    expect(blocksOf(t.messages[1])).toEqual([
      { type: 'function_tool_call', callId: 'c1', name: 'crm.search', arguments: '{}' },
      { type: 'function_tool_call', callId: 'c2', name: 'think', arguments: 'x' },
    ]);
    expect(blocksOf(t.messages[2])[0]).toMatchObject({ type: 'function_tool_result', name: 'crm.search' });
    expect(blocksOf(t.messages[4])).toEqual([
      { type: 'server_tool_search_result', callId: '', tools: ['billing.search', 'billing.refund', 'get_time'] },
    ]);
  });

  it('the CLI replays a request body of namespaces, with and without -c, with and without --lenient', async () => {
    const file = `${dir}namespaces.request.json`;
    for (const argv of [[file], [file, '-c', file], [file, '--lenient'], [file, '-c', file, '--lenient']]) {
      const r = await run(['simulate', '--no-tokens', '--mode', 'native', '--json', ...argv]);
      expect(r.stderr, argv.join(' ')).toBe('');
      expect(r.code, argv.join(' ')).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.turns[1].tool_calls).toEqual([
        { id: 'call_r_1', name: 'billing.refund', arguments: '{"order_id":"1042","amount_cents":4999}', status: 'ok' },
      ]);
    }
  });
});

describe('hosted and built-in tool calls', () => {
  const item = (type: string, extra: Record<string, unknown>) => ({ type, id: `${type}_1`, ...extra });
  const ITEMS: ReadonlyArray<
    readonly [Record<string, unknown>, Partial<Extract<ContentBlock, { type: 'provider_tool_call' }>>]
  > = [
    [
      item('mcp_call', {
        server_label: 'deepwiki',
        name: 'ask',
        arguments: '{"q":1}',
        output: 'x',
        status: 'completed',
      }),
      { kind: 'mcp_call', name: 'ask', server: 'deepwiki', arguments: '{"q":1}', executedBy: 'provider' },
    ],
    [
      item('mcp_list_tools', { server_label: 'deepwiki', tools: [] }),
      { kind: 'mcp_list_tools', name: '', server: 'deepwiki', arguments: '', executedBy: 'provider' },
    ],
    [
      item('mcp_approval_request', { server_label: 'gh', name: 'merge', arguments: '{}' }),
      { kind: 'mcp_approval_request', name: 'merge', server: 'gh', arguments: '{}', executedBy: 'provider' },
    ],
    [
      item('web_search_call', { status: 'completed', action: { type: 'search', query: 'q' } }),
      { kind: 'web_search_call', arguments: '{"type":"search","query":"q"}', executedBy: 'provider' },
    ],
    [
      item('file_search_call', { status: 'completed', queries: ['a', 'b'], results: null }),
      { kind: 'file_search_call', arguments: '{"queries":["a","b"]}', executedBy: 'provider' },
    ],
    [
      item('code_interpreter_call', { status: 'completed', code: 'print(1)', container_id: 'c', outputs: null }),
      { kind: 'code_interpreter_call', arguments: 'print(1)', executedBy: 'provider' },
    ],
    [
      item('image_generation_call', { status: 'completed', result: 'aGk=' }),
      { kind: 'image_generation_call', arguments: '', executedBy: 'provider' },
    ],
    [
      item('program', { call_id: 'p1', code: 'await crm.search()', fingerprint: 'f' }),
      { callId: 'p1', kind: 'program', arguments: 'await crm.search()', executedBy: 'provider' },
    ],
    [
      item('computer_call', { call_id: 'cc1', action: { type: 'click', x: 1, y: 2 }, pending_safety_checks: [] }),
      { callId: 'cc1', kind: 'computer_call', arguments: '{"type":"click","x":1,"y":2}', executedBy: 'client' },
    ],
    [
      item('local_shell_call', { call_id: 'ls1', status: 'completed', action: { type: 'exec', command: ['ls'] } }),
      { callId: 'ls1', kind: 'local_shell_call', executedBy: 'client' },
    ],
    [
      item('shell_call', { call_id: 'sh1', action: { commands: ['ls'] }, environment: { type: 'local' } }),
      { callId: 'sh1', kind: 'shell_call', executedBy: 'client' },
    ],
    [
      item('shell_call', {
        call_id: 'sh2',
        action: { commands: ['ls'] },
        environment: { type: 'container_reference' },
      }),
      { callId: 'sh2', kind: 'shell_call', executedBy: 'provider' },
    ],
    [
      item('apply_patch_call', { call_id: 'ap1', status: 'completed', operation: { type: 'delete_file', path: 'a' } }),
      { callId: 'ap1', kind: 'apply_patch_call', arguments: '{"type":"delete_file","path":"a"}', executedBy: 'client' },
    ],
  ];

  it.each(ITEMS)('%o is a provider_tool_call block of the response', (it, want) => {
    const t = loadRecordingText([{ role: 'user', content: 'hi' }, it, { role: 'user', content: 'ok' }]);
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(blocksOf(t.messages[1])).toEqual([
      expect.objectContaining({ type: 'provider_tool_call', callId: String(it.id), name: '', server: '', ...want }),
    ]);
    expect(t.coverage).toMatchObject({ provider_calls: 1, unexplained: [] });
  });

  it("configuration_update and additional_tools are the developer's input, a message of their own", () => {
    const t = loadRecordingText({
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'hi' },
        { type: 'configuration_update', id: 'cu_1', reasoning: { effort: 'low' } },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }] },
        { type: 'additional_tools', id: 'at_1', role: 'developer', tools: [] },
        { role: 'user', content: 'more' },
      ],
    });
    expect(t.format).toBe('openai-responses');
    expect(
      t.messages.map((m) => [m.role, blocksOf(m).map((b) => (b.type === 'other' ? b.description : b.type))]),
    ).toEqual([
      ['user', ['text']],
      ['system', ['configuration_update']],
      ['assistant', ['text']],
      ['system', ['additional_tools']],
      ['user', ['text']],
    ]);
    expect(t.coverage?.unexplained).toEqual([]);
  });

  it('the report lists them per model call, counts them, never checks them against the tools offered', () => {
    const t = loadTranscriptFile(`${dir}hosted-calls.response.json`);
    const r = simulate({ transcript: t, catalog: null, mode: 'native', replay: false });
    expect(r.turns[0]!.provider_calls).toEqual([
      {
        id: 'mcpl_01',
        type: 'mcp_list_tools',
        name: null,
        server: 'deepwiki',
        arguments: '',
        executed_by: 'provider',
      },
      {
        id: 'mcp_01',
        type: 'mcp_call',
        name: 'ask_question',
        server: 'deepwiki',
        arguments: '{"repoName":"acme/handbook","question":"What is the refund policy?"}',
        executed_by: 'provider',
      },
      {
        id: 'ws_01',
        type: 'web_search_call',
        name: null,
        server: null,
        arguments: '{"type":"search","query":"Acme refund policy consumer law 30 days"}',
        executed_by: 'provider',
      },
    ]);
    expect(r.summary.provider_calls).toBe(3);
    expect(r.coverage?.provider_calls).toBe(3);
    expect(r.violations.filter((v) => v.kind !== 'sent-differs')).toEqual([]);
  });

  it('Anthropic server_tool_use (not a search) and mcp_tool_use are provider calls too', () => {
    const t = loadRecordingText([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: { query: 'q' } },
          { type: 'web_search_tool_result', tool_use_id: 'srv_1', content: [] },
          { type: 'mcp_tool_use', id: 'mcp_1', name: 'ask', server_name: 'wiki', input: { q: 1 } },
          { type: 'mcp_tool_result', tool_use_id: 'mcp_1', is_error: false, content: [] },
          { type: 'text', text: 'done' },
        ],
      },
    ]);
    expect(t.format).toBe('anthropic');
    expect(blocksOf(t.messages[1]).filter((b) => b.type === 'provider_tool_call')).toEqual([
      {
        type: 'provider_tool_call',
        callId: 'srv_1',
        kind: 'server_tool_use',
        name: 'web_search',
        server: '',
        arguments: '{"query":"q"}',
        executedBy: 'provider',
      },
      {
        type: 'provider_tool_call',
        callId: 'mcp_1',
        kind: 'mcp_tool_use',
        name: 'ask',
        server: 'wiki',
        arguments: '{"q":1}',
        executedBy: 'provider',
      },
    ]);
  });

  it('text, JSON and HTML list them; with no catalog tool carried, the error names the file', async () => {
    const file = `${dir}hosted-calls.response.json`;
    const [text, json, html] = await Promise.all([
      run(['simulate', '--no-tokens', '--mode', 'native', file]),
      run(['simulate', '--no-tokens', '--mode', 'native', file, '--json']),
      run(['simulate', '--no-tokens', '--mode', 'native', file, '--html', '-']),
    ]);
    expect(text.stdout).toContain(
      '  ⚙ deepwiki (mcp_list_tools, run by the provider)\n' +
        '  ⚙ deepwiki.ask_question (mcp_call, run by the provider) {"repoName":"acme/handbook","question":"…\n' +
        '  ⚙ (web_search_call, run by the provider) {"type":"search","query":"Acme refund policy consumer l…\n',
    );
    expect(text.stdout).toContain("3 calls of the provider's own tools (listed at their\n  model calls)");
    expect(text.stdout).toContain('· 3 provider tool calls');
    expect(JSON.parse(json.stdout).turns[0].provider_calls).toHaveLength(3);
    expect(html.stdout).toContain('<span class="name">deepwiki.ask_question</span> mcp_call, run by the provider');
    const hostedOnly = { ...JSON.parse(readFileSync(file, 'utf8')), tools: [{ type: 'web_search' }] };
    const r = await run(['simulate', '--no-tokens', '-', '--jsonl-input', 'recording'], {
      input: JSON.stringify(hostedOnly),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: <stdin>: tools is required: the recording carries no dynamic tool (no catalog tool at all: ' +
        "the provider's " +
        'own tools, such as MCP servers and web search, are not): pass -c/--catalog\n',
    );
  });
});

describe('tool search executed by the client', () => {
  it('is a client search, pending until its tool_search_output arrives, then loading from the next call', () => {
    const t = loadTranscriptFile(`${dir}namespaces.call-log.jsonl`);
    const r = simulate({ transcript: t, catalog: null, mode: 'native', replay: false });
    expect(r.turns.map((x) => x.server_searches)).toEqual([
      [
        {
          call_id: 'call_ts_1',
          query: '{"paths":["billing"]}',
          loaded: ['billing.search', 'billing.refund'],
          execution: 'client',
          pending: false,
        },
      ],
      [],
      [{ call_id: 'call_ts_2', query: '{"paths":["crm"]}', loaded: [], execution: 'client', pending: true }],
    ]);
    // billing.refund was loaded by the client's search before call 2: allowed.
    expect(r.turns[1]!.tool_calls.map((c) => [c.name, c.status])).toEqual([['billing.refund', 'ok']]);
    expect(r.violations).toEqual([]);
    expect(r.summary).toMatchObject({ calls: 3, server_searches: 2, provider_calls: 3, tools_loaded: 2 });
  });

  it('a server search stays one: its output is in the response; an unknown execution is not understood', () => {
    const t = loadRecordingText([
      { role: 'user', content: 'hi' },
      { type: 'tool_search_call', id: 'ts1', call_id: null, execution: 'server', arguments: { query: 'q' } },
      { type: 'tool_search_output', id: 'to1', call_id: null, execution: 'server', tools: [fn('a')] },
    ]);
    expect(blocksOf(t.messages[1])).toEqual([
      { type: 'server_tool_search', callId: 'ts1', query: 'q' },
      { type: 'server_tool_search_result', callId: 'to1', tools: ['a'] },
    ]);
    const odd = loadRecordingText(
      [
        { role: 'user', content: 'hi' },
        { type: 'tool_search_call', call_id: 'x', execution: 'moon', arguments: {} },
      ],
      { lenient: true },
    );
    expect(odd.coverage?.unexplained.map((u) => u.message)).toEqual([
      'unknown tool search execution "moon" (expected server, client)',
    ]);
  });
});
