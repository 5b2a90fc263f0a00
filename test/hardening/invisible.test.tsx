/**
 * Issue 14, finding 13: invisible characters (bidi marks, zero-width space
 * and joiners, word joiner and invisible operators, BOM, tag characters,
 * interlinear annotation) reach a terminal escaped like other controls, in
 * search, `--explain`, `--why`, lint and the TUI; `--json` keeps them. A ZWJ
 * in a name does not misalign the TUI's columns. The CLI runs are of the
 * built binary (`npm run build` first).
 */
import { render } from 'ink-testing-library';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { escapeText, hasUnsafe } from '../../src/io/escape.js';
import { displayWidth } from '../../src/render/width.js';
import { Explore, type BaselineRanker } from '../../src/tui/explore/Explore.js';
import { shellQuote } from '../../src/tui/explore/command-line.js';
import { eventually, press, ready } from '../tui/harness.js';
import { expectTerminalSafe, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** Every invisible character the review found passing raw, one of each range's ends. */
const INVISIBLE: ReadonlyArray<readonly [string, string]> = [
  ['\u061c', '\\u061c'],
  ['\u200b', '\\u200b'],
  ['\u200c', '\\u200c'],
  ['\u200d', '\\u200d'],
  ['\u200e', '\\u200e'],
  ['\u200f', '\\u200f'],
  ['\u2060', '\\u2060'],
  ['\u2064', '\\u2064'],
  ['\ufeff', '\\ufeff'],
  ['\u{e0000}', '\\u{e0000}'],
  ['\u{e0041}', '\\u{e0041}'],
  ['\u{e007f}', '\\u{e007f}'],
  ['\ufff9', '\\ufff9'],
  ['\ufffb', '\\ufffb'],
];

const ZWJ_NAME = 'send\u200dmail';
const TOOLS = [
  { name: ZWJ_NAME, description: `Send a mail ${INVISIBLE.map(([c]) => c).join(' ')} end` },
  { name: 'send_mail', description: 'Send a mail quickly' },
  { name: 'send_sms', description: 'Send a text message' },
];
const catalog = tmp.file('invisible.json', JSON.stringify(TOOLS));

describe('escapeText', () => {
  it.each(INVISIBLE)('shows %j as %s', (c, shown) => {
    expect(escapeText(`a${c}b`)).toBe(`a${shown}b`);
    expect(hasUnsafe(c)).toBe(true);
  });

  it('leaves visible neighbours alone (emoji, U+E0080, U+FFFC, U+2065 unassigned stays as is)', () => {
    for (const s of ['😀', '\u{e0080}', '\ufffc', '\u2010', '\u2065', 'İstanbul']) expect(escapeText(s)).toBe(s);
  });

  it('the explore command line quotes an astral invisible as bash reads it', () => {
    expect(shellQuote('a\u{e0041}')).toBe("$'a\\U000e0041'");
    expect(shellQuote(ZWJ_NAME)).toBe("$'send\\u200dmail'");
  });
});

describe('terminal output of the built CLI', () => {
  it('search and --explain show them escaped', async () => {
    const r = await spawnCli(['search', '-c', catalog, '--explain', 'send', 'mail']);
    expect(r.code).toBe(0);
    expectTerminalSafe(r.stdout);
    expect(r.stdout).toContain('send\\u200dmail');
    expect(r.stdout).toContain('Send a mail \\u061c \\u200b');
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      'keyword search "send mail" · limit 5 · 3 of 3 tools match',
      '#  tool            score  description',
      '1  send_mail          20  Send a mail quickly',
    ]);
  });

  it('--why names the tool escaped', async () => {
    const r = await spawnCli(['search', '-c', catalog, 'sms', '--why', ZWJ_NAME]);
    expect(r.code).toBe(0);
    expectTerminalSafe(r.stdout);
    expect(r.stdout).toContain('why send\\u200dmail:');
  });

  it('lint shows them escaped', async () => {
    const r = await spawnCli(['lint', '-c', catalog, '--all']);
    expectTerminalSafe(r.stdout);
    expect(r.stdout).toContain('the name part "send\\u200dmail" contains "\\u200d"');
  });

  it('--json keeps the text exact', async () => {
    const r = await spawnCli(['search', '-c', catalog, '--json', 'send', 'mail']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { results: Array<{ name: string; description: string }> };
    expect(out.results.map((x) => x.name)).toEqual(['send_mail', 'send_sms', ZWJ_NAME]);
    expect(out.results[2]!.description).toBe(TOOLS[0]!.description);
  });
});

describe('the TUI', () => {
  it('a ZWJ in a name is shown escaped and the columns stay aligned', async () => {
    const r = render(
      <Explore
        index={new ToolIndex(TOOLS)}
        loadBaseline={vi.fn(() => Promise.resolve<BaselineRanker>(() => []))}
        catalogArgs={['-c', 'catalog.json']}
        source="catalog.json"
        onCopy={vi.fn()}
        size={{ columns: 80, rows: 24 }}
      />,
    );
    await ready(r.stdin);
    await press(r.stdin, ...'send');
    await eventually(() => expect(r.lastFrame()).toContain('3 of 3 tools match'));
    const frame = r.lastFrame() ?? '';
    expectTerminalSafe(frame, 'frame');
    const rows = frame.split('\n').filter((l) => /^. [123] {2}/.test(l));
    expect(rows).toHaveLength(3);
    expect(rows.some((l) => l.includes('send\\u200dmail'))).toBe(true);
    // The score column starts at the same display column on every row.
    const scoreAt = rows.map((l) => displayWidth(l.slice(0, l.search(/[█░]/))));
    expect(new Set(scoreAt).size, rows.join('\n')).toBe(1);
    for (const l of frame.split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(80);
    r.unmount();
  });
});
