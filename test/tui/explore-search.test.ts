import { describe, expect, test } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { searchCommandLine, shellQuote, osc52 } from '../../src/tui/explore/command-line.js';
import { baselineQuery, exploreSearch, rankDelta } from '../../src/tui/explore/search.js';
import { searchDecoded } from '../../src/core/toolsearch.js';
import { CATALOG } from './fixture.js';
import { syntheticCatalog } from './perf/catalog.js';

const index = new ToolIndex(CATALOG.tools.filter((t) => !t.static));

describe('exploreSearch runs the reference', () => {
  test('keyword search: scores, order, limit, total and ranks', () => {
    const r = exploreSearch(index, 'slack message', 2);
    if (r.kind !== 'keyword') throw new Error(r.kind);
    // slack__post_message: slack 10 + message 10; the other two slack tools: 10, + message in the description 2 for
    // add_reaction.
    expect(r.rows.map((x) => [x.name, x.score])).toEqual([
      ['slack__post_message', 20],
      ['slack__add_reaction', 12],
    ]);
    expect([r.total, r.maxResults, r.rankOf('slack__list_channels'), r.rankOf('notion__search')]).toEqual([
      3,
      2,
      3,
      undefined,
    ]);
    expect(r.rows[0]!.explain.map((k) => [k.keyword, k.rule, k.part, k.points])).toEqual([
      ['slack', 'exact-part', 'slack', 10],
      ['message', 'exact-part', 'message', 10],
    ]);
  });
  test('+required drops tools whose required keyword scores 0', () => {
    const r = exploreSearch(index, 'slack +channel', 5);
    if (r.kind !== 'keyword') throw new Error(r.kind);
    expect(r.rows.map((x) => x.name)).toEqual(['slack__list_channels', 'slack__post_message']);
  });
  test('select: keeps order and duplicates, skips unknown names, ignores max_results', () => {
    const r = exploreSearch(index, 'select: notion__search, nope ,notion__search,slack__post_message', 1);
    expect(r).toEqual({
      kind: 'select',
      unknown: ['nope'],
      rows: [
        { name: 'notion__search', description: 'Search Notion pages and databases' },
        { name: 'notion__search', description: 'Search Notion pages and databases' },
        { name: 'slack__post_message', description: 'Post a message to a Slack channel' },
      ],
    });
  });
  test('the reference error for a query of white space; nothing for an empty one', () => {
    expect(exploreSearch(index, ' \u3000 ', 5)).toEqual({ kind: 'error', message: 'query is required' });
    expect(exploreSearch(index, '', 5)).toEqual({ kind: 'empty' });
  });
  test('a lone + is no keyword: no matches, not an error', () => {
    expect(exploreSearch(index, '+', 5)).toMatchObject({ kind: 'keyword', keywords: [], rows: [], total: 0 });
  });
});

describe('baseline comparison', () => {
  test('the baseline gets the keywords without +', () => {
    const r = exploreSearch(index, '+slack  message', 5);
    if (r.kind !== 'keyword') throw new Error(r.kind);
    expect(baselineQuery(r.keywords)).toBe('slack message');
  });
  test('rank deltas', () => {
    expect([rankDelta(1, 1), rankDelta(3, 1), rankDelta(1, 4), rankDelta(undefined, 2)]).toEqual([
      '=',
      '↑2',
      '↓3',
      'new',
    ]);
  });
});

describe('copied command line', () => {
  test('a ready --expect-first test, quoted for the shell', () => {
    expect(
      searchCommandLine({
        catalogArgs: ['-c', 'fixtures/catalogs/demo.yaml'],
        query: 'slack message',
        maxResults: 5,
        first: 'slack__post_message',
      }),
    ).toBe("toolsearch search -c fixtures/catalogs/demo.yaml --expect-first slack__post_message -- 'slack message'");
    expect(
      searchCommandLine({ catalogArgs: ['-c', 'my catalog.yaml'], query: "-it's", maxResults: 7, first: null }),
    ).toBe("toolsearch search -c 'my catalog.yaml' -n 7 --expect-none -- '-it'\\''s'");
  });
  test('text with control characters is ANSI-C quoted: exact, and safe to print', () => {
    expect(shellQuote('a\u001b[31mb')).toBe("$'a\\x1b[31mb'");
    expect(shellQuote("x'\\\u202e")).toBe("$'x\\'\\\\\\u202e'");
    expect(shellQuote('')).toBe("''");
  });
  test('OSC 52 carries the text base64-encoded', () => {
    expect(osc52('hi')).toBe('\u001b]52;c;aGk=\u0007');
  });
});

describe('exploreSearch equals the reference search', () => {
  // Against searchDecoded with the same max_results: same names, scores, order and explanations.
  const big = new ToolIndex(syntheticCatalog(800, 7));
  const queries = [
    'create issue',
    '+slack message',
    'get',
    'github +pull_request merge',
    'zzz',
    'a b c d',
    'select:x',
    '++x',
    'ISSUE',
    'calendar event',
    'mcp',
  ];
  test.each(queries)('%s', (query) => {
    for (const max of [1, 5, 17]) {
      const ref = searchDecoded(big, { query, maxResults: max }, { explain: true });
      const got = exploreSearch(big, query, max);
      if (!ref.ok) {
        expect(got).toEqual({ kind: 'error', message: ref.error });
        continue;
      }
      if (ref.mode === 'select') {
        expect(got.kind === 'select' && got.rows.map((r) => r.name)).toEqual(ref.matches);
        continue;
      }
      if (got.kind !== 'keyword') throw new Error(got.kind);
      expect(got.rows.map((r) => ({ name: r.name, score: r.score, explain: r.explain }))).toEqual(ref.results);
      expect(got.maxResults).toBe(ref.maxResults);
    }
  });
});
