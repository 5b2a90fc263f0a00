import { describe, expect, it } from 'vitest';
import {
  agentTools,
  beforeModelCall,
  createMiddleware,
  ensureReminder,
  forwardSelect,
  REMINDER_MARKER,
  reminderText,
  toolSearchResultText,
  type ModelCallState,
} from '../../src/core/middleware.js';
import { AgentRun } from '../../src/core/run.js';
import type { BlockMessage, ChatMessage, Message, ToolInfo } from '../../src/core/types.js';

const t = (name: string, description = ''): ToolInfo => ({ name, description });
const sys = (content: string): ChatMessage => ({ kind: 'chat', role: 'system', content });
const user = (content: string): ChatMessage => ({ kind: 'chat', role: 'user', content });
const assistant = (content: string, calls: Array<[string, string, string]> = []): ChatMessage => ({
  kind: 'chat',
  role: 'assistant',
  content,
  toolCalls: calls.map(([id, name, args]) => ({ id, name, arguments: args })),
});
const searchResult = (content: string, id = 'c'): ChatMessage => ({
  kind: 'chat',
  role: 'tool',
  content,
  toolCallId: id,
  toolName: 'tool_search',
});
const names = (tools: readonly ToolInfo[] | null) => (tools === null ? null : tools.map((x) => x.name));

const dynA = t('dynamic_tool_a', 'Dynamic tool A');
const dynB = t('dynamic_tool_b', 'Dynamic tool B');
const dynC = t('dynamic_tool_c', 'Dynamic tool C');
const stat = t('static_tool', 'Static tool');
const mw = createMiddleware({ dynamicTools: [dynA, dynB, dynC] });
const native = createMiddleware({ dynamicTools: [dynA, dynB, dynC], mode: 'native' });
const fresh = (tools: ToolInfo[] | null, messages: Message[] = []): ModelCallState => ({
  messages,
  toolInfos: tools,
  deferredToolInfos: null,
});

describe('construction', () => {
  it('requires at least one dynamic tool', () => {
    expect(() => createMiddleware({ dynamicTools: [] })).toThrow('tools is required');
  });
  it('rejects duplicate names', () => {
    expect(() => createMiddleware({ dynamicTools: [dynA, t('x'), t('dynamic_tool_a')] })).toThrow(
      'duplicate dynamic tool name: dynamic_tool_a',
    );
  });
  it('builds the reminder text from the catalog order', () => {
    expect(mw.reminderText).toBe(
      '<available-deferred-tools>\ndynamic_tool_a\ndynamic_tool_b\ndynamic_tool_c\n</available-deferred-tools>',
    );
    expect(reminderText(['x'])).toBe('<available-deferred-tools>\nx\n</available-deferred-tools>');
  });
  it('before agent: static tools, tool_search, dynamic tools', () => {
    expect(names(agentTools(mw, [stat]))).toEqual([
      'static_tool',
      'tool_search',
      'dynamic_tool_a',
      'dynamic_tool_b',
      'dynamic_tool_c',
    ]);
  });
});

describe("reminder placement (the reference's TestInsertReminder cases)", () => {
  const roles = (ms: readonly Message[]) => ms.map((m) => (m.extra?.[REMINDER_MARKER] ? 'REMINDER' : m.role));
  it('system then user: right before the user message', () => {
    const r = ensureReminder(mw, [sys('s'), user('hi')]);
    expect(roles(r.messages)).toEqual(['system', 'REMINDER', 'user']);
    expect(r.insertedAt).toBe(1);
    expect((r.messages[1] as ChatMessage).content).toBe(mw.reminderText);
    expect(r.messages[1]!.role).toBe('user');
  });
  it('all system messages: at the end', () => {
    expect(roles(ensureReminder(mw, [sys('a'), sys('b')]).messages)).toEqual(['system', 'system', 'REMINDER']);
  });
  it('empty: the reminder alone', () => {
    expect(roles(ensureReminder(mw, []).messages)).toEqual(['REMINDER']);
  });
  it('no system message: first', () => {
    expect(roles(ensureReminder(mw, [user('hi'), assistant('hello')]).messages)).toEqual([
      'REMINDER',
      'user',
      'assistant',
    ]);
  });
  it('idempotent: a marked message anywhere prevents insertion', () => {
    const once = ensureReminder(mw, [sys('s'), user('hi')]).messages;
    const twice = ensureReminder(mw, once);
    expect(twice.insertedAt).toBeNull();
    expect(twice.messages).toBe(once);
  });
  it('the marker must be boolean true', () => {
    const fake: ChatMessage = { kind: 'chat', role: 'user', content: 'x', extra: { [REMINDER_MARKER]: 'true' } };
    expect(ensureReminder(mw, [fake]).insertedAt).toBe(0);
  });
  it('re-inserted after removal (e.g. by a summarizer)', () => {
    const once = ensureReminder(mw, [sys('s'), user('hi')]).messages;
    const summarized = once.filter((m) => !m.extra?.[REMINDER_MARKER]);
    expect(roles(ensureReminder(mw, summarized).messages)).toEqual(['system', 'REMINDER', 'user']);
  });
  it('a developer message is not a system message: the reminder goes before it', () => {
    const dev: BlockMessage = { kind: 'blocks', role: 'developer', blocks: [{ type: 'text', text: 'rules' }] };
    const s: BlockMessage = { kind: 'blocks', role: 'system', blocks: [{ type: 'text', text: 'sys' }] };
    expect(ensureReminder(mw, [s, dev]).insertedAt).toBe(1);
  });
  it('content-block messages get a content-block reminder', () => {
    const b: BlockMessage = { kind: 'blocks', role: 'user', blocks: [{ type: 'text', text: 'hi' }] };
    const r = ensureReminder(mw, [b]);
    expect(r.messages[0]).toEqual({
      kind: 'blocks',
      role: 'user',
      blocks: [{ type: 'text', text: mw.reminderText }],
      extra: { [REMINDER_MARKER]: true },
    });
  });
});

describe('first-call initialization', () => {
  it('default mode removes the dynamic tools', () => {
    const r = beforeModelCall(mw, fresh(agentTools(mw, [stat]), [user('q')]), { initialized: false });
    expect(names(r.state.toolInfos)).toEqual(['static_tool', 'tool_search']);
    expect(r.state.deferredToolInfos).toBeNull();
    expect(r.initializedNow).toBe(true);
    expect(r.runLocal).toEqual({ initialized: true });
  });
  it('native mode defers the dynamic tools and removes tool_search', () => {
    const r = beforeModelCall(native, fresh(agentTools(native, [stat]), [user('q')]), { initialized: false });
    expect(names(r.state.toolInfos)).toEqual(['static_tool']);
    expect(names(r.state.deferredToolInfos)).toEqual(['dynamic_tool_a', 'dynamic_tool_b', 'dynamic_tool_c']);
  });
  it('native mode with no static tools leaves a nil visible list', () => {
    const r = beforeModelCall(native, fresh(agentTools(native, []), []), { initialized: false });
    expect(r.state.toolInfos).toBeNull();
  });
  it('native mode with an empty tool list: both lists nil', () => {
    const r = beforeModelCall(native, fresh([], []), { initialized: false });
    expect(r.state.toolInfos).toBeNull();
    expect(r.state.deferredToolInfos).toBeNull();
  });
  it('deferred tools keep their order in the state, not the catalog order', () => {
    const r = beforeModelCall(native, fresh([dynC, stat, dynA]), { initialized: false });
    expect(names(r.state.deferredToolInfos)).toEqual(['dynamic_tool_c', 'dynamic_tool_a']);
  });
  it('runs once per run: a second call keeps the list as it is', () => {
    const first = beforeModelCall(mw, fresh(agentTools(mw, [stat]), [user('q')]), { initialized: false });
    const second = beforeModelCall(
      mw,
      { ...first.state, toolInfos: [...first.state.toolInfos!, dynB] },
      first.runLocal,
    );
    expect(second.initializedNow).toBe(false);
    expect(names(second.state.toolInfos)).toEqual(['static_tool', 'tool_search', 'dynamic_tool_b']);
  });
});

describe('forward selection', () => {
  const after = (messages: Message[], tools: ToolInfo[] | null = [stat, t('tool_search')]) =>
    names(beforeModelCall(mw, fresh(tools, messages), { initialized: true }).state.toolInfos);

  it('accumulates across several results, in order, without duplicates', () => {
    expect(
      after([
        user('q'),
        searchResult('{"matches":["dynamic_tool_b"]}'),
        searchResult('{"matches":["dynamic_tool_a","dynamic_tool_b"]}'),
      ]),
    ).toEqual(['static_tool', 'tool_search', 'dynamic_tool_b', 'dynamic_tool_a']);
  });
  it('skips malformed results silently', () => {
    expect(after([searchResult('not json'), searchResult('{"matches":["dynamic_tool_c"]}')])).toEqual([
      'static_tool',
      'tool_search',
      'dynamic_tool_c',
    ]);
  });
  it('ignores unknown names and results of other tools', () => {
    const other: ChatMessage = {
      kind: 'chat',
      role: 'tool',
      content: '{"matches":["dynamic_tool_a"]}',
      toolName: 'other_tool',
    };
    const userText: ChatMessage = user('{"matches":["dynamic_tool_b"]}');
    expect(after([other, userText, searchResult('{"matches":["nope","static_tool","dynamic_tool_c"]}')])).toEqual([
      'static_tool',
      'tool_search',
      'dynamic_tool_c',
    ]);
  });
  it('a name already visible is not added again', () => {
    expect(after([searchResult('{"matches":["dynamic_tool_a"]}')], [dynA])).toEqual(['dynamic_tool_a']);
  });
  it('does not run in native mode', () => {
    const r = beforeModelCall(native, fresh([stat], [searchResult('{"matches":["dynamic_tool_a"]}')]), {
      initialized: true,
    });
    expect(names(r.state.toolInfos)).toEqual(['static_tool']);
  });
  it('reads content-block results: first tool_search block with a text part, its first text part', () => {
    const msg: BlockMessage = {
      kind: 'blocks',
      role: 'user',
      blocks: [
        {
          type: 'function_tool_result',
          callId: '1',
          name: 'other',
          content: [{ type: 'text', text: '{"matches":["dynamic_tool_a"]}' }],
        },
        {
          type: 'function_tool_result',
          callId: '2',
          name: 'tool_search',
          content: [{ type: 'other', description: 'image' }],
        },
        {
          type: 'function_tool_result',
          callId: '3',
          name: 'tool_search',
          content: [
            { type: 'text', text: '{"matches":["dynamic_tool_b"]}' },
            { type: 'text', text: '{"matches":["dynamic_tool_c"]}' },
          ],
        },
        {
          type: 'function_tool_result',
          callId: '4',
          name: 'tool_search',
          content: [{ type: 'text', text: '{"matches":["dynamic_tool_a"]}' }],
        },
      ],
    };
    expect(toolSearchResultText(msg)).toBe('{"matches":["dynamic_tool_b"]}');
    expect(after([msg])).toEqual(['static_tool', 'tool_search', 'dynamic_tool_b']);
  });
  it("never mutates the caller's arrays", () => {
    const tools = [stat, t('tool_search')];
    const messages: Message[] = [user('q'), searchResult('{"matches":["dynamic_tool_a"]}')];
    const toolsCopy = [...tools];
    const messagesCopy = [...messages];
    const r = beforeModelCall(mw, { messages, toolInfos: tools, deferredToolInfos: null }, { initialized: false });
    expect(tools).toEqual(toolsCopy);
    expect(messages).toEqual(messagesCopy);
    expect(r.state.messages).not.toBe(messages);
    expect(forwardSelect(mw, messages, tools).added.map((x) => x.name)).toEqual(['dynamic_tool_a']);
    expect(tools).toEqual(toolsCopy);
  });
  it('tool names that are JavaScript object keys are ordinary names', () => {
    const protoMw = createMiddleware({ dynamicTools: [t('__proto__'), t('constructor'), t('toString')] });
    const r = beforeModelCall(
      protoMw,
      fresh([t('tool_search')], [searchResult('{"matches":["constructor","__proto__","hasOwnProperty"]}')]),
      {
        initialized: true,
      },
    );
    expect(names(r.state.toolInfos)).toEqual(['tool_search', 'constructor', '__proto__']);
  });
});

describe('AgentRun: the framework around the middleware', () => {
  it("the reference's TestMiddlewareFlow: select, call, answer", () => {
    const run = new AgentRun(mw, [stat]);
    const c1 = run.modelCall([user('test')]);
    const c2 = run.modelCall([
      assistant('', [['tc1', 'tool_search', '{"query":"select:dynamic_tool_a","max_results":5}']]),
      searchResult('{"matches":["dynamic_tool_a"]}', 'tc1'),
    ]);
    const c3 = run.modelCall([
      assistant('', [['tc2', 'dynamic_tool_a', '{"input":"hello"}']]),
      { kind: 'chat', role: 'tool', content: '{"result":"ok"}', toolCallId: 'tc2', toolName: 'dynamic_tool_a' },
    ]);
    expect(names(c1.visible)).toEqual(['static_tool', 'tool_search']);
    expect(names(c2.visible)).toEqual(['static_tool', 'tool_search', 'dynamic_tool_a']);
    expect(names(c2.added)).toEqual(['dynamic_tool_a']);
    expect(names(c3.visible)).toEqual(['static_tool', 'tool_search', 'dynamic_tool_a']);
    expect(names(c3.added)).toEqual([]);
    expect([c1.reminderIndex, c2.reminderIndex, c3.reminderIndex]).toEqual([0, 0, 0]);
    expect([c1.reminderInserted, c2.reminderInserted]).toEqual([true, false]);
    expect([c1.messageCount, c2.messageCount, c3.messageCount]).toEqual([2, 4, 6]);
  });

  it('model-native mode without static tools: call 1 offers nothing, then the refill brings everything back', () => {
    const run = new AgentRun(native, []);
    const c1 = run.modelCall([user('q')]);
    const c2 = run.modelCall([assistant('thinking')]);
    expect(names(c1.visible)).toEqual([]);
    expect(names(c1.deferred)).toEqual(['dynamic_tool_a', 'dynamic_tool_b', 'dynamic_tool_c']);
    expect(c2.refilled).toBe(true);
    expect(names(c2.visible)).toEqual(['tool_search', 'dynamic_tool_a', 'dynamic_tool_b', 'dynamic_tool_c']);
    expect(names(c2.deferred)).toEqual(['dynamic_tool_a', 'dynamic_tool_b', 'dynamic_tool_c']);
  });

  it('model-native mode with static tools: stable visible list', () => {
    const run = new AgentRun(native, [stat]);
    const c1 = run.modelCall([sys('s'), user('q')]);
    const c2 = run.modelCall([assistant('x')]);
    expect(names(c1.visible)).toEqual(['static_tool']);
    expect(names(c2.visible)).toEqual(['static_tool']);
    expect(c2.refilled).toBe(false);
    expect(c1.reminderIndex).toBe(1);
  });

  it('a reminder already in the transcript is not inserted again', () => {
    const run = new AgentRun(mw, []);
    const marked: ChatMessage = {
      kind: 'chat',
      role: 'user',
      content: 'old reminder',
      extra: { [REMINDER_MARKER]: true },
    };
    const c1 = run.modelCall([sys('s'), user('q'), marked]);
    expect(c1.reminderInserted).toBe(false);
    expect(c1.reminderIndex).toBe(2);
    expect(c1.messageCount).toBe(3);
  });
});
