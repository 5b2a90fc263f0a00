/** Suites that name their engine (`engine:` on the suite or a case, `test --engine`), and what they refuse. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { runSuites } from '../../../src/jobs/suite/run.js';
import { lines, run } from '../../cli/helpers.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

describe.concurrent('engines in suites', () => {
  it('runs each case with its engine: the reference, the AI SDK 7, Mastra, a module, recordings', async ({
    expect,
  }) => {
    const r = await run(['test', 'fixtures/engines/suite.yaml', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      suites: Array<{ cases: Array<{ name: string; status: string; got: { engine: string } | null }> }>;
    };
    expect(report.suites[0]!.cases.map((c) => [c.got?.engine, c.status])).toEqual([
      ['eino', 'passed'],
      ['ai-sdk', 'passed'],
      ['mastra', 'passed'],
      ['mastra', 'passed'],
      ['mastra', 'passed'],
      ['./bm25-fields.mjs', 'passed'],
      ['ai-sdk', 'passed'],
      ['mastra', 'passed'],
    ]);
  });

  it("test --engine runs the cases that name no engine with it; select cases stay the reference's", async ({
    expect,
  }) => {
    const r = await run(['test', 'fixtures/suites/demo.yaml', '--engine', 'ai-sdk', '--json']);
    expect(r.code).toBe(1);
    const cases = (
      JSON.parse(r.stdout) as { suites: Array<{ cases: Array<{ kind: string; got: { engine: string } | null }> }> }
    ).suites[0]!.cases;
    expect(new Set(cases.filter((c) => c.kind === 'search' && c.got).map((c) => c.got!.engine))).toEqual(
      new Set(['ai-sdk']),
    );
    expect(new Set(cases.filter((c) => c.kind === 'select').map((c) => c.got!.engine))).toEqual(new Set(['eino']));
    const bad = await run(['test', 'fixtures/suites/demo.yaml', '--top-k', '3']);
    expect(lines(bad.stderr)).toEqual([
      'error: --top-k and --min-score are parameters of the mastra engine: add --engine mastra',
    ]);
  });

  it("test --engine ai-sdk -n: the AI SDK's maxResults for the cases that give no max_results", async ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-engines-'));
    const suite = join(dir, 'suite.yaml');
    writeFileSync(
      suite,
      `catalog: ${join(ROOT, 'fixtures/catalogs/demo.yaml')}\ncases:\n` +
        '  - name: two\n    query: create issue\n    exact: [mcp__github__create_issue, mcp__linear__create_issue]\n' +
        '  - name: its own limit\n    query: create issue\n    max_results: 1\n' +
        '    exact: [mcp__github__create_issue]\n',
    );
    const r = await run(['test', suite, '--engine', 'ai-sdk', '-n', '2', '--json']);
    expect(r.code).toBe(0);
    const got = (
      JSON.parse(r.stdout) as { suites: Array<{ cases: Array<{ got: { engine: string; max_results: number } }> }> }
    ).suites[0]!.cases.map((c) => [c.got.engine, c.got.max_results]);
    expect(got).toEqual([
      ['ai-sdk', 2],
      ['ai-sdk', 1],
    ]);
    const [none, mastra] = await Promise.all([
      run(['test', suite, '-n', '2']),
      run(['test', suite, '--engine', 'mastra', '-n', '2']),
    ]);
    expect(lines(none.stderr)).toEqual([
      "error: --max-results is the AI SDK's toolSearch maxResults: add --engine ai-sdk (the reference's cases give " +
        'max_results in args, or max_results beside query)',
    ]);
    expect(lines(mastra.stderr)).toEqual([
      "error: --max-results is not a parameter of the mastra engine here (it is the AI SDK's toolSearch " +
        "maxResults: --engine ai-sdk; Mastra's limit is --top-k; a case's max_results limits any engine)",
    ]);
  });

  it("a failure under an engine shows where the tool stands in that engine's ranking", async ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-engines-'));
    const suite = join(dir, 'suite.yaml');
    writeFileSync(
      suite,
      `catalog: ${join(ROOT, 'fixtures/catalogs/demo.yaml')}\nengine: mastra\ncases:\n` +
        '  - name: linear first\n    query: create issue\n    first: mcp__linear__create_issue\n',
    );
    const c = runSuites([suite]).report.suites[0]!.cases[0]!;
    expect(c.status).toBe('failed');
    // The text and HTML reports name the engine that answered.
    const [text, html] = await Promise.all([run(['test', suite]), run(['test', suite, '--reporter', 'html'])]);
    expect(text.stdout).toContain('got (mastra, keyword, topK 5, 31 tools match in all):');
    expect(html.stdout).toContain('got (mastra, keyword, topK 5, 31 tools match in all):');
    expect(c.failures[0]!.standings).toEqual([
      { name: 'mcp__linear__create_issue', status: 'returned', rank: 2, score: 9.69, excluded_by: null },
    ]);
  });

  it('refuses what an engine cannot do, at the line that asks for it', ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-engines-'));
    const write = (name: string, text: string): string => {
      const f = join(dir, name);
      writeFileSync(f, `catalog: ${join(ROOT, 'fixtures/catalogs/demo.yaml')}\n${text}`);
      return f;
    };
    const cases = [
      [
        'select.yaml',
        'cases:\n  - name: s\n    engine: ai-sdk\n    select: [mcp__github__create_issue]\n' +
          '    exact: [mcp__github__create_issue]\n',
        'select.yaml:5:5: case "s": the ai-sdk engine has no direct selection ' +
          "(select: runs on eino, or mastra's load_tool)",
      ],
      [
        'topk.yaml',
        'cases:\n  - name: t\n    engine: ai-sdk\n    top_k: 2\n    query: x\n    none: true\n',
        'topk.yaml:5:5: top_k is a parameter of the mastra engine: add engine: mastra',
      ],
      [
        'unknown.yaml',
        'engine: vercel\ncases:\n  - name: u\n    query: x\n    none: true\n',
        'unknown.yaml:2:9: unknown engine "vercel": the engines are eino, ai-sdk, mastra, ' +
          'or a module path such as ./my-search.js',
      ],
    ] as const;
    for (const [name, text, message] of cases) {
      const s = runSuites([write(name, text)]).report.suites[0]!;
      expect(s.error).not.toBeNull();
      expect(
        `${s.error!.location.file.split('/').pop()}:${s.error!.location.line}:` +
          `${s.error!.location.column}: ${s.error!.message}`,
      ).toBe(message);
    }
  });
});
