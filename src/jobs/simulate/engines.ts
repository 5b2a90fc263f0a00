/**
 * `simulate` with another engine's loading rule: a recorded AI SDK 7 or
 * Mastra conversation replayed model call by model call with what that
 * stack really shows the model (core/engines/visibility.ts, checked against
 * the packages), and the calls it would refuse:
 *
 * - AI SDK 7: deferred tools are hidden until a result of the search tool
 *   (`{tools: [{name, description}]}`) names them; they are sent from the next
 *   step of the same generation. A user message starts a new generation (a
 *   new `generateText`), which discovers again from nothing.
 * - Mastra: tools are hidden until `load_tool` (or, with autoLoad, a
 *   `search_tools` result) loads them, from the next step; they stay for the
 *   thread, across `generate` calls (a user message starts one), until the TTL
 *   passes without an access — known only when the recording dates its messages.
 *
 * The reference's own rule (Eino) is the middleware in engine.ts; this module
 * builds the same report, with `engine` saying which rule ran and why.
 */
import { append } from '../../core/append.js';
import { createEngine, type EngineParams } from '../../core/engines/index.js';
import type { MastraEngine, MastraLoadInput } from '../../core/engines/mastra.js';
import type { EngineId } from '../../core/engines/types.js';
import { AiSdkDiscovery, MastraLoadedStore } from '../../core/engines/visibility.js';
import { TOOL_SEARCH_NAME } from '../../core/toolsearch.js';
import type { Message } from '../../core/types.js';
import type { Transcript } from '../../formats/types.js';
import type {
  EngineReport,
  SearchOutcome,
  SearchReport,
  SimulationReport,
  ToolCallReport,
  TurnReport,
  Violation,
} from './report.js';
import { sentDiffers } from './sent.js';
import { type SimulateOptions, type SimulationTools, simulationTools } from './tools.js';
import { visibilityTimeline } from './timeline.js';
import {
  assistantText,
  type CallMade,
  indexResults,
  modelCalls,
  orphanResults,
  providerCallsOf,
  type RecordedResult,
  reminderByText,
  sameOutcome,
  toolCallsOf,
} from './transcript-walk.js';

/** Mastra's meta-tools. */
export const MASTRA_SEARCH = 'search_tools';
export const MASTRA_LOAD = 'load_tool';

/** Which engine a recording shows, by the shape of its search tool, and the evidence; null when it shows none. */
export function detectEngine(transcript: Transcript): { engine: EngineId; evidence: string } | null {
  const { results } = indexResults(transcript.messages);
  const calls = transcript.messages.flatMap((m) => (m.role === 'assistant' ? toolCallsOf(m) : []));
  const mastra = calls.find((c) => c.name === MASTRA_LOAD || c.name === MASTRA_SEARCH);
  if (mastra)
    return {
      engine: 'mastra',
      evidence: `the model calls ${mastra.name} (Mastra's ToolSearchProcessor)`,
    };
  for (const c of calls) {
    const r = results.get(c.id);
    if (!r || !('text' in r)) continue;
    if (aiSdkToolsResult(r.text) !== null)
      return {
        engine: 'ai-sdk',
        evidence: `the result of ${c.name} is {"tools": [{"name", "description"}]} (the AI SDK's toolSearch)`,
      };
  }
  for (const c of calls) {
    if (c.name !== TOOL_SEARCH_NAME) continue;
    const r = results.get(c.id);
    if (r && 'text' in r && /^\s*\{\s*"matches"\s*:/.test(r.text))
      return { engine: 'eino', evidence: 'the result of tool_search is {"matches": [...]} (Eino\'s tool_search)' };
  }
  return null;
}

/** `{tools: [{name, …}]}` as the AI SDK's toolSearch returns it: the names, or null for another shape. */
export function aiSdkToolsResult(text: string): string[] | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const keys = Object.keys(v);
  if (keys.length !== 1 || keys[0] !== 'tools') return null;
  const tools = (v as { tools: unknown }).tools;
  if (!Array.isArray(tools)) return null;
  const names: string[] = [];
  for (const t of tools) {
    if (t === null || typeof t !== 'object' || typeof (t as { name?: unknown }).name !== 'string') return null;
    names.push((t as { name: string }).name);
  }
  return names;
}

/** The names a Mastra `search_tools` / `load_tool` result activated, read as Mastra's context store reads them. */
function mastraResult(text: string): { names: string[]; success: boolean | null } | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const r = v as { toolName?: unknown; success?: unknown; results?: unknown; loaded?: unknown };
  const names: string[] = [];
  if (typeof r.toolName === 'string' && r.success === true) names.push(r.toolName);
  if (Array.isArray(r.results)) for (const e of r.results) if (typeof e?.name === 'string') names.push(e.name);
  if (Array.isArray(r.loaded)) for (const n of r.loaded) if (typeof n === 'string') names.push(n);
  return { names, success: typeof r.success === 'boolean' ? r.success : null };
}

/** The options of an engine simulation. */
export interface EngineSimulateOptions extends SimulateOptions {
  readonly engine: 'ai-sdk' | 'mastra';
  readonly params?: EngineParams;
  /** How the engine was chosen, for the report. */
  readonly detection?: Pick<EngineReport, 'by' | 'evidence'>;
}

/** A user message among the messages before a call: a new generation (`generateText`, Mastra's `generate`). */
function startsGeneration(messages: readonly Message[]): boolean {
  return messages.some((m) => m.role === 'user');
}

function parseArgs(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function loadInput(args: Record<string, unknown> | null): MastraLoadInput {
  if (args === null) return {};
  return {
    ...(typeof args.toolName === 'string' ? { toolName: args.toolName } : {}),
    ...(Array.isArray(args.toolNames)
      ? { toolNames: args.toolNames.filter((n): n is string => typeof n === 'string') }
      : {}),
  };
}

/** The search tool of an AI SDK recording: the tool whose results have the toolSearch shape, else `tool_search`. */
function aiSdkSearchName(calls: readonly CallMade[], results: ReadonlyMap<string, RecordedResult>): string {
  for (const c of calls) {
    const r = results.get(c.id);
    if (r && 'text' in r && aiSdkToolsResult(r.text) !== null) return c.name;
  }
  return TOOL_SEARCH_NAME;
}

interface Walk {
  readonly turns: TurnReport[];
  readonly violations: Violation[];
  /** Per call, the visible tools (for replay). */
  readonly visible: string[][];
}

/** Replays the calls with the engine's rule; `fresh`: every search result is what the engine returns now. */
function walk(options: EngineSimulateOptions, tools: SimulationTools, fresh: boolean): Walk {
  const { transcript } = options;
  const messages = transcript.messages;
  const { results } = indexResults(messages);
  const staticNames = tools.staticTools.map((t) => t.name);
  const dynamicNames = new Set(tools.dynamicTools.map((t) => t.name));
  const engine = createEngine(options.engine, tools.dynamicTools, options.params ?? {});
  const mastra = options.engine === 'mastra' ? (engine as MastraEngine) : null;
  const allCalls = messages.flatMap((m) => (m.role === 'assistant' ? toolCallsOf(m) : []));
  const searchName = mastra ? MASTRA_SEARCH : aiSdkSearchName(allCalls, results);
  const meta = new Set(mastra ? [MASTRA_SEARCH, ...(mastra.autoLoad ? [] : [MASTRA_LOAD])] : [searchName]);
  const ai = mastra
    ? null
    : // The tools object's order: a recording does not say where the app put the search tool; the SDK's
      // documentation puts it first ({ search: toolSearch(), weather }), then the catalog's tools.
      new AiSdkDiscovery([searchName, ...staticNames, ...tools.dynamicTools.map((t) => t.name)], dynamicNames);
  const store = mastra
    ? new MastraLoadedStore(staticNames, {
        ...(mastra.autoLoad ? { autoLoad: true } : {}),
        ...(options.params?.ttl !== undefined ? { ttl: options.params.ttl } : {}),
      })
    : null;
  /** Tools a Mastra search found (for the message of a call to a tool found but never loaded). */
  const found = new Set<string>();
  /** AI SDK: tools discovered in an earlier generation (forgotten since). */
  const forgotten = new Map<string, number>();
  let generation = 1;
  const out: Walk = { turns: [], violations: [], visible: [] };
  let previous = new Set<string>();
  const orphans = orphanResults(messages);

  for (const [i, span] of modelCalls(messages).entries()) {
    const call = i + 1;
    const { lower: time, upper } = callTime(transcript.times, span.assistantIndex ?? messages.length - 1);
    if (store) {
      const check = store.beforeStep(time, upper);
      if (check.kind === 'expired')
        out.violations.push({
          call,
          tool: null,
          kind: 'ttl-expired',
          severity: 'warning',
          message:
            `${Math.round(check.gapMs / 1000)} s passed since the last model call, more than the TTL ` +
            `(${store.ttl / 1000} s) plus a cleanup interval (${store.cleanupInterval / 1000} s): Mastra dropped ` +
            `the loaded tools (${check.dropped.join(', ')})`,
        });
      else if (check.kind === 'maybe')
        out.violations.push({
          call,
          tool: null,
          kind: 'ttl-uncertain',
          severity: 'warning',
          message:
            `${Math.round(check.gapMs / 1000)} s passed since the last model call, more than the TTL ` +
            `(${store.ttl / 1000} s) but less than the TTL plus the cleanup interval: the loaded tools ` +
            `(${check.tools.join(', ')}) are dropped only if Mastra's cleanup ran in between; kept here`,
        });
    }
    // A new generation (generateText, Mastra's generate) after the TTL check: Mastra's agent reads the store
    // when a generate starts, so a thread dropped meanwhile brings nothing back.
    if (call > 1 && startsGeneration(span.newMessages)) {
      generation++;
      if (ai) for (const n of ai.newGeneration()) forgotten.set(n, generation - 1);
      store?.newGenerate();
    }
    for (const o of orphans.filter((x) => x.index < (span.assistantIndex ?? messages.length))) {
      if (out.violations.some((v) => v.kind === 'unknown-call-id' && v.message_index === o.index)) continue;
      out.violations.push({
        call,
        tool: o.tool,
        kind: 'unknown-call-id',
        severity: 'warning',
        message: `tool result for unknown call id ${JSON.stringify(o.callId)}: no earlier tool call has this id`,
        message_index: o.index,
      });
    }
    const visible = ai ? ai.visible() : store!.visible();
    out.visible.push(visible);
    const visibleSet = new Set(visible);
    const sent = transcript.sentTools?.[call - 1];
    const sentFinding = sent ? sentDiffers(call, 'default', sent, visible, [], options.engine) : null;
    if (sentFinding) out.violations.push(sentFinding);

    const assistant = span.assistantIndex === null ? null : messages[span.assistantIndex]!;
    const tool_calls: ToolCallReport[] = [];
    const searches: SearchReport[] = [];
    const loadedNow: string[] = [];
    // What a Mastra tool of this step sees as loaded: the set read when the step began, grown by its own loads.
    const seen = new Set(store?.names() ?? []);
    for (const c of assistant ? toolCallsOf(assistant) : []) {
      const recordedResult = results.get(c.id) ?? null;
      const recordedText = recordedResult !== null && 'text' in recordedResult ? recordedResult.text : null;
      let status: ToolCallReport['status'];
      if (visibleSet.has(c.name) || staticNames.includes(c.name)) status = 'ok';
      else if (dynamicNames.has(c.name)) status = 'not-loaded';
      else status = 'unknown';
      tool_calls.push({ id: c.id, name: c.name, arguments: c.arguments, status });
      if (status === 'not-loaded')
        out.violations.push({
          call,
          tool: c.name,
          kind: 'not-loaded',
          severity: 'error',
          message: notLoadedMessage(options.engine, c.name, call, found.has(c.name), forgotten.get(c.name)),
        });
      else if (status === 'unknown')
        out.violations.push({
          call,
          tool: c.name,
          kind: 'unknown',
          severity: 'error',
          message: `${c.name} exists nowhere: not a tool of the catalog, not the engine's search tool`,
        });
      if (!meta.has(c.name)) continue;
      const args = parseArgs(c.arguments);
      if (c.name === MASTRA_LOAD && mastra) {
        const port = mastra.loadTool(loadInput(args), seen);
        const recorded = recordedText !== null ? mastraResult(recordedText) : null;
        const replayed: SearchOutcome = { matches: port.loaded };
        const recordedOutcome: SearchOutcome | null =
          recordedText === null ? null : recorded === null ? { error: recordedText } : { matches: recorded.names };
        searches.push(searchReport(c, 'select', recordedOutcome, recordedText, replayed));
        const names = fresh || recorded === null ? port.loaded : recorded.names.filter((n) => dynamicNames.has(n));
        for (const n of names) if (!seen.has(n)) seen.add(n), loadedNow.push(n);
        continue;
      }
      // A search: the AI SDK's toolSearch, or Mastra's search_tools.
      const query = typeof args?.query === 'string' ? args.query : null;
      const out1 = query === null ? null : engine.search(query);
      const replayed: SearchOutcome =
        out1 === null
          ? { error: 'the arguments have no string "query"' }
          : out1.ok
            ? { matches: out1.matches }
            : { error: out1.error };
      let recordedOutcome: SearchOutcome | null = null;
      if (recordedText !== null) {
        const names = mastra ? (mastraResult(recordedText)?.names ?? null) : aiSdkToolsResult(recordedText);
        recordedOutcome = names === null ? { error: recordedText } : { matches: names };
      }
      searches.push(searchReport(c, 'keyword', recordedOutcome, recordedText, replayed));
      const got = fresh || recordedOutcome === null ? replayed : recordedOutcome;
      if (!('matches' in got)) continue;
      for (const n of got.matches) found.add(n);
      if (ai)
        append(
          loadedNow,
          got.matches.filter((n) => dynamicNames.has(n)),
        );
      else if (mastra?.autoLoad)
        for (const n of got.matches) if (dynamicNames.has(n) && !seen.has(n)) seen.add(n), loadedNow.push(n);
    }
    // Found or loaded in this step: visible from the next one.
    if (ai) ai.found(loadedNow);
    else store!.add(loadedNow, upper);

    const added = visible.filter((n) => dynamicNames.has(n) && !previous.has(n));
    previous = visibleSet;
    const dynamicVisible = visible.filter((n) => dynamicNames.has(n)).length;
    out.turns.push({
      call,
      message_index: span.assistantIndex,
      message_count: span.assistantIndex ?? messages.length,
      visible,
      deferred: [],
      added,
      reminder_index: null,
      reminder_inserted: false,
      refilled: false,
      hidden_count: dynamicNames.size - dynamicVisible,
      tool_calls,
      searches,
      server_searches: [],
      provider_calls: providerCallsOf(assistant),
      assistant_text: assistant ? assistantText(assistant) : '',
    });
  }
  return out;
}

/**
 * When a model call happened, as far as the recording's dates say: at or after the latest dated message up to
 * its answer (`lower`), at or before the earliest dated message from its answer on (`upper`).
 */
function callTime(
  times: ReadonlyArray<number | null> | undefined,
  at: number,
): { lower: number | null; upper: number | null } {
  if (times === undefined) return { lower: null, upper: null };
  let lower: number | null = null;
  for (let i = Math.min(at, times.length - 1); i >= 0 && lower === null; i--) lower = times[i] ?? null;
  let upper: number | null = null;
  for (let i = Math.max(0, at); i < times.length && upper === null; i++) upper = times[i] ?? null;
  return { lower, upper };
}

function searchReport(
  c: CallMade,
  mode: 'keyword' | 'select',
  recorded: SearchOutcome | null,
  recordedText: string | null,
  replayed: SearchOutcome,
): SearchReport {
  return {
    call_id: c.id,
    arguments: c.arguments,
    mode,
    recorded,
    recorded_text: recordedText,
    replayed,
    differs: recorded !== null && !sameOutcome(recorded, replayed),
    client_proxied: false,
  };
}

function notLoadedMessage(
  engine: 'ai-sdk' | 'mastra',
  name: string,
  call: number,
  found: boolean,
  forgottenIn: number | undefined,
): string {
  if (engine === 'ai-sdk') {
    const earlier =
      forgottenIn !== undefined
        ? `; a search of generation ${forgottenIn} found it, but each generateText starts with none discovered`
        : '';
    return (
      `${name} was called before a search result of this generation named it (not sent at call ${call}; ` +
      `the AI SDK answers NoSuchToolError)${earlier}`
    );
  }
  return found
    ? `${name} was called at call ${call} after search_tools found it, but no load_tool loaded it`
    : `${name} was called before load_tool loaded it (not sent at call ${call})`;
}

/** Replays a recording with the AI SDK's or Mastra's loading rule. */
export function simulateWithEngine(options: EngineSimulateOptions): SimulationReport {
  const tools = simulationTools(options);
  const run = walk(options, tools, false);
  const fresh = options.replay ? walk(options, tools, true) : null;
  const { turns, violations } = run;
  const replayDifferences = turns.reduce((n, t) => n + t.searches.filter((s) => s.differs).length, 0);
  const last = turns[turns.length - 1];
  const dynamic = new Set(tools.dynamicTools.map((t) => t.name));
  const transcript = options.transcript;
  const visibility = fresh
    ? fresh.visible.flatMap((after, i) => {
        const before = new Set(turns[i]!.visible);
        const afterSet = new Set(after);
        const gained = after.filter((n) => !before.has(n));
        const lost = turns[i]!.visible.filter((n) => !afterSet.has(n));
        return gained.length > 0 || lost.length > 0 ? [{ call: i + 1, gained, lost }] : [];
      })
    : [];
  const metaTools = options.engine === 'mastra' ? [MASTRA_SEARCH, MASTRA_LOAD] : [];
  return {
    mode: 'default',
    engine: {
      name: options.engine,
      by: options.detection?.by ?? 'flag',
      evidence: options.detection?.evidence ?? null,
      params: engineParamsReport(options.engine, options.params ?? {}),
    },
    transcript: {
      file: transcript.file,
      format: transcript.format,
      messages: transcript.messages.length,
      reminder_recognised_by_text: reminderByText(transcript),
    },
    catalog: { dynamic: tools.dynamicTools.length, static: tools.staticTools.length, source: tools.source },
    coverage: transcript.coverage ?? null,
    turns,
    violations,
    replay: fresh ? { differences: replayDifferences, visibility } : null,
    summary: {
      calls: turns.length,
      searches: turns.reduce((n, t) => n + t.searches.length, 0),
      server_searches: 0,
      provider_calls: turns.reduce((n, t) => n + t.provider_calls.length, 0),
      tools_loaded: last ? last.visible.filter((n) => dynamic.has(n)).length : 0,
      errors: violations.filter((v) => v.severity === 'error').length,
      warnings: violations.filter((v) => v.severity === 'warning').length,
      replay_differences: options.replay ? replayDifferences : 0,
    },
    ...(options.details === true
      ? {
          details: {
            tools: { static: tools.staticTools.map((t) => t.name), dynamic: tools.dynamicTools.map((t) => t.name) },
            timeline: visibilityTimeline({
              mode: 'default',
              turns,
              staticTools: tools.staticTools.map((t) => t.name),
              dynamicTools: tools.dynamicTools.map((t) => t.name),
              nativeLoaded: [],
              searchTools: options.engine === 'mastra' ? metaTools : [searchToolOf(options.transcript)],
            }),
            replay_visible: fresh ? fresh.visible : null,
          },
        }
      : {}),
  };
}

/** The AI SDK search tool of a recording. */
function searchToolOf(transcript: Transcript): string {
  const { results } = indexResults(transcript.messages);
  return aiSdkSearchName(
    transcript.messages.flatMap((m) => (m.role === 'assistant' ? toolCallsOf(m) : [])),
    results,
  );
}

/** The parameters an engine ran with (defaults filled in). */
export function engineParamsReport(engine: EngineId, params: EngineParams): Record<string, number | boolean> {
  if (engine === 'ai-sdk') return { maxResults: params.maxResults ?? 5 };
  if (engine === 'mastra')
    return {
      topK: params.topK ?? 5,
      minScore: params.minScore ?? 0,
      autoLoad: params.autoLoad ?? false,
      ttl: params.ttl ?? 3_600_000,
    };
  return { maxResults: params.maxResults ?? 5 };
}

/** How a simulation's engine is chosen: `--engine` (or none), and the recording. */
export function chooseEngine(
  flag: EngineId | undefined,
  transcript: Transcript,
): { engine: EngineId; by: EngineReport['by']; evidence: string | null; contradicts: string | null } {
  const detected = detectEngine(transcript);
  if (flag !== undefined) {
    const contradicts =
      detected !== null && detected.engine !== flag
        ? `--engine ${flag}, but the recording looks like ${detected.engine}: ${detected.evidence}`
        : null;
    return { engine: flag, by: 'flag', evidence: contradicts ?? detected?.evidence ?? null, contradicts };
  }
  if (detected !== null)
    return { engine: detected.engine, by: 'recording', evidence: detected.evidence, contradicts: null };
  return { engine: 'eino', by: 'default', evidence: null, contradicts: null };
}
