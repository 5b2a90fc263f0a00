import { describe, expect, test } from 'vitest';
import { NO_KEY, type KeyInfo } from '../../src/tui/keys.js';
import { stepperKey } from '../../src/tui/stepper/keys.js';
import { toolRows } from '../../src/tui/stepper/model.js';
import { stepperEventReducer } from '../../src/tui/stepper/keys.js';
import {
  initialStepperState,
  stepperReducer,
  type StepperAction,
  type StepperState,
} from '../../src/tui/stepper/state.js';
import { report } from './fixture.js';

const run = (actions: StepperAction[], s: StepperState = initialStepperState(report())): StepperState =>
  actions.reduce(stepperReducer, s);
const key = (k: Partial<KeyInfo>): KeyInfo => ({ ...NO_KEY, ...k });
const typed = (s: StepperState, ...inputs: Array<string | Partial<KeyInfo>>): StepperState =>
  inputs.reduce<StepperState>(
    (st, i) =>
      stepperEventReducer(
        st,
        typeof i === 'string' ? { type: 'key', input: i, key: NO_KEY } : { type: 'key', input: '', key: key(i) },
      ),
    s,
  );

describe('stepper reducer', () => {
  test('moving between calls stays in range and resets the message scroll', () => {
    const s = run([
      { type: 'scrollMessages', delta: 3 },
      { type: 'moveCall', delta: 1 },
    ]);
    expect([s.selected, s.messageScroll]).toEqual([1, 0]);
    expect(run([{ type: 'moveCall', delta: -5 }]).selected).toBe(0);
    expect(run([{ type: 'moveCall', delta: 99 }]).selected).toBe(3);
    expect(run([{ type: 'lastCall' }, { type: 'firstCall' }]).selected).toBe(0);
  });
  test('the tool cursor is clamped to the rows of the selected call', () => {
    // Call 2 lists 4 tools, call 1 only 2.
    const s = run([
      { type: 'moveCall', delta: 1 },
      { type: 'moveTool', delta: 10 },
    ]);
    expect(s.toolCursor).toBe(3);
    expect(run([{ type: 'moveCall', delta: -1 }], s).toolCursor).toBe(1);
  });
  test('details open on the tool under the cursor and close again', () => {
    const s = run([{ type: 'moveCall', delta: 1 }, { type: 'moveTool', delta: 2 }, { type: 'openDetail' }]);
    expect([s.detail, s.focus]).toEqual(['slack__post_message', 'tools']);
    expect(run([{ type: 'closeDetail' }], s).detail).toBeNull();
  });
  test('the filter narrows the rows and resets the cursor', () => {
    const s = run([
      { type: 'moveCall', delta: 1 },
      { type: 'moveTool', delta: 3 },
      { type: 'startFilter' },
      { type: 'filterInput', text: 'list' },
    ]);
    expect([s.filter, s.toolCursor, s.editingFilter, s.focus]).toEqual(['list', 0, true, 'tools']);
    const kept = run([{ type: 'acceptFilter' }], s);
    expect([kept.filter, kept.editingFilter]).toEqual(['list', false]);
    expect(run([{ type: 'filterBackspace' }], s).filter).toBe('lis');
    expect(run([{ type: 'clearFilter' }], s).filter).toBe('');
  });
  test('m asks for the other mode with the same replay setting; r toggles replay; one request at a time', () => {
    const s = run([{ type: 'switchMode' }]);
    expect(s.pending).toEqual({ mode: 'native', replay: false });
    expect(run([{ type: 'toggleReplay' }], s).pending).toEqual({ mode: 'native', replay: false });
    expect(run([{ type: 'toggleReplay' }]).pending).toEqual({ mode: 'default', replay: true });
  });
  test('a new report keeps the selected call and an open detail when the tool is still listed', () => {
    const s = run([
      { type: 'moveCall', delta: 1 },
      { type: 'moveTool', delta: 2 },
      { type: 'openDetail' },
      { type: 'toggleReplay' },
    ]);
    const next = run([{ type: 'reportLoaded', report: report('default', true) }], s);
    expect([next.selected, next.detail, next.pending, next.report.replay !== null]).toEqual([
      1,
      'slack__post_message',
      null,
      true,
    ]);
    // In native mode slack__post_message is deferred at call 2: still listed, the cursor follows it.
    const native = run([{ type: 'reportLoaded', report: report('native') }], s);
    expect(native.detail).toBe('slack__post_message');
    expect(toolRows(native.report, native.selected, '')[native.toolCursor]!.name).toBe('slack__post_message');
  });
  test('a failed re-simulation keeps the report and says why', () => {
    const s = run([{ type: 'switchMode' }, { type: 'reportFailed', message: 'boom' }]);
    expect([s.pending, s.error, s.report.mode]).toEqual([null, 'boom', 'default']);
  });
});

describe('stepper keys', () => {
  const s0 = initialStepperState(report());
  test('j/k and arrows move between calls; Tab or → moves into the tools', () => {
    expect(typed(s0, 'j', 'j', 'k').selected).toBe(1);
    expect(typed(s0, { downArrow: true }, { downArrow: true }).selected).toBe(2);
    expect(typed(s0, { tab: true }).focus).toBe('tools');
    expect(typed(s0, { rightArrow: true }).focus).toBe('tools');
    expect(typed(s0, 'n', 'n', 'p').selected).toBe(1);
  });
  test('in the tools: arrows move the tool cursor, Enter or → opens details, ← goes back', () => {
    const s = typed(s0, 'j', { tab: true }, 'j', 'j', { return: true });
    expect([s.selected, s.toolCursor, s.detail]).toEqual([1, 2, 'slack__post_message']);
    expect(typed(s, { escape: true }).detail).toBeNull();
    expect(typed(s0, 'j', { tab: true }, { rightArrow: true }).detail).toBe('get_current_time');
    expect(typed(s0, { tab: true }, { leftArrow: true }).focus).toBe('calls');
  });
  test('q, Ctrl-C and Esc (nothing open) quit; Esc first closes what is open', () => {
    expect(typed(s0, 'q').quit).toBe(true);
    expect(stepperKey(s0, 'c', key({ ctrl: true }))).toEqual({ type: 'quit' });
    expect(typed(s0, { escape: true }).quit).toBe(true);
    const help = typed(s0, '?');
    expect(help.help).toBe(true);
    expect(typed(help, { escape: true })).toMatchObject({ help: false, quit: false });
    const filtered = typed(s0, '/', 'x', { return: true });
    expect(typed(filtered, { escape: true })).toMatchObject({ filter: '', quit: false });
  });
  test('while typing a filter, letters are text (q does not quit)', () => {
    const s = typed(s0, '/', 'q', 'm', 'r');
    expect([s.filter, s.quit, s.pending]).toEqual(['qmr', false, null]);
    expect(typed(s, { backspace: true }).filter).toBe('qm');
    expect(typed(s, { delete: true }).filter).toBe('qm');
  });
  test('control characters never reach the filter', () => {
    // Inside a batch an escape sequence is a key (this one binds nothing), never text.
    expect(typed(s0, '/', 'a\u001b[31mb').filter).toBe('ab');
    expect(typed(s0, '/', 'a\u0001\u0002b').filter).toBe('ab');
  });
  test('m and r ask for a re-simulation', () => {
    expect(typed(s0, 'm').pending).toEqual({ mode: 'native', replay: false });
    expect(typed(s0, 'r').pending).toEqual({ mode: 'default', replay: true });
  });
  test('PgUp/PgDn scroll the messages', () => {
    expect(typed(s0, { pageUp: true }, { pageUp: true }, { pageDown: true }).messageScroll).toBe(3);
  });
});

describe('keys that arrive together', () => {
  const s0 = initialStepperState(report());
  test('a batch is split into single presses (a held key, tmux send-keys)', () => {
    expect(typed(s0, 'jjj').selected).toBe(3);
    expect(typed(s0, 'j\tj').toolCursor).toBe(1);
    const filtered = typed(s0, '/', 'slack\u007f\u007f');
    expect(filtered.filter).toBe('sla');
  });
  test('Ctrl-U, Esc and arrows inside a batch stay keys, in order', () => {
    // Filter, Ctrl-U (clears, stops editing), then j: a key again, not filter text.
    expect(typed(s0, '\t/slack\u0015').filter).toBe('');
    const s = typed(s0, '/slack\u0015j');
    expect([s.filter, s.editingFilter, s.toolCursor]).toEqual(['', false, 1]);
    // ↓ ↓ ↑ in one read: call 2; Esc at the end of a batch quits.
    expect(typed(s0, '\u001b[B\u001b[B\u001b[A').selected).toBe(1);
    expect(typed(s0, 'j\u001b').quit).toBe(true);
    // In the help: PgDn inside a batch scrolls it.
    expect(
      stepperEventReducer(typed(s0, '?'), {
        type: 'key',
        input: 'j\u001b[6~',
        key: NO_KEY,
        help: { maxScroll: 20, page: 7 },
      }).helpScroll,
    ).toBe(8);
  });
});
