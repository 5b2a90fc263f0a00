// `test -c <candidate>` where the candidate lacks a tool a case names, end to
// end through the BUILT CLI (`npm run build` first; NO_COLOR=1). The suite
// is valid (the name is a tool of its own catalog): against the candidate the
// expectation does not hold, so the case FAILS (exit 1) naming the missing
// tool, the other cases run, and no suite is invalid, in every reporter.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { DEMO, lines, ROOT, run } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-candidate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// The candidate drops mcp__atlassian__createJiraIssue (and everything else but three tools).
const CANDIDATE = join(tmp, 'candidate.yaml');
writeFileSync(
  CANDIDATE,
  [
    'tools:',
    '  - {name: mcp__github__create_issue, description: Create a new issue in a GitHub repository}',
    '  - {name: mcp__linear__create_issue, description: Create an issue in Linear}',
    '  - {name: think, description: think, static: true}',
    '',
  ].join('\n'),
);
const SUITE = join(tmp, 'suite.yaml');
writeFileSync(
  SUITE,
  [
    `catalog: ${JSON.stringify(join(ROOT, DEMO))}`,
    'cases:',
    '  - name: github first, jira returned too',
    '    query: github create issue',
    '    first: mcp__github__create_issue',
    '    includes: [mcp__atlassian__createJiraIssue]',
    '  - name: linear first',
    '    query: linear create issue',
    '    first: mcp__linear__create_issue',
    '',
  ].join('\n'),
);
const STATIC_SUITE = join(tmp, 'static.yaml');
writeFileSync(
  STATIC_SUITE,
  [
    `catalog: ${JSON.stringify(join(ROOT, DEMO))}`,
    'cases:',
    '  - name: a tool static in the candidate',
    '    query: linear create issue',
    '    excludes: [mcp__slack__send_message]',
    '',
  ].join('\n'),
);
const MISSING = '"mcp__atlassian__createJiraIssue" is not a tool of the candidate catalog (-c)';

describe('test -c: a tool the candidate lacks is a failed case, not an invalid suite', () => {
  it('against its own catalog the suite passes', async () => {
    const r = await run(['test', SUITE]);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout).at(-1)).toBe('2 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('human: the case fails naming the missing tool, the other case passes (exit 1)', async () => {
    const r = await run(['test', SUITE, '-c', CANDIDATE]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('fail: 1 of 2 cases failed\n');
    const out = lines(r.stdout);
    expect(out[0]).toBe(`${SUITE} (2 cases, catalog ${CANDIDATE})`);
    expect(out[1]).toBe(`  ✗ github first, jira returned too ${SUITE}:3:5`);
    expect(out[2]).toBe(`      includes: ${MISSING}`);
    expect(out).toContain('  ✓ linear first');
    expect(out.at(-1)).toBe('1 passed, 1 failed');
  });

  it('json: a failure with the expectation key and the missing name; no suite error', async () => {
    const r = await run(['test', SUITE, '-c', CANDIDATE, '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.summary).toMatchObject({ total: 2, passed: 1, failed: 1, errors: 0 });
    expect(report.suites[0].error).toBeNull();
    const [first, second] = report.suites[0].cases;
    expect(first.status).toBe('failed');
    expect(first.failures[0]).toEqual({
      expectation: 'includes',
      message: MISSING,
      expected: 'mcp__atlassian__createJiraIssue',
      actual: null,
      standings: [],
      notes: [],
    });
    // The case still ran: what the candidate returned is in the report.
    expect(first.got.matches).toEqual(['mcp__github__create_issue', 'mcp__linear__create_issue']);
    expect(second.status).toBe('passed');
  });

  it('tap: not ok for the case, ok for the other', async () => {
    const r = await run(['test', SUITE, '-c', CANDIDATE, '--reporter', 'tap']);
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    expect(out.slice(0, 4)).toEqual([
      'TAP version 13',
      '1..2',
      `# ${SUITE}`,
      'not ok 1 - github first, jira returned too',
    ]);
    expect(out).toContain(`    - "includes: ${MISSING.replace(/"/g, '\\"')}"`);
    expect(out).toContain('ok 2 - linear first');
    expect(out.some((l) => l.startsWith('not ok 2'))).toBe(false);
  });

  it('junit: a <failure> (no <error>), valid against the Jenkins schema', async () => {
    const out = join(tmp, 'reports', 'junit.xml');
    const r = await run(['test', SUITE, '-c', CANDIDATE, '--reporter', 'junit', '--output', out]);
    expect(r.code).toBe(1);
    const xml = readFileSync(out, 'utf8');
    expect(xml).toContain('tests="2" failures="1" errors="0"');
    expect(xml).toContain(
      '<failure message="&quot;mcp__atlassian__createJiraIssue&quot; is not a tool of the candidate catalog (-c) ' +
        '(and 1 more)" type="includes">',
    );
    expect(xml).not.toContain('<error');
    const xsd = readFileSync(new URL('../../fixtures/junit/jenkins-junit-10.xsd', import.meta.url), 'utf8');
    const v = await validateXML({
      xml: { fileName: 'junit.xml', contents: xml },
      schema: { fileName: 'junit.xsd', contents: xsd },
    });
    expect(v.errors).toEqual([]);
  });

  it('a tool static in the candidate: a failure saying so; without -c a typo is still an invalid suite', async () => {
    const cand = join(tmp, 'static-candidate.yaml');
    writeFileSync(
      cand,
      'tools:\n  - {name: mcp__linear__create_issue, description: Create an issue in Linear}\n' +
        '  - {name: mcp__slack__send_message, description: send, static: true}\n',
    );
    const r = await run(['test', STATIC_SUITE, '-c', cand, '--json']);
    expect(r.code).toBe(1);
    const [c] = JSON.parse(r.stdout).suites[0].cases;
    expect(c.failures.map((f: { message: string }) => f.message)).toEqual([
      '"mcp__slack__send_message" is a static tool of the candidate catalog (-c); static tools are never searched',
    ]);
    // The suite's own typo, against its own catalog: still exit 2, located.
    const typo = join(tmp, 'typo.yaml');
    writeFileSync(
      typo,
      `catalog: ${JSON.stringify(join(ROOT, DEMO))}\ncases:\n  - name: ` +
        `t\n    query: x\n    excludes: [mcp__github__create_isue]\n`,
    );
    const own = await run(['test', typo]);
    expect(own.code).toBe(2);
    expect(lines(own.stderr)[0]).toBe(
      `error: ${typo}:5:16: case "t": "mcp__github__create_isue" is not a tool of the catalog ` +
        '(did you mean mcp__github__create_issue?)',
    );
  });
});
