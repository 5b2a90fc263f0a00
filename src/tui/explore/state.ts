/**
 * Explore's UI state: a pure reducer over an action union. Key presses are
 * mapped to actions against the state at the moment they are handled
 * (`exploreEventReducer` in keys.ts). Loading the baseline and copying the command
 * line are effects the container performs when the state asks for them
 * (`fuse: 'loading'`, `copyRequest`).
 */
import { scrolledHelp } from '../help.js';

export type ExploreFocus = 'query' | 'results';

/** The baseline comparison: hidden, being loaded, shown, or failed to load. */
export type FuseState = 'off' | 'loading' | 'on' | { readonly failed: string };

export interface ExploreState {
  readonly query: string;
  /** Cursor position in the query, in code points. */
  readonly cursor: number;
  readonly focus: ExploreFocus;
  /** Index of the selected result. */
  readonly selected: number;
  /** max_results of the query. */
  readonly maxResults: number;
  readonly fuse: FuseState;
  /** The baseline is loaded (later toggles are instant). */
  readonly fuseReady: boolean;
  /**
   * What the comparison column shows: `fuse` (the fuse.js baseline, `f`) or an engine (`e` cycles them:
   * ai-sdk, mastra, a module); `fuse` above is its state (off, loading, on, failed).
   */
  readonly compare: string;
  /** Engines loaded so far (switching back to one is instant). */
  readonly engineReady: readonly string[];
  readonly help: boolean;
  /** Lines the help is scrolled down (when taller than the terminal). */
  readonly helpScroll: number;
  /** Incremented when the user asks to copy the command line. */
  readonly copyRequest: number;
  /** A one-line message for the footer (e.g. what was copied). */
  readonly notice: string | null;
  readonly quit: boolean;
}

export type ExploreAction =
  | { readonly type: 'insert'; readonly text: string }
  | { readonly type: 'backspace' }
  | { readonly type: 'deleteWord' }
  | { readonly type: 'clearQuery' }
  | { readonly type: 'cursor'; readonly to: 'left' | 'right' | 'home' | 'end' }
  | { readonly type: 'focus'; readonly focus: ExploreFocus }
  /** `count`: rows on screen now, to keep the selection in range. */
  | { readonly type: 'move'; readonly delta: number; readonly count: number }
  | { readonly type: 'maxResults'; readonly delta: number }
  | { readonly type: 'toggleFuse' }
  | { readonly type: 'fuseReady' }
  /** `e`: the next engine of `engines` beside the reference, then none. */
  | { readonly type: 'cycleEngine'; readonly engines: readonly string[] }
  | { readonly type: 'engineReady'; readonly name: string }
  | { readonly type: 'fuseFailed'; readonly message: string }
  | { readonly type: 'toggleHelp' }
  /** `max`: the largest offset the help window allows now. */
  | { readonly type: 'scrollHelp'; readonly delta: number; readonly max: number }
  | { readonly type: 'copy' }
  | { readonly type: 'notice'; readonly text: string | null }
  | { readonly type: 'quit' };

/** Largest max_results the +/- keys reach. */
export const MAX_RESULTS_LIMIT = 100;

export function initialExploreState(
  options: { query?: string; maxResults?: number; compare?: string } = {},
): ExploreState {
  const query = options.query ?? '';
  return {
    query,
    cursor: Array.from(query).length,
    focus: 'query',
    selected: 0,
    maxResults: options.maxResults ?? 5,
    fuse: options.compare !== undefined ? 'loading' : 'off',
    fuseReady: false,
    compare: options.compare ?? 'fuse',
    engineReady: [],
    help: false,
    helpScroll: 0,
    copyRequest: 0,
    notice: null,
    quit: false,
  };
}

/** A new query: the selection goes back to the top, old notices go away. */
function edited(s: ExploreState, chars: string[], cursor: number): ExploreState {
  return { ...s, query: chars.join(''), cursor, selected: 0, notice: null };
}

export function exploreReducer(s: ExploreState, a: ExploreAction): ExploreState {
  switch (a.type) {
    case 'insert': {
      const chars = Array.from(s.query);
      const ins = Array.from(a.text);
      chars.splice(s.cursor, 0, ...ins);
      return edited(s, chars, s.cursor + ins.length);
    }
    case 'backspace': {
      if (s.cursor === 0) return s;
      const chars = Array.from(s.query);
      chars.splice(s.cursor - 1, 1);
      return edited(s, chars, s.cursor - 1);
    }
    case 'deleteWord': {
      const chars = Array.from(s.query);
      let i = s.cursor;
      while (i > 0 && chars[i - 1] === ' ') i--;
      while (i > 0 && chars[i - 1] !== ' ') i--;
      if (i === s.cursor) return s;
      chars.splice(i, s.cursor - i);
      return edited(s, chars, i);
    }
    case 'clearQuery':
      return s.query === '' ? s : edited(s, [], 0);
    case 'cursor': {
      const len = Array.from(s.query).length;
      const cursor =
        a.to === 'home' ? 0 : a.to === 'end' ? len : Math.max(0, Math.min(len, s.cursor + (a.to === 'left' ? -1 : 1)));
      return { ...s, cursor };
    }
    case 'focus':
      return { ...s, focus: a.focus };
    case 'move':
      return { ...s, selected: Math.max(0, Math.min(Math.max(0, a.count - 1), s.selected + a.delta)) };
    case 'maxResults': {
      const maxResults = Math.max(1, Math.min(MAX_RESULTS_LIMIT, s.maxResults + a.delta));
      return { ...s, maxResults, selected: Math.min(s.selected, maxResults - 1), notice: null };
    }
    case 'toggleFuse':
      if (s.compare !== 'fuse' && s.fuse !== 'off')
        return { ...s, compare: 'fuse', fuse: s.fuseReady ? 'on' : 'loading' };
      if (s.fuse === 'on' || s.fuse === 'loading') return { ...s, fuse: 'off' };
      return { ...s, compare: 'fuse', fuse: s.fuseReady ? 'on' : 'loading' };
    case 'fuseReady':
      return {
        ...s,
        fuseReady: true,
        fuse: s.fuse === 'loading' && s.compare === 'fuse' ? 'on' : s.fuse,
      };
    case 'cycleEngine': {
      const at = s.fuse === 'off' || s.compare === 'fuse' ? -1 : a.engines.indexOf(s.compare);
      const next = a.engines[at + 1];
      if (next === undefined) return { ...s, compare: 'fuse', fuse: 'off', notice: null };
      return { ...s, compare: next, fuse: s.engineReady.includes(next) ? 'on' : 'loading', notice: null };
    }
    case 'engineReady':
      return {
        ...s,
        engineReady: s.engineReady.includes(a.name) ? s.engineReady : [...s.engineReady, a.name],
        fuse: s.fuse === 'loading' && s.compare === a.name ? 'on' : s.fuse,
      };
    case 'fuseFailed':
      return { ...s, fuse: { failed: a.message } };
    case 'toggleHelp':
      return { ...s, help: !s.help, helpScroll: 0 };
    case 'scrollHelp':
      return { ...s, helpScroll: scrolledHelp(s.helpScroll, a.delta, a.max) };
    case 'copy':
      return { ...s, copyRequest: s.copyRequest + 1 };
    case 'notice':
      return { ...s, notice: a.text };
    case 'quit':
      return { ...s, quit: true };
    default: {
      const never: never = a;
      return never;
    }
  }
}
