/** `toolsearch eval --engine`: the engines scored side by side with the baselines, and a user's module. */
import { describe, it } from 'vitest';
import { lines, run } from '../../cli/helpers.js';

const DEMO = ['fixtures/eval/demo-queries.jsonl', '-c', 'fixtures/catalogs/demo.yaml'];

describe.concurrent('toolsearch eval --engine', () => {
  it('prints R@k, MRR and nDCG of eino, ai-sdk, mastra, fuse and bm25 side by side on the bundled queries', async ({
    expect,
  }) => {
    const r = await run(['eval', ...DEMO, '--engine', 'eino,ai-sdk,mastra,fuse,bm25', '--misses', '0']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lines(r.stdout).slice(0, 8)).toEqual([
      '136 labeled queries (fixtures/eval/demo-queries.jsonl) over 125 dynamic tools (fixtures/catalogs/demo.yaml)',
      '',
      'scorer    R@1    R@3    R@5   R@10    MRR  nDCG@5  no result  misses',
      'eino    0.729  0.868  0.915  0.941  0.852   0.849       0.0%       7',
      'ai-sdk  0.765  0.885  0.907  0.917  0.876   0.867       0.7%       8',
      'mastra  0.805  0.887  0.924  0.930  0.897   0.889       0.7%       7',
      'fuse    0.769  0.877  0.918  0.963  0.871   0.865       0.0%       6',
      'bm25    0.776  0.882  0.919  0.942  0.877   0.874       0.7%       8',
    ]);
    expect(r.stdout).toContain(
      'ai-sdk: the AI SDK 7 toolSearch (name token 2, description token 1 per unique query term)\n',
    );
  });

  it('the eino engine is the reference: the same rankings as spec, query by query', async ({ expect }) => {
    const r = await run(['eval', ...DEMO, '--scorers', 'spec,eino', '--json']);
    const report = JSON.parse(r.stdout) as {
      scorers: Array<{ name: string; metrics: unknown }>;
      per_query: Array<{ results: Record<string, { ranked: string[] }> }>;
    };
    expect(report.scorers.map((s) => s.name)).toEqual(['spec', 'eino']);
    expect(report.scorers[1]!.metrics).toEqual(report.scorers[0]!.metrics);
    for (const q of report.per_query) expect(q.results.eino!.ranked).toEqual(q.results.spec!.ranked);
  });

  it('scores a module engine and checks a floor for it; --json names it with its parameters', async ({ expect }) => {
    const module = './fixtures/engines/bm25-fields.mjs';
    const r = await run([
      'eval',
      ...DEMO,
      '--engine',
      `mastra,${module}`,
      '--min-score',
      '1',
      '--json',
      '--min',
      `${module}:recall@5=0.95`,
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      scorers: Array<{ name: string; params?: unknown; metrics: { recall_at_5: number } }>;
      min: Array<{ scorer: string; passed: boolean }>;
    };
    expect(report.scorers.map((s) => [s.name, s.params])).toEqual([
      ['mastra', { minScore: 1, autoLoad: false }],
      [module, undefined],
    ]);
    expect(report.min).toEqual([
      { scorer: module, metric: 'recall@5', min: 0.95, value: report.scorers[1]!.metrics.recall_at_5, passed: false },
    ]);
    expect(lines(r.stderr)).toEqual([
      `fail: ${module} recall@5 is ${report.scorers[1]!.metrics.recall_at_5.toFixed(3)}, below --min 0.95`,
    ]);
  });

  it('refuses an unknown engine, both lists at once, and a parameter of an engine not scored', async ({ expect }) => {
    const unknown = await run(['eval', ...DEMO, '--engine', 'eino,vercel']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'unknown scorer "vercel"; the scorers are spec, fuse, bm25, regex, eino, ai-sdk, mastra ' +
        'or a module path (./my-search.js).',
    );
    const both = await run(['eval', ...DEMO, '--engine', 'eino', '--scorers', 'spec']);
    expect(lines(both.stderr)).toEqual(['error: --engine and --scorers both list the scorers: give one of them']);
    const min = await run(['eval', ...DEMO, '--engine', 'eino,ai-sdk', '--min-score', '2']);
    expect(lines(min.stderr)).toEqual([
      'error: --min-score is a parameter of the mastra engine, which is not scored here',
    ]);
  });

  it('a module that fails is an error naming it (exit 2), not a scorer that found nothing', async ({ expect }) => {
    const r = await run(['eval', ...DEMO, '--engine', 'eino,test/jobs/engines/fixtures/throws.mjs']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      'error: test/jobs/engines/fixtures/throws.mjs: --engine: search threw TypeError: cannot rank 20 characters ' +
        '(query "post message channel")',
    ]);
  });
});
