/** `toolsearch test` end to end: the built CLI, exit codes, reporters, --output, --update. */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { lines, run } from '../../cli/helpers.js';
import { runIn } from './inproc.js';
import { parseXml } from './xml.js';

describe.concurrent('toolsearch test', () => {
  it('exit 0 when every case passes; the last line is the summary', async ({ expect }) => {
    const r = await run([
      'test',
      'fixtures/suites/demo.yaml',
      'fixtures/suites/conversations.yaml',
      'fixtures/suites/select.json',
    ]);
    expect(r.stderr).toBe('');
    expect(lines(r.stdout).at(-1)).toBe('22 passed, 0 failed, 1 skipped');
    expect(r.code).toBe(0);
  });

  it('expands a quoted glob itself (the README CI line)', async ({ expect }) => {
    const r = await runIn(['test', 'fixtures/suites/*.yaml', '--reporter', 'tap']);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['TAP version 13', '1..20']);
    expect(r.code).toBe(0);
  });

  it('exit 1 when a case fails, with the failure count on stderr', async ({ expect }) => {
    const r = await run(['test', 'fixtures/suites/failing/search-failures.yaml']);
    expect(lines(r.stdout).at(-1)).toBe('1 passed, 9 failed, 1 skipped');
    expect(r.stdout).toContain('        mcp__slack__list_channels: rank 10, score 10: beyond max_results 5');
    expect(r.stderr).toBe('fail: 9 of 11 cases failed\n');
    expect(r.code).toBe(1);
  });

  it('exit 2 for an invalid suite, with file:line:column and the caret, after the other suites ran', async ({
    expect,
  }) => {
    const r = await run(['test', 'fixtures/suites/demo.yaml', 'fixtures/suites/invalid/unknown-key.yaml']);
    expect(lines(r.stdout).slice(-4)).toEqual([
      'fixtures/suites/invalid/unknown-key.yaml invalid suite, not run:',
      '  ✗ fixtures/suites/invalid/unknown-key.yaml:5:5: unknown key "include" in a ' +
        'search case "a typo in an expectation" (did you mean "includes"?)',
      '',
      '13 passed, 0 failed, 1 skipped, 1 invalid suite',
    ]);
    expect(lines(r.stderr)).toEqual([
      'error: fixtures/suites/invalid/unknown-key.yaml:5:5: unknown key "include" in a ' +
        'search case "a typo in an expectation" (did you mean "includes"?)',
      '      include: [mcp__github__create_issue]',
      '      ^',
    ]);
    expect(r.code).toBe(2);
  });

  it('exit 2 for a missing suite, a glob without matches, a bad reporter', async ({ expect }) => {
    const missing = await runIn(['test', 'fixtures/suites/nope.yaml']);
    expect(missing.stderr).toBe('error: fixtures/suites/nope.yaml: no such file\n');
    expect(missing.code).toBe(2);
    const glob = await runIn(['test', 'fixtures/suites/*.toml']);
    expect(glob.stderr).toBe('error: no file matches the pattern "fixtures/suites/*.toml"\n');
    expect(glob.code).toBe(2);
    const rep = await runIn(['test', 'fixtures/suites/demo.yaml', '--reporter', 'xml']);
    expect(rep.stderr).toMatch(/option '-r, --reporter <name>' argument 'xml' is invalid/);
    expect(rep.code).toBe(2);
    const none = await runIn(['test']);
    expect(none.code).toBe(2);
  });

  it('--reporter json prints the report on stdout', async ({ expect }) => {
    const r = await runIn(['test', 'fixtures/suites/select.json', '--reporter', 'json']);
    const report = JSON.parse(r.stdout);
    expect(report.summary).toMatchObject({ total: 3, passed: 3, failed: 0, skipped: 0 });
    expect(report.suites[0].cases[0]).toMatchObject({
      name: 'a comma-separated string works like a list',
      status: 'passed',
      kind: 'select',
    });
    expect(r.code).toBe(0);
  });

  it('--reporter junit --output writes valid JUnit atomically; the human report still prints', async ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-junit-'));
    const out = join(dir, 'junit.xml');
    writeFileSync(out, 'old content');
    const r = await runIn([
      'test',
      'fixtures/suites/failing/search-failures.yaml',
      '--force', // ('old content' is no report of ours)
      '--reporter',
      'junit',
      '--output',
      out,
    ]);
    expect(r.code).toBe(1);
    expect(lines(r.stdout).at(-1)).toBe('1 passed, 9 failed, 1 skipped');
    const root = parseXml(readFileSync(out, 'utf8'));
    // (the Jenkins schema has no `skipped` on <testsuites>: it is on the <testsuite>)
    expect(root.attrs).toMatchObject({ tests: '11', failures: '9', errors: '0' });
    expect(root.attrs.skipped).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['junit.xml']);
  });

  it('an invalid suite with --reporter junit --output: exit 2, and the file holds one <error> saying why', async ({
    expect,
  }) => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-junit-err-'));
    const out = join(dir, 'junit.xml');
    const r = await runIn(['test', 'fixtures/suites/invalid/unknown-key.yaml', '--reporter', 'junit', '--output', out]);
    expect(r.code).toBe(2);
    const headline = lines(r.stderr)[0]!.replace(/^error: /, '');
    const root = parseXml(readFileSync(out, 'utf8'));
    expect(root.attrs).toMatchObject({ tests: '1', failures: '0', errors: '1' });
    const error = root.children[0]!.children[0]!.children[0]!;
    expect(error.name).toBe('error');
    expect(
      `fixtures/suites/invalid/unknown-key.yaml:${headline.split(':').slice(1, 3).join(':')}: ${error.attrs.message}`,
    ).toBe(headline);
    expect(readdirSync(dir)).toEqual(['junit.xml']);
  });

  it('--output creates the directories it needs; a path through a file is exit 2', async ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-outdir-'));
    const out = join(dir, 'reports', 'ci', 'junit.xml');
    const r = await run(['test', 'fixtures/suites/select.json', '--reporter', 'junit', '--output', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(
      new RegExp(
        String.raw`^<\?xml version="1.0" encoding="UTF-8"\?>\n` +
          '<testsuites name="toolsearch" tests="3" failures="0" errors="0" time="',
      ),
    );
    writeFileSync(join(dir, 'file'), '');
    const bad = await run([
      'test',
      'fixtures/suites/select.json',
      '--reporter',
      'junit',
      '--output',
      join(dir, 'file', 'junit.xml'),
    ]);
    expect(bad.stderr).toBe(`error: ${join(dir, 'file', 'junit.xml')}: cannot write file: ENOTDIR\n`);
    expect(bad.code).toBe(2);
  });

  it('--update rewrites the recorded cases, then the suite passes', async ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-upd-'));
    copyFileSync('fixtures/catalogs/demo.yaml', join(dir, 'demo.yaml'));
    const suite = join(dir, 's.yaml');
    writeFileSync(
      suite,
      'catalog: demo.yaml\ncases:\n  - name: rec   # recorded\n    query: html markdown\n' +
        '    max_results: 1\n    record: true\n    exact: [WebFetch]\n',
    );
    const before = await runIn(['test', suite]);
    expect(before.code).toBe(1);
    const upd = await runIn(['test', suite, '--update']);
    expect(lines(upd.stdout).slice(-4)).toEqual([
      `  updated ${suite}`,
      '',
      '1 recorded case updated',
      '1 passed, 0 failed',
    ]);
    expect(upd.stdout).toContain('  ✓ rec (exact updated)');
    expect(upd.code).toBe(0);
    expect(readFileSync(suite, 'utf8')).toBe(
      'catalog: demo.yaml\ncases:\n  - name: rec   # recorded\n    query: html markdown\n' +
        '    max_results: 1\n    record: true\n    exact: [mcp__webtools__HTMLToMarkdown]\n',
    );
    const after = await runIn(['test', suite]);
    expect(after.code).toBe(0);
  });

  it('--help shows examples and the suite format', async ({ expect }) => {
    const r = await runIn(['test', '--help']);
    expect(r.stdout).toContain('$ toolsearch test fixtures/suites/*.yaml --reporter junit --output junit.xml');
    expect(r.stdout).toContain('rank_at_most: {tool: n}');
    expect(r.code).toBe(0);
  });
});
