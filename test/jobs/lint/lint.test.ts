/** Findability findings on purpose-built catalogs (fixtures/lint/). */
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/index.js';
import { lintCatalog } from '../../../src/jobs/lint/lint.js';
import { LINT_RULES, type LintReport, type LintRule } from '../../../src/jobs/lint/types.js';

const problems = (): LintReport => lintCatalog(loadCatalogFiles(['fixtures/lint/problems.yaml']));

function rulesOf(r: LintReport, name: string): LintRule[] {
  const t = r.tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t.findings.map((f) => f.rule);
}

describe('lint: a clean catalog', () => {
  it('finds nothing, and every tool is first for its own name', () => {
    const r = lintCatalog(loadCatalogFiles(['fixtures/lint/clean.yaml']));
    expect(r.summary).toMatchObject({ tools: 5, errors: 0, warnings: 0, clean: 5, own_name_first: 5 });
    expect(r.catalog).toEqual({ source: 'fixtures/lint/clean.yaml', dynamic: 5, static: 1 });
    for (const t of r.tools) {
      expect(t.own_name.rank).toBe(1);
      expect(t.reach.words_reaching).toBeGreaterThan(0);
    }
  });
});

describe('lint: every rule on purpose', () => {
  const r = problems();

  // tool → the rules it must break, exactly
  const expected: Array<[string, LintRule[]]> = [
    ['list', ['own-name-missed']],
    ['z_get', ['crowded-out']],
    ['___', ['no-name-parts']],
    ['Fetch_Page', ['case-collision']],
    ['fetch_page', ['case-collision', 'own-name-not-first']],
    ['sendMessage', ['identical-name-parts']],
    ['send_message', ['own-name-not-first', 'identical-name-parts']],
    ['_internal_sync', ['empty-name-pieces']],
    ['supercalifragilisticexpialidocious', ['giant-name-part']],
    ['browser-navigate', ['unsplit-separator']],
    ['ping_host', ['empty-description']],
    ['archive_note', ['duplicate-description']],
    ['archive_memo', ['duplicate-description']],
    ['do_everything', ['long-description']],
    ['a_list', []],
    ['a_get', []],
  ];
  it.each(expected)('%s breaks exactly %j', (name, rules) => {
    // Findings are ordered errors first, then by the order of LINT_RULES.
    const order = Object.keys(LINT_RULES);
    expect(rulesOf(r, name)).toEqual([...rules].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
  });

  it('own-name-missed: "list" ties at 10 with six names that sort before it', () => {
    const t = r.tools.find((x) => x.name === 'list')!;
    expect(t.own_name).toEqual({
      query: 'list',
      rank: null,
      full_rank: 7,
      score: 10,
      first: { name: 'a_list', score: 10 },
    });
    expect(t.findings[0]!.severity).toBe('error');
    expect(t.findings[0]!.message).toBe(
      'the query "list" does not return it within max_results 5: it ranks 7 with score 10; first is a_list (10)',
    );
  });

  it('crowded-out: the only word "get" ranks it 6th; the five that crowd it out are named', () => {
    const t = r.tools.find((x) => x.name === 'z_get')!;
    expect(t.reach).toEqual({
      words_tried: 1,
      words_reaching: 0,
      best: [],
      closest: { word: 'get', rank: 6 },
      words_matching: 1,
      words: [{ word: 'get', rank: 6 }],
    });
    expect(t.findings[0]!.related).toEqual(['a_get', 'b_get', 'c_get', 'd_get', 'e_get']);
    // Its own name still finds it: "z get" scores 20.
    expect(t.own_name.rank).toBe(1);
  });

  it('reach: lists the best single words with their ranks', () => {
    const t = r.tools.find((x) => x.name === 'ping_host')!;
    expect(t.reach).toEqual({
      words_tried: 2,
      words_reaching: 2,
      best: [
        { word: 'ping', rank: 1 },
        { word: 'host', rank: 1 },
      ],
      closest: null,
      words_matching: 2,
      words: [
        { word: 'ping', rank: 1 },
        { word: 'host', rank: 1 },
      ],
    });
  });

  it('reach: every word tried, with its rank at any depth (beyond max_results 5 too)', () => {
    const t = r.tools.find((x) => x.name === 'list')!;
    // "list" reaches it only at rank 7: it matches, but not within max_results 5.
    expect(t.reach.words).toEqual([
      { word: 'list', rank: 7 },
      { word: 'everything', rank: 2 },
      { word: 'at', rank: 4 },
      { word: 'once', rank: 1 },
    ]);
    expect([t.reach.words_tried, t.reach.words_reaching, t.reach.words_matching]).toEqual([4, 3, 4]);
    const f = r.tools.find((x) => x.name === 'f_list')!;
    expect(f.reach.words).toEqual([
      { word: 'list', rank: 6 },
      { word: 'shows', rank: 6 },
      { word: 'the', rank: 10 },
      { word: 'zeta', rank: 1 },
      { word: 'entries', rank: 7 },
    ]);
    // The ranks agree with the reference's own search with a larger max_results.
    for (const tool of r.tools) {
      expect(tool.reach.words).toHaveLength(tool.reach.words_tried);
      expect(tool.reach.words.filter((w) => w.rank !== null && w.rank <= 5)).toHaveLength(tool.reach.words_reaching);
      expect(tool.reach.words.filter((w) => w.rank !== null)).toHaveLength(tool.reach.words_matching);
    }
  });

  it('reach: a word that never returns the tool has rank null', () => {
    // "select:all" is sent as a selection of the tool "all", not as a keyword.
    const catalog = {
      tools: [
        {
          name: 'select:all',
          description: 'Select every row.',
          static: false,
          source: { file: 'x', line: 1, column: 1 },
        },
      ],
      sources: [{ file: 'x', format: 'toolsearch' as const }],
    };
    const t = lintCatalog(catalog).tools[0]!;
    expect(t.reach.words[0]).toEqual({ word: 'select:all', rank: null });
    expect(t.reach.words_matching).toBe(t.reach.words_tried - 1);
  });

  it('relates collisions and duplicates to the other tool', () => {
    const find = (name: string, rule: LintRule) =>
      r.tools.find((x) => x.name === name)!.findings.find((f) => f.rule === rule)!;
    expect(find('Fetch_Page', 'case-collision').related).toEqual(['fetch_page']);
    expect(find('sendMessage', 'identical-name-parts').related).toEqual(['send_message']);
    expect(find('archive_memo', 'duplicate-description').related).toEqual(['archive_note']);
    expect(find('browser-navigate', 'unsplit-separator').message).toBe(
      'the name part "browser-navigate" contains "-", which the reference does not split ' +
        'on: the keyword "navigate" scores 5 (inside the part), not 10',
    );
    expect(find('do_everything', 'long-description').message).toMatch(
      /^the description has 691 characters \(median 24\); it contains \d+ of the \d+ words/,
    );
  });

  it('orders the tools worst first: most errors, then most warnings, then by name', () => {
    const head = r.tools.slice(0, 7).map((t) => [t.name, t.errors, t.warnings]);
    expect(head).toEqual([
      ['fetch_page', 1, 1],
      ['Fetch_Page', 1, 0],
      ['___', 1, 0],
      ['list', 1, 0],
      ['z_get', 1, 0],
      ['send_message', 0, 2],
      ['_internal_sync', 0, 1],
    ]);
    expect(r.tools.at(-1)!.findings).toEqual([]);
  });

  it('sums up per rule', () => {
    expect(r.summary).toMatchObject({ tools: 25, errors: 5, warnings: 11, clean: 11, own_name_first: 21 });
    expect(r.summary.by_rule).toEqual({
      'own-name-missed': 1,
      'crowded-out': 1,
      'no-name-parts': 1,
      'case-collision': 2,
      'own-name-not-first': 2,
      'identical-name-parts': 2,
      'empty-name-pieces': 1,
      'giant-name-part': 1,
      'unsplit-separator': 1,
      'empty-description': 1,
      'duplicate-description': 2,
      'long-description': 1,
    });
  });
});

describe('lint: the demo catalog', () => {
  it('has no errors; the Notion names that keep hyphens are flagged', () => {
    const r = lintCatalog(loadCatalogFiles(['fixtures/catalogs/demo.yaml']));
    expect(r.summary.errors).toBe(0);
    expect(r.summary.by_rule['unsplit-separator']).toBe(8);
    expect(rulesOf(r, 'mcp__postgres__query')).toEqual(['own-name-not-first']);
  });
});
