/** Stepper flows: key presses in, frames asserted (ink-testing-library, NO_COLOR). */
import { render as inkRender } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, test, vi } from 'vitest';
import type { Mode } from '../../src/core/types.js';
import { displayWidth } from '../../src/render/width.js';
import { simulationTools } from '../../src/jobs/simulate/engine.js';
import { Stepper } from '../../src/tui/stepper/Stepper.js';
import { stepperInputs } from '../../src/tui/stepper/run.js';
import { CATALOG, TRANSCRIPT, report } from './fixture.js';
import { asTerminal, eventually, fakeIo, KEYS, plain, press, ready } from './harness.js';

const inputs = stepperInputs(TRANSCRIPT, simulationTools({ transcript: TRANSCRIPT, catalog: CATALOG }));
const SIZE = { columns: 80, rows: 24 };

async function mount(resimulate = vi.fn((mode: Mode, replay: boolean) => report(mode, replay))) {
  const r = render(<Stepper report={report()} inputs={inputs} resimulate={resimulate} size={SIZE} />);
  await ready(r.stdin);
  return { ...r, resimulate, frame: () => r.lastFrame() ?? '' };
}

/** The line of a frame that contains `text`. */
function lineWith(frame: string, text: string): string {
  return frame.split('\n').find((l) => l.includes(text)) ?? `(no line with ${text})`;
}

describe('stepper', () => {
  test('the first frame: calls on the left, what call 1 offers on the right, its messages below', async () => {
    const { frame } = await mount();
    const f = frame();
    const lines = f.split('\n');
    expect(lines).toHaveLength(23); // one row less than the terminal
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(80);
    expect(lineWith(f, '› 1')).toContain('search "slack message"');
    expect(lineWith(f, '  3')).toContain('✗  github__…e_pull_request│'); // cut in the middle to fit the panel
    expect(f).toContain('Call 1/4 · 2 visible · 7 hidden');
    expect(lineWith(f, 'get_current_time')).toContain('[static]');
    expect(lineWith(f, 'tool_search  ')).toContain('[search tool]');
    expect(lineWith(f, ' mw ')).toContain(
      ' mw  user      ◆ reminder inserted by the middleware at this call: <available-…',
    );
    expect(f).toContain('▶  #2 assistant');
    expect(f).toContain('→ tool_search "slack message"');
  });

  test('the call list moves with j/k and arrows; tools added at a call are marked +', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, 'j');
    await eventually(() => expect(lineWith(frame(), '› 2')).toContain('slack__post_message'));
    expect(frame()).toContain('Call 2/4 · 4 visible (+2) · 5 hidden');
    expect(frame()).toMatch(/│ \+ slack__post_message  Post a message to a Slac…\n/);
    expect(frame()).toMatch(/│ \+ slack__list_channels List the channels of a S…\n/);
    expect(frame()).toMatch(/│›  get_current_time +\[static\]/);
    expect(frame()).toContain('tool_search matches: slack__post_message, slack__list_channels');
    await press(stdin, KEYS.down);
    await eventually(() => expect(lineWith(frame(), '› 3')).toContain('github__…e_pull_request'));
    // Marked only at the call that added them.
    expect(frame()).not.toMatch(/\+ slack__post_message/);
    await press(stdin, 'k', KEYS.up);
    await eventually(() => expect(lineWith(frame(), '› 1')).toContain('search "slack message"'));
  });

  test('a violation shows with its reason at its call', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, 'j', 'j');
    await eventually(() => expect(frame()).toContain('│✗ not-loaded: github__merge_pull_request was\n'));
    expect(frame()).toContain('│  called before any tool_search result named it\n');
    expect(frame()).toContain('│  (not visible at call 3)\n');
  });

  test('Enter on a tool opens its details: description, parameters, which search loaded it and when', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, 'j', KEYS.tab, 'j', 'j', KEYS.enter);
    await eventually(() => expect(frame()).toContain('─ slack__post_message ─'));
    const f = frame();
    expect(f).toContain('added at call 2 by forward selection');
    expect(f).toContain('named by tool_search "slack message" at call 1');
    expect(f).toContain('called at call 2 ✓');
    expect(f).toContain('Post a message to a Slack channel');
    expect(lineWith(f, 'channel string')).toContain('channel string required — Channel id');
    await press(stdin, KEYS.escape);
    await eventually(() => expect(frame()).toContain('Call 2/4'));
  });

  test('m switches to model-native mode by re-simulating', async () => {
    const { stdin, frame, resimulate } = await mount();
    await press(stdin, 'm');
    await eventually(() => expect(frame()).toContain('Deferred (7)'));
    expect(resimulate).toHaveBeenCalledWith('native', false);
    expect(frame()).toContain('mode native ·');
    expect(frame()).toContain('Call 1/4 · 1 visible · 7 deferred · 0 hidden');
    expect(frame()).toContain('Deferred (7)');
    await press(stdin, 'm');
    await eventually(() => expect(frame()).not.toContain('Deferred'));
    expect(resimulate).toHaveBeenLastCalledWith('default', false);
    expect(frame()).toContain('mode default ·');
  });

  test('r replays the searches against the catalog and highlights the differences', async () => {
    const { stdin, frame, resimulate } = await mount();
    await press(stdin, 'j', 'r');
    await eventually(() => expect(frame()).toContain('Replay would add (1)'));
    expect(frame()).toContain('replay on, 1 difference');
    expect(resimulate).toHaveBeenCalledWith('default', true);
    const f = frame();
    expect(lineWith(f, '› 2')).toContain('≠ slack__post_message');
    expect(f).toContain('Replay would add (1)');
    expect(f).toMatch(/\+ slack__add_reaction/);
    expect(f).toContain('≠ replay: matches: slack__post_message, slack__add_reaction, slack__lis…');
  });

  test('a failed re-simulation is reported and the session goes on', async () => {
    const failing = vi.fn((): never => {
      throw new Error('catalog changed on disk');
    });
    const { stdin, frame } = await mount(failing);
    await press(stdin, 'm');
    await eventually(() => expect(frame()).toContain('✗ re-simulation failed: catalog changed on disk'));
    expect(frame()).toContain('mode default');
  });

  test('/ filters the tools by name', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, 'j', '/', 'l', 'i', 's', 't');
    await eventually(() => expect(frame()).toContain('/ filter: list▏  1 match'));
    expect(frame()).toContain('slack__list_channels');
    expect(frame()).not.toContain('get_current_time');
    await press(stdin, KEYS.enter, KEYS.escape);
    await eventually(() => expect(frame()).toContain('get_current_time'));
  });

  test('? shows the keys', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, '?');
    await eventually(() => expect(frame()).toContain('─ Keys ─'));
    expect(frame()).toContain('switch mode default ⇄ native');
    await press(stdin, '?');
    await eventually(() => expect(frame()).toContain('Call 1/4'));
  });

  test('PgUp scrolls the messages back', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, 'G', KEYS.pageUp);
    await eventually(() => expect(frame()).toContain('scrolled 3 up'));
  });

  test('text from the transcript is never drawn raw', async () => {
    const { stdin, frame } = await mount();
    await press(stdin, 'G');
    await eventually(() =>
      expect(frame()).toContain('▶  #8 assistant Posted to #general. I could not merge PR 42.\\x1b[31m'),
    );
    expect(frame()).not.toContain('\u001b');
  });

  test('q quits (the app unmounts)', async () => {
    const io = fakeIo();
    const app = inkRender(<Stepper report={report()} inputs={inputs} resimulate={report} />, {
      ...asTerminal(io),
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
    await ready(io.stdin);
    // Asked for before the key: Ink resolves only a promise that exists when it has unmounted
    // (an exit within the key's few milliseconds would otherwise leave it pending forever).
    const exited = app.waitUntilExit();
    await press(io.stdin, 'q');
    await expect(exited).resolves.toBeUndefined();
  });

  test('adapts to a resize', async () => {
    const io = fakeIo(80, 24);
    const app = inkRender(<Stepper report={report()} inputs={inputs} resimulate={report} />, {
      ...asTerminal(io),
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
    await ready(io.stdin);
    const last = (): string[] => plain(io.stdout.writes.at(-1)?.data).replace(/\n$/, '').split('\n');
    expect(last()).toHaveLength(23);
    io.stdout.resize(50, 14);
    await eventually(() => expect(last()).toHaveLength(13));
    for (const l of last()) expect(displayWidth(l)).toBeLessThanOrEqual(50);
    expect(last().join('\n')).toContain('…'); // long summaries and names are cut with an ellipsis
    io.stdout.resize(120, 40);
    await eventually(() => expect(last()).toHaveLength(39));
    expect(last().join('\n')).toContain('github__merge_pull_request');
    app.unmount();
  });
});
