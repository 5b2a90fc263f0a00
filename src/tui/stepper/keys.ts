/**
 * Stepper keys → actions. Layers, innermost first: help (which scrolls with
 * j/k, arrows, PgUp/PgDn, g/G), the filter being
 * typed, the details view, then the panels. Esc closes the innermost layer
 * (or clears an active filter) and quits when nothing is open; `q` and
 * Ctrl-C always quit.
 */
import { helpScrollDelta, NO_HELP_SCROLL, type HelpMetrics } from '../help.js';
import { splitKeys, typedText, type KeyInfo } from '../keys.js';
import { stepperReducer, type StepperAction, type StepperState } from './state.js';

export function stepperKey(
  s: StepperState,
  input: string,
  key: KeyInfo,
  help: HelpMetrics = NO_HELP_SCROLL,
): StepperAction | null {
  if (key.ctrl && input === 'c') return { type: 'quit' };
  if (s.help) {
    if (key.escape || input === '?') return { type: 'toggleHelp' };
    if (input === 'q') return { type: 'quit' };
    const delta = helpScrollDelta(input, key, help);
    return delta === null ? null : { type: 'scrollHelp', delta, max: help.maxScroll };
  }
  if (s.editingFilter) {
    if (key.escape) return { type: 'clearFilter' };
    if (key.return) return { type: 'acceptFilter' };
    if (key.backspace || key.delete) return { type: 'filterBackspace' };
    if (key.upArrow) return { type: 'moveTool', delta: -1 };
    if (key.downArrow) return { type: 'moveTool', delta: 1 };
    if (key.ctrl && input === 'u') return { type: 'clearFilter' };
    const text = typedText(input, key);
    return text === '' ? null : { type: 'filterInput', text };
  }
  if (input === 'q') return { type: 'quit' };
  if (input === '?') return { type: 'toggleHelp' };
  if (input === 'm') return { type: 'switchMode' };
  if (input === 'r') return { type: 'toggleReplay' };
  if (input === '/') return { type: 'startFilter' };
  if (input === 'n') return { type: 'moveCall', delta: 1 };
  if (input === 'p') return { type: 'moveCall', delta: -1 };
  if (key.pageUp) return { type: 'scrollMessages', delta: 3 };
  if (key.pageDown) return { type: 'scrollMessages', delta: -3 };
  if (s.detail !== null) {
    if (key.escape || key.leftArrow || key.return || key.backspace || key.delete || input === 'h')
      return { type: 'closeDetail' };
    if (key.upArrow || input === 'k') return { type: 'scrollDetail', delta: -1 };
    if (key.downArrow || input === 'j') return { type: 'scrollDetail', delta: 1 };
    return null;
  }
  if (key.escape) return s.filter !== '' ? { type: 'clearFilter' } : { type: 'quit' };
  if (key.tab) return { type: 'toggleFocus' };
  if (key.home || input === 'g') return { type: 'firstCall' };
  if (key.end || input === 'G') return { type: 'lastCall' };
  if (s.focus === 'calls') {
    if (key.upArrow || input === 'k') return { type: 'moveCall', delta: -1 };
    if (key.downArrow || input === 'j') return { type: 'moveCall', delta: 1 };
    if (key.rightArrow || key.return || input === 'l') return { type: 'focus', focus: 'tools' };
    return null;
  }
  if (key.upArrow || input === 'k') return { type: 'moveTool', delta: -1 };
  if (key.downArrow || input === 'j') return { type: 'moveTool', delta: 1 };
  if (key.rightArrow || key.return || input === 'l') return { type: 'openDetail' };
  if (key.leftArrow || input === 'h') return { type: 'focus', focus: 'calls' };
  return null;
}

/**
 * A key press, mapped to an action against the state at the moment it is handled (so keys typed faster than renders are
 * never lost or misread).
 */
export type StepperEvent =
  | StepperAction
  /** `help`: how far the help can scroll in the window on screen (none when left out). */
  | { readonly type: 'key'; readonly input: string; readonly key: KeyInfo; readonly help?: HelpMetrics };

export function stepperEventReducer(s: StepperState, e: StepperEvent): StepperState {
  if (e.type !== 'key') return stepperReducer(s, e);
  let state = s;
  for (const k of splitKeys(e.input, e.key)) {
    const action = stepperKey(state, k.input, k.key, e.help);
    if (action !== null) state = stepperReducer(state, action);
  }
  return state;
}
