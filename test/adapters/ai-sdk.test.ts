import {
  generateText,
  jsonSchema,
  type ModelMessage,
  simulateReadableStream,
  stepCountIs,
  streamText,
  type Tool,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  createToolSearch,
  PROVIDER_OPTIONS_KEY,
  toCoreMessages,
  ToolNotLoadedError,
} from '../../src/adapters/ai-sdk.js';
import { REMINDER_MARKER } from '../../src/core/middleware.js';

type Call = { type: 'tool-call'; toolCallId: string; toolName: string; input: string };
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const call = (id: string, toolName: string, input: unknown): Call => ({
  type: 'tool-call',
  toolCallId: id,
  toolName,
  input: JSON.stringify(input),
});
const toolStep = (...calls: Call[]) => ({
  content: calls,
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});
const textStep = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: undefined },
  usage,
  warnings: [],
});

/** A tool factory whose tools record their executions in `ran`. */
function recorder() {
  const ran: string[] = [];
  const make = (name: string, description: string): Tool => ({
    description,
    inputSchema: jsonSchema({ type: 'object', properties: {} }),
    execute: async () => {
      ran.push(name);
      return `${name} done`;
    },
  });
  return { ran, make };
}

/** Dynamic tools that record their executions. */
function recordingTools() {
  const { ran, make } = recorder();
  return {
    ran,
    tools: {
      delete_repo: make('delete_repo', 'Delete a repository for good.'),
      list_repos: make('list_repos', 'List the repositories of the user.'),
      send_email: make('send_email', 'Send an email.'),
    },
  };
}

function outputs(result: {
  steps: ReadonlyArray<{
    content: ReadonlyArray<{ type: string; toolName?: string; output?: unknown; error?: unknown }>;
  }>;
}) {
  return result.steps.map((s) =>
    s.content
      .filter((p) => p.type === 'tool-result' || p.type === 'tool-error')
      .map((p) => [
        p.toolName,
        p.type,
        p.type === 'tool-error' ? String((p.error as Error).message ?? p.error) : p.output,
      ]),
  );
}

describe('enforce', () => {
  // Without this prepareStep every tool is active, so only the guard stands between the model and a tool it never
  // loaded.
  it.each([false, true])('a search and a call in the same parallel step (enforce: %s)', async (enforce) => {
    const { ran, tools } = recordingTools();
    const search = createToolSearch({ dynamicTools: tools, enforce });
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolStep(call('1', 'tool_search', { query: 'select:delete_repo' }), call('2', 'delete_repo', {})),
        toolStep(call('3', 'delete_repo', {})),
        textStep('done'),
      ],
    });
    const result = await generateText({ model, tools: search.tools, prompt: 'clean up', stopWhen: stepCountIs(5) });
    const out = outputs(result);
    expect(out[0]![0]).toEqual(['tool_search', 'tool-result', '{"matches":["delete_repo"]}']);
    if (enforce) {
      // The search in the same step did not authorize the call; the next step's call runs.
      expect(out[0]![1]).toEqual([
        'delete_repo',
        'tool-error',
        'tool delete_repo is not loaded: no earlier tool_search result named it. Call ' +
          'tool_search first (for example with {"query": "select:delete_repo"}); a tool ' +
          'becomes callable in the step after the tool_search that returns it.',
      ]);
      expect(ran).toEqual(['delete_repo']);
    } else {
      expect(out[0]![1]).toEqual(['delete_repo', 'tool-result', 'delete_repo done']);
      expect(ran).toEqual(['delete_repo', 'delete_repo']);
    }
    expect(out[1]).toEqual([['delete_repo', 'tool-result', 'delete_repo done']]);
    // The model reads the refusal as the tool's result.
    const toolMessage = model.doGenerateCalls[1]!.prompt.find((m) => m.role === 'tool')!;
    expect(JSON.stringify(toolMessage)).toContain(enforce ? 'is not loaded' : 'delete_repo done');
  });

  it.each([false, true])(
    'a tool never loaded is refused by the SDK itself under prepareStep (enforce: %s)',
    async (enforce) => {
      const { ran, tools } = recordingTools();
      const search = createToolSearch({ dynamicTools: tools, enforce });
      const model = new MockLanguageModelV3({ doGenerate: [toolStep(call('1', 'send_email', {})), textStep('ok')] });
      const result = await generateText({
        model,
        tools: search.tools,
        prepareStep: search.prepareStep,
        prompt: 'x',
        stopWhen: stepCountIs(3),
      });
      const [[name, type, message]] = outputs(result)[0]! as [[string, string, string]];
      expect([name, type]).toEqual(['send_email', 'tool-error']);
      expect(message).toMatch(/unavailable tool 'send_email'/);
      expect(ran).toEqual([]);
    },
  );

  it('guards execute however it is called: only results in earlier messages authorize', async () => {
    const { ran, tools } = recordingTools();
    const guarded = createToolSearch({ dynamicTools: tools, enforce: true }).tools;
    const open = createToolSearch({ dynamicTools: tools }).tools;
    const found: ModelMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'tool_search', input: { query: 'repos' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'tool_search',
            output: { type: 'text', value: '{"matches":["list_repos","delete_repo"]}' },
          },
        ],
      },
    ];
    await expect(guarded.delete_repo.execute!({}, { toolCallId: 'x', messages: [] })).rejects.toBeInstanceOf(
      ToolNotLoadedError,
    );
    await expect(guarded.send_email.execute!({}, { toolCallId: 'x', messages: found })).rejects.toThrow(
      'tool send_email is not loaded',
    );
    await expect(guarded.delete_repo.execute!({}, { toolCallId: 'x', messages: found })).resolves.toBe(
      'delete_repo done',
    );
    await expect(open.send_email.execute!({}, { toolCallId: 'x', messages: [] })).resolves.toBe('send_email done');
    expect(ran).toEqual(['delete_repo', 'send_email']);
    // Not guarded: tool_search itself, and tools without execute (the SDK does not run them).
    await expect(
      guarded.tool_search.execute!({ query: 'select:send_email' }, { toolCallId: 'x', messages: [] }),
    ).resolves.toBe('{"matches":["send_email"]}');
    const clientSide: Tool = { description: 'Runs in the browser.', inputSchema: jsonSchema({ type: 'object' }) };
    expect(createToolSearch({ dynamicTools: { clientSide }, enforce: true }).tools.clientSide).toBe(clientSide);
  });
});

describe('createToolSearch', () => {
  const { tools } = recordingTools();

  it('offers static tools, tool_search, then what tool_search results loaded (in load order), as the core does', () => {
    const search = createToolSearch({
      dynamicTools: tools,
      staticTools: { think: tools.list_repos },
      staticToolNames: ['my_own'] as const,
    });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'tool_search',
            output: { type: 'text', value: '{"matches":["send_email","nope"]}' },
          },
          {
            type: 'tool-result',
            toolCallId: 'b',
            toolName: 'tool_search',
            output: { type: 'json', value: { matches: ['delete_repo', 'send_email'] } },
          },
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 'tool_search',
            output: { type: 'error-text', value: 'query is required' },
          },
          {
            type: 'tool-result',
            toolCallId: 'd',
            toolName: 'other',
            output: { type: 'text', value: '{"matches":["list_repos"]}' },
          },
        ],
      },
    ];
    expect(Object.keys(search.tools)).toEqual(['think', 'tool_search', 'delete_repo', 'list_repos', 'send_email']);
    expect(search.loadedTools(messages)).toEqual(['send_email', 'delete_repo']);
    expect(search.activeTools(messages)).toEqual(['think', 'my_own', 'tool_search', 'send_email', 'delete_repo']);
    expect(search.activeTools([])).toEqual(['think', 'my_own', 'tool_search']);
  });

  it('runs the reference search: Go JSON field folding, select:, errors as tool errors', async () => {
    const exec = createToolSearch({ dynamicTools: tools }).tools.tool_search.execute!;
    const opts = { toolCallId: 't', messages: [] };
    await expect(exec({ Query: 'repo', MAX_RESULTS: 1 }, opts)).resolves.toBe('{"matches":["delete_repo"]}');
    await expect(exec({ query: 'select:send_email, nope,send_email' }, opts)).resolves.toBe(
      '{"matches":["send_email","send_email"]}',
    );
    await expect(exec({ query: 'zebra' }, opts)).resolves.toBe('{"matches":null}');
    await expect(exec({ query: '  ' }, opts)).rejects.toThrow('query is required');
    await expect(exec({ query: 1 }, opts)).rejects.toThrow(
      new RegExp(
        '^failed to unmarshal tool search arguments: json: cannot unmarshal number into Go struct field ' +
          'toolSearchArgs.query of type string$',
      ),
    );
  });

  it('inserts the reminder once, after the system messages, and not when it is already there', () => {
    const search = createToolSearch({ dynamicTools: tools });
    const sys: ModelMessage = { role: 'system', content: 'sys' };
    const user: ModelMessage = { role: 'user', content: 'hi' };
    const once = search.withReminder([sys, user]);
    expect(once).toEqual([sys, search.reminderMessage, user]);
    expect(search.reminderMessage).toEqual({
      role: 'user',
      content: '<available-deferred-tools>\ndelete_repo\nlist_repos\nsend_email\n</available-deferred-tools>',
      providerOptions: { [PROVIDER_OPTIONS_KEY]: { [REMINDER_MARKER]: true } },
    });
    expect(search.withReminder(once)).toEqual(once);
    expect(search.withReminder([sys])).toEqual([sys, search.reminderMessage]);
    expect(search.withReminder([])).toEqual([search.reminderMessage]);
    expect(createToolSearch({ dynamicTools: tools, reminder: false }).prepareStep({ messages: [user] })).toEqual({
      activeTools: ['tool_search'],
    });
  });

  it('converts the SDK messages for forward selection (one core message per tool result)', () => {
    expect(
      toCoreMessages([
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'let me look' },
            { type: 'tool-call', toolCallId: 'a', toolName: 'tool_search', input: { query: 'x' } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'a',
              toolName: 'tool_search',
              output: { type: 'content', value: [{ type: 'text', text: '{"matches":[]}' }] },
            },
          ],
        },
      ]),
    ).toEqual([
      {
        kind: 'chat',
        role: 'assistant',
        content: 'let me look',
        toolCalls: [{ id: 'a', name: 'tool_search', arguments: '{"query":"x"}' }],
      },
      { kind: 'chat', role: 'tool', content: '{"matches":[]}', toolCallId: 'a', toolName: 'tool_search' },
    ]);
  });

  it("fails like the reference's constructor, and on names it cannot keep apart", () => {
    expect(() => createToolSearch({ dynamicTools: {} })).toThrow('tools is required');
    expect(() => createToolSearch({ dynamicTools: tools, staticTools: { send_email: tools.send_email } })).toThrow(
      'send_email is both a static and a dynamic tool',
    );
    expect(() => createToolSearch({ dynamicTools: { tool_search: tools.send_email } })).toThrow(
      /tool_search is the tool search tool's own name/,
    );
    expect(() => createToolSearch({ dynamicTools: tools, mode: 'native' as 'default' })).toThrow(
      'mode "native" is not supported by the AI SDK adapter: only "default"',
    );
  });

  it('works with streamText', async () => {
    const search = createToolSearch({ dynamicTools: tools });
    const chunks = (parts: object[]) => ({
      stream: simulateReadableStream({ chunks: [{ type: 'stream-start', warnings: [] }, ...parts] as never[] }),
    });
    const finish = (reason: 'tool-calls' | 'stop') => ({
      type: 'finish',
      finishReason: { unified: reason, raw: undefined },
      usage,
    });
    const model = new MockLanguageModelV3({
      doStream: [
        chunks([call('1', 'tool_search', { query: 'email' }), finish('tool-calls')]),
        chunks([call('2', 'send_email', {}), finish('tool-calls')]),
        chunks([
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'sent' },
          { type: 'text-end', id: 't' },
          finish('stop'),
        ]),
      ],
    });
    const result = streamText({
      model,
      tools: search.tools,
      prepareStep: search.prepareStep,
      prompt: 'mail bob',
      stopWhen: stepCountIs(5),
    });
    expect(await result.text).toBe('sent');
    expect(model.doStreamCalls.map((c) => (c.tools ?? []).map((t) => t.name))).toEqual([
      ['tool_search'],
      ['tool_search', 'send_email'],
      ['tool_search', 'send_email'],
    ]);
  });
});

describe('JavaScript object keys are ordinary tool names', () => {
  /**
   * Tools named like properties of Object.prototype, each an own property (a computed key: `{ __proto__: x }` would set
   * the prototype).
   */
  function objectKeyTools() {
    const { ran, make } = recorder();
    const dynamicTools: Record<string, Tool> = {};
    for (const [name, description] of [
      ['__proto__', 'The prototype tool.'],
      ['constructor', 'Builds things.'],
      ['toString', 'Turns things into strings.'],
    ] as const) {
      Object.defineProperty(dynamicTools, name, {
        value: make(name, description),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    const staticTools: Record<string, Tool> = {};
    Object.defineProperty(staticTools, 'hasOwnProperty', {
      value: make('hasOwnProperty', 'Asks the user.'),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return { ran, dynamicTools, staticTools };
  }

  it.each([false, true])(
    'offers, lists and runs __proto__, constructor and toString (enforce: %s)',
    async (enforce) => {
      const { ran, dynamicTools, staticTools } = objectKeyTools();
      const search = createToolSearch({ dynamicTools, staticTools, enforce });
      expect(Object.keys(search.tools)).toEqual([
        'hasOwnProperty',
        'tool_search',
        '__proto__',
        'constructor',
        'toString',
      ]);
      expect(Object.getPrototypeOf(search.tools)).toBeNull();
      expect(search.tools.__proto__).toBeDefined();
      expect(Object.hasOwn(search.tools, '__proto__')).toBe(true);
      expect(search.middleware.reminderText).toContain('__proto__');

      const model = new MockLanguageModelV3({
        doGenerate: [
          toolStep(call('1', 'tool_search', { query: 'select:__proto__,constructor,toString' })),
          toolStep(
            call('2', '__proto__', {}),
            call('3', 'constructor', {}),
            call('4', 'toString', {}),
            call('5', 'hasOwnProperty', {}),
          ),
          textStep('done'),
        ],
      });
      const result = await generateText({
        model,
        tools: search.tools,
        prepareStep: search.prepareStep,
        prompt: 'go',
        stopWhen: stepCountIs(5),
      });
      expect(outputs(result)).toEqual([
        [['tool_search', 'tool-result', '{"matches":["__proto__","constructor","toString"]}']],
        [
          ['__proto__', 'tool-result', '__proto__ done'],
          ['constructor', 'tool-result', 'constructor done'],
          ['toString', 'tool-result', 'toString done'],
          ['hasOwnProperty', 'tool-result', 'hasOwnProperty done'],
        ],
        [],
      ]);
      expect(ran).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty']);
      // What the model was offered: the names prepareStep activated are all in the tools object.
      expect(model.doGenerateCalls.map((c) => (c.tools ?? []).map((t) => t.name))).toEqual([
        ['hasOwnProperty', 'tool_search'],
        ['hasOwnProperty', 'tool_search', '__proto__', 'constructor', 'toString'],
        ['hasOwnProperty', 'tool_search', '__proto__', 'constructor', 'toString'],
      ]);
      const step = search.prepareStep({ messages: result.response.messages });
      expect(step.activeTools).toEqual(['hasOwnProperty', 'tool_search', '__proto__', 'constructor', 'toString']);
      for (const name of step.activeTools) expect(Object.keys(search.tools)).toContain(name);
      expect(({} as Record<string, unknown>).description).toBeUndefined(); // nothing leaked into Object.prototype
    },
  );

  it('finds nothing for a name that is not a tool', () => {
    const search = createToolSearch({
      dynamicTools: { send_email: { description: 'Send an email.', inputSchema: jsonSchema({ type: 'object' }) } },
    });
    const tools = search.tools as Record<string, unknown>;
    expect(tools.toString).toBeUndefined();
    expect(tools.constructor).toBeUndefined();
    expect({ ...search.tools }).toEqual({ tool_search: search.tools.tool_search, send_email: search.tools.send_email });
  });
});
