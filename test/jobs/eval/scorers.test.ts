import { describe, expect, it } from 'vitest';
import { searchDecoded, ToolIndex, type ToolInfo } from '../../../src/core/index.js';
import { bm25Idf, bm25Term, createBm25Scorer } from '../../../src/jobs/eval/scorers/bm25.js';
import { createFuseScorer } from '../../../src/jobs/eval/scorers/fuse.js';
import { createRegexScorer, MAX_PATTERN_LENGTH } from '../../../src/jobs/eval/scorers/regex.js';
import { createSpecScorer } from '../../../src/jobs/eval/scorers/spec.js';
import { createScorer, SCORER_NAMES } from '../../../src/jobs/eval/scorers/index.js';
import { nameWords, textWords } from '../../../src/jobs/eval/words.js';

const t = (name: string, description = ''): ToolInfo => ({ name, description });

const CATALOG: ToolInfo[] = [
  t('mcp__slack__send_message', 'Send a message to a Slack channel.'),
  t('mcp__slack__list_channels', 'List the channels of the workspace.'),
  t('mcp__github__create_issue', 'Create a new issue in a GitHub repository.'),
  t('mcp__github__list_issues', 'List the issues of a repository.'),
  t('mcp__notion__notion-search', 'Search pages in the Notion workspace (c++ friendly).'),
  t('getURLMetadata', 'Title and description of a web page.'),
];

describe('words', () => {
  it('splits names like the reference, then at other separators', () => {
    expect(nameWords('mcp__github__createIssue')).toEqual(['mcp', 'github', 'create', 'issue']);
    expect(nameWords('mcp__notion__notion-create-pages')).toEqual(['mcp', 'notion', 'notion', 'create', 'pages']);
    expect(nameWords('getURLMetadata')).toEqual(['get', 'url', 'metadata']);
  });
  it('splits text at non-letters and lower-cases it the Go way', () => {
    expect(textWords('Send a message, to #eng! İstanbul')).toEqual(['send', 'a', 'message', 'to', 'eng', 'istanbul']);
    expect(textWords('GitHub')).toEqual(['github']);
    expect(textWords('  ')).toEqual([]);
  });
});

describe('spec scorer', () => {
  it('is the core search, cut at the requested depth', () => {
    const spec = createSpecScorer(CATALOG);
    const index = new ToolIndex(CATALOG);
    for (const q of ['slack message', 'list', '+github issue', 'select:getURLMetadata,nope', 'zzz']) {
      const out = searchDecoded(index, { query: q, maxResults: 3 });
      expect(spec.rank(q, 3)).toEqual(out.ok ? out.matches : []);
    }
  });
  it('returns nothing for the reference errors (an empty query)', () => {
    expect(createSpecScorer(CATALOG).rank('   ', 10)).toEqual([]);
  });
});

describe('bm25 scorer', () => {
  // A: [alpha] (length 1); B: [beta, alpha, alpha] (length 3); C: [gamma] (length 1). avgdl = 5/3.
  const tools = [t('alpha'), t('beta', 'alpha alpha'), t('gamma')];

  it('uses IDF ln(1 + (N - n + 0.5) / (n + 0.5)) and k1 = 1.2, b = 0.75', () => {
    const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5)); // ln 1.6
    expect(bm25Idf(3, 2)).toBeCloseTo(idf, 12);
    // A: f = 1, |D| = 1: 2.2 / (1 + 1.2 (0.25 + 0.75 · 1 / (5/3))) = 2.2 / 1.84
    expect(bm25Term(idf, 1, 1, 5 / 3)).toBeCloseTo((idf * 2.2) / 1.84, 12);
    const scores = createBm25Scorer(tools).scores('alpha');
    expect(scores.get('alpha')).toBeCloseTo((idf * 2.2) / 1.84, 12);
    // B: f = 2, |D| = 3: 2 · 2.2 / (2 + 1.2 (0.25 + 0.75 · 3 / (5/3))) = 4.4 / 3.92
    expect(scores.get('beta')).toBeCloseTo((idf * 4.4) / 3.92, 12);
    expect(scores.has('gamma')).toBe(false);
  });

  it('ranks by score (length normalization puts the short document first), drops zeros', () => {
    expect(createBm25Scorer(tools).rank('alpha', 10)).toEqual(['alpha', 'beta']);
    expect(createBm25Scorer(tools).rank('delta', 10)).toEqual([]);
  });

  it('keeps catalog order on ties and sums repeated query words', () => {
    const twins = [t('b_tool', 'x'), t('a_tool', 'x')];
    expect(createBm25Scorer(twins).rank('x', 10)).toEqual(['b_tool', 'a_tool']);
    const s = createBm25Scorer(tools);
    expect(s.scores('alpha alpha').get('alpha')).toBeCloseTo(2 * s.scores('alpha').get('alpha')!, 12);
  });

  it('matches name words split at hyphens and camelCase', () => {
    const s = createBm25Scorer(CATALOG);
    expect(s.rank('notion search', 1)).toEqual(['mcp__notion__notion-search']);
    expect(s.rank('url metadata', 1)).toEqual(['getURLMetadata']);
  });
});

describe('regex scorer', async () => {
  const re = await createRegexScorer(CATALOG);
  it('treats the query as a case-insensitive pattern over name and description', () => {
    expect(re.rank('^MCP__SLACK', 10)).toEqual(['mcp__slack__send_message', 'mcp__slack__list_channels']);
    expect(re.rank('issues?', 10)).toEqual(['mcp__github__create_issue', 'mcp__github__list_issues']);
  });
  it('puts name matches before description-only matches, each in catalog order', () => {
    // "channel" is in list_channels' name but only in send_message's description.
    expect(re.rank('channel', 10)).toEqual(['mcp__slack__list_channels', 'mcp__slack__send_message']);
  });
  it('a pattern RE2 rejects returns nothing and says why', () => {
    expect(re.rank('c++', 10)).toEqual([]);
    expect(re.rejects!('c++')).toBe('error parsing regexp: invalid nested repetition operator: `++`');
    expect(re.rank('(unclosed', 10)).toEqual([]);
    expect(re.rejects!('(unclosed')).toBe('error parsing regexp: missing closing ): `(unclosed`');
    // Lookaround and backreferences (Python re has them, RE2 does not).
    expect(re.rejects!('(?=x)')).not.toBeNull();
    expect(re.rejects!('(a)\\1')).not.toBeNull();
    expect(re.rejects!('slack')).toBeNull();
    expect(re.rejects!('')).toBeNull();
  });
  it('refuses patterns longer than 200 characters, and empty ones', () => {
    expect(re.rank('a'.repeat(MAX_PATTERN_LENGTH), 10)).toEqual([]);
    expect(re.rank(`slack|${'x'.repeat(MAX_PATTERN_LENGTH)}`, 10)).toEqual([]);
    expect(re.rejects!(`slack|${'x'.repeat(MAX_PATTERN_LENGTH)}`)).toBe('longer than 200 characters');
    expect(re.rank('slack', 1)).toEqual(['mcp__slack__send_message']);
    expect(re.rank('', 10)).toEqual([]);
  });
});

describe('fuse scorer', () => {
  it('tolerates a typo per word and ranks name hits first', async () => {
    const fuse = await createFuseScorer(CATALOG);
    expect((fuse.rank('slak mesage', 2) as string[])[0]).toBe('mcp__slack__send_message');
    expect(fuse.rank('create issue', 1)).toEqual(['mcp__github__create_issue']);
  });
  it('returns nothing for an empty query or a word found nowhere', async () => {
    const fuse = await createFuseScorer(CATALOG);
    expect(fuse.rank('  ', 10)).toEqual([]);
    expect(fuse.rank('zzzzqqqq', 10)).toEqual([]);
  });
});

describe('registry', () => {
  it('builds every scorer by name', async () => {
    expect(SCORER_NAMES).toEqual(['spec', 'fuse', 'bm25', 'regex']);
    for (const name of SCORER_NAMES) {
      const s = await createScorer(name, CATALOG);
      expect(s.name).toBe(name);
      expect(s.summary.length).toBeGreaterThan(10);
    }
  });
});

describe('regex scorer: patterns that backtrack forever elsewhere run in linear time (RE2)', () => {
  // In a backtracking engine (Python re, JavaScript RegExp) each of these takes exponential time on
  // these texts: '(a|a)*b' on 34 'a's ran past 120 s (issue 14, finding 6). The test timeout is the hang guard.
  it.each([
    ['(a|a)*b', 'a'.repeat(34)],
    ['(a+)+$', `${'a'.repeat(5000)}!`],
    ['(\\w*x)*y', 'x'.repeat(5000)],
    ['(?:[a-z]+\\s?)+$', `${'abc '.repeat(2000)}!`],
  ])('%s', { timeout: 10_000 }, async (pattern, text) => {
    const scorer = await createRegexScorer([t('1', text)]);
    expect(scorer.rejects!(pattern)).toBeNull();
    expect(scorer.rank(pattern, 10)).toEqual([]);
  });
});
