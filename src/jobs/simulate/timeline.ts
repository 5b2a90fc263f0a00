/**
 * The visibility timeline of a simulation: one row per tool, one cell per
 * model call, saying what the tool was at that call (static, visible,
 * deferred, loaded at this call, in the context) and whether the assistant
 * called it there, allowed or as a violation. Derived from the turns alone,
 * so every view (the HTML report, a test) reads the same classification.
 */
import { TOOL_SEARCH_NAME } from '../../core/toolsearch.js';
import type { Mode } from '../../core/types.js';
import type { TimelineCell, TimelineRow, TimelineState, TurnReport } from './report.js';

export interface TimelineInput {
  readonly mode: Mode;
  readonly turns: readonly TurnReport[];
  readonly staticTools: readonly string[];
  readonly dynamicTools: readonly string[];
  /**
   * Model-native mode: per turn, the deferred tools whose definitions are in
   * the context at that call (loaded by searches of earlier calls); ignored
   * in default mode.
   */
  readonly nativeLoaded: ReadonlyArray<ReadonlySet<string>>;
  /** The engine's search tools (Mastra: search_tools, load_tool); `tool_search` unless told. */
  readonly searchTools?: readonly string[];
}

function calledAt(turn: TurnReport, name: string): TimelineCell['called'] {
  let called: TimelineCell['called'] = null;
  for (const c of turn.tool_calls) {
    if (c.name !== name) continue;
    if (c.status !== 'ok') return 'violation';
    called = 'ok';
  }
  return called;
}

/** The rows: `tool_search`, static tools, dynamic tools, then called tools that exist nowhere. */
export function visibilityTimeline(input: TimelineInput): TimelineRow[] {
  const { mode, turns } = input;
  const sets = turns.map((t) => ({
    visible: new Set(t.visible),
    added: new Set(t.added),
    deferred: new Set(t.deferred),
  }));
  const row = (name: string, kind: TimelineRow['kind'], stateAt: (i: number) => TimelineState): TimelineRow => {
    const cells = turns.map((t, i) => ({ state: stateAt(i), called: calledAt(t, name) }));
    const loaded = cells.some(
      (c) => c.state === 'loaded' || c.state === 'in-context' || (kind !== 'static' && c.state === 'visible'),
    );
    return { name, kind, cells, active: loaded || cells.some((c) => c.called !== null) };
  };
  const rows: TimelineRow[] = [];
  // Model-native: tool_search is the provider's search tool, registered with the model at every call.
  const searchTools = input.searchTools ?? [TOOL_SEARCH_NAME];
  for (const name of searchTools)
    rows.push(
      row(name, 'tool_search', (i) => (sets[i]!.visible.has(name) || mode === 'native' ? 'visible' : 'hidden')),
    );
  for (const name of input.staticTools) rows.push(row(name, 'static', () => 'static'));
  for (const name of input.dynamicTools) {
    rows.push(
      row(name, 'dynamic', (i) => {
        const s = sets[i]!;
        if (s.added.has(name)) return 'loaded';
        if (mode === 'native') {
          const now = input.nativeLoaded[i]?.has(name) === true;
          if (now && !s.visible.has(name))
            return i > 0 && input.nativeLoaded[i - 1]?.has(name) === true ? 'in-context' : 'loaded';
        }
        if (s.visible.has(name)) return 'visible';
        if (s.deferred.has(name)) return 'deferred';
        return 'hidden';
      }),
    );
  }
  const known = new Set([...searchTools, ...input.staticTools, ...input.dynamicTools]);
  for (const t of turns) {
    for (const c of t.tool_calls) {
      if (known.has(c.name)) continue;
      known.add(c.name);
      rows.push(row(c.name, 'unknown', () => 'hidden'));
    }
  }
  return rows;
}
