/**
 * The simulation engine: replays a recorded conversation through the core's
 * middleware state machine, one model call per assistant message, and
 * returns a {@link SimulationReport}. All reference behaviour comes from the
 * core (`AgentRun`, `runToolSearch`); this module only walks the transcript,
 * classifies what the assistant did and collects findings.
 */
import { createMiddleware, hasReminderMarker, type Middleware } from '../core/middleware.js';
import { AgentRun, type ModelCallView } from '../core/run.js';
import type { ToolIndex } from '../core/scorer.js';
import { decodeMatches, encodeMatches, runToolSearch, TOOL_SEARCH_NAME } from '../core/toolsearch.js';
import type { Message, Mode, ToolInfo } from '../core/types.js';
import { InputError } from '../errors.js';
import type { Catalog, CatalogTool, Transcript } from '../formats/types.js';
import type {
  SearchOutcome,
  SearchReport,
  ServerSearchReport,
  SimulationReport,
  ToolCallReport,
  SearchExplanation,
  TurnReport,
  Violation,
  VisibilityChange,
} from './report.js';
import { visibilityTimeline } from './timeline.js';

/** Inputs of a simulation. */
export interface SimulateOptions {
  readonly transcript: Transcript;
  /** The catalog; null to use the tools the transcript carries (a logged request body). */
  readonly catalog: Catalog | null;
  readonly mode: Mode;
  /** Names of catalog tools to treat as static in addition to those the catalog marks static. */
  readonly staticNames?: readonly string[];
  /** Also re-run the searches with the recorded results replaced by fresh ones and report visibility changes. */
  readonly replay: boolean;
  /**
   * Also attach what the HTML report shows beyond `--json`: `details` (tool
   * lists, the visibility timeline, the replayed visibility) and each keyword
   * search's per-keyword explanation.
   */
  readonly details?: boolean;
}

/** The tools of a simulation, split as the middleware needs them. */
export interface SimulationTools {
  readonly staticTools: readonly CatalogTool[];
  readonly dynamicTools: readonly CatalogTool[];
  readonly source: string;
}

/** Chooses the catalog (given, or carried by the transcript) and splits static from dynamic tools. */
export function simulationTools(options: Pick<SimulateOptions, 'transcript' | 'catalog' | 'staticNames'>): SimulationTools {
  const { transcript, catalog } = options;
  let tools: readonly CatalogTool[];
  let source: string;
  if (catalog) {
    tools = catalog.tools;
    source = catalog.sources.map((s) => s.file).join(', ');
  } else if (transcript.tools) {
    tools = transcript.tools;
    source = `${transcript.file} (tools carried by the transcript)`;
  } else {
    throw new InputError(
      'no catalog: pass -c/--catalog, or a transcript that carries its own tools (a logged request body with "tools")',
      { file: transcript.file, line: 0, column: 0 },
    );
  }
  const extraStatic = new Set(options.staticNames ?? []);
  const names = new Set(tools.map((t) => t.name));
  for (const name of extraStatic) {
    if (!names.has(name)) throw new InputError(`--static names a tool that is not in the catalog: ${name}`);
  }
  return {
    staticTools: tools.filter((t) => t.static || extraStatic.has(t.name)),
    dynamicTools: tools.filter((t) => !t.static && !extraStatic.has(t.name)),
    source,
  };
}

interface CallSpan {
  /** Messages appended before this call. */
  readonly newMessages: readonly Message[];
  /** Transcript index of the assistant message answering the call, or null. */
  readonly assistantIndex: number | null;
}

/** Splits a transcript into model calls: call k happens right before the k-th assistant message. */
export function modelCalls(messages: readonly Message[]): CallSpan[] {
  const spans: CallSpan[] = [];
  let from = 0;
  for (let i = 0; i < messages.length; i++) {
    if (messages[i]!.role !== 'assistant') continue;
    spans.push({ newMessages: messages.slice(from, i), assistantIndex: i });
    from = i;
  }
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'assistant') spans.push({ newMessages: messages.slice(from), assistantIndex: null });
  return spans;
}

interface CallMade {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

function toolCallsOf(msg: Message): CallMade[] {
  if (msg.kind === 'chat') return (msg.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
  const out: CallMade[] = [];
  for (const b of msg.blocks) if (b.type === 'function_tool_call') out.push({ id: b.callId, name: b.name, arguments: b.arguments });
  return out;
}

function firstLine(text: string, max = 120): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function assistantText(msg: Message): string {
  if (msg.kind === 'chat') return firstLine(msg.content);
  for (const b of msg.blocks) if (b.type === 'text' && b.text.trim() !== '') return firstLine(b.text);
  return '';
}

/** The recorded result of a tool call: the raw text, or a structured tool search result (model-native). */
type RecordedResult = { readonly text: string } | { readonly tools: readonly string[] };

/** The recorded results by call id (the first result for an id wins), and the tools each server-side search loaded. */
function indexResults(messages: readonly Message[]): {
  results: Map<string, RecordedResult>;
  serverResults: Map<string, readonly string[]>;
} {
  const results = new Map<string, RecordedResult>();
  const serverResults = new Map<string, readonly string[]>();
  for (const m of messages) {
    if (m.kind === 'chat') {
      if (m.role === 'tool' && m.toolCallId !== undefined && !results.has(m.toolCallId)) results.set(m.toolCallId, { text: m.content });
      continue;
    }
    for (const b of m.blocks) {
      if (b.type === 'server_tool_search_result') {
        if (!serverResults.has(b.callId)) serverResults.set(b.callId, b.tools);
        continue;
      }
      if (b.type !== 'function_tool_result' || results.has(b.callId)) continue;
      let r: RecordedResult = { text: '' };
      for (const p of b.content) {
        if (p.type === 'text') {
          r = { text: p.text };
          break;
        }
        if (p.type === 'tool_search_result') {
          r = { tools: p.tools };
          break;
        }
      }
      results.set(b.callId, r);
    }
  }
  return { results, serverResults };
}

function outcomeOfRecorded(r: RecordedResult): SearchOutcome {
  if ('tools' in r) return { matches: r.tools };
  const names = decodeMatches(r.text);
  return names === null ? { error: r.text } : { matches: names };
}

function sameOutcome(a: SearchOutcome, b: SearchOutcome): boolean {
  if ('matches' in a && 'matches' in b) return a.matches.length === b.matches.length && a.matches.every((n, i) => n === b.matches[i]);
  if ('error' in a && 'error' in b) return a.error === b.error;
  return false;
}

function replayOutcome(mw: Middleware, args: string): { outcome: SearchOutcome; mode: 'select' | 'keyword' | null } {
  const r = runToolSearch(mw.index, args);
  if (!r.ok) return { outcome: { error: r.error }, mode: null };
  return { outcome: { matches: r.matches }, mode: r.mode };
}

/**
 * The per-keyword account of a keyword search for the tools its recorded and
 * replayed results name: the scorer's own explanation (the one `search
 * --explain` prints), never a second computation. A `select:` has its
 * decoded query and no scores; null when the arguments do not decode.
 */
function explainSearch(index: ToolIndex, args: string, recorded: SearchOutcome | null, replayed: SearchOutcome): SearchExplanation | null {
  const r = runToolSearch(index, args);
  if (!r.ok) return null;
  const query = { query: r.query, requested_max_results: r.requestedMaxResults };
  if (r.mode === 'select') return { ...query, max_results: null, keywords: [], total_matches: r.matches.length, tools: [] };
  const ranking = index.rankAll(r.keywords);
  const rankOf = new Map<string, number>();
  ranking.forEach((t, i) => {
    if (!rankOf.has(t.name)) rankOf.set(t.name, i + 1);
  });
  const names = new Set<string>();
  for (const o of [replayed, recorded]) if (o !== null && 'matches' in o) for (const n of o.matches) names.add(n);
  return {
    ...query,
    max_results: r.maxResults,
    keywords: r.keywords.map((k) => ({ keyword: k.word, required: k.required })),
    total_matches: ranking.length,
    tools: [...names].map((name) => {
      const ex = index.explainTool(name, r.keywords);
      if (ex === undefined) return { name, rank: null, score: 0, excluded_by: null, unknown: true, keywords: [] };
      return { name, rank: rankOf.get(name) ?? null, score: ex.score, excluded_by: ex.excludedBy, unknown: false, keywords: ex.keywords };
    }),
  };
}

/** Runs the model calls of a message list through a fresh agent run. */
function runCalls(mw: Middleware, staticTools: readonly ToolInfo[], messages: readonly Message[]): ModelCallView[] {
  const run = new AgentRun(mw, staticTools);
  return modelCalls(messages).map((span) => run.modelCall(span.newMessages));
}

/** The transcript with every tool_search result text replaced by what the catalog returns now. */
function withReplayedResults(mw: Middleware, messages: readonly Message[]): Message[] {
  const argsById = new Map<string, string>();
  for (const m of messages) for (const c of toolCallsOf(m)) if (c.name === TOOL_SEARCH_NAME) argsById.set(c.id, c.arguments);
  const fresh = (id: string): string | null => {
    const args = argsById.get(id);
    if (args === undefined) return null;
    const r = runToolSearch(mw.index, args);
    return r.ok ? encodeMatches(r.matches) : r.error;
  };
  return messages.map((m): Message => {
    if (m.kind === 'chat') {
      if (m.role !== 'tool' || m.toolName !== TOOL_SEARCH_NAME || m.toolCallId === undefined) return m;
      const text = fresh(m.toolCallId);
      return text === null ? m : { ...m, content: text };
    }
    let changed = false;
    const blocks = m.blocks.map((b) => {
      if (b.type !== 'function_tool_result' || b.name !== TOOL_SEARCH_NAME) return b;
      const text = fresh(b.callId);
      if (text === null) return b;
      changed = true;
      return { ...b, content: [{ type: 'text' as const, text }] };
    });
    return changed ? { ...m, blocks } : m;
  });
}

/** A tool result whose call id no earlier tool call has. */
interface OrphanResult {
  readonly index: number;
  readonly callId: string;
  readonly tool: string | null;
}

/**
 * Tool results pointing to an unknown call id: no tool call before them (in
 * message and block order) has that id. The same rule as the loaders'
 * warnings, so the report and stderr agree; an empty id matches no call.
 */
function orphanResults(messages: readonly Message[]): OrphanResult[] {
  const calls = new Set<string>();
  const out: OrphanResult[] = [];
  messages.forEach((m, index) => {
    if (m.kind === 'chat') {
      for (const c of m.toolCalls ?? []) if (c.id !== '') calls.add(c.id);
      if (m.role === 'tool' && m.toolCallId !== undefined && !calls.has(m.toolCallId)) {
        out.push({ index, callId: m.toolCallId, tool: m.toolName || null });
      }
      return;
    }
    for (const b of m.blocks) {
      if (b.type === 'function_tool_call' && b.callId !== '') calls.add(b.callId);
      else if (b.type === 'function_tool_result' && !calls.has(b.callId)) out.push({ index, callId: b.callId, tool: b.name || null });
    }
  });
  return out;
}

/**
 * The transcript index of the reminder that the loader recognised by its
 * text, or null. Provider formats carry no `extra`, so a marker in one of
 * their messages was restored from the text (beyond the reference, which
 * only knows the marker); in Eino transcripts only the marker counts.
 */
function reminderByText(transcript: Transcript): number | null {
  if (transcript.format === 'eino') return null;
  const i = transcript.messages.findIndex((m) => hasReminderMarker(m));
  return i < 0 ? null : i;
}

/** Replays a conversation and reports what the model saw at every call. */
export function simulate(options: SimulateOptions): SimulationReport {
  const { transcript, mode } = options;
  const tools = simulationTools(options);
  const mw = createMiddleware({ dynamicTools: tools.dynamicTools, mode });
  const staticNames = new Set(tools.staticTools.map((t) => t.name));
  const messages = transcript.messages;
  const spans = modelCalls(messages);
  const run = new AgentRun(mw, tools.staticTools);
  const { results, serverResults } = indexResults(messages);

  const turns: TurnReport[] = [];
  const violations: Violation[] = [];
  const keywordReturned = new Set<string>();
  // Model-native mode: deferred tools the provider or a client-proxied search has loaded so far.
  const nativeLoaded = new Set<string>();
  const searchCountByCall: number[] = [];
  // Model-native mode: what was loaded when each call was made (for the timeline).
  const loadedAtCall: Array<ReadonlySet<string>> = [];
  let refillWarned = false;

  // Tool results for unknown call ids, by the model call that receives them.
  const orphansByCall = new Map<number, OrphanResult[]>();
  {
    const orphans = orphanResults(messages);
    let o = 0;
    let assistantsBefore = 0;
    for (let i = 0; i < messages.length && o < orphans.length; i++) {
      while (o < orphans.length && orphans[o]!.index === i) {
        const at = assistantsBefore + 1;
        const list = orphansByCall.get(at);
        if (list) list.push(orphans[o]!);
        else orphansByCall.set(at, [orphans[o]!]);
        o++;
      }
      if (messages[i]!.role === 'assistant') assistantsBefore++;
    }
  }

  spans.forEach((span) => {
    const view = run.modelCall(span.newMessages);
    const call = view.call;
    loadedAtCall.push(new Set(nativeLoaded));

    for (const o of orphansByCall.get(call) ?? []) {
      const l = transcript.locations[o.index];
      const where = l ? `${l.file}:${l.line}:${l.column}` : `message ${o.index}`;
      violations.push({
        call,
        tool: o.tool,
        kind: 'unknown-call-id',
        severity: 'warning',
        message: `tool result for unknown call id ${JSON.stringify(o.callId)} at ${where}: no earlier tool call has this id`,
        message_index: o.index,
        ...(l ? { location: { file: l.file, line: l.line, column: l.column } } : {}),
      });
    }
    const visibleNames = new Set(view.visible.map((t) => t.name));
    const assistant = span.assistantIndex === null ? null : messages[span.assistantIndex]!;

    if (mode === 'native' && view.refilled && call > 1 && !refillWarned) {
      refillWarned = true;
      violations.push({
        call,
        tool: null,
        kind: 'native-refill',
        severity: 'warning',
        message:
          `model-native mode with no static tools: call 1 offered no tools, and the framework refilled the nil tool list, ` +
          `so from call ${call} on tool_search and all ${mw.dynamicTools.length} dynamic tools are offered as ordinary tools`,
      });
    }

    const server_searches: ServerSearchReport[] = [];
    // Server-side results inside this response, by block position (see below).
    const serverResultBlocks = new Set<string>();
    if (assistant && assistant.kind === 'blocks') {
      // Pair each server-side search with its result by call id; a result whose id
      // matches no call (OpenAI Responses items may carry a null call_id, so the
      // loader falls back to item ids) answers the latest search still waiting.
      const entries: Array<{ call_id: string; query: string; loaded: readonly string[] | null }> = [];
      for (const b of assistant.blocks) {
        if (b.type === 'server_tool_search') {
          entries.push({ call_id: b.callId, query: b.query, loaded: serverResults.get(b.callId) ?? null });
        } else if (b.type === 'server_tool_search_result') {
          serverResultBlocks.add(b.callId);
          if (entries.some((e) => e.call_id === b.callId)) continue;
          const waiting = [...entries].reverse().find((e) => e.loaded === null);
          if (waiting) waiting.loaded = b.tools;
          else entries.push({ call_id: b.callId, query: '', loaded: b.tools });
        }
      }
      for (const e of entries) server_searches.push({ call_id: e.call_id, query: e.query, loaded: e.loaded ?? [] });
    }

    // Model-native mode: which deferred tools count as loaded for each call of
    // this message.
    // - A server-side search result INSIDE this response (Anthropic
    //   server_tool_use + tool_search_tool_result, a Responses tool_search_call
    //   + tool_search_output run by the server) was produced mid-response: the
    //   provider expands the references into definitions and the model goes on
    //   generating with them in context, so it counts for the calls that come
    //   AFTER it in block order (not for calls before it).
    // - A result that arrives in a later message (a client-proxied tool_search,
    //   a Responses tool_search_output executed by the client) was not there
    //   when the model wrote this message: it counts from the next model call,
    //   i.e. only after every call of this message was checked.
    const loadedLater: string[] = [];
    for (const e of server_searches) if (!serverResultBlocks.has(e.call_id)) loadedLater.push(...e.loaded);
    const loadNow = (names: readonly string[]): void => {
      for (const n of names) if (mw.index.has(n)) nativeLoaded.add(n);
    };

    const tool_calls: ToolCallReport[] = [];
    const searches: SearchReport[] = [];
    const steps: Array<{ call: CallMade } | { serverLoaded: readonly string[] }> = [];
    if (assistant?.kind === 'blocks') {
      for (const b of assistant.blocks) {
        if (b.type === 'function_tool_call') steps.push({ call: { id: b.callId, name: b.name, arguments: b.arguments } });
        else if (b.type === 'server_tool_search_result') steps.push({ serverLoaded: b.tools });
      }
    } else if (assistant) {
      for (const c of toolCallsOf(assistant)) steps.push({ call: c });
    }
    for (const step of steps) {
      if ('serverLoaded' in step) {
        loadNow(step.serverLoaded);
        continue;
      }
      const c = step.call;
      let status: ToolCallReport['status'];
      if (visibleNames.has(c.name) || staticNames.has(c.name)) status = 'ok';
      else if (c.name === TOOL_SEARCH_NAME) status = 'ok'; // model-native: the search tool is registered with the model
      else if (mw.index.has(c.name)) status = mode === 'native' && nativeLoaded.has(c.name) ? 'ok' : 'not-loaded';
      else status = 'unknown';
      tool_calls.push({ id: c.id, name: c.name, arguments: c.arguments, status });
      if (status === 'not-loaded') {
        violations.push({
          call,
          tool: c.name,
          kind: 'not-loaded',
          severity: 'error',
          message:
            mode === 'native'
              ? `${c.name} is deferred and no search had loaded it before call ${call}`
              : `${c.name} was called before any tool_search result named it (not visible at call ${call})`,
        });
      } else if (status === 'unknown') {
        violations.push({
          call,
          tool: c.name,
          kind: 'unknown',
          severity: 'error',
          message: `${c.name} exists nowhere: not a static tool, not a dynamic tool, not tool_search`,
        });
      }

      if (c.name !== TOOL_SEARCH_NAME) continue;
      const recordedResult = results.get(c.id) ?? null;
      const recorded = recordedResult === null ? null : outcomeOfRecorded(recordedResult);
      const replayed = replayOutcome(mw, c.arguments);
      searches.push({
        call_id: c.id,
        arguments: c.arguments,
        mode: replayed.mode,
        recorded,
        recorded_text: recordedResult === null ? null : 'text' in recordedResult ? recordedResult.text : null,
        replayed: replayed.outcome,
        differs: recorded !== null && !sameOutcome(recorded, replayed.outcome),
        client_proxied: mode === 'native',
        ...(options.details === true ? { explain: explainSearch(mw.index, c.arguments, recorded, replayed.outcome) } : {}),
      });
      const got = recorded ?? replayed.outcome;
      if ('matches' in got) {
        if (replayed.mode === 'select') {
          for (const name of got.matches) {
            if (!keywordReturned.has(name)) continue;
            violations.push({
              call,
              tool: name,
              kind: 'redundant-select',
              severity: 'warning',
              message: `select: for ${name}, which an earlier keyword search already returned`,
            });
          }
        } else if (replayed.mode === 'keyword') {
          for (const name of got.matches) keywordReturned.add(name);
        }
        // Client-proxied: the result reaches the model with the next call.
        if (mode === 'native') loadedLater.push(...got.matches);
      }
    }
    loadNow(loadedLater);
    searchCountByCall.push(searches.length);

    const dynamicVisible = view.visible.filter((t) => mw.index.has(t.name)).length;
    turns.push({
      call,
      message_index: span.assistantIndex,
      message_count: view.messageCount,
      visible: view.visible.map((t) => t.name),
      deferred: view.deferred.map((t) => t.name),
      added: view.added.map((t) => t.name),
      reminder_index: view.reminderIndex,
      reminder_inserted: view.reminderInserted,
      refilled: view.refilled,
      hidden_count: Math.max(0, mw.dynamicTools.length - dynamicVisible - view.deferred.length),
      tool_calls,
      searches,
      server_searches,
      assistant_text: assistant ? assistantText(assistant) : '',
    });
  });

  const replayDifferences = turns.reduce((n, t) => n + t.searches.filter((s) => s.differs).length, 0);
  let replay: SimulationReport['replay'] = null;
  let replayVisible: string[][] | null = null;
  if (options.replay) {
    const fresh = runCalls(mw, tools.staticTools, withReplayedResults(mw, messages));
    replayVisible = fresh.map((view) => view.visible.map((t) => t.name));
    const visibility: VisibilityChange[] = [];
    fresh.forEach((view, i) => {
      const before = new Set(turns[i]!.visible);
      const after = view.visible.map((t) => t.name);
      const afterSet = new Set(after);
      const gained = after.filter((n) => !before.has(n));
      const lost = turns[i]!.visible.filter((n) => !afterSet.has(n));
      if (gained.length > 0 || lost.length > 0) visibility.push({ call: view.call, gained, lost });
    });
    replay = { differences: replayDifferences, visibility };
  }

  const last = turns[turns.length - 1];
  return {
    mode,
    transcript: { file: transcript.file, format: transcript.format, messages: messages.length, reminder_recognised_by_text: reminderByText(transcript) },
    catalog: { dynamic: tools.dynamicTools.length, static: tools.staticTools.length, source: tools.source },
    turns,
    violations,
    replay,
    summary: {
      calls: turns.length,
      searches: searchCountByCall.reduce((a, b) => a + b, 0),
      server_searches: turns.reduce((n, t) => n + t.server_searches.length, 0),
      // Default mode: dynamic tools visible at the last call. Model-native mode:
      // deferred tools that searches (server side or client-proxied) loaded.
      tools_loaded: mode === 'native' ? nativeLoaded.size : last ? last.visible.filter((n) => mw.index.has(n)).length : 0,
      errors: violations.filter((v) => v.severity === 'error').length,
      warnings: violations.filter((v) => v.severity === 'warning').length,
      replay_differences: options.replay ? replayDifferences : 0,
    },
    ...(options.details === true
      ? {
          details: {
            tools: { static: tools.staticTools.map((t) => t.name), dynamic: tools.dynamicTools.map((t) => t.name) },
            timeline: visibilityTimeline({
              mode,
              turns,
              staticTools: tools.staticTools.map((t) => t.name),
              dynamicTools: tools.dynamicTools.map((t) => t.name),
              nativeLoaded: loadedAtCall,
            }),
            replay_visible: replayVisible,
          },
        }
      : {}),
  };
}
