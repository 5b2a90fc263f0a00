/** `lint --engine`: findability under the AI SDK 7's and Mastra's rankings, and a module's. */
import { describe, it } from 'vitest';
import type { Catalog } from '../../../src/formats/types.js';
import type { OpenEngine } from '../../../src/jobs/engines/engine.js';
import { lintWithEngine } from '../../../src/jobs/lint/engine-lint.js';
import { lines, run } from '../../cli/helpers.js';

interface Report {
  engine: string;
  tools: Array<{
    name: string;
    findings: Array<{ rule: string; message: string }>;
    own_name: { query: string; rank: number | null };
  }>;
  summary: { errors: number; warnings: number; clean: number };
}

async function lint(args: string[]): Promise<Report> {
  const r = await run(['lint', ...args, '--json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Report;
}

describe.concurrent('lint --engine', () => {
  it('Mastra: tools sharing a name token crowd each other out of topK; the own-name query is its tokens', async ({
    expect,
  }) => {
    const r = await lint(['fixtures/lint/problems.yaml', '--engine', 'mastra']);
    expect(r.engine).toBe('mastra');
    const eGet = r.tools.find((t) => t.name === 'e_get')!;
    expect(eGet.own_name).toMatchObject({ query: 'get', rank: null });
    expect(eGet.findings.map((f) => f.message)).toEqual([
      'the query "get" does not return it within the mastra engine\'s limit 5: it ranks 6; first is z_get',
      'its name tokens (get) are those of a_get, b_get, c_get, d_get, z_get: only the descriptions tell them apart',
    ]);
    // With topK 6 it is returned, last.
    const wider = await lint(['fixtures/lint/problems.yaml', '--engine', 'mastra', '--top-k', '6']);
    expect(wider.tools.find((t) => t.name === 'e_get')!.own_name.rank).toBe(6);
  });

  it('the reference and the engines judge the same catalog differently', async ({ expect }) => {
    const [eino, ai, mastra] = await Promise.all([
      lint(['fixtures/lint/problems.yaml']),
      lint(['fixtures/lint/problems.yaml', '--engine', 'ai-sdk']),
      lint(['fixtures/lint/problems.yaml', '--engine', 'mastra']),
    ]);
    expect([eino.engine, ai.engine, mastra.engine]).toEqual(['eino', 'ai-sdk', 'mastra']);
    expect([ai.summary, mastra.summary]).toEqual([
      { ...ai.summary, errors: 4, warnings: 5 },
      { ...mastra.summary, errors: expect.any(Number) },
    ]);
    expect(eino.summary.errors).not.toBe(ai.summary.errors);
  });

  it('a module engine, and the flags of engines it is not', async ({ expect }) => {
    const r = await lint(['fixtures/catalogs/demo.yaml', '--engine', './fixtures/engines/bm25-fields.mjs']);
    expect(r.engine).toBe('./fixtures/engines/bm25-fields.mjs');
    expect(r.tools).toHaveLength(125);
    const bad = await run(['lint', 'fixtures/catalogs/demo.yaml', '--engine', 'ai-sdk', '--top-k', '2']);
    expect(lines(bad.stderr)).toEqual([
      "error: --top-k is not a parameter of the ai-sdk engine (it is Mastra's search.topK: --engine mastra)",
    ]);
  });
});

describe('lintWithEngine', () => {
  it("lists tools of equal findings by name in Go's byte order, as the reference's lint does", async ({ expect }) => {
    // U+FFFD is 0xEF 0xBF 0xBD in UTF-8 and U+1F600 0xF0 …: byte order puts U+FFFD first, UTF-16 code
    // units (0xFFFD against the surrogate 0xD83D) the other way round.
    const names = ['x_\u{1F600}', 'x_\uFFFD', 'x_a'];
    const catalog = {
      tools: names.map((name) => ({ name, description: 'Send a message.', static: false })),
      sources: [{ file: 'order.yaml' }],
    } as unknown as Catalog;
    const engine: OpenEngine = {
      name: 'nothing',
      spec: { kind: 'module', path: 'nothing.mjs' } as OpenEngine['spec'],
      builtin: null,
      limit: 5,
      summary: 'finds nothing',
      search: async () => ({ ok: true, matches: [] }) as never,
      close: async () => {},
    };
    const report = await lintWithEngine(catalog, engine);
    expect(report.tools.map((t) => t.name)).toEqual(['x_a', 'x_\uFFFD', 'x_\u{1F600}']);
    expect(new Set(report.tools.map((t) => `${t.errors}/${t.warnings}`)).size).toBe(1);
  });
});
