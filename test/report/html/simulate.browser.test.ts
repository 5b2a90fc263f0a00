/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * simulate --html in a real browser (headless Chromium, Debian's package):
 * the timeline cells of every bundled conversation against the report data,
 * exact cells of the README scenarios, the violation link scrolling to its
 * call, the per-keyword explanation against `search --explain`, the replay
 * side by side, model-native mode, JavaScript off, print. Screenshots at
 * 1280 and 400 px, light and dark, go to a temporary directory.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import { renderSimulationHtml } from '../../../src/report/html/simulate.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';
import { DEMO, ROOT, run } from '../../cli/helpers.js';
import { allCells, cells, expectQuiet, harness, S } from './harness.js';

// A browser and the CLI on a shared 2-core machine: slow, never timed.
vi.setConfig({ testTimeout: 120_000 });

const { out, open, shot, report } = harness();
const demo = loadCatalogFiles([join(ROOT, DEMO)]);

const SCENARIOS = [
  'keyword-search-then-call',
  'select-search',
  'required-keyword-search',
  'accumulate-two-searches',
  'deferred-tool-called-too-early',
  'redundant-select',
  'unknown-tool',
  'stale-after-catalog-change',
  'malformed-search-result',
] as const;

describe('simulate --html', () => {
  // Rendered in-process (the CLI path is covered below): fast enough for every conversation.
  it.each(SCENARIOS)('%s: every timeline cell agrees with the turns of the report', async (scenario) => {
    const report = simulate({
      transcript: loadTranscriptFile(join(ROOT, `fixtures/transcripts/${scenario}.json`)),
      catalog: demo,
      mode: 'default',
      replay: true,
      details: true,
    });
    const file = join(out, `turns-${scenario}.html`);
    writeFileSync(file, renderSimulationHtml(report));
    const o = await open(file);
    expectQuiet(o);
    const columns = await o.page.$$eval('table.timeline thead th', (ths) => ths.slice(1).map((t) => t.textContent));
    expect(columns).toEqual(report.turns.map((t) => String(t.call)));
    const tools = new Set(report.turns.flatMap((t) => [...t.visible, ...t.tool_calls.map((c) => c.name)]));
    const table = await allCells(o);
    for (const tool of tools) {
      const got = table.get(tool) ?? [];
      expect(got.length, tool).toBe(report.turns.length);
      report.turns.forEach((t, i) => {
        const calls = t.tool_calls.filter((c) => c.name === tool);
        const called = calls.length === 0 ? null : calls.some((c) => c.status !== 'ok') ? 'violation' : 'ok';
        expect(got[i]!.called, `${tool} at call ${t.call}`).toBe(called);
        if (t.added.includes(tool)) expect(got[i]!.state, `${tool} at call ${t.call}`).toBe('loaded');
        else if (t.visible.includes(tool))
          expect(['visible', 'static'], `${tool} at call ${t.call}`).toContain(got[i]!.state);
        else expect(got[i]!.state, `${tool} at call ${t.call}`).toBe('hidden');
      });
    }
    // Every violation is listed, linked to its call.
    const links = await o.page.$$eval('#violations a', (as) => as.map((a) => a.getAttribute('href')));
    expect(links.sort()).toEqual(report.violations.map((v) => `#call-${v.call}`).sort());
    expect(statSync(file).size).toBeLessThan(1_000_000);
  });

  it('the CLI writes the same page with --json, which keeps its contract', async () => {
    const { file, stdout } = await report('sim-cli', [
      'simulate',
      'fixtures/transcripts/unknown-tool.json',
      '-c',
      DEMO,
      '--json',
      '--html',
      '{out}',
    ]);
    const json = JSON.parse(stdout) as { details?: unknown; turns: Array<{ searches: Array<{ explain?: unknown }> }> };
    expect(json.details).toBeUndefined();
    expect(json.turns.flatMap((t) => t.searches).every((s) => s.explain === undefined)).toBe(true);
    const plain = await run(['simulate', 'fixtures/transcripts/unknown-tool.json', '-c', DEMO, '--json']);
    expect(stdout).toBe(plain.stdout);
    const o = await open(file);
    expectQuiet(o);
    expect(await cells(o, 'mcp__slack__send_direct_message')).toEqual(
      [S('hidden'), S('hidden', 'violation'), S('hidden'), S('hidden'), S('hidden'), S('hidden')].slice(
        0,
        (await cells(o, 'tool_search')).length,
      ),
    );
  });

  it(
    'deferred-tool-called-too-early: the violation cell, the loaded retry, and the link that scrolls to call ' + '2',
    async () => {
      const { file } = await report('sim-deferred', [
        'simulate',
        'fixtures/transcripts/deferred-tool-called-too-early.json',
        '-c',
        DEMO,
        '--html',
        '{out}',
      ]);
      const o = await open(file);
      expectQuiet(o);
      expect(await cells(o, 'mcp__google_calendar__list_events')).toEqual([
        S('hidden'),
        S('hidden', 'violation'),
        S('hidden'),
        S('loaded', 'ok'),
        S('visible'),
      ]);
      expect(await cells(o, 'get_current_time')).toEqual([
        S('static', 'ok'),
        S('static'),
        S('static'),
        S('static'),
        S('static'),
      ]);
      expect(await cells(o, 'tool_search')).toEqual([
        S('visible'),
        S('visible'),
        S('visible', 'ok'),
        S('visible'),
        S('visible'),
      ]);
      // The violations come first, before the timeline.
      const order = await o.page.$$eval('main > section', (ss) => ss.map((s) => s.id));
      expect(order.slice(0, 2)).toEqual(['violations', 'timeline']);
      await shot(o, 'simulate-1280');
      // Big catalog: only the loaded and called tools show until asked.
      const shown = (): Promise<number> =>
        o.page.$$eval(
          'table.timeline tbody tr[data-tool]',
          (rows) => rows.filter((r) => (r as HTMLElement).offsetParent !== null).length,
        );
      expect(await shown()).toBe(7);
      await o.page.click('label[for=tl-all]');
      expect(await shown()).toBe(131);
      await o.page.click('label[for=tl-all]');
      expect(await shown()).toBe(7);
      // The violation link scrolls to its call.
      const link = o.page.locator('#violations a[href="#call-2"]');
      await expect(link.count()).resolves.toBe(1);
      await o.page.evaluate(() => window.scrollTo(0, 0));
      expect(await o.page.$eval('#call-2', (e) => e.getBoundingClientRect().top)).toBeGreaterThan(900);
      await link.click();
      expect(new URL(o.page.url()).hash).toBe('#call-2');
      // Scrolled so that the call is on screen (at the top, or as far as the page goes).
      const box = await o.page.$eval('#call-2', (e) => ({
        top: e.getBoundingClientRect().top,
        bottom: e.getBoundingClientRect().bottom,
        y: window.scrollY,
      }));
      expect(box.y).toBeGreaterThan(0);
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.bottom).toBeLessThanOrEqual(900);
      expect(await o.page.$eval('#call-2', (e) => e.textContent)).toContain(
        'not loaded: no tool_search result had named it',
      );
      const narrow = await open(file, { width: 400 });
      expectQuiet(narrow);
      await shot(narrow, 'simulate-400');
      const scrollWidth = await narrow.page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(400); // wide tables scroll inside their box, not the page
      const dark = await open(file, { colorScheme: 'dark' });
      await shot(dark, 'simulate-1280-dark');
    },
  );

  it('the per-keyword explanation opens on click and shows what search --explain computes', async () => {
    const { file } = await report('sim-explain', [
      'simulate',
      'fixtures/transcripts/keyword-search-then-call.json',
      '-c',
      DEMO,
      '--html',
      '{out}',
    ]);
    const explain = await run([
      'search',
      '-c',
      DEMO,
      '--args',
      '{"query":"slack send message channel"}',
      '--explain',
      '--json',
    ]);
    const expected = (
      JSON.parse(explain.stdout) as {
        results: Array<{
          name: string;
          score: number;
          explain: Array<{ keyword: string; points: number; rule: string }>;
        }>;
      }
    ).results;
    const o = await open(file);
    const details = o.page.locator('#explain-1-0');
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await details.locator('summary').click();
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    const headers = await details.locator('thead th').allTextContents();
    expect(headers).toEqual(['tool', 'rank', 'score', 'slack', 'send', 'message', 'channel']);
    const rows = await details
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
    expect(rows.map((r) => r[0])).toEqual(expected.map((r) => r.name));
    rows.forEach((r, i) => {
      expect(r[1]).toBe(String(i + 1));
      expect(r[2]).toBe(String(expected[i]!.score));
      expected[i]!.explain.forEach((k, j) => {
        expect(r[3 + j]!.startsWith(k.points > 0 ? `+${k.points} ${k.rule}` : '0 ')).toBe(true);
      });
    });
    expectQuiet(o);
  });

  it('--replay shows recorded and replayed results side by side, and what each call would see', async () => {
    const { file } = await report('sim-replay', [
      'simulate',
      'fixtures/transcripts/stale-after-catalog-change.json',
      '-c',
      'fixtures/catalogs/demo-v2.yaml',
      '--replay',
      '--html',
      '{out}',
    ]);
    const o = await open(file);
    expectQuiet(o);
    const sides = await o.page.$$eval('#replay .search .side', (ss) =>
      ss.map((s) =>
        [...s.children].map((c) => [...c.querySelectorAll('li')].map((li) => `${li.className}:${li.textContent}`)),
      ),
    );
    expect(sides).toHaveLength(2);
    expect(sides[0]![0]![0]).toBe('lose:mcp__filesystem__read_file');
    expect(sides[0]![1]![0]).toBe('gain:mcp__filesystem__read_text_file');
    expect(sides[1]![0]![0]).toBe('lose:mcp__slack__send_message');
    expect(sides[1]![1]![0]).toBe('gain:mcp__slack__post_message');
    const changes = await o.page.$$eval('#replay .change', (cs) =>
      cs.map((c) => `${c.getAttribute('data-first')}-${c.getAttribute('data-last')}`),
    );
    expect(changes.length).toBeGreaterThan(0);
    expect(await o.page.$$eval('header .chip', (cs) => cs.map((c) => c.textContent))).toContain(
      'replay: 2 differences',
    );
    // The recorded calls of tools that are gone are violations of the replayed catalog.
    expect(await cells(o, 'mcp__filesystem__read_file')).toEqual([
      S('hidden'),
      S('hidden', 'violation'),
      S('hidden'),
      S('hidden'),
      S('hidden'),
    ]);
    await shot(o, 'simulate-replay-1280');
  });

  it('model-native mode: deferred tools, the server-side search loading five, the call after it allowed', async () => {
    const { file } = await report('sim-native', [
      'simulate',
      'fixtures/transcripts/native-server-search.anthropic.json',
      '--mode',
      'native',
      '--html',
      '{out}',
    ]);
    const o = await open(file);
    expectQuiet(o);
    expect(await o.page.$eval('header', (h) => h.textContent)).toContain('native (model-native tool search)');
    const created = await cells(o, 'mcp__linear__create_issue');
    expect(created[0]).toEqual(S('deferred', 'ok'));
    expect(created.slice(1).every((c) => c.state === 'loaded' || c.state === 'in-context')).toBe(true);
    expect(await cells(o, 'mcp__slack__send_message')).toEqual(created.map(() => S('deferred')));
  });

  it(
    'reads without JavaScript: violations, timeline, calls, the collapse toggle and explanations all ' + 'work',
    async () => {
      const { file } = await report('sim-nojs', [
        'simulate',
        'fixtures/transcripts/deferred-tool-called-too-early.json',
        '-c',
        DEMO,
        '--replay',
        '--html',
        '{out}',
      ]);
      const o = await open(file, { javaScript: false });
      expectQuiet(o);
      expect(await o.page.evaluate(() => document.documentElement.classList.contains('js'))).toBe(false);
      const text = await o.page.locator('main').innerText();
      expect(text).toContain('mcp__google_calendar__list_events was called before any tool_search result named it');
      expect(text).toContain('Visibility timeline');
      expect(text).toContain('call 5');
      expect(await cells(o, 'mcp__google_calendar__list_events')).toHaveLength(5);
      await o.page.click('label[for=tl-all]');
      expect(
        await o.page.$$eval(
          'table.timeline tbody tr[data-tool]',
          (rows) => rows.filter((r) => (r as HTMLElement).offsetParent !== null).length,
        ),
      ).toBe(131);
      await o.page.click('#explain-3-0 summary');
      expect(await o.page.locator('#explain-3-0 tbody tr').count()).toBe(5);
      // The script-only buttons are not shown.
      expect(await o.page.locator('button.js-only').first().isVisible()).toBe(false);
      await shot(o, 'simulate-nojs-1280');
      const narrow = await open(file, { javaScript: false, width: 400 });
      await shot(narrow, 'simulate-nojs-400');
    },
  );

  it('print: controls hidden, every explanation opened before printing', async () => {
    const { file } = await report('sim-print', [
      'simulate',
      'fixtures/transcripts/keyword-search-then-call.json',
      '-c',
      DEMO,
      '--html',
      '{out}',
    ]);
    const o = await open(file);
    await o.page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    expect(await o.page.$$eval('details', (ds) => ds.every((d) => (d as HTMLDetailsElement).open))).toBe(true);
    await o.page.emulateMedia({ media: 'print' });
    expect(await o.page.locator('label[for=tl-all]').isVisible()).toBe(false);
    const pdf = await o.page.pdf();
    expect(pdf.length).toBeGreaterThan(1000);
    expectQuiet(o);
  });
});
