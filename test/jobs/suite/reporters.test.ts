/** The four reporters: human, JSON, JUnit (validated by parsing) and TAP. */
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../../../src/render/color.js';
import { renderTestHuman } from '../../../src/report/test-human.js';
import { renderTestJson } from '../../../src/report/test-json.js';
import { renderJUnit } from '../../../src/report/test-junit.js';
import { renderTap } from '../../../src/report/test-tap.js';
import { xmlAttr, xmlText } from '../../../src/report/xml.js';
import { runSuites } from '../../../src/jobs/suite/run.js';
import type { CaseResult, TestReport } from '../../../src/jobs/suite/types.js';
import { parseXml, type XmlElement } from './xml.js';

const plain = createStyle(false);
const failing = runSuites(['fixtures/suites/failing/search-failures.yaml']).report;
const passing = runSuites(['fixtures/suites/select.json']).report;

/** Text with everything a report must survive: markup, quotes, controls, escapes, a lone surrogate, a bidi override. */
const HOSTILE = 'a <b> & "c" \'d\' ]]> \x1b[31mred\x1b[0m \x00 \ud800 \u202e tab\tnl\nend';

function hostileReport(): TestReport {
  const loc = { file: 'suite <&>.yaml', line: 3, column: 5 };
  const failed: CaseResult = {
    name: HOSTILE,
    kind: 'search',
    status: 'failed',
    location: loc,
    duration_ms: 1.23456,
    skip_reason: null,
    failures: [
      {
        expectation: 'first',
        message: `expected ${HOSTILE} first`,
        expected: HOSTILE,
        actual: null,
        standings: [],
        notes: [HOSTILE],
      },
    ],
    got: {
      engine: 'eino',
      mode: 'keyword',
      query: HOSTILE,
      max_results: 5,
      matches: [HOSTILE],
      scores: [10],
      total_matches: 1,
      error: null,
    },
    updated: false,
  };
  const skipped: CaseResult = {
    ...failed,
    name: `${HOSTILE} (skipped)`,
    status: 'skipped',
    skip_reason: HOSTILE,
    failures: [],
    got: null,
    duration_ms: 0,
  };
  return {
    suites: [
      {
        file: loc.file,
        name: HOSTILE,
        catalog: 'c.yaml',
        duration_ms: 2,
        cases: [failed, skipped],
        error: null,
        updated: false,
      },
    ],
    summary: { total: 2, passed: 0, failed: 1, skipped: 1, errors: 0, updated: 0, duration_ms: 2 },
  };
}

const children = (el: XmlElement, name: string): XmlElement[] => el.children.filter((c) => c.name === name);

describe('human reporter', () => {
  it('ends with exactly "N passed, N failed" plus ", N skipped" when any', () => {
    expect(renderTestHuman(failing, { style: plain }).at(-1)).toBe('1 passed, 9 failed, 1 skipped');
    expect(renderTestHuman(passing, { style: plain }).at(-1)).toBe('3 passed, 0 failed');
  });

  it('shows each failure with expected vs. got, ranks and scores', () => {
    const out = renderTestHuman(failing, { style: plain });
    const at = out.findIndex((l) => l.includes('✗ first is a tie lost on the name'));
    expect(out.slice(at, at + 9)).toEqual([
      '  ✗ first is a tie lost on the name fixtures/suites/failing/search-failures.yaml:9:5',
      '      first: expected mcp__github__create_issue first, got mcp__atlassian__createJiraIssue',
      '        mcp__github__create_issue: rank 2, score 20',
      '      got (keyword, max_results 5, 36 tools match in all):',
      '         1. mcp__atlassian__createJiraIssue (20)',
      '         2. mcp__github__create_issue (20)',
      '         3. mcp__linear__create_issue (20)',
      '         4. mcp__linear__create_comment (12)',
      '         5. mcp__atlassian__addCommentToJiraIssue (10)',
    ]);
    expect(out[0]).toBe(
      'fixtures/suites/failing/search-failures.yaml — failing ' +
        'expectations (11 cases, catalog fixtures/catalogs/demo.yaml)',
    );
    expect(out).toContain('  ✓ passes');
    expect(out).toContain('  - skipped <with> "markup" & a #hash (skipped)');
  });

  it('never writes control characters from suites raw', () => {
    const text = renderTestHuman(hostileReport(), { style: plain }).join('\n');
    expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    expect(text).toContain('\\x1b[31mred');
  });
});

describe('JSON reporter', () => {
  it('is the report, durations rounded, terminal-unsafe characters escaped but intact', () => {
    const raw = renderTestJson(hostileReport());
    expect(raw).not.toMatch(/[\u202e\u007f-\u009f]/);
    const back = JSON.parse(raw) as TestReport;
    expect(back.suites[0]!.cases[0]!.name).toBe(HOSTILE);
    expect(back.suites[0]!.cases[0]!.duration_ms).toBe(1.235);
    expect(back.summary).toEqual({ total: 2, passed: 0, failed: 1, skipped: 1, errors: 0, updated: 0, duration_ms: 2 });
    const real = JSON.parse(renderTestJson(failing)) as TestReport;
    expect(real.suites[0]!.cases.map((c) => c.status)).toEqual([
      'passed',
      ...Array(8).fill('failed'),
      'skipped',
      'failed',
    ]);
  });
});

describe('JUnit reporter', () => {
  it('is well-formed XML with the counts CI systems read', () => {
    const root = parseXml(renderJUnit(failing));
    expect(root.name).toBe('testsuites');
    expect(root.attrs).toMatchObject({ name: 'toolsearch', tests: '11', failures: '9', errors: '0' });
    expect(root.attrs.skipped).toBeUndefined(); // not in the Jenkins schema: the count is on the <testsuite>
    expect(root.attrs.time).toMatch(/^\d+\.\d{3}$/);
    const [suite] = children(root, 'testsuite');
    expect(suite!.attrs).toMatchObject({
      name: 'failing expectations',
      tests: '11',
      failures: '9',
      skipped: '1',
      file: 'fixtures/suites/failing/search-failures.yaml',
    });
    const cases = children(suite!, 'testcase');
    expect(cases).toHaveLength(11);
    expect(cases[0]!.attrs).toMatchObject({
      name: 'passes',
      classname: 'fixtures/suites/failing/search-failures',
      file: 'fixtures/suites/failing/search-failures.yaml',
      line: '5',
    });
    expect(cases[0]!.children).toEqual([]);
    const failure = children(cases[1]!, 'failure')[0]!;
    expect(failure.attrs).toEqual({
      message: 'expected mcp__github__create_issue first, got mcp__atlassian__createJiraIssue',
      type: 'first',
    });
    expect(failure.text.split('\n').slice(0, 3)).toEqual([
      'fixtures/suites/failing/search-failures.yaml:9:5',
      'first: expected mcp__github__create_issue first, got mcp__atlassian__createJiraIssue',
      '  mcp__github__create_issue: rank 2, score 20',
    ]);
    expect(cases.filter((c) => children(c, 'failure').length === 1)).toHaveLength(9);
    const skipped = cases.filter((c) => children(c, 'skipped').length === 1);
    expect(skipped.map((c) => c.attrs.name)).toEqual(['skipped <with> "markup" & a #hash']);
    // Two failures in one case: the message says so.
    expect(children(cases[10]!, 'failure')[0]!.attrs.message).toBe(
      'call 2: expected visible: mcp__google_calendar__list_events (and 1 more)',
    );
  });

  it('escapes hostile names: markup round-trips, forbidden characters become visible escapes', () => {
    const xml = renderJUnit(hostileReport());
    const root = parseXml(xml);
    const [suite] = children(root, 'testsuite');
    const visible = HOSTILE.replace('\x1b', '\\x1b')
      .replace('\x1b', '\\x1b')
      .replace('\x00', '\\x00')
      .replace('\ud800', '\\ud800');
    expect(suite!.attrs.name).toBe(visible);
    expect(suite!.attrs.file).toBe('suite <&>.yaml');
    const [failed, skipped] = children(suite!, 'testcase');
    // Attributes keep tabs and line breaks (written as character references).
    expect(failed!.attrs.name).toBe(visible);
    // The failure body is the human account (terminal-escaped: \t, \n, bidi controls shown as escapes).
    const body = children(failed!, 'failure')[0]!.text;
    expect(body).toContain('first: expected a <b> & "c" \'d\' ]]> \\x1b[31mred');
    expect(body).not.toMatch(/[\x00-\x08\x0b-\x1f\u202e]/);
    expect(children(skipped!, 'skipped')[0]!.attrs.message).toBe(visible);
  });

  it('xmlText and xmlAttr escape exactly what they must', () => {
    expect(xmlText('a<b>&c"\'')).toBe('a&lt;b&gt;&amp;c"\'');
    expect(xmlAttr('a<b>&c"\'\n\t')).toBe("a&lt;b&gt;&amp;c&quot;'&#10;&#9;");
    expect(xmlText('\x01\ufffe\udc00ok\u{1f600}')).toBe('\\x01\\ufffe\\udc00ok\u{1f600}');
  });
});

describe('TAP reporter', () => {
  it('is TAP version 13: a plan, one point per case, YAML diagnostics for failures', () => {
    const lines = renderTap(failing).trimEnd().split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'TAP version 13',
      '1..11',
      '# fixtures/suites/failing/search-failures.yaml',
      'ok 1 - passes',
    ]);
    const points = lines.filter((l) => /^(not )?ok \d+ /.test(l));
    expect(points.map((l) => Number(/ok (\d+)/.exec(l)![1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(points.filter((l) => l.startsWith('not ok'))).toHaveLength(9);
    expect(points[9]).toBe('ok 10 - skipped <with> "markup" & a \\#hash # SKIP');
    expect(lines.at(-1)).toBe('# 1 passed, 9 failed, 1 skipped');
    // Every diagnostic block is valid YAML.
    const blocks: string[] = [];
    let cur: string[] | null = null;
    for (const l of lines) {
      if (l === '  ---') cur = [];
      else if (l === '  ...') {
        blocks.push(cur!.join('\n'));
        cur = null;
      } else if (cur) cur.push(l.slice(2));
    }
    expect(blocks).toHaveLength(9);
    const first = parseYaml(blocks[0]!) as Record<string, unknown>;
    expect(first).toMatchObject({
      message: 'expected mcp__github__create_issue first, got mcp__atlassian__createJiraIssue',
      severity: 'fail',
      at: 'fixtures/suites/failing/search-failures.yaml:9:5',
      failures: [
        { expectation: 'first', expected: 'mcp__github__create_issue', actual: 'mcp__atlassian__createJiraIssue' },
      ],
    });
    expect((first.details as string[])[1]).toBe('  mcp__github__create_issue: rank 2, score 20');
  });

  it('keeps hostile names on one line and decodes them back from the YAML', () => {
    const tap = renderTap(hostileReport());
    expect(tap).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    const lines = tap.split('\n');
    expect(lines[3]!.startsWith('not ok 1 - a <b> & "c"')).toBe(true);
    expect(lines.find((l) => l.startsWith('ok 2 - '))).toMatch(/ # SKIP /);
    const block = tap.slice(tap.indexOf('  ---\n') + 6, tap.indexOf('  ...')).replace(/^ {2}/gm, '');
    expect((parseYaml(block) as { failures: Array<{ expected: string }> }).failures[0]!.expected).toBe(HOSTILE);
  });
});
