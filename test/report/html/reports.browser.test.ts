/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * eval --html, test --reporter html and hostile data in a real browser
 * (headless Chromium, Debian's package): the chart and misses against
 * `eval --json`, the suites and the expected-vs-got diff, and that no script
 * from a catalog, transcript, suite or query file runs (the hostile
 * fixtures set window.pwned), with JavaScript on and off.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { DEMO } from '../../cli/helpers.js';
import { expectQuiet, harness } from './harness.js';

// A browser and the CLI on a shared 2-core machine: slow, never timed.
vi.setConfig({ testTimeout: 120_000 });

const { open, shot, report } = harness();

describe('eval --html', () => {
  it('draws R@k and MRR per scorer, lists the misses with each scorer top results and rank', async () => {
    const { file, stdout } = await report('eval', [
      'eval',
      'fixtures/eval/demo-queries.jsonl',
      '-c',
      DEMO,
      '--json',
      '--html',
      '{out}',
    ]);
    const json = JSON.parse(stdout) as {
      scorers: Array<{
        name: string;
        metrics: Record<string, number>;
        misses: Array<{ line: number; first_relevant_rank: number | null }>;
      }>;
    };
    const o = await open(file);
    expectQuiet(o);
    const bars = await o.page.$$eval('#metrics svg rect[data-metric]', (rs) =>
      rs.map((r) => [r.getAttribute('data-scorer'), r.getAttribute('data-metric'), r.getAttribute('data-value')]),
    );
    const expected = ['recall_at_1', 'recall_at_3', 'recall_at_5', 'recall_at_10', 'mrr'].flatMap((m) =>
      json.scorers.map((s) => [s.name, m, s.metrics[m]!.toFixed(3)]),
    );
    expect(bars).toEqual(expected);
    // Bars are drawn to scale: the plot is 208 units high for 1.0.
    const heights = await o.page.$$eval('#metrics svg rect[data-metric]', (rs) =>
      rs.map((r) => [Number(r.getAttribute('height')), Number(r.getAttribute('data-value'))] as const),
    );
    for (const [height, value] of heights) expect(Math.abs(height - value * 208)).toBeLessThanOrEqual(0.2);
    const visibleRows = (): Promise<string[]> =>
      o.page.$$eval('table.misses tbody tr', (trs) =>
        trs.filter((t) => (t as HTMLElement).offsetParent !== null).map((t) => t.getAttribute('data-line') ?? ''),
      );
    const spec = json.scorers[0]!;
    expect(await visibleRows()).toEqual(spec.misses.map((m) => String(m.line)));
    // The rank of the relevant tool, per scorer.
    const first = spec.misses[0]!;
    const cell = await o.page.$eval(
      `tr[data-line="${first.line}"] td[data-scorer="spec"]`,
      (td) => td.textContent ?? '',
    );
    expect(cell).toContain(
      first.first_relevant_rank === null
        ? 'relevant not in the first 10'
        : `relevant at rank ${first.first_relevant_rank}`,
    );
    await o.page.click('label[for=f-any]');
    const any = new Set(json.scorers.flatMap((s) => s.misses.map((m) => m.line)));
    expect((await visibleRows()).length).toBe(any.size);
    await shot(o, 'eval-1280');
    const narrow = await open(file, { width: 400 });
    await shot(narrow, 'eval-400');
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
  });
});

describe('test --reporter html', () => {
  it('lists suites and cases with pass/fail, failures first, and expected against got', async () => {
    const { file, stdout } = await report(
      'test',
      ['test', 'fixtures/suites/demo.yaml', 'fixtures/suites/failing', '--reporter', 'html', '--output', '{out}'],
      1,
    );
    expect(stdout).toMatch(/\d+ passed, \d+ failed/);
    const o = await open(file);
    expectQuiet(o);
    const summary = /(\d+) passed, (\d+) failed/.exec(stdout)!;
    expect(await o.page.locator('details.case.failed').count()).toBe(Number(summary[2]));
    expect(await o.page.locator('details.case.passed').count()).toBe(Number(summary[1]));
    expect(await o.page.locator('#failures li').count()).toBe(Number(summary[2]));
    const firstFail = o.page.locator('details.case.failed').first();
    expect(await firstFail.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    // first: expected mcp__github__create_issue, got the Jira tool (fixtures/suites/failing/search-failures.yaml).
    const diff = await firstFail.locator('.diff').first().innerText();
    expect(diff).toContain('expected');
    expect(diff).toContain('"mcp__github__create_issue"');
    expect(diff).toContain('"mcp__atlassian__createJiraIssue"');
    // A failure link jumps to its case.
    const href = await o.page.locator('#failures a').first().getAttribute('href');
    await o.page.locator('#failures a').first().click();
    expect(new URL(o.page.url()).hash).toBe(href);
    await shot(o, 'test-1280');
    const narrow = await open(file, { width: 400 });
    await shot(narrow, 'test-400');
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
  });
});

describe('the aggregate of a bulk replay, --html', () => {
  it('shows the totals and lists of the merged aggregate, as --json has them', async () => {
    const { file, stdout } = await report('aggregate', [
      'aggregate',
      'fixtures/bulk/part-1.json',
      'fixtures/bulk/part-2.json',
      '--json',
      '--html',
      '{out}',
    ]);
    const a = JSON.parse(stdout) as {
      sessions: { replayed: number };
      tools: Array<{
        name: string;
        found_sessions: number;
        loaded_sessions: number;
        called_sessions: number;
        calls: number;
        not_loaded: number;
      }>;
    };
    const o = await open(file);
    expectQuiet(o);
    expect(await o.page.locator('h1').innerText()).toBe(`bulk replay · ${a.sessions.replayed} sessions`);
    const rows = await o.page.$$eval('table.agg-tools tbody tr', (trs) =>
      trs.map((tr) => [tr.getAttribute('data-tool'), ...[...tr.querySelectorAll('td')].map((td) => td.textContent)]),
    );
    const active = a.tools.filter((t) => t.found_sessions > 0 || t.loaded_sessions > 0 || t.called_sessions > 0);
    expect(rows).toEqual(
      active.map((t) => [
        t.name,
        String(t.found_sessions),
        String(t.loaded_sessions),
        String(t.called_sessions),
        expect.any(String),
        String(t.calls),
        String(t.not_loaded),
      ]),
    );
    const notLoaded = await o.page.$$eval('#not-loaded tr', (trs) => trs.map((tr) => tr.textContent));
    const expected = a.tools
      .filter((t) => t.not_loaded > 0)
      .sort((x, y) => y.not_loaded - x.not_loaded || (x.name < y.name ? -1 : 1));
    expect(notLoaded).toEqual(expected.map((t) => `${t.not_loaded}${t.name}`));
    await shot(o, 'aggregate-1280');
    const narrow = await open(file, { width: 400 });
    await shot(narrow, 'aggregate-400');
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
  });
});

describe('hostile text stays text', () => {
  const HOSTILE = [
    [
      'simulate',
      [
        'simulate',
        'fixtures/hostile/html.transcript.json',
        '-c',
        'fixtures/hostile/html.catalog.json',
        '--replay',
        '--html',
        '{out}',
      ],
      0,
    ],
    ['test', ['test', 'fixtures/hostile/html.suite.yaml', '--reporter', 'html', '--output', '{out}'], 1],
    [
      'eval',
      ['eval', 'fixtures/hostile/html.queries.jsonl', '-c', 'fixtures/hostile/html.catalog.json', '--html', '{out}'],
      0,
    ],
  ] as const;

  it.each(HOSTILE)(
    '%s: no script from the data runs, no link leads out, U+202E shows as an escape',
    async (name, args, code) => {
      const { file } = await report(`hostile-${name}`, args, code);
      for (const javaScript of [true, false]) {
        const o = await open(file, { javaScript });
        // Open everything: nothing from the data may run (and no element carries a handler, below).
        await o.page.$$eval('details', (ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
        await o.page.mouse.move(200, 300);
        await o.page.mouse.move(600, 500);
        expect(await o.page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
        expectQuiet(o);
        expect(await o.page.evaluate(() => document.scripts.length)).toBe(1);
        expect(
          await o.page.$$eval('a[href]', (as) =>
            as.map((a) => a.getAttribute('href')).filter((h) => !h!.startsWith('#')),
          ),
        ).toEqual([]);
        expect(
          await o.page.$$eval('*', (es) =>
            es
              .flatMap((e) => [...e.attributes].map((a) => a.name))
              .filter((n) => /^on/i.test(n) || n === 'src' || n === 'style'),
          ),
        ).toEqual([]);
        expect(await o.page.$$eval('img, iframe, object, embed, link, base, form', (es) => es.length)).toBe(0);
        const text = await o.page.locator('main').innerText();
        expect(text).not.toContain('\u202e');
        if (name !== 'eval') expect(text).toContain('\\u202e');
        if (name === 'simulate') {
          expect(text).toContain('html_<script>window.pwned=1</script>');
          expect(text).toContain('<img src=x onerror=window.pwned=10>');
          expect(text).toContain('javascript:window.pwned=14');
        }
        if (javaScript) await shot(o, `hostile-${name}`);
      }
      const html = readFileSync(file, 'utf8');
      expect(html).not.toMatch(/<script>window/);
      expect(html).not.toContain('\u202e');
    },
  );
});
