/** The terminal is given back as it was on every way out of a full-screen app. */
import { Text, useApp, useInput } from 'ink';
import { useState, type ReactElement } from 'react';
import { describe, expect, test, vi } from 'vitest';
import { ENTER_SCREEN, LEAVE_SCREEN, runFullScreen } from '../../src/tui/fullscreen.js';
import { assertInteractive } from '../../src/tui/tty.js';
import { UsageError } from '../../src/io/errors.js';
import { asTerminal, fakeIo, KEYS, press, ready } from './harness.js';

/** q quits, x throws while rendering. */
function App({ onQuit }: { onQuit?: () => void }): ReactElement {
  const [boom, setBoom] = useState(false);
  useInput((input) => {
    if (input === 'x') setBoom(true);
    if (input === 'q') onQuit?.();
  });
  if (boom) throw new Error('render failed');
  return <Text>hello</Text>;
}

/** Quits with useApp().exit, as the real screens do. */
function Quitter(): ReactElement {
  const { exit } = useApp();
  return <App onQuit={exit} />;
}

function restored(io: ReturnType<typeof fakeIo>): void {
  const out = io.stdout.output;
  expect(out.startsWith(ENTER_SCREEN)).toBe(true);
  expect(out.endsWith(LEAVE_SCREEN)).toBe(true);
  expect(io.stdin.rawMode).toBe(false);
}

describe('runFullScreen', () => {
  test('a quit key: alternate screen left, raw mode off', async () => {
    const io = fakeIo();
    const done = runFullScreen(<Quitter />, asTerminal(io), { patchConsole: false });
    await ready(io.stdin);
    expect(io.stdin.rawMode).toBe(true);
    await press(io.stdin, 'q');
    await expect(done).resolves.toEqual({ signal: null });
    restored(io);
  });

  test('an error while rendering: the terminal is restored first, then the error reaches the caller', async () => {
    const io = fakeIo();
    vi.spyOn(console, 'error').mockImplementation(() => {}); // React reports the error too
    const done = runFullScreen(<Quitter />, asTerminal(io), { patchConsole: false });
    await ready(io.stdin);
    await press(io.stdin, 'x');
    await expect(done).rejects.toThrow('render failed');
    restored(io);
  });

  test.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)(
    '%s: unmounted, restored, and the signal is reported',
    async (sig) => {
      const io = fakeIo();
      const before = process.listenerCount(sig);
      const done = runFullScreen(<Quitter />, asTerminal(io), { patchConsole: false });
      await ready(io.stdin);
      process.emit(sig, sig);
      await expect(done).resolves.toEqual({ signal: sig });
      restored(io);
      expect(process.listenerCount(sig)).toBe(before); // its handlers are gone again
    },
  );

  test('Ctrl-C reaches the app as a key (raw mode), which quits like q', async () => {
    const io = fakeIo();
    function CtrlC(): ReactElement {
      const { exit } = useApp();
      useInput((input, key) => {
        if (key.ctrl && input === 'c') exit();
      });
      return <Text>hi</Text>;
    }
    const done = runFullScreen(<CtrlC />, asTerminal(io), { patchConsole: false });
    await ready(io.stdin);
    await press(io.stdin, KEYS.ctrlC);
    await expect(done).resolves.toEqual({ signal: null });
    restored(io);
  });
});

describe('assertInteractive', () => {
  test('without a terminal: a usage error pointing to the alternative', () => {
    const tty = { isTTY: true };
    expect(() => assertInteractive({ stdin: tty, stdout: tty }, 'explore', '--json')).not.toThrow();
    expect(() => assertInteractive({ stdin: tty, stdout: {} }, 'simulate --tui', 'simulate --json')).toThrow(
      new UsageError(
        'simulate --tui needs an interactive terminal (stdout is not a terminal); use simulate --json instead',
      ),
    );
    expect(() => assertInteractive({ stdin: {}, stdout: {} }, 'explore', 'x')).toThrow(
      /stdin and stdout are not terminals/,
    );
  });
});
