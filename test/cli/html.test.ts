/**
 * The HTML outputs from the command line (the pages themselves are checked in
 * a browser, test/report/html/): written where asked, never over an input of
 * the run (the transcript, a catalog, a suite, the labeled queries), a
 * missing directory is exit 2 naming the file. Inputs are temporary copies,
 * so a regression cannot damage the fixtures.
 */
import { copyFileSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO, ROOT, run } from './helpers.js';

function copies(): { dir: string; transcript: string; catalog: string; suite: string; queries: string } {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-html-cli-'));
  const to = (from: string, name: string): string => {
    const file = join(dir, name);
    copyFileSync(join(ROOT, from), file);
    return file;
  };
  return {
    dir,
    transcript: to('fixtures/transcripts/deferred-tool-called-too-early.json', 't.json'),
    catalog: to(DEMO, 'demo.yaml'),
    // The suite names its catalog and transcript relative to itself.
    suite: [
      to('fixtures/hostile/html.catalog.json', 'html.catalog.json'),
      to('fixtures/hostile/html.transcript.json', 'html.transcript.json'),
      to('fixtures/hostile/html.suite.yaml', 'suite.yaml'),
    ][2]!,
    queries: to('fixtures/eval/demo-queries.jsonl', 'q.jsonl'),
  };
}

describe('--html and --reporter html outputs', () => {
  it('simulate --html writes one page and still prints the text report', async () => {
    const c = copies();
    const out = join(c.dir, 'report.html');
    const r = await run(['simulate', c.transcript, '-c', c.catalog, '--html', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('summary: 5 model calls');
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('mcp__google_calendar__list_events was called before any tool_search result named it');
  });

  it.each([
    [
      'the transcript',
      (c: ReturnType<typeof copies>) => ['simulate', c.transcript, '-c', c.catalog, '--html', c.transcript],
      'transcript',
    ],
    [
      'a catalog',
      (c: ReturnType<typeof copies>) => ['simulate', c.transcript, '-c', c.catalog, '--html', c.catalog],
      'catalog',
    ],
    [
      'the labeled queries',
      (c: ReturnType<typeof copies>) => ['eval', c.queries, '-c', c.catalog, '--html', c.queries],
      'queries',
    ],
    [
      'the suite',
      (c: ReturnType<typeof copies>) => ['test', c.suite, '--reporter', 'html', '--output', c.suite],
      'suite',
    ],
  ] as const)('refuses to write over %s (exit 2, the input unchanged)', async (_what, args, key) => {
    const c = copies();
    const before = readFileSync(c[key], 'utf8');
    const r = await run(args(c));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('an input of this run: write it to another file');
    expect(readFileSync(c[key], 'utf8')).toBe(before);
  });

  it('refuses an input reached through a symbolic link', async () => {
    const c = copies();
    const link = join(c.dir, 'link.json');
    symlinkSync(c.transcript, link);
    const before = readFileSync(c.transcript, 'utf8');
    const r = await run(['simulate', c.transcript, '-c', c.catalog, '--html', link]);
    expect(r.code).toBe(2);
    expect(readFileSync(c.transcript, 'utf8')).toBe(before);
  });

  it('a missing directory is exit 2 naming the file', async () => {
    const c = copies();
    const out = join(c.dir, 'missing', 'r.html');
    const r = await run(['simulate', c.transcript, '-c', c.catalog, '--html', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${out}: cannot write file: its directory does not exist`);
  });

  it('--html does not go with --tui', async () => {
    const r = await run([
      'simulate',
      'fixtures/transcripts/keyword-search-then-call.json',
      '-c',
      DEMO,
      '--tui',
      '--html',
      'x.html',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot be used with/);
  });

  it('test --reporter html: a suite that does not load is listed first, with its error', async () => {
    const r = await run([
      'test',
      'fixtures/suites/invalid/unknown-key.yaml',
      'fixtures/suites/select.json',
      '--reporter',
      'html',
      '--output',
      '-',
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout.startsWith('<!doctype html>')).toBe(true);
    expect(r.stdout).toContain('<span class="tag bad">did not run</span>');
    expect(r.stdout).toContain('fixtures/suites/invalid/unknown-key.yaml:');
    expect(r.stdout.indexOf('did not run')).toBeLessThan(r.stdout.indexOf('class="suite errored"'));
  });

  it('test --reporter html without --output prints the page', async () => {
    const r = await run(['test', 'fixtures/suites/demo.yaml', '--reporter', 'html']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('<!doctype html>')).toBe(true);
    expect(r.stdout).toContain('class="test-report"');
  });
});
