/**
 * Explore keys → actions. In the query every printable key is text (a query
 * needs `+`, `-`, `f`…), so the result keys (`f`, `e`, `+`/`-`, `y`, `j`/`k`, `q`)
 * work once Tab has moved into the results; Ctrl-F and Ctrl-Y do the same
 * from the query. Esc goes back from the results and quits from the query.
 * The help scrolls with j/k, arrows, PgUp/PgDn and g/G.
 */
import { helpScrollDelta, NO_HELP_SCROLL, type HelpMetrics } from '../help.js';
import { splitKeys, typedText, type KeyInfo } from '../keys.js';
import { exploreReducer, type ExploreAction, type ExploreState } from './state.js';

export function exploreKey(
  s: ExploreState,
  input: string,
  key: KeyInfo,
  resultCount: number,
  help: HelpMetrics = NO_HELP_SCROLL,
  engines: readonly string[] = [],
): ExploreAction | null {
  if (key.ctrl && input === 'c') return { type: 'quit' };
  if (s.help) {
    if (key.escape || input === '?') return { type: 'toggleHelp' };
    if (input === 'q') return { type: 'quit' };
    const delta = helpScrollDelta(input, key, help);
    return delta === null ? null : { type: 'scrollHelp', delta, max: help.maxScroll };
  }
  if (key.ctrl && input === 'f') return { type: 'toggleFuse' };
  if (key.ctrl && input === 'y') return { type: 'copy' };
  if (s.focus === 'query') {
    if (key.escape) return { type: 'quit' };
    if (key.tab || key.return || key.downArrow) return { type: 'focus', focus: 'results' };
    if (key.backspace || key.delete) return { type: 'backspace' };
    if (key.leftArrow) return { type: 'cursor', to: 'left' };
    if (key.rightArrow) return { type: 'cursor', to: 'right' };
    if (key.home || (key.ctrl && input === 'a')) return { type: 'cursor', to: 'home' };
    if (key.end || (key.ctrl && input === 'e')) return { type: 'cursor', to: 'end' };
    if (key.ctrl && input === 'u') return { type: 'clearQuery' };
    if (key.ctrl && input === 'w') return { type: 'deleteWord' };
    const text = typedText(input, key);
    return text === '' ? null : { type: 'insert', text };
  }
  if (key.escape || key.tab || input === '/' || input === 'i') return { type: 'focus', focus: 'query' };
  if (key.upArrow || input === 'k') {
    return s.selected === 0 && key.upArrow
      ? { type: 'focus', focus: 'query' }
      : { type: 'move', delta: -1, count: resultCount };
  }
  if (key.downArrow || input === 'j') return { type: 'move', delta: 1, count: resultCount };
  if (key.pageUp) return { type: 'move', delta: -10, count: resultCount };
  if (key.pageDown) return { type: 'move', delta: 10, count: resultCount };
  if (key.home || input === 'g') return { type: 'move', delta: -resultCount, count: resultCount };
  if (key.end || input === 'G') return { type: 'move', delta: resultCount, count: resultCount };
  if (input === 'f') return { type: 'toggleFuse' };
  if (input === 'e' && engines.length > 0) return { type: 'cycleEngine', engines };
  if (input === '+' || input === '=') return { type: 'maxResults', delta: 1 };
  if (input === '-' || input === '_') return { type: 'maxResults', delta: -1 };
  if (input === 'y' || input === 'c') return { type: 'copy' };
  if (input === '?') return { type: 'toggleHelp' };
  if (input === 'q') return { type: 'quit' };
  return null;
}

/** A key press, or an action from the container. */
export type ExploreEvent =
  | ExploreAction
  /** `help`: how far the help can scroll in the window on screen (none when left out). */
  | {
      readonly type: 'key';
      readonly input: string;
      readonly key: KeyInfo;
      readonly resultCount: number;
      readonly help?: HelpMetrics;
      /** The engines `e` cycles through. */
      readonly engines?: readonly string[];
    };

export function exploreEventReducer(s: ExploreState, e: ExploreEvent): ExploreState {
  if (e.type !== 'key') return exploreReducer(s, e);
  let state = s;
  for (const k of splitKeys(e.input, e.key)) {
    const action = exploreKey(state, k.input, k.key, e.resultCount, e.help, e.engines);
    if (action !== null) state = exploreReducer(state, action);
  }
  return state;
}
