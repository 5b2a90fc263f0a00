/**
 * The stepper's UI state: a pure reducer over an action union. Keys become
 * actions in `keys.ts`; re-simulation (mode switch, replay) is requested here
 * as `pending` and performed by the container, which reports back with
 * `reportLoaded` / `reportFailed`.
 */
import type { Mode } from '../../core/types.js';
import type { SimulationReport } from '../../jobs/simulate/report.js';
import { scrolledHelp } from '../help.js';
import { toolRows } from './model.js';

export type Focus = 'calls' | 'tools';

export interface StepperState {
  readonly report: SimulationReport;
  /** Index into `report.turns`. */
  readonly selected: number;
  readonly focus: Focus;
  /** Index into the tool rows of the selected call (after the filter). */
  readonly toolCursor: number;
  /** The tool whose details are open. */
  readonly detail: string | null;
  /** Lines the details view is scrolled down. */
  readonly detailScroll: number;
  /** Tool name filter (`/`). */
  readonly filter: string;
  readonly editingFilter: boolean;
  readonly help: boolean;
  /** Lines the help is scrolled down (when taller than the terminal). */
  readonly helpScroll: number;
  /** Lines the messages panel is scrolled up from the call's answer. */
  readonly messageScroll: number;
  /** A re-simulation the container should run. */
  readonly pending: { readonly mode: Mode; readonly replay: boolean } | null;
  /** Why the last re-simulation failed. */
  readonly error: string | null;
  readonly quit: boolean;
}

export type StepperAction =
  | { readonly type: 'moveCall'; readonly delta: number }
  | { readonly type: 'firstCall' }
  | { readonly type: 'lastCall' }
  | { readonly type: 'focus'; readonly focus: Focus }
  | { readonly type: 'toggleFocus' }
  | { readonly type: 'moveTool'; readonly delta: number }
  | { readonly type: 'openDetail' }
  | { readonly type: 'closeDetail' }
  | { readonly type: 'scrollDetail'; readonly delta: number }
  | { readonly type: 'startFilter' }
  | { readonly type: 'filterInput'; readonly text: string }
  | { readonly type: 'filterBackspace' }
  | { readonly type: 'acceptFilter' }
  | { readonly type: 'clearFilter' }
  | { readonly type: 'toggleHelp' }
  /** `max`: the largest offset the help window allows now. */
  | { readonly type: 'scrollHelp'; readonly delta: number; readonly max: number }
  | { readonly type: 'scrollMessages'; readonly delta: number }
  | { readonly type: 'switchMode' }
  | { readonly type: 'toggleReplay' }
  | { readonly type: 'reportLoaded'; readonly report: SimulationReport }
  | { readonly type: 'reportFailed'; readonly message: string }
  | { readonly type: 'quit' };

export function initialStepperState(report: SimulationReport): StepperState {
  return {
    report,
    selected: 0,
    focus: 'calls',
    toolCursor: 0,
    detail: null,
    detailScroll: 0,
    filter: '',
    editingFilter: false,
    help: false,
    helpScroll: 0,
    messageScroll: 0,
    pending: null,
    error: null,
    quit: false,
  };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}

function rowCount(s: StepperState, selected = s.selected, filter = s.filter): number {
  return toolRows(s.report, selected, filter).length;
}

/** The cursor moved to another call: keep the tool cursor in range, the messages at the answer. */
function selectCall(s: StepperState, selected: number): StepperState {
  const sel = clamp(selected, 0, Math.max(0, s.report.turns.length - 1));
  if (sel === s.selected) return s;
  return {
    ...s,
    selected: sel,
    toolCursor: clamp(s.toolCursor, 0, Math.max(0, rowCount(s, sel) - 1)),
    messageScroll: 0,
    detail: null,
    detailScroll: 0,
  };
}

export function stepperReducer(s: StepperState, a: StepperAction): StepperState {
  switch (a.type) {
    case 'moveCall':
      return selectCall(s, s.selected + a.delta);
    case 'firstCall':
      return selectCall(s, 0);
    case 'lastCall':
      return selectCall(s, s.report.turns.length - 1);
    case 'focus':
      return { ...s, focus: a.focus };
    case 'toggleFocus':
      return { ...s, focus: s.focus === 'calls' ? 'tools' : 'calls' };
    case 'moveTool':
      return { ...s, toolCursor: clamp(s.toolCursor + a.delta, 0, Math.max(0, rowCount(s) - 1)) };
    case 'openDetail': {
      const row = toolRows(s.report, s.selected, s.filter)[s.toolCursor];
      return row ? { ...s, focus: 'tools', detail: row.name, detailScroll: 0 } : s;
    }
    case 'closeDetail':
      return { ...s, detail: null, detailScroll: 0 };
    case 'scrollDetail':
      return { ...s, detailScroll: Math.max(0, s.detailScroll + a.delta) };
    case 'startFilter':
      return { ...s, editingFilter: true, focus: 'tools', detail: null };
    case 'filterInput': {
      const filter = s.filter + a.text;
      return { ...s, filter, toolCursor: 0 };
    }
    case 'filterBackspace':
      return { ...s, filter: Array.from(s.filter).slice(0, -1).join(''), toolCursor: 0 };
    case 'acceptFilter':
      return { ...s, editingFilter: false };
    case 'clearFilter':
      return { ...s, editingFilter: false, filter: '', toolCursor: 0 };
    case 'toggleHelp':
      return { ...s, help: !s.help, helpScroll: 0 };
    case 'scrollHelp':
      return { ...s, helpScroll: scrolledHelp(s.helpScroll, a.delta, a.max) };
    case 'scrollMessages':
      return { ...s, messageScroll: Math.max(0, s.messageScroll + a.delta) };
    case 'switchMode':
      if (s.pending) return s;
      return {
        ...s,
        pending: { mode: s.report.mode === 'default' ? 'native' : 'default', replay: s.report.replay !== null },
        error: null,
      };
    case 'toggleReplay':
      if (s.pending) return s;
      return { ...s, pending: { mode: s.report.mode, replay: s.report.replay === null }, error: null };
    case 'reportLoaded': {
      const next: StepperState = { ...s, report: a.report, pending: null, error: null };
      const selected = clamp(s.selected, 0, Math.max(0, a.report.turns.length - 1));
      const rows = toolRows(a.report, selected, s.filter);
      // Keep the cursor on the same tool, and its details open, when it is still listed at this call.
      const current = toolRows(s.report, s.selected, s.filter)[s.toolCursor]?.name;
      const at = rows.findIndex((r) => r.name === current);
      const toolCursor = at >= 0 ? at : clamp(s.toolCursor, 0, Math.max(0, rows.length - 1));
      const detail = s.detail !== null && rows.some((r) => r.name === s.detail) ? s.detail : null;
      return { ...next, selected, toolCursor, detail };
    }
    case 'reportFailed':
      return { ...s, pending: null, error: a.message };
    case 'quit':
      return { ...s, quit: true };
    default: {
      const never: never = a;
      return never;
    }
  }
}
