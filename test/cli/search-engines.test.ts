/**
 * `search` and `select` with another engine through the built CLI: `--json` names the engine and carries the
 * result its model receives, each engine takes its own parameters, `--batch` lines name the engine, and
 * direct selection is Mastra's `load_tool` (the AI SDK has none).
 */
import { describe, it } from 'vitest';
import { DEMO, lines, run } from './helpers.js';

describe.concurrent('search and select --engine', () => {
  it('search --json: the engine, its ranking and the result its model receives', async ({ expect }) => {
    const [ai, mastra] = await Promise.all([
      run(['search', '-c', DEMO, '--engine', 'ai-sdk', '-n', '2', '--json', 'create', 'issue']),
      run(['search', '-c', DEMO, '--engine', 'mastra', '--top-k', '2', '--json', 'create', 'issue']),
    ]);
    const a = JSON.parse(ai.stdout) as { engine: string; matches: string[]; result: unknown };
    expect([a.engine, a.matches]).toEqual(['ai-sdk', ['mcp__github__create_issue', 'mcp__linear__create_issue']]);
    expect(a.result).toEqual({
      tools: [
        { name: 'mcp__github__create_issue', description: expect.any(String) },
        { name: 'mcp__linear__create_issue', description: expect.any(String) },
      ],
    });
    const m = JSON.parse(mastra.stdout) as { engine: string; matches: string[]; result: { message: string } };
    expect([m.engine, m.matches]).toEqual(['mastra', ['mcp__github__create_issue', 'mcp__linear__create_issue']]);
    expect(m.result.message).toBe(
      'Found 2 tool(s). Use load_tool with an exact toolName or a toolNames array to make them available.',
    );
  });

  it('a parameter of another engine is a usage error; --batch lines name the engine', async ({ expect }) => {
    const [topK, maxResults, batch] = await Promise.all([
      run(['search', '-c', DEMO, '--engine', 'ai-sdk', '--top-k', '2', 'x']),
      run(['search', '-c', DEMO, '--engine', 'mastra', '-n', '2', 'x']),
      run(['search', '-c', DEMO, '--engine', 'ai-sdk', '-n', '1', '--batch', '-'], {
        input: '{"query":"create issue"}\n\n',
      }),
    ]);
    // -n with --args: the AI SDK's maxResults is the engine's, not the arguments' (the reference refuses it).
    const [args, reference] = await Promise.all([
      run(['search', '-c', DEMO, '--engine', 'ai-sdk', '-n', '1', '--args', '{"query":"create issue"}', '--json']),
      run(['search', '-c', DEMO, '-n', '1', '--args', '{"query":"create issue"}']),
    ]);
    expect((JSON.parse(args.stdout) as { matches: string[] }).matches).toEqual(['mcp__github__create_issue']);
    expect(lines(reference.stderr)[0]).toBe(
      "error: option '-n, --max-results <n>' cannot be used with option '--args <json>'",
    );
    expect([topK.code, maxResults.code]).toEqual([2, 2]);
    expect(lines(topK.stderr)).toEqual([
      "error: --top-k is not a parameter of the ai-sdk engine (it is Mastra's search.topK: --engine mastra)",
    ]);
    expect(lines(maxResults.stderr)).toEqual([
      "error: --max-results is not a parameter of the mastra engine (Mastra's limit is search.topK: --top-k)",
    ]);
    expect(batch.code).toBe(0);
    const out = batch.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out[0]).toEqual({ schema_version: 1, engine: 'ai-sdk', matches: ['mcp__github__create_issue'] });
    expect(Object.keys(out[1]!)).toEqual(['schema_version', 'engine', 'error']);
  });

  it("select: Mastra's load_tool; the AI SDK has no direct selection", async ({ expect }) => {
    const [mastra, ai] = await Promise.all([
      run(['select', '-c', DEMO, '--engine', 'mastra', 'mcp__github__create_issue,mcp__nope', '--json']),
      run(['select', '-c', DEMO, '--engine', 'ai-sdk', 'mcp__github__create_issue']),
    ]);
    const j = JSON.parse(mastra.stdout) as { engine: string; matches: string[]; unknown: string[] };
    expect([j.engine, j.matches, j.unknown]).toEqual(['mastra', ['mcp__github__create_issue'], ['mcp__nope']]);
    expect(ai.code).toBe(2);
    expect(lines(ai.stderr)).toEqual([
      "error: the ai-sdk engine has no direct selection: the AI SDK's toolSearch loads a tool only when a search " +
        'returns it',
    ]);
  });
});
