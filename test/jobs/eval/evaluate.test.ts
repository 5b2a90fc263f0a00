import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/io/errors.js';
import { evaluate } from '../../../src/jobs/eval/evaluate.js';
import { loadQuerySet } from '../../../src/jobs/eval/queries.js';
import { loadCatalogFiles } from '../../../src/formats/index.js';

const FX = 'test/jobs/eval/fixtures';
const L3 = 1 / Math.log2(3);

function mini() {
  const catalog = loadCatalogFiles([`${FX}/mini.yaml`]);
  const dynamic = catalog.tools.filter((t) => !t.static);
  const set = loadQuerySet(`${FX}/mini.jsonl`);
  return { catalog, dynamic, set };
}

describe('loadQuerySet', () => {
  it('reads JSON lines with their line numbers, skipping blank lines', () => {
    const { set } = mini();
    expect(set.queries).toEqual([
      { line: 1, query: 'create issue', relevant: ['github__create_issue'], request: 'open a bug for the crash' },
      { line: 2, query: 'list', relevant: ['slack__list_channels'], request: 'which Slack channels exist?' },
      { line: 4, query: 'post', relevant: ['slack__send_message'], request: 'post in the channel' },
    ]);
  });

  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-eval-'));
  const bad = (name: string, text: string): string => {
    const f = join(dir, name);
    writeFileSync(f, text);
    return f;
  };
  it.each([
    ['not-json.jsonl', '{"query": "a", "relevant": ["x"]}\n{"query": oops}\n', 2, 11, /invalid JSON/],
    ['no-query.jsonl', '{"relevant": ["x"]}\n', 1, 1, /needs "query"/],
    ['query-type.jsonl', '{"query": 3, "relevant": ["x"]}\n', 1, 11, /"query" must be a string, not a number/],
    ['empty-query.jsonl', '{"query": "  ", "relevant": ["x"]}\n', 1, 11, /"query" is empty/],
    ['no-relevant.jsonl', '{"query": "a"}\n', 1, 1, /needs "relevant"/],
    ['relevant-empty.jsonl', '{"query": "a", "relevant": []}\n', 1, 28, /"relevant" is empty/],
    ['relevant-type.jsonl', '{"query": "a", "relevant": ["x", 7]}\n', 1, 34, /each relevant tool must be a name/],
    ['not-object.jsonl', '["a"]\n', 1, 1, /must be an object/],
  ])('%s is an error at its line and column', (name, text, line, column, message) => {
    const file = bad(name, text);
    let err: unknown;
    try {
      loadQuerySet(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const e = err as InputError;
    expect(e.location).toEqual({ file, line, column });
    expect(e.message).toMatch(message);
    expect(e.excerpt).toContain('^');
  });

  it('rejects relevant tools that are not dynamic tools of the catalog, at the name', () => {
    const { catalog, dynamic } = mini();
    const statics = new Set(catalog.tools.filter((t) => t.static).map((t) => t.name));
    const names = new Set(dynamic.map((t) => t.name));
    const typo = loadQuerySet(
      bad(
        'typo.jsonl',
        '{"query": "a", "relevant": ["github__create_issue"]}\n{"query": "b", "relevant": ["slack__send_mesage"]}\n',
      ),
    );
    expect(() => typo.validate(names, statics)).toThrow(
      'relevant tool "slack__send_mesage" is not a tool of the catalog',
    );
    try {
      typo.validate(names, statics);
    } catch (e) {
      expect((e as InputError).headline).toMatch(/typo\.jsonl:2:29: relevant tool/);
    }
    const stat = loadQuerySet(bad('static.jsonl', '{"query": "time", "relevant": ["now"]}\n'));
    expect(() => stat.validate(names, statics)).toThrow(/"now" is a static tool \(never searched\)/);
  });
});

describe('evaluate', () => {
  it('computes the metrics of the reference on the mini set by hand', async () => {
    const { dynamic, set } = mini();
    const r = await evaluate({
      tools: dynamic,
      queries: set.queries,
      scorers: ['spec'],
      catalogSource: 'mini.yaml',
      queriesFile: 'mini.jsonl',
    });
    // q1 "create issue": create_issue 20, list_issues 5 → relevant at rank 1.
    // q2 "list": github__list_issues and slack__list_channels tie at 10, ordered by name → rank 2.
    // q3 "post": nothing matches → no result.
    const m = r.scorers[0]!.metrics;
    expect(m.recall_at_1).toBeCloseTo(1 / 3, 12);
    expect(m.recall_at_3).toBeCloseTo(2 / 3, 12);
    expect(m.recall_at_5).toBeCloseTo(2 / 3, 12);
    expect(m.recall_at_10).toBeCloseTo(2 / 3, 12);
    expect(m.mrr).toBeCloseTo((1 + 1 / 2 + 0) / 3, 12);
    expect(m.ndcg_at_5).toBeCloseTo((1 + L3 + 0) / 3, 12);
    expect(m.no_result).toBeCloseTo(1 / 3, 12);
    expect(r.scorers[0]!.misses).toEqual([
      { line: 4, query: 'post', relevant: ['slack__send_message'], got: [], first_relevant_rank: null },
    ]);
    expect(r.per_query[1]).toEqual({
      line: 2,
      query: 'list',
      request: 'which Slack channels exist?',
      relevant: ['slack__list_channels'],
      results: { spec: { ranked: ['github__list_issues', 'slack__list_channels'], first_relevant_rank: 2 } },
    });
    expect(r).toMatchObject({
      catalog: { source: 'mini.yaml', dynamic: 4 },
      queries: { file: 'mini.jsonl', count: 3, field: 'query' },
      depth: 10,
      miss_cutoff: 5,
    });
  });

  it('compares several scorers in one run, in the order asked', async () => {
    const { dynamic, set } = mini();
    const r = await evaluate({
      tools: dynamic,
      queries: set.queries,
      scorers: ['regex', 'bm25', 'fuse', 'spec'],
      catalogSource: 'c',
      queriesFile: 'q',
    });
    expect(r.scorers.map((s) => s.name)).toEqual(['regex', 'bm25', 'fuse', 'spec']);
    // regex: "create issue" and "post" match nothing as patterns; "list" matches two names (catalog order).
    expect(r.per_query.map((q) => q.results.regex!.ranked)).toEqual([
      [],
      ['github__list_issues', 'slack__list_channels'],
      [],
    ]);
    expect(r.scorers[0]!.metrics.no_result).toBeCloseTo(2 / 3, 12);
    // bm25: "post" is in no document either.
    expect(r.per_query[2]!.results.bm25!.ranked).toEqual([]);
  });

  it('scores the request text with field "request"', async () => {
    const { dynamic, set } = mini();
    const r = await evaluate({
      tools: dynamic,
      queries: set.queries,
      scorers: ['spec'],
      field: 'request',
      catalogSource: 'c',
      queriesFile: 'q',
    });
    expect(r.queries.field).toBe('request');
    // "post in the channel": "channel" hits slack__list_channels' part "channels" (5) and send_message's description
    // (2).
    expect(r.per_query[2]!.results.spec!.ranked.slice(0, 2)).toEqual(['slack__list_channels', 'slack__send_message']);
    expect(r.scorers[0]!.misses.map((m) => m.query)).not.toContain('post in the channel');
  });
});
