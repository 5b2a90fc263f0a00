/** The two entry points the CLI calls, on a fake terminal: the whole path from inputs to a restored screen. */
import { describe, expect, test } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { runExplore } from '../../src/tui/explore/run.js';
import { LEAVE_SCREEN } from '../../src/tui/fullscreen.js';
import { runSimulateTui } from '../../src/tui/simulate-command.js';
import { CATALOG, TRANSCRIPT } from './fixture.js';
import { asTerminal, eventually, fakeIo, KEYS, plain, press, ready } from './harness.js';

describe('entry points', () => {
  test('simulate --tui: simulates, steps, re-simulates on m, quits with q', async () => {
    const io = fakeIo(80, 24);
    const done = runSimulateTui({
      transcript: TRANSCRIPT,
      catalog: CATALOG,
      mode: 'default',
      replay: false,
      color: false,
      io,
    });
    await ready(io.stdin);
    await press(io.stdin, 'j');
    await eventually(() => expect(plain(io.stdout.output)).toContain('Call 2/4 · 4 visible (+2)'));
    await press(io.stdin, 'm');
    await eventually(() => expect(plain(io.stdout.output)).toContain('mode native'));
    await press(io.stdin, 'q');
    await done;
    expect(io.stdout.output.endsWith(LEAVE_SCREEN)).toBe(true);
  });

  test('simulate --tui: bad inputs fail before the screen changes', async () => {
    const io = fakeIo(80, 24);
    const noCatalog = runSimulateTui({
      transcript: TRANSCRIPT,
      catalog: null,
      mode: 'default',
      replay: false,
      color: false,
      io,
    });
    await expect(noCatalog).rejects.toThrow(/no catalog/);
    expect(io.stdout.output).toBe('');
  });

  test(
    'explore: copied command lines go to the clipboard (OSC 52) and are printed after the screen is ' + 'restored',
    async () => {
      const io = fakeIo(80, 24);
      const done = runExplore({
        index: new ToolIndex(CATALOG.tools.filter((t) => !t.static)),
        catalogArgs: ['-c', 'catalog.yaml'],
        source: 'catalog.yaml',
        color: false,
        io: asTerminal(io),
      });
      await ready(io.stdin);
      await press(io.stdin, ...'notion', KEYS.tab, 'y');
      await eventually(() => expect(io.stdout.output).toContain('\u001b]52;c;'));
      await press(io.stdin, 'q');
      await done;
      const line = 'toolsearch search -c catalog.yaml --expect-first notion__search -- notion';
      expect(io.stdout.output.endsWith(`${LEAVE_SCREEN}${line}\n`)).toBe(true);
      expect(io.stdout.output).toContain(`\u001b]52;c;${Buffer.from(line).toString('base64')}\u0007`);
    },
  );
});
