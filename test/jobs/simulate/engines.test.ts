/**
 * `simulate` with the AI SDK 7's and Mastra's loading rules, over recordings the real packages wrote
 * (fixtures/engines/make-recordings.mjs): the engine detected from the search tool's shape and said in the
 * report, what each call was sent, and the calls each stack refuses.
 */
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { loadRecordingText } from '../../../src/formats/from-text.js';
import { chooseEngine, detectEngine } from '../../../src/jobs/simulate/engines.js';
import { lines, ROOT, run } from '../../cli/helpers.js';

const AI = 'fixtures/engines/recordings/ai-sdk7-two-generations.json';
const MASTRA = 'fixtures/engines/recordings/mastra-ttl.json';
const MASTRA_MEMORY = 'fixtures/engines/recordings/mastra-memory.json';
const DEMO = ['-c', 'fixtures/catalogs/demo.yaml'];
const STATIC = ['get_current_time', 'ask_user', 'read_todo_list', 'write_todo_list', 'think'];

interface Report {
  engine: { name: string; by: string; evidence: string | null; params: Record<string, unknown> };
  turns: Array<{
    call: number;
    visible: string[];
    added: string[];
    tool_calls: Array<{ name: string; status: string }>;
  }>;
  violations: Array<{ call: number; tool: string | null; kind: string; severity: string; message: string }>;
  summary: { errors: number; warnings: number; tools_loaded: number };
}

async function report(args: string[]): Promise<Report> {
  const r = await run(['simulate', ...args, '--no-tokens', '--json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Report;
}

describe.concurrent('simulate --engine', () => {
  it('detects the engine from the search tool: the AI SDK by its {tools} result, Mastra by search_tools/load_tool', ({
    expect,
  }) => {
    const call = (name: string, result: string) => [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: name, input: { query: 'x' } }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: name, output: { type: 'text', value: result } }],
      },
    ];
    const detect = (name: string, result: string) => detectEngine(loadRecordingText(call(name, result)));
    expect(detect('searchTools', '{"tools":[{"name":"a","description":"A"}]}')).toEqual({
      engine: 'ai-sdk',
      evidence: 'the result of searchTools is {"tools": [{"name", "description"}]} (the AI SDK\'s toolSearch)',
    });
    expect(detect('search_tools', '{"results":[],"message":"No tools found"}')?.engine).toBe('mastra');
    expect(detect('tool_search', '{"matches":["a"]}')?.engine).toBe('eino');
    // Another shape says nothing: the reference is the default.
    expect(detect('lookup', '{"tools":"a"}')).toBeNull();
    const recording = loadRecordingText(call('tool_search', '{"matches":["a"]}'));
    expect(chooseEngine('mastra', recording)).toEqual({
      engine: 'mastra',
      by: 'flag',
      evidence:
        '--engine mastra, but the recording looks like eino: the result of tool_search is {"matches": [...]} ' +
        "(Eino's tool_search)",
      contradicts:
        '--engine mastra, but the recording looks like eino: the result of tool_search is {"matches": [...]} ' +
        "(Eino's tool_search)",
    });
  });

  it('AI SDK 7: found tools are sent from the next step; a new generateText forgets them', async ({ expect }) => {
    const r = await report([AI, ...DEMO]);
    expect(r.engine).toEqual({
      name: 'ai-sdk',
      by: 'recording',
      evidence: 'the result of toolSearch is {"tools": [{"name", "description"}]} (the AI SDK\'s toolSearch)',
      params: { maxResults: 5 },
    });
    const found = [
      'mcp__slack__send_message',
      'mcp__slack__reply_to_thread',
      'mcp__slack__add_reaction',
      'mcp__slack__get_thread_replies',
      'mcp__slack__schedule_message',
    ];
    // The tools object's order, as the SDK's documentation writes it: toolSearch, then the catalog's tools.
    expect(r.turns.map((t) => t.visible)).toEqual([
      ['toolSearch', ...STATIC],
      ['toolSearch', ...STATIC, ...found],
      ['toolSearch', ...STATIC, ...found],
      ['toolSearch', ...STATIC],
      ['toolSearch', ...STATIC],
      ['toolSearch', ...STATIC, ...found],
      ['toolSearch', ...STATIC, ...found],
    ]);
    expect(r.violations).toEqual([
      {
        call: 4,
        tool: 'mcp__slack__send_message',
        kind: 'not-loaded',
        severity: 'error',
        message:
          'mcp__slack__send_message was called before a search result of this generation named it (not sent at ' +
          'call 4; the AI SDK answers NoSuchToolError); a search of generation 1 found it, but each generateText ' +
          'starts with none discovered',
      },
    ]);
  });

  it("AI SDK 7: maxResults is the engine's parameter; --replay compares with the port", async ({ expect }) => {
    const r = await run(['simulate', AI, ...DEMO, '--no-tokens', '--max-results', '2', '--replay']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('engine: ai-sdk (detected: ');
    expect(r.stdout).toContain('replay: 2 searches return something else today');
    const bad = await run(['simulate', AI, ...DEMO, '--top-k', '3']);
    expect(lines(bad.stderr)).toEqual([
      "error: --top-k is not a parameter of the ai-sdk engine (it is Mastra's search.topK: --engine mastra)",
    ]);
  });

  it('Mastra: load_tool loads from the next step; tools loaded stay across generate calls until the TTL', async ({
    expect,
  }) => {
    // One hour (the default): the 20 minutes between the two generate calls keep the tool.
    const kept = await report([MASTRA, ...DEMO]);
    expect(kept.engine.params).toEqual({ topK: 5, minScore: 0, autoLoad: false, ttl: 3600000 });
    expect(kept.turns.map((t) => t.visible.length)).toEqual([7, 7, 8, 8, 8, 8, 8, 8]);
    expect(kept.turns[2]!.added).toEqual(['mcp__slack__send_message']);
    expect(kept.violations).toEqual([]);
    // Ten minutes, as the recording was made: the cleanup dropped it, and the first call of the second generate is
    // refused.
    const dropped = await report([MASTRA, ...DEMO, '--ttl', '600000']);
    expect(dropped.turns.map((t) => t.visible.length)).toEqual([7, 7, 8, 8, 7, 7, 8, 8]);
    expect(dropped.violations.map((v) => [v.call, v.kind, v.tool])).toEqual([
      [5, 'ttl-expired', null],
      [5, 'not-loaded', 'mcp__slack__send_message'],
    ]);
    expect(dropped.violations[0]!.message).toBe(
      '1200 s passed since the last model call, more than the TTL (600 s) plus a cleanup interval (300 s): ' +
        'Mastra dropped the loaded tools (mcp__slack__send_message)',
    );
    // Between the TTL and the TTL plus a cleanup interval: it depends on when the cleanup ran.
    const maybe = await report([MASTRA, ...DEMO, '--ttl', '1000000']);
    expect(maybe.violations.map((v) => [v.call, v.kind])).toEqual([[5, 'ttl-uncertain']]);
  });

  it("Mastra's stored messages (memory.recall): detected as Mastra, dated by their createdAt, the TTL applied", async ({
    expect,
  }) => {
    const r = await report([MASTRA_MEMORY, ...DEMO, '--ttl', '600000']);
    expect(r.engine).toMatchObject({ name: 'mastra', by: 'recording' });
    expect(r.violations.map((v) => [v.call, v.kind, v.tool])).toEqual([
      [5, 'ttl-expired', null],
      [5, 'not-loaded', 'mcp__slack__send_message'],
    ]);
    // Memory dates each step by its start: 20 min 10 s from the last step of the first generate.
    expect(r.violations[0]!.message).toBe(
      '1210 s passed since the last model call, more than the TTL (600 s) plus a cleanup interval (300 s): ' +
        'Mastra dropped the loaded tools (mcp__slack__send_message)',
    );
    const kept = await report([MASTRA_MEMORY, ...DEMO]);
    expect(kept.violations).toEqual([]);
  });

  it('each call shows exactly the tools the package sent to the model (recordings/sent-tools.json)', async ({
    expect,
  }) => {
    const sent = JSON.parse(readFileSync(`${ROOT}fixtures/engines/recordings/sent-tools.json`, 'utf8')) as Record<
      string,
      string[][]
    >;
    expect(Object.keys(sent)).toEqual(['ai-sdk7-two-generations.json', 'mastra-ttl.json', 'mastra-memory.json']);
    for (const [file, perCall] of Object.entries(sent)) {
      // The Mastra recordings were made with a TTL of ten minutes.
      const ttl = file.startsWith('mastra') ? ['--ttl', '600000'] : [];
      const r = await report([`fixtures/engines/recordings/${file}`, ...DEMO, ...ttl]);
      expect(
        r.turns.map((t) => t.visible),
        file,
      ).toEqual(perCall);
    }
  });

  it('Mastra: a tool search_tools found but no load_tool loaded is refused; --engine names it', async ({ expect }) => {
    const recording = JSON.stringify([
      { role: 'user', content: 'post it' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'search_tools', input: { query: 'slack send' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'search_tools',
            output: {
              type: 'json',
              value: {
                results: [{ name: 'mcp__slack__send_message', description: 'x', score: 9 }],
                message: 'Found 1 tool(s).',
              },
            },
          },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c2', toolName: 'mcp__slack__send_message', input: {} }],
      },
    ]);
    const r = await run(['simulate', '-', '--jsonl-input', 'recording', ...DEMO, '--no-tokens', '--json'], {
      input: recording,
    });
    const j = JSON.parse(r.stdout) as Report;
    expect(j.engine.name).toBe('mastra');
    expect(j.violations.map((v) => v.message)).toEqual([
      'mcp__slack__send_message was called at call 2 after search_tools found it, but no load_tool loaded it',
    ]);
    const eino = await run(
      ['simulate', '-', '--jsonl-input', 'recording', ...DEMO, '--no-tokens', '--engine', 'eino'],
      {
        input: recording,
      },
    );
    expect(lines(eino.stderr)[0]).toBe(
      "warning: --engine eino, but the recording looks like mastra: the model calls search_tools (Mastra's " +
        'ToolSearchProcessor)',
    );
  });

  it('refuses a module engine and native mode with another engine', async ({ expect }) => {
    const module = await run(['simulate', AI, ...DEMO, '--engine', './fixtures/engines/bm25-fields.mjs']);
    expect(module.code).toBe(2);
    expect(module.stderr).toContain('a module engine ranks only (search, eval, lint, test, explore)');
    const native = await run(['simulate', AI, ...DEMO, '--engine', 'ai-sdk', '--mode', 'native']);
    expect(lines(native.stderr)).toEqual([
      "error: --mode native is the reference's model-native mode; the ai-sdk engine has no modes",
    ]);
  });
});
