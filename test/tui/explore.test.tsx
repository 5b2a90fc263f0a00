/** Explore flows: typing in, frames asserted (ink-testing-library, NO_COLOR). */
import { render } from 'ink-testing-library';
import { describe, expect, test, vi } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import type { ToolInfo } from '../../src/core/types.js';
import { displayWidth } from '../../src/render/width.js';
import { Explore, type BaselineRanker } from '../../src/tui/explore/Explore.js';
import { loadFuseBaseline } from '../../src/tui/explore/run.js';
import { CATALOG } from './fixture.js';
import { syntheticCatalog } from './perf/catalog.js';
import { eventually, KEYS, press, ready } from './harness.js';

const TOOLS = CATALOG.tools.filter((t) => !t.static);

async function mount(
  options: {
    tools?: readonly ToolInfo[];
    loadBaseline?: () => Promise<BaselineRanker>;
    columns?: number;
    rows?: number;
  } = {},
) {
  const onCopy = vi.fn();
  const loadBaseline = vi.fn(options.loadBaseline ?? (() => Promise.resolve<BaselineRanker>(() => [])));
  const r = render(
    <Explore
      index={new ToolIndex(options.tools ?? TOOLS)}
      loadBaseline={loadBaseline}
      catalogArgs={['-c', 'catalog.yaml']}
      source="catalog.yaml"
      onCopy={onCopy}
      size={{ columns: options.columns ?? 80, rows: options.rows ?? 24 }}
    />,
  );
  await ready(r.stdin);
  return { ...r, onCopy, loadBaseline, frame: () => r.lastFrame() ?? '' };
}

function lineWith(frame: string, text: string): string {
  return frame.split('\n').find((l) => l.includes(text)) ?? `(no line with ${text})`;
}

describe('explore', () => {
  test('results re-rank on every keystroke', async () => {
    const { stdin, frame } = await mount();
    expect(frame()).toContain('query ›');
    expect(frame()).toContain('type keywords (+word is required) or select:name1,name2');
    await press(stdin, 'n');
    // "n" is inside many names and descriptions.
    await eventually(() => expect(frame()).toContain('1 keyword · 6 of 7 tools match · showing 5'));
    expect(lineWith(frame(), '› 1')).toContain('linear__create_issue');
    await press(stdin, 'o', 't', 'i', 'o', 'n');
    // "noti" already matches only notion__search (as a part substring): wait for the frame of the whole word.
    await eventually(() => {
      expect(frame()).toContain('query › notion');
      expect(frame()).toContain('1 keyword · 1 of 7 tools match · showing 1');
    });
    expect(lineWith(frame(), '› 1')).toMatch(/› 1 {2}notion__search +████████ 10 {2}Search Notion pages and databases/);
    for (const l of frame().split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(80);
    expect(frame().split('\n')).toHaveLength(23);
  });

  test('+required keywords and the per-keyword explanation of the first result', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, ...'slack +channel');
    await eventually(() => expect(frame()).toContain('query › slack +channel'));
    await eventually(() => expect(frame()).toContain('2 keywords (1 required) · 2 of 7 tools match · showing 2'));
    const f = frame();
    expect(lineWith(f, '› 1')).toContain('slack__list_channels');
    expect(f).toContain('─ #1 slack__list_channels · score 15 · parts slack · list · channels ─');
    expect(f).toMatch(/\n {2}slack +exact-part +slack +10 {2}keyword equals a name part\n/);
    expect(f).toMatch(/\n {2}\+channel +part-substring +channels +5 {2}keyword is inside a name part\n/);
  });

  test('Tab moves into the results; the selected result shows its explanation', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, ...'slack message', KEYS.tab, 'j');
    await eventually(() => expect(frame()).toContain('─ #2 slack__add_reaction · score 12'));
    expect(lineWith(frame(), '› 2')).toContain('slack__add_reaction');
    expect(frame()).toMatch(/\n {2}message +description +— +2 {2}keyword is inside the description\n/);
    await press(stdin, 'k');
    await eventually(() => expect(frame()).toContain('─ #1 slack__post_message · score 20'));
  });

  test('select: works as in the reference', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, ...'select:notion__search,nope,notion__search');
    await eventually(() => expect(frame()).toContain('query › select:notion__search,nope,notion__search'));
    await eventually(() => expect(frame()).toContain('select: 2 tools returned · 1 skipped'));
    expect(frame()).toMatch(/1 {2}notion__search +select/);
    expect(frame()).toMatch(/2 {2}notion__search +select/);
    expect(frame()).toContain('skipped, not dynamic tools: nope');
  });

  test('a query of white space is the reference error', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, ' ');
    await eventually(() => expect(frame()).toContain('✗ query is required'));
  });

  test('f shows the fuse.js baseline side by side, with rank differences marked', async () => {
    const baseline: BaselineRanker = () => ['slack__list_channels', 'slack__post_message', 'notion__search'];
    const { stdin, frame, loadBaseline } = await mount({ loadBaseline: () => Promise.resolve(baseline) });
    await press(stdin, ...'slack message', KEYS.tab, 'f');
    await eventually(() => expect(frame()).toContain('new'));
    expect(loadBaseline).toHaveBeenCalledTimes(1);
    const f = frame();
    expect(f).toContain('max_results 5 · fuse on');
    // Reference: post_message 20, add_reaction 12, list_channels 10; each marked with its fuse rank.
    expect(lineWith(f, 'slack__post_message  ')).toMatch(/1 slack__post_message +20 f2 +│ 1 slack__list_channels +↑2/);
    expect(lineWith(f, 'slack__add_reaction')).toMatch(/2 slack__add_reaction +12 f— +│ 2 slack__post_message +↓1/);
    expect(lineWith(f, 'notion__search')).toMatch(/3 slack__list_channels +10 f1 +│ 3 notion__search +new/);
    await press(stdin, 'f');
    await eventually(() => expect(frame()).not.toContain('fuse.js baseline'));
    await press(stdin, 'f');
    await eventually(() => expect(frame()).toContain('fuse.js baseline'));
    expect(loadBaseline).toHaveBeenCalledTimes(1); // loaded once
  });

  test('the real fuse.js baseline loads and ranks', async () => {
    const { stdin, frame } = await mount({ loadBaseline: () => loadFuseBaseline(TOOLS) });
    await press(stdin, ...'notion', KEYS.ctrlF);
    await eventually(() => expect(lineWith(frame(), 'notion__search')).toMatch(/│ 1 notion__search +=/));
  });

  test('on a big catalog the baseline ranks once typing pauses, not at every key', async () => {
    const ranked: string[] = [];
    const ranker: BaselineRanker = (q) => {
      ranked.push(q);
      return [];
    };
    const { stdin, frame } = await mount({
      tools: syntheticCatalog(1000),
      loadBaseline: () => Promise.resolve(ranker),
    });
    await press(stdin, 'c', KEYS.ctrlF);
    await eventually(() => expect(ranked).toEqual(['c']));
    for (const ch of 'reate') stdin.write(ch); // faster than the debounce
    await eventually(() => expect(frame()).toContain('query › create'));
    expect(frame()).toContain('fuse.js baseline · ranking…');
    await eventually(() => expect(ranked).toEqual(['c', 'create']));
    await eventually(() => expect(frame()).toContain('fuse.js baseline · Δ vs reference'));
  });

  test('+ and - change max_results', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, ...'slack', KEYS.tab, '-', '-');
    await eventually(() => expect(frame()).toContain('max_results 3'));
    await press(stdin, '-', '-', '-');
    await eventually(() => expect(frame()).toContain('1 keyword · 3 of 7 tools match · showing 1'));
    await press(stdin, '+');
    await eventually(() => expect(frame()).toContain('showing 2'));
  });

  test('y copies the query as a ready `toolsearch search --expect-first` command line', async () => {
    const { stdin, frame, onCopy } = await mount();
    await press(stdin, ...'slack message', KEYS.tab, '+', 'y');
    await eventually(() => expect(onCopy).toHaveBeenCalledTimes(1));
    expect(onCopy).toHaveBeenCalledWith(
      "toolsearch search -c catalog.yaml -n 6 --expect-first slack__post_message -- 'slack message'",
    );
    await eventually(() => expect(frame()).toContain('copied: toolsearch search -c catalog.yaml -n 6'));
  });

  test('catalog text is never drawn raw', async () => {
    const tools: ToolInfo[] = [
      { name: 'evil\u001b[2Jtool', description: 'wipes \u001b]0;title\u0007 the \u202escreen\nnext line' },
      { name: 'plain_tool', description: 'nothing to see' },
    ];
    const { stdin, frame } = await mount({ tools });
    await press(stdin, ...'tool');
    await eventually(() => expect(frame()).toContain('2 of 2 tools match'));
    expect(frame()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(frame()).toContain('evil\\x1b[2Jtool');
    expect(frame()).toContain('wipes \\x1b]0;title\\x07 the \\u202escreen next…');
  });

  test('long names and descriptions are cut with an ellipsis at 80 columns, and at 40', async () => {
    const long = 'x'.repeat(60);
    const tools: ToolInfo[] = [{ name: `service__${long}`, description: `does ${long} ${long}` }];
    for (const columns of [80, 40]) {
      const { stdin, frame, unmount } = await mount({ tools, columns, rows: 12 });
      await press(stdin, ...'service');
      await eventually(() => expect(frame()).toContain('1 of 1'));
      for (const l of frame().split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(columns);
      expect(lineWith(frame(), '› 1')).toContain('…');
      unmount();
    }
  });
});
