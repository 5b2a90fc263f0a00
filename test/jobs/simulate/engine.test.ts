import { describe, expect, it } from 'vitest';
import { encodeMatches, runToolSearch, ToolIndex } from '../../../src/core/index.js';
import type { ChatMessage, Message } from '../../../src/core/types.js';
import { InputError } from '../../../src/io/errors.js';
import type { Catalog, CatalogTool, Transcript } from '../../../src/formats/types.js';
import { modelCalls, simulate } from '../../../src/jobs/simulate/engine.js';

const loc = { file: 'catalog.yaml', line: 1, column: 1 };
const tool = (name: string, description: string, isStatic = false): CatalogTool => ({
  name,
  description,
  static: isStatic,
  source: loc,
});
const catalogTools = [
  tool('get_time', 'Current time', true),
  tool('mcp__slack__send_message', 'Send a message to a Slack channel'),
  tool('mcp__slack__list_channels', 'List Slack channels'),
  tool('mcp__github__create_issue', 'Create a GitHub issue'),
];
const catalog: Catalog = { tools: catalogTools, sources: [{ file: 'catalog.yaml', format: 'toolsearch' }] };
const dynamicIndex = new ToolIndex(catalogTools.filter((t) => !t.static));

const user = (content: string): ChatMessage => ({ kind: 'chat', role: 'user', content });
const sys = (content: string): ChatMessage => ({ kind: 'chat', role: 'system', content });
const call = (id: string, name: string, args: unknown): ChatMessage => ({
  kind: 'chat',
  role: 'assistant',
  content: '',
  toolCalls: [{ id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }],
});
const say = (content: string): ChatMessage => ({ kind: 'chat', role: 'assistant', content });
const result = (id: string, name: string, content: string): ChatMessage => ({
  kind: 'chat',
  role: 'tool',
  content,
  toolCallId: id,
  toolName: name,
});
/** A tool_search result exactly as the reference computes it now. */
const searched = (id: string, query: string, index: ToolIndex = dynamicIndex): ChatMessage => {
  const r = runToolSearch(index, JSON.stringify({ query }));
  if (!r.ok) throw new Error(r.error);
  return result(id, 'tool_search', encodeMatches(r.matches));
};
const transcript = (messages: Message[], tools: CatalogTool[] | null = null): Transcript => ({
  file: 't.json',
  format: 'eino',
  messages,
  locations: messages.map((_, i) => ({ file: 't.json', line: i + 1, column: 1 })),
  tools,
  warnings: [],
});

describe('modelCalls', () => {
  it('call k happens before the k-th assistant message; one more call after a trailing non-assistant message', () => {
    const ms: Message[] = [sys('s'), user('u'), say('a1'), user('u2'), say('a2'), user('u3')];
    expect(modelCalls(ms).map((c) => [c.newMessages.length, c.assistantIndex])).toEqual([
      [2, 2],
      [2, 4],
      [2, null],
    ]);
    expect(modelCalls([]).map((c) => c.assistantIndex)).toEqual([null]);
    expect(modelCalls([user('u'), say('a')]).length).toBe(1);
  });
});

describe('simulate', () => {
  const story: Message[] = [
    sys('You are helpful.'),
    user('Tell #eng the deploy is done'),
    call('c1', 'tool_search', { query: 'send message slack' }),
    searched('c1', 'send message slack'),
    call('c2', 'mcp__slack__send_message', { channel: 'eng', text: 'done' }),
    result('c2', 'mcp__slack__send_message', 'ok'),
    say('Done: posted in #eng.'),
  ];

  it('reports every model call: visible, added, reminder, calls and searches', () => {
    const r = simulate({ transcript: transcript(story), catalog, mode: 'default', replay: false });
    expect(
      r.turns.map((t) => [t.call, t.message_index, t.visible, t.added, t.reminder_index, t.message_count]),
    ).toEqual([
      [1, 2, ['get_time', 'tool_search'], [], 1, 3],
      [
        2,
        4,
        ['get_time', 'tool_search', 'mcp__slack__send_message', 'mcp__slack__list_channels'],
        ['mcp__slack__send_message', 'mcp__slack__list_channels'],
        1,
        5,
      ],
      [3, 6, ['get_time', 'tool_search', 'mcp__slack__send_message', 'mcp__slack__list_channels'], [], 1, 7],
    ]);
    expect(r.turns[0]!.searches).toEqual([
      {
        call_id: 'c1',
        arguments: '{"query":"send message slack"}',
        mode: 'keyword',
        recorded: { matches: ['mcp__slack__send_message', 'mcp__slack__list_channels'] },
        recorded_text: '{"matches":["mcp__slack__send_message","mcp__slack__list_channels"]}',
        replayed: { matches: ['mcp__slack__send_message', 'mcp__slack__list_channels'] },
        differs: false,
        client_proxied: false,
      },
    ]);
    expect(r.turns[1]!.tool_calls).toEqual([
      { id: 'c2', name: 'mcp__slack__send_message', arguments: '{"channel":"eng","text":"done"}', status: 'ok' },
    ]);
    expect(r.turns[2]!.assistant_text).toBe('Done: posted in #eng.');
    expect(r.turns[0]!.hidden_count).toBe(3);
    expect(r.turns[1]!.hidden_count).toBe(1);
    expect(r.violations).toEqual([]);
    expect(r.summary).toEqual({
      calls: 3,
      searches: 1,
      server_searches: 0,
      provider_calls: 0,
      tools_loaded: 2,
      errors: 0,
      warnings: 0,
      replay_differences: 0,
    });
    expect(r.catalog).toEqual({ dynamic: 3, static: 1, source: 'catalog.yaml' });
    expect(r.transcript).toEqual({ file: 't.json', format: 'eino', messages: 7, reminder_recognised_by_text: null });
    expect(r.replay).toBeNull();
  });

  it('flags a deferred tool called too early, an unknown tool, and a redundant select', () => {
    const ms: Message[] = [
      user('go'),
      call('c1', 'mcp__github__create_issue', { title: 'x' }),
      result('c1', 'mcp__github__create_issue', 'error: tool not found'),
      call('c2', 'tool_search', { query: 'slack' }),
      searched('c2', 'slack'),
      call('c3', 'tool_search', { query: 'select:mcp__slack__send_message' }),
      searched('c3', 'select:mcp__slack__send_message'),
      call('c4', 'delete_everything', {}),
      result('c4', 'delete_everything', 'no such tool'),
    ];
    const r = simulate({ transcript: transcript(ms), catalog, mode: 'default', replay: false });
    expect(r.violations).toEqual([
      {
        call: 1,
        tool: 'mcp__github__create_issue',
        kind: 'not-loaded',
        severity: 'error',
        message: 'mcp__github__create_issue was called before any tool_search result named it (not visible at call 1)',
      },
      {
        call: 3,
        tool: 'mcp__slack__send_message',
        kind: 'redundant-select',
        severity: 'warning',
        message: 'select: for mcp__slack__send_message, which an earlier keyword search already returned',
      },
      {
        call: 4,
        tool: 'delete_everything',
        kind: 'unknown',
        severity: 'error',
        message: 'delete_everything exists nowhere: not a static tool, not a dynamic tool, not tool_search',
      },
    ]);
    expect(r.turns.map((t) => t.tool_calls.map((c) => c.status))).toEqual([
      ['not-loaded'],
      ['ok'],
      ['ok'],
      ['unknown'],
      [],
    ]);
    expect(r.summary.errors).toBe(2);
    expect(r.summary.warnings).toBe(1);
  });

  it('replay: reports differing searches and how visibility would change', () => {
    // Recorded against an older catalog where the search returned list_channels only.
    const stale: Message[] = [
      user('go'),
      call('c1', 'tool_search', { query: 'slack' }),
      result('c1', 'tool_search', '{"matches":["mcp__slack__list_channels"]}'),
      say('ok'),
    ];
    const r = simulate({ transcript: transcript(stale), catalog, mode: 'default', replay: true });
    expect(r.turns[0]!.searches[0]!.differs).toBe(true);
    expect(r.turns[0]!.searches[0]!.replayed).toEqual({
      matches: ['mcp__slack__list_channels', 'mcp__slack__send_message'],
    });
    expect(r.replay).toEqual({
      differences: 1,
      visibility: [{ call: 2, gained: ['mcp__slack__send_message'], lost: [] }],
    });
    expect(r.summary.replay_differences).toBe(1);
  });

  it('model-native mode without static tools warns about the refill pitfall', () => {
    const cat: Catalog = { tools: catalogTools.filter((t) => !t.static), sources: catalog.sources };
    const r = simulate({
      transcript: transcript([user('u'), say('a'), user('u2')]),
      catalog: cat,
      mode: 'native',
      replay: false,
    });
    expect(r.turns.map((t) => [t.visible.length, t.deferred.length, t.refilled])).toEqual([
      [0, 3, true],
      [4, 3, true],
    ]);
    expect(r.violations.map((v) => [v.call, v.kind, v.severity])).toEqual([[2, 'native-refill', 'warning']]);
  });

  it('model-native mode: a deferred tool is ok once a server-side search loaded it', () => {
    const msgs: Message[] = [
      user('post it'),
      {
        kind: 'blocks',
        role: 'assistant',
        blocks: [
          { type: 'server_tool_search', callId: 's1', query: 'slack' },
          { type: 'server_tool_search_result', callId: 's1', tools: ['mcp__slack__send_message'] },
          { type: 'function_tool_call', callId: 'c1', name: 'mcp__slack__send_message', arguments: '{}' },
          { type: 'function_tool_call', callId: 'c2', name: 'mcp__github__create_issue', arguments: '{}' },
        ],
      },
    ];
    const r = simulate({ transcript: transcript(msgs), catalog, mode: 'native', replay: false });
    expect(r.turns[0]!.server_searches).toEqual([
      { call_id: 's1', query: 'slack', loaded: ['mcp__slack__send_message'], execution: 'server', pending: false },
    ]);
    expect(r.turns[0]!.tool_calls.map((c) => c.status)).toEqual(['ok', 'not-loaded']);
    expect(r.turns[0]!.visible).toEqual(['get_time']);
    expect(r.summary.server_searches).toBe(1);
  });

  it(
    'model-native mode: a tool called in the same message as the ' +
      'client-proxied tool_search that finds it is not loaded yet',
    () => {
      // The model wrote both calls before the search result existed: like default mode, only the next call may use it.
      const msgs: Message[] = [
        user('post it'),
        {
          kind: 'chat',
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'c1', name: 'tool_search', arguments: '{"query":"slack send"}' },
            { id: 'c2', name: 'mcp__slack__send_message', arguments: '{}' },
          ],
        },
        searched('c1', 'slack send'),
        result('c2', 'mcp__slack__send_message', 'error: not loaded'),
        call('c3', 'mcp__slack__send_message', {}),
      ];
      const native = simulate({ transcript: transcript(msgs), catalog, mode: 'native', replay: false });
      const dflt = simulate({ transcript: transcript(msgs), catalog, mode: 'default', replay: false });
      for (const r of [native, dflt]) {
        expect(r.turns.map((t) => t.tool_calls.map((c) => [c.name, c.status]))).toEqual([
          [
            ['tool_search', 'ok'],
            ['mcp__slack__send_message', 'not-loaded'],
          ],
          [['mcp__slack__send_message', 'ok']],
        ]);
        expect(r.violations.map((v) => [v.call, v.kind, v.tool])).toEqual([
          [1, 'not-loaded', 'mcp__slack__send_message'],
        ]);
      }
      expect(native.violations[0]!.message).toBe(
        'mcp__slack__send_message is deferred and no search had loaded it before call 1',
      );
      expect(native.summary.tools_loaded).toBe(2);
    },
  );

  it('model-native mode: a server-side result inside the response counts for the calls after it, not before it', () => {
    const msgs: Message[] = [
      user('post it'),
      {
        kind: 'blocks',
        role: 'assistant',
        blocks: [
          { type: 'function_tool_call', callId: 'c0', name: 'mcp__slack__send_message', arguments: '{}' },
          { type: 'server_tool_search', callId: 's1', query: 'slack' },
          { type: 'server_tool_search_result', callId: 's1', tools: ['mcp__slack__send_message'] },
          { type: 'function_tool_call', callId: 'c1', name: 'mcp__slack__send_message', arguments: '{}' },
        ],
      },
    ];
    const r = simulate({ transcript: transcript(msgs), catalog, mode: 'native', replay: false });
    expect(r.turns[0]!.tool_calls.map((c) => [c.id, c.status])).toEqual([
      ['c0', 'not-loaded'],
      ['c1', 'ok'],
    ]);
    expect(r.violations.map((v) => [v.call, v.kind, v.tool])).toEqual([[1, 'not-loaded', 'mcp__slack__send_message']]);
  });

  it(
    'model-native mode: a search the client executes (its result in a later message) counts from the next ' + 'call',
    () => {
      // A Responses tool_search_call with execution "client": the output is client input of the next request.
      const msgs: Message[] = [
        user('post it'),
        {
          kind: 'blocks',
          role: 'assistant',
          blocks: [
            { type: 'server_tool_search', callId: 'c1', query: 'slack', execution: 'client' },
            { type: 'function_tool_call', callId: 'c2', name: 'mcp__slack__send_message', arguments: '{}' },
          ],
        },
        {
          kind: 'blocks',
          role: 'user',
          blocks: [{ type: 'server_tool_search_result', callId: 'c1', tools: ['mcp__slack__send_message'] }],
        },
        {
          kind: 'blocks',
          role: 'assistant',
          blocks: [{ type: 'function_tool_call', callId: 'c3', name: 'mcp__slack__send_message', arguments: '{}' }],
        },
      ];
      const r = simulate({ transcript: transcript(msgs), catalog, mode: 'native', replay: false });
      expect(r.turns[0]!.server_searches).toEqual([
        { call_id: 'c1', query: 'slack', loaded: ['mcp__slack__send_message'], execution: 'client', pending: false },
      ]);
      expect(r.turns.map((t) => t.tool_calls.map((c) => c.status))).toEqual([['not-loaded'], ['ok']]);
      // Before the client's output arrives, the search is pending: it has loaded nothing.
      const pending = simulate({ transcript: transcript(msgs.slice(0, 2)), catalog, mode: 'native', replay: false });
      expect(pending.turns[0]!.server_searches).toEqual([
        { call_id: 'c1', query: 'slack', loaded: [], execution: 'client', pending: true },
      ]);
      expect(pending.summary.tools_loaded).toBe(0);
    },
  );

  it('client-proxied tool_search calls are marked as such in model-native mode only', () => {
    const msgs: Message[] = [
      user('u'),
      call('c1', 'tool_search', { query: 'slack' }),
      searched('c1', 'slack'),
      say('done'),
    ];
    const native = simulate({ transcript: transcript(msgs), catalog, mode: 'native', replay: false });
    const dflt = simulate({ transcript: transcript(msgs), catalog, mode: 'default', replay: false });
    expect(native.turns[0]!.searches.map((x) => x.client_proxied)).toEqual([true]);
    expect(dflt.turns[0]!.searches.map((x) => x.client_proxied)).toEqual([false]);
    // An undecodable recorded result keeps its {error: raw text} shape.
    const bad: Message[] = [
      user('u'),
      call('c1', 'tool_search', { query: 'slack' }),
      result('c1', 'tool_search', '{"matches":["mcp__sl'),
      say('done'),
    ];
    const r = simulate({ transcript: transcript(bad), catalog, mode: 'native', replay: false });
    expect(r.turns[0]!.searches[0]!.recorded).toEqual({ error: '{"matches":["mcp__sl' });
  });

  it('tool results for unknown call ids are warnings at the call that receives them, located at the message', () => {
    const msgs: Message[] = [
      user('u'),
      result('ghost', 'mcp__slack__send_message', 'stray'),
      call('c1', 'get_time', {}),
      result('c1', 'get_time', '12:00'),
      { kind: 'chat', role: 'tool', content: 'x', toolCallId: '' },
      say('done'),
      {
        kind: 'blocks',
        role: 'user',
        blocks: [
          { type: 'function_tool_call', callId: 'c9', name: 'get_time', arguments: '{}' },
          { type: 'function_tool_result', callId: 'c9', name: 'get_time', content: [] },
          { type: 'function_tool_result', callId: 'c404', name: '', content: [] },
        ],
      },
    ];
    const r = simulate({ transcript: transcript(msgs), catalog, mode: 'default', replay: false });
    expect(r.violations).toEqual([
      {
        call: 1,
        tool: 'mcp__slack__send_message',
        kind: 'unknown-call-id',
        severity: 'warning',
        message: 'tool result for unknown call id "ghost" at t.json:2:1: no earlier tool call has this id',
        message_index: 1,
        location: { file: 't.json', line: 2, column: 1 },
      },
      {
        call: 2,
        tool: null,
        kind: 'unknown-call-id',
        severity: 'warning',
        message: 'tool result for unknown call id "" at t.json:5:1: no earlier tool call has this id',
        message_index: 4,
        location: { file: 't.json', line: 5, column: 1 },
      },
      {
        call: 3,
        tool: null,
        kind: 'unknown-call-id',
        severity: 'warning',
        message: 'tool result for unknown call id "c404" at t.json:7:1: no earlier tool call has this id',
        message_index: 6,
        location: { file: 't.json', line: 7, column: 1 },
      },
    ]);
    expect(r.summary).toMatchObject({ errors: 0, warnings: 3 });
  });

  it('says when the reminder was recognised by its text (provider formats only)', () => {
    const reminder: ChatMessage = {
      kind: 'chat',
      role: 'user',
      content: '<available-deferred-tools>\nmcp__slack__send_message\n</available-deferred-tools>',
      extra: { __toolsearch_reminder__: true },
    };
    const msgs: Message[] = [sys('s'), reminder, user('u'), say('a')];
    const openai = simulate({
      transcript: { ...transcript(msgs), format: 'openai' },
      catalog,
      mode: 'default',
      replay: false,
    });
    expect(openai.transcript.reminder_recognised_by_text).toBe(1);
    expect(openai.turns[0]!).toMatchObject({ reminder_index: 1, reminder_inserted: false });
    // Eino keeps extra: the marker is the reference's own.
    const eino = simulate({ transcript: transcript(msgs), catalog, mode: 'default', replay: false });
    expect(eino.transcript.reminder_recognised_by_text).toBeNull();
  });

  it('--static adds static tools; unknown names are an input error', () => {
    const r = simulate({
      transcript: transcript(story),
      catalog,
      mode: 'default',
      staticNames: ['mcp__github__create_issue'],
      replay: false,
    });
    expect(r.turns[0]!.visible).toEqual(['get_time', 'mcp__github__create_issue', 'tool_search']);
    expect(() =>
      simulate({ transcript: transcript(story), catalog, mode: 'default', staticNames: ['nope'], replay: false }),
    ).toThrow(new InputError('--static names a tool that is not in the catalog: "nope"'));
  });

  it('uses the tools a transcript carries, and needs some catalog', () => {
    const r = simulate({ transcript: transcript(story, catalogTools), catalog: null, mode: 'default', replay: false });
    expect(r.catalog.source).toBe('t.json (tools carried by the transcript)');
    expect(() => simulate({ transcript: transcript(story), catalog: null, mode: 'default', replay: false })).toThrow(
      /no catalog/,
    );
  });

  it('a catalog without dynamic tools fails like the reference', () => {
    const only: Catalog = { tools: [tool('x', '', true)], sources: catalog.sources };
    expect(() => simulate({ transcript: transcript(story), catalog: only, mode: 'default', replay: false })).toThrow(
      'tools is required',
    );
  });

  it('an unanswered search is reported with recorded null', () => {
    const r = simulate({
      transcript: transcript([user('u'), call('c1', 'tool_search', { query: '' })]),
      catalog,
      mode: 'default',
      replay: false,
    });
    expect(r.turns[0]!.searches[0]).toMatchObject({
      recorded: null,
      replayed: { error: 'query is required' },
      differs: false,
      mode: null,
    });
  });

  it('the report is plain JSON data', () => {
    const r = simulate({ transcript: transcript(story), catalog, mode: 'default', replay: true });
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });
});

describe('simulate() is a fold of per-call steps', () => {
  it('folding simulateCallStep over the calls by hand gives the same turns and findings', async () => {
    const { AgentRun } = await import('../../../src/core/run.js');
    const { createMiddleware } = await import('../../../src/core/middleware.js');
    const { simulateCallStep, simulationContext, initialState } = await import('../../../src/jobs/simulate/engine.js');
    const t = transcript([
      sys('s'),
      user('post to slack'),
      call('c0', 'mcp__github__create_issue', {}),
      result('c0', 'mcp__github__create_issue', 'no'),
      call('c1', 'tool_search', { query: 'slack' }),
      searched('c1', 'slack'),
      call('c2', 'tool_search', { query: 'select:mcp__slack__send_message' }),
      searched('c2', 'select:mcp__slack__send_message'),
      say('done'),
    ]);
    const options = { transcript: t, catalog, mode: 'default' as const, replay: false };
    const expected = simulate(options);
    const tools = {
      staticTools: catalogTools.filter((x) => x.static),
      dynamicTools: catalogTools.filter((x) => !x.static),
      source: 'x',
    };
    const ctx = simulationContext(options, tools);
    const run = new AgentRun(
      createMiddleware({ dynamicTools: tools.dynamicTools, mode: 'default' }),
      tools.staticTools,
    );
    const state = modelCalls(t.messages).reduce(
      (s, span) => simulateCallStep(ctx, s, { span, view: run.modelCall(span.newMessages) }),
      initialState(),
    );
    expect(state.turns).toEqual(expected.turns);
    expect(state.violations).toEqual(expected.violations);
    expect(state.violations.map((v) => v.kind)).toEqual(['not-loaded', 'redundant-select']);
  });
});
