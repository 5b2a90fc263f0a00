/** `toolsearch eval` end to end. */
import { describe, it } from 'vitest';
import { lines, run } from '../../cli/helpers.js';
import { runIn } from '../suite/inproc.js';

const MINI = ['test/jobs/eval/fixtures/mini.jsonl', '-c', 'test/jobs/eval/fixtures/mini.yaml'];

describe.concurrent('toolsearch eval', () => {
  it('prints one row per scorer and the misses', async ({ expect }) => {
    const r = await run(['eval', ...MINI, '--scorers', 'spec,regex']);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout)).toEqual([
      '3 labeled queries (test/jobs/eval/fixtures/mini.jsonl) over 4 dynamic tools (test/jobs/eval/fixtures/mini.yaml)',
      '',
      'scorer    R@1    R@3    R@5   R@10    MRR  nDCG@5  no result  misses',
      'spec    0.333  0.667  0.667  0.667  0.500   0.544      33.3%       1',
      'regex   0.000  0.333  0.333  0.333  0.167   0.210      66.7%       2',
      '',
      'R@k: share of the relevant tools in the first k results; MRR: ' +
        'mean 1/rank of the first relevant tool (within 10);',
      'nDCG@5: binary relevance; no result: share of queries with no result; misses: no relevant tool in the first 5.',
      'spec: the reference keyword scorer (name parts 10/5/3, description 2; ties by name)',
      'regex: the query as a case-insensitive regular expression (RE2) over name and description',
      '',
      'spec misses 1 query:',
      '  line 4  "post" → slack__send_message',
      '      got: nothing',
      '',
      'regex misses 2 queries:',
      '  line 1  "create issue" → github__create_issue',
      '      got: nothing',
      '  line 4  "post" → slack__send_message',
      '      got: nothing',
    ]);
    expect(r.code).toBe(0);
  });

  it('--json has every metric, miss and ranking', async ({ expect }) => {
    const r = await runIn(['eval', ...MINI, '--json']);
    const report = JSON.parse(r.stdout);
    expect(report.scorers.map((s: { name: string }) => s.name)).toEqual(['spec', 'fuse', 'bm25', 'regex']);
    expect(Object.keys(report.scorers[0].metrics)).toEqual([
      'recall_at_1',
      'recall_at_3',
      'recall_at_5',
      'recall_at_10',
      'mrr',
      'ndcg_at_5',
      'no_result',
    ]);
    expect(report.scorers[0].metrics.mrr).toBe(0.5);
    expect(report.per_query).toHaveLength(3);
    expect(r.code).toBe(0);
  });

  it('--field request scores the user request text; --misses 0 hides the misses', async ({ expect }) => {
    const r = await runIn(['eval', ...MINI, '--field', 'request', '--scorers', 'spec', '--misses', '0']);
    expect(lines(r.stdout)[0]).toBe(
      '3 labeled queries (test/jobs/eval/fixtures/mini.jsonl, scored on the "request" ' +
        'text) over 4 dynamic tools (test/jobs/eval/fixtures/mini.yaml)',
    );
    expect(r.stdout).not.toContain('misses 1 query');
    expect(r.code).toBe(0);
  });

  it('bad input: unknown scorer, unknown relevant tool, bad line → exit 2', async ({ expect }) => {
    const s = await runIn(['eval', ...MINI, '--scorers', 'spec,tfidf']);
    expect(s.stderr).toMatch(/unknown scorer "tfidf"; the scorers are spec, fuse, bm25, regex/);
    expect(s.code).toBe(2);
    const c = await runIn(['eval', 'test/jobs/eval/fixtures/mini.jsonl', '-c', 'fixtures/catalogs/demo.yaml']);
    expect(lines(c.stderr)[0]).toBe(
      'error: test/jobs/eval/fixtures/mini.jsonl:1:40: ' +
        'relevant tool "github__create_issue" is not a tool of the catalog',
    );
    expect(c.code).toBe(2);
    const nocat = await runIn(['eval', 'test/jobs/eval/fixtures/mini.jsonl']);
    expect(nocat.stderr).toBe('error: a catalog is required: -c, --catalog <file>\n');
    expect(nocat.code).toBe(2);
  });
});
