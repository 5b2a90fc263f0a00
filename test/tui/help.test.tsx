/**
 * The `?` help of both screens: complete at 80×24, scrolling (with lines
 * saying what is above and below) on smaller terminals, and what the token
 * figures of the stepper mean. Exact frames (ink-testing-library, NO_COLOR).
 */
import { render } from 'ink-testing-library';
import { describe, expect, test } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { simulationTools } from '../../src/jobs/simulate/engine.js';
import { tokenAccountingForReport, withTokens } from '../../src/jobs/tokens/report.js';
import { ENCODINGS } from '../../src/jobs/tokens/tokenizer.js';
import { TOOL_FORMATS } from '../../src/jobs/tokens/serialize.js';
import type { TokenSummary } from '../../src/jobs/tokens/account.js';
import { Explore } from '../../src/tui/explore/Explore.js';
import { helpLines as exploreHelpLines } from '../../src/tui/explore/screen.js';
import { helpBody, helpMetrics, helpWindow } from '../../src/tui/help.js';
import { lineWidth, seg } from '../../src/tui/line.js';
import { stepperInputs } from '../../src/tui/stepper/run.js';
import { helpLines as stepperHelpLines } from '../../src/tui/stepper/screen.js';
import { Stepper } from '../../src/tui/stepper/Stepper.js';
import type { Size } from '../../src/tui/size.js';
import { CATALOG, TRANSCRIPT, report } from './fixture.js';
import { eventually, KEYS, press, ready } from './harness.js';

const tools = simulationTools({ transcript: TRANSCRIPT, catalog: CATALOG });
const inputs = stepperInputs(TRANSCRIPT, tools);

async function reportWithTokens() {
  const r = report();
  return withTokens(r, await tokenAccountingForReport(r, tools, { encoding: 'o200k_base', toolFormat: 'openai' }));
}

async function stepper(size: Size) {
  const rep = await reportWithTokens();
  const r = render(<Stepper report={rep} inputs={inputs} resimulate={() => rep} size={size} />);
  await ready(r.stdin);
  return { ...r, frame: () => r.lastFrame() ?? '' };
}

async function explore(size: Size) {
  const r = render(
    <Explore
      index={new ToolIndex(CATALOG.tools.filter((t) => !t.static))}
      loadBaseline={() => Promise.reject(new Error('unused'))}
      catalogArgs={[]}
      source="catalog.yaml"
      onCopy={() => {}}
      size={size}
    />,
  );
  await ready(r.stdin);
  return { ...r, frame: () => r.lastFrame() ?? '' };
}

/** Presses keys, then waits for the frame to be exactly `lines`. */
async function expectFrame(
  r: { stdin: { write(s: string): void }; frame: () => string },
  keys: string[],
  lines: string[],
): Promise<void> {
  await press(r.stdin, ...keys);
  await eventually(() => expect(r.frame()).toBe(lines.join('\n')));
}

const STEPPER_HEADER = 'mode default · replay off · 4 calls · ✗ 1 error · chat.json (eino)';

describe('stepper help', () => {
  test('complete at 80×24, token figures explained, nothing to scroll', async () => {
    const r = await stepper({ columns: 80, rows: 24 });
    await expectFrame(
      r,
      ['?'],
      [
        STEPPER_HEADER,
        '─ Keys ─────────────────────────────────────────────────────────────────────────',
        '  ↑/↓  j/k        previous / next call (in the tool list: previous / next tool)',
        '  n / p  g / G    next / previous call from anywhere; first / last (Home/End)',
        '  Tab             switch between the call list and the tool list',
        '  → Enter  ← Esc  into the tool list; on a tool: its details / back',
        '  PgUp / PgDn     scroll the messages of the call',
        '  m               switch mode default ⇄ native (re-simulates)',
        '  r               replay searches on the current catalog (≠ marks differences)',
        '  /               filter tools by name (Enter keeps it, Esc clears it)',
        '  q  Esc  Ctrl-C  quit (Esc: when nothing is open)',
        '─ Marks ────────────────────────────────────────────────────────────────────────',
        '  › selected  + added at this call by forward selection  ✗ / ! error / warning',
        '  ≠ replay: a search returns something else now  - replay: no longer visible',
        '  • native: deferred, loaded by a search  mw reminder inserted by the middleware',
        "  ▶ the assistant's answer to the call",
        '─ Tokens (estimates) ───────────────────────────────────────────────────────────',
        '  ~1,234 tok      o200k_base estimate (--tokenizer) of what tool search puts in',
        '                  the context at this call: tools + reminder',
        "  cold · hit      first call · tools block byte-identical to the previous call's",
        '  break@N         tools block (OpenAI JSON) first differs from the previous',
        "                  call's at character N: a provider's prefix cache breaks there",
        '? Esc close help  q quit',
      ],
    );
    // Nothing to scroll: j changes nothing, ? closes.
    await press(r.stdin, 'j', KEYS.pageDown);
    expect(r.frame()).toContain('─ Keys ─');
    await press(r.stdin, '?');
    await eventually(() => expect(r.frame()).toContain('Call 1/4'));
    r.unmount();
  });

  test('fits 80×24 for every tokenizer and tool format (21 rows between header and footer)', () => {
    for (const encoding of ENCODINGS) {
      for (const tool_format of TOOL_FORMATS) {
        const lines = stepperHelpLines(80, { encoding, tool_format } as TokenSummary);
        expect(lines.length, `${encoding} ${tool_format}`).toBeLessThanOrEqual(21);
        for (const l of lines) expect(lineWidth(l)).toBeLessThanOrEqual(80);
      }
    }
    // Without token figures (--no-tokens) there is nothing to explain.
    expect(
      stepperHelpLines(80)
        .map((l) => l.map((s) => s.text).join(''))
        .join('\n'),
    ).not.toContain('Tokens');
  });

  test('scrolls on a small terminal: j/k, PgUp/PgDn, G/g, with how much is above and below', async () => {
    const r = await stepper({ columns: 50, rows: 12 });
    const header = 'mode default · replay off · 4 calls · ✗ 1 error ·…';
    const footer = '↑↓ PgUp/Dn scroll  ? Esc close  q quit';
    const top = [
      header,
      '─ Keys ───────────────────────────────────────────',
      '  ↑/↓  j/k        previous / next call (in the',
      '                  tool list: previous / next tool)',
      '  n / p  g / G    next / previous call from',
      '                  anywhere; first / last',
      '                  (Home/End)',
      '  Tab             switch between the call list and',
      '                  the tool list',
      '  ↓ 31 more lines below (j ↓ PgDn)',
      footer,
    ];
    await expectFrame(r, ['?'], top);
    await expectFrame(
      r,
      ['j'],
      [
        header,
        '  ↑ 1 more line above (k ↑ PgUp)',
        '  ↑/↓  j/k        previous / next call (in the',
        '                  tool list: previous / next tool)',
        '  n / p  g / G    next / previous call from',
        '                  anywhere; first / last',
        '                  (Home/End)',
        '  Tab             switch between the call list and',
        '                  the tool list',
        '  ↓ 31 more lines below (j ↓ PgDn)',
        footer,
      ],
    );
    // One row of the window is the "above" line, one the "below" line: a page is 7 lines.
    await expectFrame(
      r,
      [KEYS.pageDown],
      [
        header,
        '  ↑ 8 more lines above (k ↑ PgUp)',
        '  → Enter  ← Esc  into the tool list; on a tool:',
        '                  its details / back',
        '  PgUp / PgDn     scroll the messages of the call',
        '  m               switch mode default ⇄ native',
        '                  (re-simulates)',
        '  r               replay searches on the current',
        '                  catalog (≠ marks differences)',
        '  ↓ 24 more lines below (j ↓ PgDn)',
        footer,
      ],
    );
    const end = [
      header,
      '  ↑ 31 more lines above (k ↑ PgUp)',
      '                  this call: tools + reminder',
      '  cold · hit      first call · tools block',
      '                  byte-identical to the previous',
      "                  call's",
      '  break@N         tools block (OpenAI JSON) first',
      "                  differs from the previous call's",
      "                  at character N: a provider's",
      '                  prefix cache breaks there',
      footer,
    ];
    await expectFrame(r, ['G'], end);
    await expectFrame(r, [KEYS.down, 'j'], end); // at the end: no further
    await expectFrame(
      r,
      ['k'],
      [
        header,
        '  ↑ 30 more lines above (k ↑ PgUp)',
        '                  search puts in the context at',
        '                  this call: tools + reminder',
        '  cold · hit      first call · tools block',
        '                  byte-identical to the previous',
        "                  call's",
        '  break@N         tools block (OpenAI JSON) first',
        "                  differs from the previous call's",
        '  ↓ 2 more lines below (j ↓ PgDn)',
        footer,
      ],
    );
    await expectFrame(r, ['g'], top);
    await expectFrame(r, [KEYS.pageDown, KEYS.pageUp, KEYS.up], top);
    // Closed and opened again: from the top.
    await press(r.stdin, 'G', KEYS.escape);
    await eventually(() => expect(r.frame()).toContain('Calls (4)'));
    await expectFrame(r, ['?'], top);
    r.unmount();
  });
});

describe('token figures in the call title', () => {
  test('marked as estimates (~); on their own line when the title has no room', async () => {
    const r = await stepper({ columns: 80, rows: 24 });
    await press(r.stdin, 'j');
    await eventually(() => expect(r.frame()).toContain('─ Call 2/4 '));
    const lines = r.frame().split('\n');
    expect(lines[1]).toBe('─ Calls (4) ──────────────────┬─ Call 2/4 · 4 visible (+2) · 5 hidden ──────────');
    expect(lines[2]).toBe('  1    search "slack message" │  ~324 tok · break@852');
    r.unmount();
    const wide = await stepper({ columns: 120, rows: 24 });
    await press(wide.stdin, 'j');
    await eventually(() => expect(wide.frame()).toContain('─ Call 2/4 '));
    expect(wide.frame().split('\n')[1]).toBe(
      '─ Calls (4) ────────────────────────────┬─ Call 2/4 · 4 visible (+2) ' +
        '· 5 hidden · ~324 tok · break@852 ─────────────────',
    );
    wide.unmount();
    // The figures are the report's.
    const t = (await reportWithTokens()).turns[1]!.tokens;
    expect([t.total, t.cache.state, t.cache.first_diff]).toEqual([324, 'break', 852]);
  });
});

describe('explore help', () => {
  test('complete at 80×24', async () => {
    const r = await explore({ columns: 80, rows: 24 });
    await expectFrame(
      r,
      [...'slack', KEYS.tab, '?'],
      [
        'toolsearch explore · 7 tools · max_results 5 · fuse off · catalog.yaml',
        'query › slack',
        '1 keyword · 3 of 7 tools match · showing 3',
        '─ Keys ─────────────────────────────────────────────────────────────────────────',
        '  typing         keywords, +required or select:a,b; re-ranked at every key',
        '  ←/→ Home/End   move in the query; Ctrl-U clears it, Ctrl-W deletes a word',
        '  Tab  Enter  ↓  into the results (Tab, Esc or / back to the query)',
        '  ↑/↓  j/k       select a result: its per-keyword explanation shows below',
        '  f  (Ctrl-F)    fuse.js baseline side by side; f3 = fuse rank, ↑/↓n = change',
        '  e              the next engine side by side: ai-sdk, mastra, your module',
        '  + / -          max_results up / down',
        '  y  (Ctrl-Y)    copy the query as a `toolsearch search --expect-first` test',
        '  q  Ctrl-C      quit (Esc in the query)',
        '─ Scoring (the reference) ──────────────────────────────────────────────────────',
        '  10 points      exact-part: keyword equals a name part',
        '  5 points       part-substring: keyword is inside a name part',
        '  3 points       name-substring: keyword is inside the full name',
        '  2 points       description: keyword is inside the description',
        '  a keyword scores its best rule; a tool scores the sum; a +required keyword',
        '  scoring 0 drops the tool',
        '',
        '',
        '? Esc close help  q quit',
      ],
    );
    r.unmount();
  });

  test('scrolls on a small terminal', async () => {
    const r = await explore({ columns: 60, rows: 12 });
    const head = [
      'toolsearch explore · 7 tools · max_results 5 · fuse off · c…',
      'query › slack',
      '1 keyword · 3 of 7 tools match · showing 3',
    ];
    const footer = '↑↓ PgUp/Dn scroll  ? Esc close  q quit';
    await expectFrame(
      r,
      [...'slack', KEYS.tab, '?'],
      [
        ...head,
        '─ Keys ─────────────────────────────────────────────────────',
        '  typing         keywords, +required or select:a,b;',
        '                 re-ranked at every key',
        '  ←/→ Home/End   move in the query; Ctrl-U clears it, Ctrl-W',
        '                 deletes a word',
        '  Tab  Enter  ↓  into the results (Tab, Esc or / back to the',
        '  ↓ 21 more lines below (j ↓ PgDn)',
        footer,
      ],
    );
    await expectFrame(
      r,
      [KEYS.pageDown],
      [
        ...head,
        '  ↑ 5 more lines above (k ↑ PgUp)',
        '  Tab  Enter  ↓  into the results (Tab, Esc or / back to the',
        '                 query)',
        '  ↑/↓  j/k       select a result: its per-keyword',
        '                 explanation shows below',
        '  f  (Ctrl-F)    fuse.js baseline side by side; f3 = fuse',
        '  ↓ 17 more lines below (j ↓ PgDn)',
        footer,
      ],
    );
    await expectFrame(
      r,
      [KEYS.end],
      [
        ...head,
        '  ↑ 21 more lines above (k ↑ PgUp)',
        '  3 points       name-substring: keyword is inside the full',
        '                 name',
        '  2 points       description: keyword is inside the',
        '                 description',
        '  a keyword scores its best rule; a tool scores the sum; a',
        '  +required keyword scoring 0 drops the tool',
        footer,
      ],
    );
    r.unmount();
  });

  test('fits 80×24 (19 rows between the status line and the footer)', () => {
    expect(exploreHelpLines(80).length).toBeLessThanOrEqual(19);
  });
});

describe('help window', () => {
  const body = Array.from({ length: 10 }, (_, i) => [seg(`line ${i}`)]);
  const text = (lines: ReturnType<typeof helpWindow>): string[] => lines.map((l) => l.map((s) => s.text).join(''));

  test('what fits is shown as is; otherwise indicator lines take a row at either end', () => {
    expect(helpMetrics(10, 10)).toEqual({ maxScroll: 0, page: 1 });
    expect(text(helpWindow(body, 40, 10, 5))).toHaveLength(10);
    expect(helpMetrics(10, 5)).toEqual({ maxScroll: 6, page: 3 });
    expect(text(helpWindow(body, 40, 5, 0))).toEqual([
      'line 0',
      'line 1',
      'line 2',
      'line 3',
      '  ↓ 6 more lines below (j ↓ PgDn)',
    ]);
    expect(text(helpWindow(body, 40, 5, 3))).toEqual([
      '  ↑ 3 more lines above (k ↑ PgUp)',
      'line 3',
      'line 4',
      'line 5',
      '  ↓ 4 more lines below (j ↓ PgDn)',
    ]);
    expect(text(helpWindow(body, 40, 5, 99))).toEqual([
      '  ↑ 6 more lines above (k ↑ PgUp)',
      'line 6',
      'line 7',
      'line 8',
      'line 9',
    ]);
    // Narrower than an indicator: cut, never wider than the window.
    for (const l of helpWindow(body, 12, 5, 3)) expect(lineWidth(l)).toBeLessThanOrEqual(12);
  });

  test('entries wrap under their column; legends flow; nothing is wider than the width', () => {
    const lines = helpBody(
      [
        { title: 'Keys', entries: [{ key: 'x', text: 'one two three four five six' }] },
        {
          title: 'Marks',
          legend: [
            { key: '+', text: 'added' },
            { key: '-', text: 'gone' },
            { key: '•', text: 'loaded by a search at this call' },
          ],
        },
      ],
      24,
    );
    expect(text(lines)).toEqual([
      '─ Keys ─────────────────',
      '  x  one two three four',
      '     five six',
      '─ Marks ────────────────',
      '  + added  - gone',
      // Too wide for a line of its own: wrapped like an entry.
      '  •  loaded by a search',
      '     at this call',
    ]);
  });
});
