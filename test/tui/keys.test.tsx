/**
 * Keys that arrive together in one read (a paste, `tmux send-keys Tab C-u`, a
 * held key over a slow link) are split into single presses, in order, and
 * every key the screens bind stays that key.
 */
import { render } from 'ink-testing-library';
import { describe, expect, test } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { simulationTools } from '../../src/jobs/simulate/engine.js';
import { Explore } from '../../src/tui/explore/Explore.js';
import { isQuitKey, NO_KEY, splitKeys, type KeyInfo } from '../../src/tui/keys.js';
import { Stepper } from '../../src/tui/stepper/Stepper.js';
import { stepperInputs } from '../../src/tui/stepper/run.js';
import { CATALOG, TRANSCRIPT, report } from './fixture.js';
import { eventually, KEYS, ready } from './harness.js';

const key = (k: Partial<KeyInfo> = {}): KeyInfo => ({ ...NO_KEY, ...k });

describe('splitKeys', () => {
  test('one batch of every kind of key the screens bind: each stays its key, in order', () => {
    const batch = [
      'a',
      KEYS.tab,
      KEYS.ctrlU,
      KEYS.ctrlF,
      KEYS.ctrlY,
      '\x17',
      KEYS.backspace,
      '\b',
      KEYS.up,
      KEYS.down,
      KEYS.right,
      KEYS.left,
      KEYS.pageUp,
      KEYS.pageDown,
      '\x1b[H',
      '\x1b[F',
      '\x1bOA',
      '\x1b[1;5B',
      '\x1b[3~',
      'G',
      KEYS.escape,
    ].join('');
    expect(splitKeys(batch, NO_KEY)).toEqual([
      { input: 'a', key: key() },
      { input: '', key: key({ tab: true }) },
      { input: 'u', key: key({ ctrl: true }) },
      { input: 'f', key: key({ ctrl: true }) },
      { input: 'y', key: key({ ctrl: true }) },
      { input: 'w', key: key({ ctrl: true }) },
      { input: '', key: key({ delete: true }) },
      { input: '', key: key({ backspace: true }) },
      { input: '', key: key({ upArrow: true }) },
      { input: '', key: key({ downArrow: true }) },
      { input: '', key: key({ rightArrow: true }) },
      { input: '', key: key({ leftArrow: true }) },
      { input: '', key: key({ pageUp: true }) },
      { input: '', key: key({ pageDown: true }) },
      { input: '', key: key({ home: true }) },
      { input: '', key: key({ end: true }) },
      { input: '', key: key({ upArrow: true }) }, // SS3 form (application cursor keys)
      { input: '', key: key({ downArrow: true, ctrl: true }) }, // Ctrl-Down
      { input: '', key: key({ delete: true }) },
      { input: 'G', key: key({ shift: true }) },
      // A lone Esc, as Ink reports it (followed by a printable key it would be Alt-key, as terminals send it).
      { input: '', key: key({ escape: true, meta: true }) },
    ]);
  });

  test('Esc then a key is Alt-key; Esc Esc is two Escs; unknown sequences are no text', () => {
    expect(splitKeys(`${KEYS.escape}q`, NO_KEY)).toEqual([{ input: 'q', key: key({ meta: true }) }]);
    expect(splitKeys(`j${KEYS.escape}${KEYS.escape}`, NO_KEY)).toEqual([
      { input: 'j', key: key() },
      { input: '', key: key({ escape: true, meta: true }) },
      { input: '', key: key({ escape: true, meta: true }) },
    ]);
    expect(splitKeys('a\x1b[99zb', NO_KEY)).toEqual([
      { input: 'a', key: key() },
      { input: '', key: key() },
      { input: 'b', key: key() },
    ]);
  });

  test('line breaks of a paste stay text; a single key is passed through as Ink parsed it', () => {
    expect(splitKeys('a\rb', NO_KEY).map((k) => k.input)).toEqual(['a', '\r', 'b']);
    expect(splitKeys('u', key({ ctrl: true }))).toEqual([{ input: 'u', key: key({ ctrl: true }) }]);
    expect(splitKeys('', key({ upArrow: true }))).toEqual([{ input: '', key: key({ upArrow: true }) }]);
  });

  test('quit keys are found inside a batch', () => {
    expect(isQuitKey('jjq', NO_KEY)).toBe(true);
    expect(isQuitKey(`j${KEYS.ctrlC}`, NO_KEY)).toBe(true);
    expect(isQuitKey('', key({ escape: true, meta: true }))).toBe(true);
    expect(isQuitKey('jk\x15', NO_KEY)).toBe(false);
  });
});

describe('a batch through Ink reaches the screens key by key', () => {
  test('explore: Ctrl-U inside a batch clears the query, Tab and Ctrl-F inside one still work', async () => {
    const r = render(
      <Explore
        index={new ToolIndex(CATALOG.tools.filter((t) => !t.static))}
        loadBaseline={() => Promise.resolve(() => ['notion__search'])}
        catalogArgs={[]}
        source="catalog.yaml"
        onCopy={() => {}}
        size={{ columns: 80, rows: 24 }}
      />,
    );
    await ready(r.stdin);
    const frame = (): string => r.lastFrame() ?? '';
    r.stdin.write(`slack${KEYS.ctrlU}notion`); // one read: type, clear, type
    await eventually(() => expect(frame()).toContain('1 keyword · 1 of 7 tools match · showing 1'));
    expect(frame()).toContain('query › notion');
    r.stdin.write(`${KEYS.ctrlF}${KEYS.tab}`);
    await eventually(() => expect(frame()).toMatch(/│ 1 notion__search +=/));
    expect(frame()).toContain('Tab query');
    r.unmount();
  });

  test('stepper: Ctrl-U inside a batch (tmux send-keys Tab / … C-u …) clears the filter', async () => {
    const inputs = stepperInputs(TRANSCRIPT, simulationTools({ transcript: TRANSCRIPT, catalog: CATALOG }));
    const r = render(
      <Stepper report={report()} inputs={inputs} resimulate={report} size={{ columns: 80, rows: 24 }} />,
    );
    await ready(r.stdin);
    const frame = (): string => r.lastFrame() ?? '';
    r.stdin.write('j/list');
    await eventually(() => expect(frame()).toContain('/ filter: list▏  1 match'));
    r.stdin.write(KEYS.ctrlU); // alone: Ink's own parse
    await eventually(() => expect(frame()).not.toContain('/ filter:'));
    // One read: Tab, filter "slack", Ctrl-U (clears it and stops editing), filter "lis" again.
    r.stdin.write(`${KEYS.tab}/slack${KEYS.ctrlU}/lis`);
    await eventually(() => expect(frame()).toContain('/ filter: lis▏  1 match'));
    expect(frame()).toContain('slack__list_channels');
    expect(frame()).not.toContain('get_current_time');
    r.unmount();
  });
});
