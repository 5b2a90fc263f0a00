/** Running suites: statuses, and failures that say expected vs. got with ranks and scores. */
import { describe, expect, it } from 'vitest';
import { runSuites } from '../../../src/jobs/suite/run.js';
import type { CaseResult, TestReport } from '../../../src/jobs/suite/types.js';

const byName = (r: TestReport, name: string): CaseResult => {
  const c = r.suites.flatMap((s) => s.cases).find((x) => x.name === name);
  if (!c) throw new Error(`no case ${name}`);
  return c;
};

describe('the shipped suites pass', () => {
  it('demo.yaml, conversations.yaml and select.json', () => {
    const r = runSuites([
      'fixtures/suites/demo.yaml',
      'fixtures/suites/conversations.yaml',
      'fixtures/suites/select.json',
    ]).report;
    expect(r.summary).toMatchObject({ total: 23, passed: 22, failed: 0, skipped: 1, updated: 0 });
    expect(r.suites.map((s) => [s.file, s.catalog, s.updated])).toEqual([
      ['fixtures/suites/demo.yaml', 'fixtures/catalogs/demo.yaml', false],
      ['fixtures/suites/conversations.yaml', 'fixtures/catalogs/demo.yaml', false],
      ['fixtures/suites/select.json', 'fixtures/catalogs/demo.yaml', false],
    ]);
  });

  it('records what each case got', () => {
    const r = runSuites(['fixtures/suites/demo.yaml', 'fixtures/suites/conversations.yaml']).report;
    expect(byName(r, 'max_results limits the result').got).toEqual({
      engine: 'eino',
      mode: 'keyword',
      query: 'read file',
      max_results: 3,
      matches: ['mcp__filesystem__read_file', 'mcp__gdrive__gdrive_read_file', 'mcp__filesystem__read_multiple_files'],
      scores: [20, 20, 15],
      total_matches: 31,
      error: null,
    });
    expect(byName(r, 'an empty query is an error').got).toMatchObject({
      mode: 'error',
      error: 'query is required',
      matches: [],
    });
    expect(byName(r, 'select keeps the order given and skips unknown names').got).toMatchObject({
      mode: 'select',
      scores: null,
    });
    expect(byName(r, 'keyword search, then the Slack tools are visible').got).toEqual({
      engine: 'eino',
      mode: 'default',
      calls: 4,
      errors: 0,
      warnings: 0,
      replay_differences: 0,
    });
    const skipped = byName(r, 'hyphenated Notion names only match inside a part');
    expect(skipped).toMatchObject({ status: 'skipped', got: null, failures: [], duration_ms: 0 });
  });
});

describe('failures: expected vs. got', () => {
  const r = runSuites(['fixtures/suites/failing/search-failures.yaml']).report;

  it('counts passed, failed and skipped', () => {
    expect(r.summary).toMatchObject({ total: 11, passed: 1, failed: 9, skipped: 1 });
  });

  it('first: the tie lost on the name, with rank and score', () => {
    const c = byName(r, 'first is a tie lost on the name');
    expect(c.status).toBe('failed');
    expect(c.location).toEqual({ file: 'fixtures/suites/failing/search-failures.yaml', line: 9, column: 5 });
    expect(c.failures).toEqual([
      {
        expectation: 'first',
        message: 'expected mcp__github__create_issue first, got mcp__atlassian__createJiraIssue',
        expected: 'mcp__github__create_issue',
        actual: 'mcp__atlassian__createJiraIssue',
        standings: [{ name: 'mcp__github__create_issue', status: 'returned', rank: 2, score: 20, excluded_by: null }],
        notes: [],
      },
    ]);
  });

  it('includes: a tool beyond max_results, at its rank in the full ranking', () => {
    const f = byName(r, 'includes a tool beyond max_results').failures;
    expect(f.map((x) => x.message)).toEqual(['expected this tool to be returned: mcp__slack__list_channels']);
    expect(f[0]!.standings).toEqual([
      { name: 'mcp__slack__list_channels', status: 'beyond-limit', rank: 10, score: 10, excluded_by: null },
    ]);
  });

  it('excludes, exact, rank_at_most, none', () => {
    expect(byName(r, 'excludes a returned tool').failures[0]!.standings[0]).toMatchObject({
      status: 'returned',
      rank: 2,
      score: 20,
    });
    const exact = byName(r, 'exact with the wrong order').failures[0]!;
    expect(exact.expected).toEqual(['mcp__gdrive__gdrive_read_file', 'mcp__filesystem__read_file']);
    expect(exact.actual).toEqual(['mcp__filesystem__read_file', 'mcp__gdrive__gdrive_read_file']);
    const ram = byName(r, 'rank_at_most with a tool a required keyword excludes').failures[0]!;
    expect(ram.standings).toEqual([
      { name: 'mcp__github__add_issue_comment', status: 'excluded', rank: null, score: 0, excluded_by: 'slack' },
    ]);
    expect(byName(r, 'none but something matches').failures[0]!.message).toBe('expected no result, got 1');
  });

  it('error: expected but absent, and present but not expected', () => {
    expect(byName(r, 'an error was expected').failures[0]!.message).toBe(
      'expected an error containing "query is required", got 5 results',
    );
    expect(byName(r, 'an unexpected error').failures.map((f) => f.message)).toEqual([
      'the search returned an error: failed to unmarshal tool search arguments: json: cannot ' +
        'unmarshal number into Go struct field toolSearchArgs.query of type string',
    ]);
  });

  it('simulate: visible_at and no_violations, with the visible list and the violation', () => {
    const c = byName(r, 'a visible_at that does not hold');
    expect(c.failures.map((f) => f.expectation)).toEqual(['visible_at', 'no_violations']);
    expect(c.failures[0]!.notes).toEqual([
      'visible at call 2: [get_current_time, ask_user, read_todo_list, write_todo_list, think, tool_search]',
    ]);
    expect(c.failures[1]!.notes[0]).toMatch(/^call 2: not-loaded mcp__google_calendar__list_events: /);
  });
});

describe('simulate cases against a changed catalog', () => {
  it('same_as_recorded fails with the recorded and replayed results', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-replay-'));
    const f = join(dir, 'replay.yaml');
    const root = process.cwd();
    writeFileSync(
      f,
      `catalog: ${root}/fixtures/catalogs/demo-v2.yaml
cases:
  - name: stale after the catalog change
    transcript: ${root}/fixtures/transcripts/stale-after-catalog-change.json
    same_as_recorded: true
  - name: a call that does not exist
    transcript: ${root}/fixtures/transcripts/stale-after-catalog-change.json
    visible_at: {call: 99, includes: [tool_search]}
`,
    );
    const r = runSuites([f]).report;
    const stale = r.suites[0]!.cases[0]!;
    expect(stale.status).toBe('failed');
    expect(stale.failures[0]!.message).toBe('2 recorded tool_search results differ from a fresh search');
    expect(stale.failures[0]!.notes.some((n) => n.startsWith('  recorded: [mcp__filesystem__read_file'))).toBe(true);
    expect(stale.got).toMatchObject({ replay_differences: 2 });
    expect(r.suites[0]!.cases[1]!.failures[0]!.message).toMatch(
      /^call 99 does not exist: the conversation has \d+ model calls$/,
    );
  });
});

describe('JavaScript object keys are ordinary names', () => {
  it('runs cases over tools named __proto__, constructor and toString', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-proto-'));
    writeFileSync(
      join(dir, 'cat.json'),
      JSON.stringify({
        tools: [
          { name: '__proto__', description: 'proto tool' },
          { name: 'constructor', description: 'builds' },
          { name: 'toString', description: 'to a string' },
        ],
      }),
    );
    const f = join(dir, 'suite.yaml');
    writeFileSync(
      f,
      `catalog: cat.json
cases:
  - name: __proto__
    query: proto
    first: __proto__
    rank_at_most: {__proto__: 1, constructor: 5}
  - name: constructor
    select: [constructor, toString, hasOwnProperty]
    exact: [constructor, toString]
`,
    );
    const r = runSuites([f]).report;
    expect(r.suites[0]!.cases.map((c) => [c.name, c.status])).toEqual([
      ['__proto__', 'failed'],
      ['constructor', 'passed'],
    ]);
    const fail = r.suites[0]!.cases[0]!.failures[0]!;
    expect(fail.expectation).toBe('rank_at_most');
    expect(Object.keys(fail.expected as object)).toEqual(['constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
