/**
 * What the stepper shows, derived from a {@link SimulationReport} and the
 * inputs it was made from (the transcript's messages, the catalog's tools).
 * Pure functions: no simulation happens here, only looking things up in the
 * report — which call added a tool, which search named it, which messages the
 * model received.
 */
import { hasReminderMarker } from '../../core/middleware.js';
import { goToLower } from '../../core/text.js';
import { decodeToolSearchArgs, TOOL_SEARCH_NAME } from '../../core/toolsearch.js';
import type { JsonValue, Message } from '../../core/types.js';
import type {
  SearchOutcome,
  SearchReport,
  SimulationReport,
  TurnReport,
  Violation,
  VisibilityChange,
} from '../../jobs/simulate/report.js';

/** A tool of the catalog, as the details view shows it. */
export interface ToolMeta {
  readonly name: string;
  readonly description: string;
  readonly parameters?: JsonValue;
  /** Static: always visible, never searched. */
  readonly static: boolean;
}

/** What the stepper needs besides the report; fixed for a session (a mode switch re-simulates the same inputs). */
export interface StepperInputs {
  /** The transcript's messages (the report's `message_index` points into them). */
  readonly messages: readonly Message[];
  /** Catalog tools by name (static and dynamic). */
  readonly tools: ReadonlyMap<string, ToolMeta>;
  /** The reminder text the middleware inserts (it lists the dynamic tools). */
  readonly reminderText: string;
}

/** How a tool relates to the agent. */
export type ToolKind = 'static' | 'search' | 'dynamic' | 'unknown';

export function toolKind(inputs: StepperInputs, name: string): ToolKind {
  if (name === TOOL_SEARCH_NAME) return 'search';
  const meta = inputs.tools.get(name);
  if (!meta) return 'unknown';
  return meta.static ? 'static' : 'dynamic';
}

/** The query of `tool_search` arguments, or null when they do not decode. */
export function searchQuery(args: string): string | null {
  const d = decodeToolSearchArgs(args);
  return d.ok ? d.args.query : null;
}

/** One line of what the assistant did at a call: its tool calls, or what it said. */
export function callSummary(turn: TurnReport): string {
  // Server-side searches first: the provider runs them before the calls that use what they load.
  const parts: string[] = turn.server_searches.map((s) =>
    s.query === '' ? 'server search' : `server search "${s.query}"`,
  );
  for (const c of turn.tool_calls) {
    if (c.name === TOOL_SEARCH_NAME) {
      const q = searchQuery(c.arguments);
      parts.push(q === null ? 'search (bad arguments)' : `search "${q}"`);
    } else parts.push(c.name);
  }
  if (parts.length > 0) return parts.join(', ');
  if (turn.message_index === null) return '(no answer recorded)';
  return turn.assistant_text === '' ? '(empty answer)' : `"${turn.assistant_text}"`;
}

export function violationsAt(report: SimulationReport, call: number): Violation[] {
  return report.violations.filter((v) => v.call === call);
}

export function visibilityChangeAt(report: SimulationReport, call: number): VisibilityChange | null {
  return report.replay?.visibility.find((v) => v.call === call) ?? null;
}

/** Marks of a call in the call list. */
export interface CallMarks {
  readonly errors: number;
  readonly warnings: number;
  /** Replay is on and a search of this call returns something else now, or what the model sees would change. */
  readonly replayDiffers: boolean;
}

export function callMarks(report: SimulationReport, turn: TurnReport): CallMarks {
  const vs = violationsAt(report, turn.call);
  return {
    errors: vs.filter((v) => v.severity === 'error').length,
    warnings: vs.filter((v) => v.severity === 'warning').length,
    replayDiffers:
      report.replay !== null &&
      (turn.searches.some((s) => s.differs) || visibilityChangeAt(report, turn.call) !== null),
  };
}

/** Where a row of the tool list comes from. */
export type ToolSection = 'visible' | 'deferred' | 'gained';

export interface ToolRow {
  readonly name: string;
  readonly section: ToolSection;
  /** Forward selection added it at this call. */
  readonly added: boolean;
  /** Replay: visible now, but would not be with fresh search results. */
  readonly lost: boolean;
  /**
   * Model-native, deferred: a search (server-side, or client-proxied) has loaded it by this call (beyond the reference
   * state).
   */
  readonly loaded: boolean;
}

/**
 * Model-native: the call from which each deferred tool is loaded for the
 * model — at the call of a server-side search that returned it, or at the
 * call after a client-proxied tool_search returned it (its result arrives
 * then).
 */
export function nativeLoadedAt(report: SimulationReport): Map<string, number> {
  const at = new Map<string, number>();
  const mark = (name: string, call: number): void => {
    const prev = at.get(name);
    if (prev === undefined || call < prev) at.set(name, call);
  };
  for (const t of report.turns) {
    for (const s of t.server_searches) for (const n of s.loaded) mark(n, t.call);
    for (const s of t.searches) for (const n of outcomeNames(s.recorded ?? s.replayed)) mark(n, t.call + 1);
  }
  return at;
}

/** Case-insensitive substring filter on names (empty filter: everything). */
export function matchesFilter(name: string, filter: string): boolean {
  return filter === '' || goToLower(name).includes(goToLower(filter));
}

/**
 * The tool list of one call: visible tools in the state's order, then the
 * deferred tools (model-native), then, with replay, the tools fresh results
 * would add.
 */
export function toolRows(report: SimulationReport, turnIndex: number, filter: string): ToolRow[] {
  const turn = report.turns[turnIndex];
  if (!turn) return [];
  const added = new Set(turn.added);
  const change = visibilityChangeAt(report, turn.call);
  const lost = new Set(change?.lost ?? []);
  const loadedAt = turn.deferred.length > 0 ? nativeLoadedAt(report) : new Map<string, number>();
  const rows: ToolRow[] = [];
  for (const name of turn.visible)
    if (matchesFilter(name, filter))
      rows.push({ name, section: 'visible', added: added.has(name), lost: lost.has(name), loaded: false });
  for (const name of turn.deferred) {
    if (matchesFilter(name, filter))
      rows.push({
        name,
        section: 'deferred',
        added: false,
        lost: false,
        loaded: (loadedAt.get(name) ?? Infinity) <= turn.call,
      });
  }
  for (const name of change?.gained ?? [])
    if (matchesFilter(name, filter)) rows.push({ name, section: 'gained', added: false, lost: false, loaded: false });
  return rows;
}

/** The searches of a report by the id of their tool call. */
export function searchesById(
  report: SimulationReport,
): Map<string, { readonly call: number; readonly search: SearchReport }> {
  const out = new Map<string, { call: number; search: SearchReport }>();
  for (const t of report.turns)
    for (const s of t.searches) if (!out.has(s.call_id)) out.set(s.call_id, { call: t.call, search: s });
  return out;
}

export function outcomeNames(o: SearchOutcome | null): readonly string[] {
  return o !== null && 'matches' in o ? o.matches : [];
}

/** A message as the model received it at a call. */
export interface MessageEntry {
  /** Index in the transcript; null for the reminder the middleware inserted. */
  readonly index: number | null;
  readonly message: Message;
  /** The reminder message (inserted by the middleware, or already in the transcript). */
  readonly reminder: boolean;
  /** The assistant message that answered this call. */
  readonly answer: boolean;
}

/**
 * The messages of a call: what the model received (the transcript up to the
 * answer, with the reminder where the report says the middleware put it),
 * then the answer.
 */
export function callMessages(inputs: StepperInputs, turn: TurnReport): MessageEntry[] {
  const end = turn.message_index ?? inputs.messages.length;
  const prefix = inputs.messages.slice(0, end);
  const entries: MessageEntry[] = prefix.map((message, index) => ({
    index,
    message,
    reminder: hasReminderMarker(message),
    answer: false,
  }));
  // The report counts the messages the model received; one more than the
  // transcript holds is the reminder the middleware inserted.
  if (turn.reminder_index !== null && turn.message_count === prefix.length + 1) {
    const kind = inputs.messages[0]?.kind ?? 'chat';
    const message: Message =
      kind === 'blocks'
        ? { kind: 'blocks', role: 'user', blocks: [{ type: 'text', text: inputs.reminderText }] }
        : { kind: 'chat', role: 'user', content: inputs.reminderText };
    entries.splice(Math.min(turn.reminder_index, entries.length), 0, {
      index: null,
      message,
      reminder: true,
      answer: false,
    });
  }
  if (turn.message_index !== null) {
    const answer = inputs.messages[turn.message_index];
    if (answer) entries.push({ index: turn.message_index, message: answer, reminder: false, answer: true });
  }
  return entries;
}

/** How a tool came to be where it is at a call, for the details view. */
export interface ToolHistory {
  /** First call at which the tool is visible, if any. */
  readonly firstVisible: number | null;
  /** Call at which forward selection added it, if it did. */
  readonly addedAt: number | null;
  /** The search whose result named it before it was added (default mode), or the search that loaded it (native). */
  readonly loadedBy: { readonly call: number; readonly query: string | null; readonly server: boolean } | null;
  /** Calls of the tool by the assistant, with their status. */
  readonly calls: ReadonlyArray<{ readonly call: number; readonly status: string }>;
}

export function toolHistory(report: SimulationReport, name: string): ToolHistory {
  let firstVisible: number | null = null;
  let addedAt: number | null = null;
  const calls: Array<{ call: number; status: string }> = [];
  for (const t of report.turns) {
    if (firstVisible === null && t.visible.includes(name)) firstVisible = t.call;
    if (addedAt === null && t.added.includes(name)) addedAt = t.call;
    for (const c of t.tool_calls) if (c.name === name) calls.push({ call: t.call, status: c.status });
  }
  let loadedBy: ToolHistory['loadedBy'] = null;
  // Added by forward selection at call N: the last search before N that named it.
  // Otherwise (model-native, or never added): the first search that returned it.
  const last = addedAt !== null;
  for (const t of report.turns) {
    if (addedAt !== null && t.call >= addedAt) break;
    for (const s of t.searches) {
      if (!outcomeNames(s.recorded ?? s.replayed).includes(name)) continue;
      if (last || loadedBy === null) loadedBy = { call: t.call, query: searchQuery(s.arguments), server: false };
    }
    for (const s of t.server_searches) {
      if (!s.loaded.includes(name)) continue;
      if (last || loadedBy === null) loadedBy = { call: t.call, query: s.query, server: true };
    }
  }
  return { firstVisible, addedAt, loadedBy, calls };
}

/** One parameter of a tool's JSON Schema, for display. */
export interface ParamRow {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

function isObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeOf(schema: JsonValue | undefined): string {
  if (!isObject(schema)) return '';
  const t = schema['type'];
  let base = typeof t === 'string' ? t : Array.isArray(t) ? t.filter((x) => typeof x === 'string').join('|') : '';
  if (base === 'array' && isObject(schema['items'])) {
    const inner = typeOf(schema['items']);
    if (inner !== '') base = `array<${inner}>`;
  }
  const e = schema['enum'];
  if (Array.isArray(e)) base = `${base === '' ? '' : `${base} `}${e.map((x) => JSON.stringify(x)).join('|')}`;
  if (base === '' && Array.isArray(schema['anyOf'])) base = schema['anyOf'].map((s) => typeOf(s) || '?').join('|');
  return base;
}

/** The top-level properties of an object schema; null when the schema has another shape. */
export function paramRows(schema: JsonValue | undefined): ParamRow[] | null {
  if (!isObject(schema)) return null;
  const props = schema['properties'];
  if (!isObject(props)) return null;
  const required = new Set(
    Array.isArray(schema['required']) ? schema['required'].filter((x): x is string => typeof x === 'string') : [],
  );
  return Object.keys(props).map((name) => {
    const p = props[name];
    const description = isObject(p) && typeof p['description'] === 'string' ? p['description'] : '';
    return { name, type: typeOf(p), required: required.has(name), description };
  });
}
