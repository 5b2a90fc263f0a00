/**
 * Runs an Ink app on the terminal's alternate screen and gives the terminal
 * back as it was on every way out: a quit key, Ctrl-C (raw mode delivers it
 * as a key), SIGINT/SIGTERM/SIGHUP from outside, an error thrown while
 * rendering, an uncaught exception or rejection, and `process.exit`.
 */
import type { ReactElement } from 'react';
import { ink } from './ink.js';

export interface TerminalIo {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
}

/** Alternate screen on, cursor home. */
export const ENTER_SCREEN = '\x1b[?1049h\x1b[H';
/** Cursor shown, alternate screen off (the shell's screen comes back as it was). */
export const LEAVE_SCREEN = '\x1b[?25h\x1b[?1049l';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type ExitSignal = (typeof SIGNALS)[number];

/**
 * After a signal ended the app and the terminal is restored: dies of the same
 * signal (the default action, as the handlers are gone), so the shell sees
 * the usual status (130 for SIGINT…).
 */
export function reraise(signal: ExitSignal | null): void {
  if (signal !== null) process.kill(process.pid, signal);
}

/**
 * Renders `app` full screen until it exits. Resolves with the signal that
 * ended it (null for a normal quit); rejects with the error that ended it,
 * after the terminal is restored, so the CLI reports it the usual way.
 */
export function runFullScreen(
  app: ReactElement,
  io: TerminalIo,
  /** `patchConsole`: route console output above the app (off in tests, whose console cannot be patched). */
  options: { readonly patchConsole?: boolean } = {},
): Promise<{ signal: ExitSignal | null }> {
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    try {
      if (io.stdin.isTTY) io.stdin.setRawMode(false);
    } catch {
      // stdin may already be closed
    }
    try {
      io.stdout.write(LEAVE_SCREEN);
    } catch {
      // stdout may already be closed
    }
  };

  io.stdout.write(ENTER_SCREEN);
  // Last resort: whatever ends the process, the screen comes back.
  process.on('exit', restore);

  return new Promise((resolve, reject) => {
    let signal: ExitSignal | null = null;
    let crash: Error | null = null;
    const instance = ink().render(app, {
      stdin: io.stdin,
      stdout: io.stdout,
      stderr: io.stderr,
      // Ctrl-C is a key like q: the app handles it and quits cleanly.
      exitOnCtrlC: false,
      // Ink's console patch needs the real console (test runners replace it).
      patchConsole: (options.patchConsole ?? true) && typeof console.Console === 'function',
      // One keystroke, one frame: Ink's default throttle (30 fps) would hold frames back up to 33 ms.
      maxFps: 60,
    });
    const onSignal = (sig: ExitSignal): void => {
      signal = sig;
      instance.unmount();
    };
    const onCrash = (err: unknown): void => {
      crash = err instanceof Error ? err : new Error(String(err));
      instance.unmount(crash);
    };
    for (const s of SIGNALS) process.on(s, onSignal);
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    const finish = (err: unknown): void => {
      for (const s of SIGNALS) process.off(s, onSignal);
      process.off('uncaughtException', onCrash);
      process.off('unhandledRejection', onCrash);
      process.off('exit', restore);
      restore();
      if (err !== null) reject(err);
      else resolve({ signal });
    };
    instance.waitUntilExit().then(
      () => finish(crash),
      (err: unknown) => finish(err ?? crash),
    );
  });
}
