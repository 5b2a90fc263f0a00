/**
 * Terminal sizes: below 40×10 both screens show one centred line saying the
 * terminal is too small (and follow resizes in and out of it); from 40×10 up
 * every line of every part fits the width and the frame is one row shorter
 * than the terminal, so nothing ever wraps or scrolls off.
 */
import { render as inkRender } from 'ink';
import { describe, expect, test } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import type { ToolInfo } from '../../src/core/types.js';
import { displayWidth } from '../../src/render/width.js';
import { simulationTools } from '../../src/jobs/simulate/engine.js';
import { tokenAccountingForReport, withTokens } from '../../src/jobs/tokens/report.js';
import { tooSmallLines } from '../../src/tui/chrome.js';
import { Explore, type BaselineRanker } from '../../src/tui/explore/Explore.js';
import * as exploreScreen from '../../src/tui/explore/screen.js';
import { exploreSearch } from '../../src/tui/explore/search.js';
import { initialExploreState, type ExploreState } from '../../src/tui/explore/state.js';
import { lineWidth, type Line } from '../../src/tui/line.js';
import { stepperInputs } from '../../src/tui/stepper/run.js';
import * as stepperScreen from '../../src/tui/stepper/screen.js';
import { Stepper } from '../../src/tui/stepper/Stepper.js';
import { initialStepperState, stepperReducer, type StepperState } from '../../src/tui/stepper/state.js';
import { toolRows } from '../../src/tui/stepper/model.js';
import { CATALOG, TRANSCRIPT, report } from './fixture.js';
import { asTerminal, eventually, fakeIo, KEYS, plain, press, ready } from './harness.js';
import { syntheticCatalog } from './perf/catalog.js';

const tools = simulationTools({ transcript: TRANSCRIPT, catalog: CATALOG });
const inputs = stepperInputs(TRANSCRIPT, tools);

/** The frame last written to a fake terminal (debug mode: whole frames), as lines. */
function lastFrame(io: ReturnType<typeof fakeIo>): string[] {
  return plain(io.stdout.writes.at(-1)?.data).split('\n');
}

/**
 * Resizes (to another size) and returns the frame drawn for it: Ink redraws
 * the old frame synchronously on `resize`, then the screen renders once for
 * the new size.
 */
async function resize(io: ReturnType<typeof fakeIo>, columns: number, rows: number): Promise<string[]> {
  io.stdout.resize(columns, rows);
  const redrawn = io.stdout.writes.length;
  await eventually(() => expect(io.stdout.writes.length).toBeGreaterThan(redrawn));
  return lastFrame(io);
}

function mountStepper(columns: number, rows: number, rep = report()) {
  const io = fakeIo(columns, rows);
  const app = inkRender(<Stepper report={rep} inputs={inputs} resimulate={(m, r) => report(m, r)} />, {
    ...asTerminal(io),
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return { io, app };
}

function mountExplore(columns: number, rows: number, toolList: readonly ToolInfo[], ranker: BaselineRanker = () => []) {
  const io = fakeIo(columns, rows);
  const app = inkRender(
    <Explore
      index={new ToolIndex(toolList)}
      loadBaseline={() => Promise.resolve(ranker)}
      catalogArgs={[]}
      source="catalog.yaml"
      onCopy={() => {}}
    />,
    { ...asTerminal(io), debug: true, exitOnCtrlC: false, patchConsole: false },
  );
  return { io, app };
}

/** The too-small frame: `rows - 1` lines, the message on the middle one, centred. */
function tooSmallFrame(columns: number, rows: number, text: string): string[] {
  const height = rows - 1;
  const lines = Array.from({ length: height }, () => '');
  lines[Math.floor((height - 1) / 2)] = ' '.repeat(Math.floor((columns - displayWidth(text)) / 2)) + text;
  return lines;
}

/** Blank lines of a frame are drawn as one space; compare without trailing spaces. */
const trimmed = (lines: string[]): string[] => lines.map((l) => l.trimEnd());

function expectFits(lines: string[], columns: number, rows: number, what: string): void {
  expect(lines, `${what} at ${columns}×${rows}: rows`).toHaveLength(rows - 1);
  for (const l of lines)
    expect(displayWidth(l), `${what} at ${columns}×${rows}: ${JSON.stringify(l)}`).toBeLessThanOrEqual(columns);
}

describe('too small', () => {
  test('the message line: centred, shorter forms when even it does not fit', () => {
    const text = (columns: number, rows: number): string[] =>
      tooSmallLines({ columns, rows }).map((l) => l.map((s) => s.text).join(''));
    expect(text(60, 8)).toEqual(['', '', '', '      terminal too small: 60×8 (needs at least 40×10)']);
    expect(text(39, 24)).toEqual([...Array(11).fill(''), '     too small: 39×24 (min 40×10)']);
    expect(text(20, 5)).toEqual(['', '    20×5 < 40×10']);
    expect(text(8, 2)).toEqual(['8×2 < 4…']);
    expect(text(1, 1)).toEqual(['…']);
    for (const [c, r] of [
      [39, 9],
      [10, 3],
      [2, 1],
      [0, 0],
    ] as const) {
      for (const l of tooSmallLines({ columns: c, rows: r })) expect(lineWidth(l)).toBeLessThanOrEqual(c);
    }
  });

  test('stepper: resizing below 40×10 and back, keys other than quit are ignored meanwhile', async () => {
    const { io, app } = mountStepper(80, 24);
    await ready(io.stdin);
    expect(lastFrame(io)).toHaveLength(23);
    expect(trimmed(await resize(io, 30, 8))).toEqual(tooSmallFrame(30, 8, 'too small: 30×8 (min 40×10)'));
    expect(trimmed(await resize(io, 39, 24))).toEqual(tooSmallFrame(39, 24, 'too small: 39×24 (min 40×10)'));
    expect(trimmed(await resize(io, 80, 9))).toEqual(
      tooSmallFrame(80, 9, 'terminal too small: 80×9 (needs at least 40×10)'),
    );
    await press(io.stdin, 'j', 'j', '?'); // not seen, not done
    const back = await resize(io, 40, 10);
    expectFits(back, 40, 10, 'stepper');
    expect(back[0]).toBe('mode default · replay off · 4 calls · ✗…');
    expect(back.find((l) => l.startsWith('› '))).toMatch(/^› 1 {4}search "sl…/);
    expect(back.at(-1)).toBe('↑↓ move  Tab panel  ⏎ details  m mode  r');
    // q still quits while too small.
    await resize(io, 20, 5);
    // Asked for before the key: Ink resolves only a promise that exists when it has unmounted
    // (an exit within the key's few milliseconds would otherwise leave it pending forever).
    const exited = app.waitUntilExit();
    await press(io.stdin, 'q');
    await expect(exited).resolves.toBeUndefined();
  });

  test('explore: the same, and the query is not typed into unseen', async () => {
    const { io, app } = mountExplore(
      80,
      24,
      CATALOG.tools.filter((t) => !t.static),
    );
    await ready(io.stdin);
    await press(io.stdin, ...'slack');
    await eventually(() => expect(lastFrame(io)[1]).toBe('query › slack'));
    expect(trimmed(await resize(io, 35, 12))).toEqual(tooSmallFrame(35, 12, 'too small: 35×12 (min 40×10)'));
    await press(io.stdin, ...'xyz');
    const back = await resize(io, 40, 10);
    expectFits(back, 40, 10, 'explore');
    expect(back.slice(0, 3)).toEqual([
      'toolsearch explore · 7 tools · max_resu…',
      'query › slack',
      '1 keyword · 3 of 7 tools match · showin…',
    ]);
    await resize(io, 30, 30);
    // Asked for before the key: Ink resolves only a promise that exists when it has unmounted
    // (an exit within the key's few milliseconds would otherwise leave it pending forever).
    const exited = app.waitUntilExit();
    await press(io.stdin, KEYS.ctrlC);
    await expect(exited).resolves.toBeUndefined();
  });
});

// A few sizes through real resizes (the part builders are checked at every width below).
const WIDTHS = [40, 59, 80, 133];
const HEIGHTS = [10, 17, 41];

describe('from 40×10 up every frame fits, through resizes', () => {
  test('stepper, in each of its views', async () => {
    const rep = withTokens(
      report(),
      await tokenAccountingForReport(report(), tools, { encoding: 'o200k_base', toolFormat: 'openai' }),
    );
    // A view, the keys that lead to it (from the one before), and a text it shows.
    const views: Array<[string, string[], string]> = [
      ['call list', [], 'Calls (4)'],
      ['tool list of call 2 with a filter', ['j', KEYS.tab, '/', 's', KEYS.enter], '/ filter: s'],
      ['details', [KEYS.escape, 'j', KEYS.down, KEYS.enter], 'How it got here'],
      ['messages scrolled', [KEYS.escape, 'G', KEYS.pageUp], 'scrolled 3 up'],
      ['help', ['?', 'j'], '─ Marks ─'],
    ];
    const { io, app } = mountStepper(80, 24, rep);
    await ready(io.stdin);
    for (const [what, keys, shows] of views) {
      await press(io.stdin, ...keys);
      await eventually(() => expect(lastFrame(io).join('\n')).toContain(shows));
      for (const rows of HEIGHTS)
        for (const columns of WIDTHS) expectFits(await resize(io, columns, rows), columns, rows, `stepper ${what}`);
      await resize(io, 80, 24);
    }
    app.unmount();
  }, 60_000);

  test('explore, in each of its views, on long names', async () => {
    const long: ToolInfo[] = [
      ...syntheticCatalog(200),
      {
        name: `mcp__${'very_long_service_name_'.repeat(4)}create_item`,
        description: `Create ${'a long description '.repeat(10)}`,
      },
    ];
    const ranker: BaselineRanker = (_q, limit) => long.slice(0, limit).map((t) => t.name);
    const views: Array<[string, string[], string]> = [
      ['empty query', [], 'type keywords'],
      ['keyword results, selection', [...'create very item', KEYS.tab, 'j'], '─ #2 '],
      ['fuse column', ['f', '+', '+'], 'fuse.js baseline'],
      ['help', ['?', KEYS.pageDown], '─ Scoring'],
      ['select:', [KEYS.escape, KEYS.tab, KEYS.ctrlU, ...'select:nope,mcp__github__create_issue'], 'skipped'],
      ['reference error', [KEYS.ctrlU, ' '], '✗ query is required'],
    ];
    const { io, app } = mountExplore(80, 24, long, ranker);
    await ready(io.stdin);
    for (const [what, keys, shows] of views) {
      await press(io.stdin, ...keys);
      await eventually(() => expect(lastFrame(io).join('\n')).toContain(shows));
      for (const rows of HEIGHTS)
        for (const columns of WIDTHS) expectFits(await resize(io, columns, rows), columns, rows, `explore ${what}`);
      await resize(io, 80, 24);
    }
    app.unmount();
  }, 60_000);
});

/** Every width from the minimum to a bit over 80, then a few wide ones. */
const ALL_WIDTHS = [...Array.from({ length: 51 }, (_, i) => 40 + i), 100, 120, 140];

describe('every line built for a width fits it (40 to 140 columns)', () => {
  const fits = (lines: readonly Line[], width: number, what: string): void => {
    for (const l of lines)
      expect(lineWidth(l), `${what} at ${width}: ${JSON.stringify(l.map((s) => s.text).join(''))}`).toBeLessThanOrEqual(
        width,
      );
  };

  test('stepper parts', async () => {
    const rep = withTokens(
      report('default', true),
      await tokenAccountingForReport(report('default', true), tools, { encoding: 'o200k_base', toolFormat: 'openai' }),
    );
    const states: StepperState[] = [];
    for (let call = 0; call < rep.turns.length; call++) {
      const s = stepperReducer(initialStepperState(rep), { type: 'moveCall', delta: call });
      states.push(s, stepperReducer(s, { type: 'startFilter' }));
      for (let t = 0; t < toolRows(rep, call, '').length; t++)
        states.push(stepperReducer(stepperReducer(s, { type: 'moveTool', delta: t }), { type: 'openDetail' }));
    }
    for (const width of ALL_WIDTHS) {
      for (const s of states) {
        const ctx = stepperScreen.messageContext(s);
        fits(
          [
            stepperScreen.headerLine(s, width),
            stepperScreen.footerLine(s, width),
            stepperScreen.footerLine({ ...s, help: true }, width, true),
          ],
          width,
          'header/footer',
        );
        const layout = stepperScreen.stepperLayout({ columns: width, rows: 24 });
        expect(layout.leftWidth + 1 + layout.rightWidth).toBe(width);
        fits(stepperScreen.callListLines(s, layout.leftWidth, layout.topHeight), layout.leftWidth, 'calls');
        fits(
          s.detail !== null
            ? stepperScreen.detailLines(s, inputs, layout.rightWidth, layout.topHeight)
            : stepperScreen.toolPanelLines(s, inputs, layout.rightWidth, layout.topHeight),
          layout.rightWidth,
          'tools',
        );
        fits(stepperScreen.messagesLines(s, inputs, ctx, width, 8), width, 'messages');
      }
      fits(stepperScreen.helpLines(width, rep.summary.tokens), width, 'help');
    }
  }, 60_000);

  test('explore parts', () => {
    const long: ToolInfo[] = [
      ...syntheticCatalog(100),
      { name: `x__${'long_name_'.repeat(12)}`, description: 'd '.repeat(80) },
    ];
    const index = new ToolIndex(long);
    const queries = [
      '',
      ' ',
      'create issue',
      '+create x long',
      'select:nope,x__long,mcp__github__create_issue',
      `${'q'.repeat(200)} long`,
    ];
    const base: ExploreState = initialExploreState();
    for (const width of ALL_WIDTHS) {
      for (const query of queries) {
        const result = exploreSearch(index, query, 5);
        const names = result.kind === 'keyword' ? result.rows.map((r) => r.name) : [];
        const view: exploreScreen.ExploreView = {
          result,
          baseline: [...names].reverse(),
          source: 'a/very/long/path/to/catalog.yaml',
          toolCount: long.length,
          partsOf: (n) => index.partsOf(n) ?? [],
        };
        for (const s of [
          base,
          { ...base, query, cursor: 3, focus: 'results' as const },
          { ...base, query, fuse: 'on' as const },
          { ...base, fuse: { failed: 'x'.repeat(200) } },
        ]) {
          const layout = exploreScreen.exploreLayout({ columns: width, rows: 24 }, result);
          fits(
            [
              exploreScreen.headerLine(s, view, width),
              exploreScreen.queryLine(s, width),
              exploreScreen.statusLine(view, width),
              exploreScreen.footerLine(s, width),
              exploreScreen.footerLine({ ...s, help: true }, width, true),
            ],
            width,
            `explore lines ${JSON.stringify(query)}`,
          );
          fits(
            exploreScreen.resultLines(s, view, width, layout.resultsHeight),
            width,
            `results ${JSON.stringify(query)}`,
          );
          fits(
            exploreScreen.comparisonLines(s, view, width, layout.resultsHeight),
            width,
            `comparison ${JSON.stringify(query)}`,
          );
          fits(exploreScreen.explanationLines(s, view, width, 8), width, `explanation ${JSON.stringify(query)}`);
        }
      }
      fits(exploreScreen.helpLines(width), width, 'help');
    }
  }, 60_000);
});
