/**
 * Fake terminal streams for Ink: a TTY-like stdout with a size that can
 * change (and emits `resize`), and a stdin that takes key presses. Unlike
 * ink-testing-library's fixed 100 columns, these let a test resize.
 */
import { EventEmitter } from 'node:events';
import { expect, vi } from 'vitest';
import { loadInk } from '../../src/tui/ink.js';

// TUI modules read Ink from src/tui/ink.ts, which the CLI fills through prepareTui().
await loadInk();

export class FakeStdout extends EventEmitter {
  isTTY = true;
  readonly writes: Array<{ at: number; data: string }> = [];
  constructor(
    public columns = 80,
    public rows = 24,
  ) {
    super();
  }
  write = (data: string): boolean => {
    this.writes.push({ at: performance.now(), data });
    this.emit('write', data);
    return true;
  };
  get output(): string {
    return this.writes.map((w) => w.data).join('');
  }
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

export class FakeStdin extends EventEmitter {
  isTTY = true;
  rawMode = false;
  private data: string | null = null;
  write = (data: string): void => {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  read = (): string | null => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding(): void {}
  setRawMode(mode: boolean): void {
    this.rawMode = mode;
  }
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

export function fakeIo(columns = 80, rows = 24): { stdin: FakeStdin; stdout: FakeStdout; stderr: FakeStdout } {
  return { stdin: new FakeStdin(), stdout: new FakeStdout(columns, rows), stderr: new FakeStdout(columns, rows) };
}

/** As Node's streams (the fakes implement what Ink uses). */
export function asTerminal(io: ReturnType<typeof fakeIo>): {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
} {
  return io as unknown as { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream };
}

export const wait = (ms = 20): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const KEYS = {
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  enter: '\r',
  tab: '\t',
  escape: '\u001B',
  backspace: '\u007F',
  ctrlC: '\u0003',
  ctrlF: '\u0006',
  ctrlU: '\u0015',
  ctrlY: '\u0019',
  pageUp: '\u001B[5~',
  pageDown: '\u001B[6~',
  home: '\u001B[H',
  end: '\u001B[F',
} as const;

/**
 * Waits until Ink listens to stdin: `useInput` subscribes in an effect,
 * which runs after the first frame, and a key written before would be lost.
 */
export async function ready(stdin: EventEmitter): Promise<void> {
  await vi.waitFor(() => expect(stdin.listenerCount('readable')).toBeGreaterThan(0), { timeout: 5000, interval: 5 });
  await wait(5);
}

/** Types keys one at a time, letting Ink handle each (a lone Esc is flushed on the next tick). */
export async function press(stdin: { write(s: string): void }, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    stdin.write(k);
    await wait(k === KEYS.escape ? 20 : 5);
  }
}

/** Retries an assertion until it holds (frames are drawn asynchronously under load). */
export async function eventually(check: () => void): Promise<void> {
  await vi.waitFor(check, { timeout: 5000, interval: 10 });
}

/** Text of a frame with SGR and other escape sequences removed. */
export function plain(frame: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (frame ?? '').replace(/\u001B\[[0-9;?]*[ -/]*[@-~]|\u001B\][^\u0007]*\u0007/g, '');
}
