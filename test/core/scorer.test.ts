import { describe, expect, it } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { parseKeywords, prepareTool, RULES, scoreKeyword } from '../../src/core/scorer.js';
import type { ToolInfo } from '../../src/core/types.js';

const t = (name: string, description = ''): ToolInfo => ({ name, description });
const rank = (tools: ToolInfo[], query: string, max = 10) =>
  new ToolIndex(tools).search(parseKeywords(query), max).map((r) => [r.name, r.score]);

describe('the rule table', () => {
  it("has the reference's points", () => {
    expect(Object.fromEntries(Object.entries(RULES).map(([k, v]) => [k, v.points]))).toEqual({
      'exact-part': 10,
      'part-substring': 5,
      'name-substring': 3,
      description: 2,
      none: 0,
    });
  });
});

describe('keyword scoring, one rule at a time', () => {
  const tools = [
    t('mcp__github__create_issue', 'Create a new issue in a GitHub repository'),
    t('mcp__linear__createIssue', 'Create a Linear issue'),
    t('list_issues', ''),
    t('issuetracker_sync', 'Sync trackers'),
  ];
  it.each<[string, string, Array<[string, number]>]>([
    // exact part (10) beats part substring (5): "issue" equals a part of create_issue / createIssue (Issue
    // lower-cased).
    [
      'exact part',
      'issue',
      [
        ['mcp__github__create_issue', 10],
        ['mcp__linear__createIssue', 10],
        ['issuetracker_sync', 5],
        ['list_issues', 5],
      ],
    ],
    // "issues" is inside no part except list_issues' "issues" (exact) — others only via description? none contain
    // "issues".
    ['exact part only for the plural', 'issues', [['list_issues', 10]]],
    // "b__c" only matches across the __ separator: full-name substring (3).
    ['full-name substring across a separator', 'b__c', [['mcp__github__create_issue', 3]]],
    // description only (2).
    ['description only', 'repository', [['mcp__github__create_issue', 2]]],
    // empty description never matches.
    [
      'the maximum rule, not the sum',
      'create',
      [
        ['mcp__github__create_issue', 10],
        ['mcp__linear__createIssue', 10],
      ],
    ],
    [
      'sum over keywords',
      'create github',
      [
        ['mcp__github__create_issue', 20],
        ['mcp__linear__createIssue', 10],
      ],
    ],
    [
      'keywords are lower-cased',
      'CREATE',
      [
        ['mcp__github__create_issue', 10],
        ['mcp__linear__createIssue', 10],
      ],
    ],
    ['required keyword excludes tools scoring 0 for it', '+linear create', [['mcp__linear__createIssue', 20]]],
    ['zero total is dropped', 'zzz', []],
  ])('%s: %j', (_name, query, expected) => {
    expect(rank(tools, query)).toEqual(expected);
  });
});

describe('explanations come from the same computation', () => {
  it('names the rule, the part and the points per keyword', () => {
    const index = new ToolIndex([
      t('mcp__slack__send_message', 'Send a message to a Slack channel'),
      t('HTMLParser', 'Parse HTML pages'),
    ]);
    const results = index.search(parseKeywords('+slack mess channel'), 5, { explain: true });
    expect(results).toEqual([
      {
        name: 'mcp__slack__send_message',
        score: 17,
        explain: [
          { keyword: 'slack', required: true, rule: 'exact-part', part: 'slack', points: 10 },
          { keyword: 'mess', required: false, rule: 'part-substring', part: 'message', points: 5 },
          { keyword: 'channel', required: false, rule: 'description', part: null, points: 2 },
        ],
      },
    ]);
    const html = index.search(parseKeywords('parser lparse'), 5, { explain: true });
    expect(html[0]!.explain).toEqual([
      { keyword: 'parser', required: false, rule: 'exact-part', part: 'Parser', points: 10 },
      { keyword: 'lparse', required: false, rule: 'name-substring', part: null, points: 3 },
    ]);
  });

  it('explains a tool that is not returned, and why', () => {
    const index = new ToolIndex([
      t('mcp__slack__send_message', 'Send a message'),
      t('mcp__github__create_issue', 'Create an issue'),
    ]);
    const why = index.explainTool('mcp__github__create_issue', parseKeywords('+slack issue'));
    expect(why).toEqual({
      name: 'mcp__github__create_issue',
      score: 0,
      excludedBy: 'slack',
      keywords: [
        { keyword: 'slack', required: true, rule: 'none', part: null, points: 0 },
        { keyword: 'issue', required: false, rule: 'exact-part', part: 'issue', points: 10 },
      ],
    });
    expect(index.explainTool('nope', parseKeywords('x'))).toBeUndefined();
  });
});

describe('Go text semantics inside the scorer (SPEC §5)', () => {
  it('U+0085 and U+3000 separate keywords; U+FEFF does not', () => {
    const tools = [t('alpha_beta')];
    expect(rank(tools, 'alpha\u0085beta')).toEqual([['alpha_beta', 20]]);
    expect(rank(tools, 'alpha\u3000beta')).toEqual([['alpha_beta', 20]]);
    expect(rank(tools, 'alpha\ufeffbeta')).toEqual([]);
  });

  it('İ lower-cases to i, so "istanbul" finds İstanbul_tool (JS toLowerCase would not)', () => {
    expect(rank([t('İstanbul_weather')], 'istanbul')).toEqual([['İstanbul_weather', 10]]);
    expect(rank([t('İstanbul_weather')], 'İSTANBUL')).toEqual([['İstanbul_weather', 10]]);
  });

  it('a word-final Σ lower-cases to σ in names and keywords', () => {
    expect(rank([t('ΟΔΟΣ_map')], 'οδοσ')).toEqual([['ΟΔΟΣ_map', 10]]);
    expect(rank([t('map_tool', 'ΟΔΟΣ guide')], 'οδοσ')).toEqual([['map_tool', 2]]);
  });

  it('ties sort by UTF-8 bytes: astral names after U+FF01', () => {
    const tools = [t('x_\u{10400}'), t('x_\uff01'), t('x_z'), t('x_A')];
    expect(rank(tools, 'x').map(([n]) => n)).toEqual(['x_A', 'x_z', 'x_\uff01', 'x_\u{10400}']);
  });

  it('astral upper-case letters split camelCase as one code point', () => {
    const index = new ToolIndex([t('\u{10428}\u{10400}\u{10428}')]);
    expect(index.partsOf('\u{10428}\u{10400}\u{10428}')).toEqual(['\u{10428}', '\u{10400}\u{10428}']);
  });

  it('__proto__, constructor and toString are ordinary tool names', () => {
    const tools = [t('__proto__', 'prototype trap'), t('constructor'), t('toString')];
    expect(rank(tools, 'proto')).toEqual([['__proto__', 10]]);
    expect(rank(tools, 'constructor')).toEqual([['constructor', 10]]);
    const index = new ToolIndex(tools);
    expect(index.has('hasOwnProperty')).toBe(false);
    expect(index.get('__proto__')).toEqual(tools[0]);
  });

  it('duplicate names are rejected when building an index', () => {
    expect(() => new ToolIndex([t('a'), t('a')])).toThrow('duplicate dynamic tool name: a');
  });
});

describe('parseKeywords', () => {
  it.each<[string, Array<[string, boolean]>]>([
    [
      '+slack send',
      [
        ['slack', true],
        ['send', false],
      ],
    ],
    ['++x', [['+x', true]]],
    ['+ a +', [['a', false]]],
    ['  ', []],
    [
      'A\u2029B',
      [
        ['A', false],
        ['B', false],
      ],
    ],
  ])('%j', (q, expected) => {
    expect(parseKeywords(q).map((k) => [k.word, k.required])).toEqual(expected);
  });
});

describe('scoreKeyword: the one scoring computation, as a value', () => {
  const tool = prepareTool(t('mcp__github__createIssue', 'Open a new issue'));
  it.each<[string, { rule: string; part: string | null; points: number }]>([
    // equals the part "Issue" once lower-cased: the part is named as written
    ['issue', { rule: 'exact-part', part: 'Issue', points: 10 }],
    // inside the part "github"
    ['hub', { rule: 'part-substring', part: 'github', points: 5 }],
    // across the boundary of "create" and "Issue"
    ['tei', { rule: 'name-substring', part: null, points: 3 }],
    // only in the description
    ['open', { rule: 'description', part: null, points: 2 }],
    // nowhere
    ['zzz', { rule: 'none', part: null, points: 0 }],
  ])('%s', (kw, expected) => {
    expect(scoreKeyword(tool, kw)).toEqual(expected);
    // every points value is the rule's, from the one table
    expect(scoreKeyword(tool, kw).points).toBe(RULES[expected.rule as keyof typeof RULES].points);
  });

  it('an empty description contains nothing, not even the empty keyword', () => {
    const bare = prepareTool(t('x', ''));
    expect(scoreKeyword(bare, 'y')).toEqual({ rule: 'none', part: null, points: 0 });
    expect(scoreKeyword(prepareTool(t('', '')), '')).toEqual({ rule: 'name-substring', part: null, points: 3 });
  });
});
