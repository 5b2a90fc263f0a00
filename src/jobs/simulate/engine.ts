/**
 * The simulation engine: replays a recorded conversation through the core's
 * middleware state machine, one model call per assistant message, and
 * returns a {@link SimulationReport}. All reference behaviour comes from the
 * core (`AgentRun`, `runToolSearch`); this module only walks the transcript,
 * classifies what the assistant did and collects findings.
 *
 * Over 400 lines: the per-call step and the findings it collects share the state they fold; the
 * aggregate, tokens and bulk replay live apart.
 */
import { createMiddleware, type Middleware } from '../../core/middleware.js';
import { AgentRun, type ModelCallView } from '../../core/run.js';
import type { ToolIndex } from '../../core/index/tool-index.js';
import { runToolSearch, TOOL_SEARCH_NAME } from '../../core/toolsearch.js';
import type { Message, Mode, ToolInfo } from '../../core/types.js';
import type { Transcript } from '../../formats/types.js';
import { InputError } from '../../io/errors.js';
import { raiseLimit, resolveLimits } from '../../io/read.js';
import { referenceResult, sentDiffers } from './sent.js';
import { preparedFor, type SimulateOptions, type SimulationTools, simulationTools } from './tools.js';
import {
  assistantText,
  type CallMade,
  type CallSpan,
  indexResults,
  modelCalls,
  type OrphanResult,
  orphanResults,
  outcomeOfRecorded,
  providerCallsOf,
  type RecordedResult,
  reminderByText,
  replayOutcome,
  sameOutcome,
  toolCallsOf,
  type UnansweredCall,
  unansweredCalls,
  withReplayedResults,
} from './transcript-walk.js';
import type {
  SearchExplanation,
  SearchOutcome,
  SearchReport,
  ServerSearchReport,
  SimulationReport,
  ToolCallReport,
  TurnReport,
  Violation,
  VisibilityChange,
} from './report.js';
import { visibilityTimeline } from './timeline.js';
import { simulateWithEngine } from './engines.js';
import { append } from '../../core/append.js';

export { type CallSpan, modelCalls } from './transcript-walk.js';
export {
  type PreparedTools,
  prepareTools,
  type SimulateOptions,
  type SimulationTools,
  simulationTools,
} from './tools.js';

/**
 * What every model call of one simulation reads and none changes: the
 * middleware, the transcript and what was indexed from it once.
 */
export interface SimulationContext {
  readonly mode: Mode;
  readonly mw: Middleware;
  readonly staticNames: ReadonlySet<string>;
  readonly transcript: Transcript;
  readonly results: ReadonlyMap<string, RecordedResult>;
  readonly serverResults: ReadonlyMap<string, readonly string[]>;
  /** Tool results for unknown call ids, by the model call that receives them. */
  readonly orphansByCall: ReadonlyMap<number, readonly OrphanResult[]>;
  /** Tool calls no result answers while the conversation goes on, by the model call that made them. */
  readonly unansweredByCall: ReadonlyMap<number, readonly UnansweredCall[]>;
  /** Attach each search's explanation (the `details` option). */
  readonly details?: boolean;
  /** The most the turns' tool lists may hold (`TOOLSEARCH_MAX_REPORT_BYTES`, see {@link countListed}). */
  readonly maxReportBytes: number;
  /** UTF-8 bytes of each tool name met (names repeat at every call). */
  readonly nameBytes: Map<string, number>;
}

/**
 * What the fold carries from one model call to the next. The lists and sets
 * are owned by the fold and only ever appended to (a step returns the state it
 * was given, extended): copying them at every call would make a simulation
 * quadratic in its calls.
 */
export interface SimulationState {
  readonly turns: TurnReport[];
  readonly violations: Violation[];
  /** Tools a keyword search has returned so far (for redundant-select). */
  readonly keywordReturned: Set<string>;
  /** Model-native mode: deferred tools the provider or a client-proxied search has loaded so far. */
  readonly nativeLoaded: Set<string>;
  /** The native-refill warning was given (it is given once). */
  readonly refillWarned: boolean;
  /** What the turns' tool lists hold so far, in the measure of `TOOLSEARCH_MAX_REPORT_BYTES`. */
  readonly listed: { bytes: number };
}

/** One model call to fold: the span of the transcript it covers and what the agent run offered. */
export interface CallEvent {
  readonly span: CallSpan;
  readonly view: ModelCallView;
}

/** The state before the first call. */
export function initialState(): SimulationState {
  return {
    turns: [],
    violations: [],
    keywordReturned: new Set(),
    nativeLoaded: new Set(),
    refillWarned: false,
    listed: { bytes: 0 },
  };
}

/** Indexes a transcript once for the steps of its simulation. */
export function simulationContext(options: SimulateOptions, tools: SimulationTools): SimulationContext {
  const messages = options.transcript.messages;
  const { results, serverResults } = indexResults(messages);
  return {
    mode: options.mode,
    mw:
      preparedFor(options)?.middleware(options.mode) ??
      createMiddleware({ dynamicTools: tools.dynamicTools, mode: options.mode }),
    staticNames: new Set(tools.staticTools.map((t) => t.name)),
    transcript: options.transcript,
    results,
    serverResults,
    orphansByCall: orphansByModelCall(messages),
    unansweredByCall: unansweredByModelCall(messages),
    details: options.details === true,
    maxReportBytes: resolveLimits(options.limits).maxReportBytes,
    nameBytes: new Map(),
  };
}

/** Bytes a name's place in a tool list counts for, beyond the name's own (quotes, comma, indentation). */
const LIST_ENTRY_BYTES = 8;

/**
 * Adds a call's tool lists to what the report holds, and stops the replay with an error at the call's message
 * when they go over `TOOLSEARCH_MAX_REPORT_BYTES`: a report lists every call's visible tools, so it grows as
 * calls × tools, where a 3.7 MB recording could ask for billions of names (issue 27, finding 3).
 */
function countListed(
  ctx: SimulationContext,
  state: SimulationState,
  lists: ReadonlyArray<readonly ToolInfo[]>,
  call: number,
  at: number | null,
): void {
  let bytes = 0;
  for (const list of lists) {
    for (const t of list) {
      let n = ctx.nameBytes.get(t.name);
      if (n === undefined) {
        n = utf8Length(t.name);
        ctx.nameBytes.set(t.name, n);
      }
      bytes += n + LIST_ENTRY_BYTES;
    }
  }
  state.listed.bytes += bytes;
  if (state.listed.bytes <= ctx.maxReportBytes) return;
  const messages = ctx.transcript.messages;
  const index = at ?? messages.length - 1;
  const loc = ctx.transcript.locations[index];
  throw new InputError(
    `report too large: listing the visible, deferred and added tools of calls 1 to ${call} takes more than ` +
      `${ctx.maxReportBytes} bytes (limit ${ctx.maxReportBytes}; ${raiseLimit('maxReportBytes')})`,
    loc ? { file: loc.file, line: loc.line, column: loc.column } : { file: ctx.transcript.file, line: 0, column: 0 },
  );
}

/** What one cell of the visibility timeline (a tool at a call) counts for: about what the HTML page holds for it. */
const TIMELINE_CELL_BYTES = 128;

/**
 * The `details` option (the HTML report): its visibility timeline has a cell per tool per call, whether the tool
 * was offered or not, and counts towards `TOOLSEARCH_MAX_REPORT_BYTES` before it is made.
 */
function countTimeline(ctx: SimulationContext, state: SimulationState, tools: SimulationTools, calls: number): void {
  const rows = 1 + tools.staticTools.length + tools.dynamicTools.length;
  state.listed.bytes += rows * calls * TIMELINE_CELL_BYTES;
  if (state.listed.bytes <= ctx.maxReportBytes) return;
  throw new InputError(
    `report too large: the HTML report's visibility timeline of ${rows} tools at ${calls} calls, with the tools ` +
      `listed at each call, takes more than ${ctx.maxReportBytes} bytes (limit ${ctx.maxReportBytes}; ` +
      `${raiseLimit('maxReportBytes')})`,
    { file: ctx.transcript.file, line: 0, column: 0 },
  );
}

/** UTF-8 bytes of `s` (a lone surrogate counts 3, as its replacement character). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

/**
 * Tool results for unknown call ids, keyed by the model call that receives them (the one after the last assistant
 * before them).
 */
function orphansByModelCall(messages: readonly Message[]): Map<number, OrphanResult[]> {
  const byCall = new Map<number, OrphanResult[]>();
  const orphans = orphanResults(messages);
  let o = 0;
  let assistantsBefore = 0;
  for (let i = 0; i < messages.length && o < orphans.length; i++) {
    while (o < orphans.length && orphans[o]!.index === i) {
      const at = assistantsBefore + 1;
      const list = byCall.get(at);
      if (list) list.push(orphans[o]!);
      else byCall.set(at, [orphans[o]!]);
      o++;
    }
    if (messages[i]!.role === 'assistant') assistantsBefore++;
  }
  return byCall;
}

/** Unanswered tool calls, keyed by the model call that made them (the k-th assistant message answers call k). */
function unansweredByModelCall(messages: readonly Message[]): Map<number, UnansweredCall[]> {
  const byCall = new Map<number, UnansweredCall[]>();
  const list = unansweredCalls(messages);
  if (list.length === 0) return byCall;
  const callOf = new Map<number, number>();
  let assistants = 0;
  messages.forEach((m, i) => {
    if (m.role === 'assistant') callOf.set(i, ++assistants);
  });
  for (const u of list) {
    const call = callOf.get(u.index)!;
    const at = byCall.get(call);
    if (at) at.push(u);
    else byCall.set(call, [u]);
  }
  return byCall;
}

/** The `unanswered-call` warnings of one model call. */
function unansweredViolations(ctx: SimulationContext, call: number): Violation[] {
  return (ctx.unansweredByCall.get(call) ?? []).map((u): Violation => {
    const l = ctx.transcript.locations[u.index];
    return {
      call,
      tool: u.tool,
      kind: 'unanswered-call',
      severity: 'warning',
      message:
        `tool call ${JSON.stringify(u.tool)} (id ${JSON.stringify(u.callId)}) has no result, and the ` +
        `conversation goes on after it: replayed as recorded, as the reference does (it does not pair ` +
        `calls and results; a provider may refuse such a request)`,
      message_index: u.index,
      ...(l ? { location: { file: l.file, line: l.line, column: l.column } } : {}),
    };
  });
}

function orphanViolations(ctx: SimulationContext, call: number): Violation[] {
  return (ctx.orphansByCall.get(call) ?? []).map((o): Violation => {
    const l = ctx.transcript.locations[o.index];
    const where = l ? `${l.file}:${l.line}:${l.column}` : `message ${o.index}`;
    return {
      call,
      tool: o.tool,
      kind: 'unknown-call-id',
      severity: 'warning',
      message:
        `tool result for unknown call id ${JSON.stringify(o.callId)} ` +
        `at ${where}: no earlier tool call has this id`,
      message_index: o.index,
      ...(l ? { location: { file: l.file, line: l.line, column: l.column } } : {}),
    };
  });
}

/** The model-native pitfall of SPEC §4 (no static tools: the framework refills the nil list), warned once. */
function refillViolation(ctx: SimulationContext, state: SimulationState, view: ModelCallView): Violation | null {
  if (ctx.mode !== 'native' || !view.refilled || view.call <= 1 || state.refillWarned) return null;
  return {
    call: view.call,
    tool: null,
    kind: 'native-refill',
    severity: 'warning',
    message:
      `model-native mode with no static tools: call 1 offered no ` +
      `tools, and the framework refilled the nil tool list, ` +
      `so from call ${view.call} on tool_search and ` +
      `all ${ctx.mw.dynamicTools.length} dynamic tools are offered as ordinary tools`,
  };
}

/**
 * The server-side searches of one response, each paired with its result by
 * call id; a result whose id matches no call (OpenAI Responses items may carry
 * a null call_id, so the loader falls back to item ids) answers the latest
 * search still waiting. Also the call ids of the results inside the response.
 */
function serverSearchesOf(
  ctx: SimulationContext,
  assistant: Message | null,
): { searches: ServerSearchReport[]; resultBlocks: Set<string> } {
  const resultBlocks = new Set<string>();
  if (!assistant || assistant.kind !== 'blocks') return { searches: [], resultBlocks };
  const entries: Array<{
    call_id: string;
    query: string;
    loaded: readonly string[] | null;
    execution: 'server' | 'client';
  }> = [];
  for (const b of assistant.blocks) {
    if (b.type === 'server_tool_search') {
      entries.push({
        call_id: b.callId,
        query: b.query,
        loaded: ctx.serverResults.get(b.callId) ?? null,
        execution: b.execution ?? 'server',
      });
    } else if (b.type === 'server_tool_search_result') {
      resultBlocks.add(b.callId);
      if (entries.some((e) => e.call_id === b.callId)) continue;
      const waiting = [...entries].reverse().find((e) => e.loaded === null && e.execution === 'server');
      if (waiting) waiting.loaded = b.tools;
      else entries.push({ call_id: b.callId, query: '', loaded: b.tools, execution: 'server' });
    }
  }
  return {
    searches: entries.map((e) => ({
      call_id: e.call_id,
      query: e.query,
      loaded: e.loaded ?? [],
      execution: e.execution,
      pending: e.execution === 'client' && e.loaded === null,
    })),
    resultBlocks,
  };
}

/** What the assistant did, in block order: tool calls, and server-side search results that load tools mid-response. */
type AssistantStep = { readonly call: CallMade } | { readonly serverLoaded: readonly string[] };

function assistantSteps(assistant: Message | null): AssistantStep[] {
  if (!assistant) return [];
  if (assistant.kind === 'chat') return toolCallsOf(assistant).map((call) => ({ call }));
  const steps: AssistantStep[] = [];
  for (const b of assistant.blocks) {
    if (b.type === 'function_tool_call') steps.push({ call: { id: b.callId, name: b.name, arguments: b.arguments } });
    else if (b.type === 'server_tool_search_result') steps.push({ serverLoaded: b.tools });
  }
  return steps;
}

/** How a tool call relates to what the model was offered, and the violation it makes, if any. */
function classifyToolCall(
  ctx: SimulationContext,
  state: SimulationState,
  visibleNames: ReadonlySet<string>,
  call: number,
  c: CallMade,
): { report: ToolCallReport; violation: Violation | null } {
  let status: ToolCallReport['status'];
  if (visibleNames.has(c.name) || ctx.staticNames.has(c.name)) status = 'ok';
  else if (c.name === TOOL_SEARCH_NAME)
    status = 'ok'; // model-native: the search tool is registered with the model
  else if (ctx.mw.index.has(c.name))
    status = ctx.mode === 'native' && state.nativeLoaded.has(c.name) ? 'ok' : 'not-loaded';
  else status = 'unknown';
  const report: ToolCallReport = { id: c.id, name: c.name, arguments: c.arguments, status };
  if (status === 'not-loaded') {
    const message =
      ctx.mode === 'native'
        ? `${c.name} is deferred and no search had loaded it before call ${call}`
        : `${c.name} was called before any tool_search result named it (not visible at call ${call})`;
    return { report, violation: { call, tool: c.name, kind: 'not-loaded', severity: 'error', message } };
  }
  if (status === 'unknown') {
    const message = `${c.name} exists nowhere: not a static tool, not a dynamic tool, not tool_search`;
    return { report, violation: { call, tool: c.name, kind: 'unknown', severity: 'error', message } };
  }
  return { report, violation: null };
}

/**
 * The per-keyword account of a keyword search for the tools its recorded and
 * replayed results name: the scorer's own explanation (the one `search
 * --explain` prints), never a second computation. A `select:` has its
 * decoded query and no scores; null when the arguments do not decode.
 */
function explainSearch(
  index: ToolIndex,
  args: string,
  recorded: SearchOutcome | null,
  replayed: SearchOutcome,
): SearchExplanation | null {
  const r = runToolSearch(index, args);
  if (!r.ok) return null;
  const query = { query: r.query, requested_max_results: r.requestedMaxResults };
  if (r.mode === 'select')
    return { ...query, max_results: null, keywords: [], total_matches: r.matches.length, tools: [] };
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
      return {
        name,
        rank: rankOf.get(name) ?? null,
        score: ex.score,
        excluded_by: ex.excludedBy,
        unknown: false,
        keywords: ex.keywords,
      };
    }),
  };
}

/** A tool_search call: its recorded result (if any) beside the result the catalog gives now. */
function searchReportOf(ctx: SimulationContext, c: CallMade): SearchReport {
  const recordedResult = ctx.results.get(c.id) ?? null;
  const recorded = recordedResult === null ? null : outcomeOfRecorded(recordedResult);
  const replayed = replayOutcome(ctx.mw, c.arguments);
  return {
    call_id: c.id,
    arguments: c.arguments,
    mode: replayed.mode,
    recorded,
    recorded_text: recordedResult === null ? null : 'text' in recordedResult ? recordedResult.text : null,
    replayed: replayed.outcome,
    differs: recorded !== null && !sameOutcome(recorded, replayed.outcome),
    client_proxied: ctx.mode === 'native',
    ...(ctx.details === true ? { explain: explainSearch(ctx.mw.index, c.arguments, recorded, replayed.outcome) } : {}),
  };
}

/**
 * What a search's result (recorded, else fresh) means for the findings: a
 * `select:` of a tool a keyword search already returned is redundant; a
 * keyword search's tools are remembered; in model-native mode a
 * client-proxied result reaches the model with the next call.
 */
function searchFindings(
  ctx: SimulationContext,
  state: SimulationState,
  call: number,
  search: SearchReport,
  loadedLater: string[],
): void {
  const recordedResult = ctx.results.get(search.call_id) ?? null;
  if (ctx.mode === 'default' && recordedResult !== null && 'tools' in recordedResult)
    state.violations.push(referenceResult(call, recordedResult.tools));
  const got = search.recorded ?? search.replayed;
  if (!('matches' in got)) return;
  if (search.mode === 'select') {
    for (const name of got.matches) {
      if (!state.keywordReturned.has(name)) continue;
      state.violations.push({
        call,
        tool: name,
        kind: 'redundant-select',
        severity: 'warning',
        message: `select: for ${name}, which an earlier keyword search already returned`,
      });
    }
  } else if (search.mode === 'keyword') {
    for (const name of got.matches) state.keywordReturned.add(name);
  }
  if (ctx.mode === 'native') append(loadedLater, got.matches);
}

/**
 * One model call, folded into the state: its findings, in the order the
 * report has always listed them (unknown call ids, the refill warning, then
 * per tool call), and its turn.
 */
export function simulateCallStep(ctx: SimulationContext, state: SimulationState, event: CallEvent): SimulationState {
  const { span, view } = event;
  const call = view.call;
  const messages = ctx.transcript.messages;
  countListed(ctx, state, [view.visible, view.deferred, view.added], call, span.assistantIndex);
  append(state.violations, orphanViolations(ctx, call));
  const refill = refillViolation(ctx, state, view);
  if (refill) state.violations.push(refill);
  const sent = ctx.transcript.sentTools?.[call - 1];
  const sentFinding = sent
    ? sentDiffers(
        call,
        ctx.mode,
        sent,
        view.visible.map((t) => t.name),
        view.deferred.map((t) => t.name),
      )
    : null;
  if (sentFinding) state.violations.push(sentFinding);

  const visibleNames = new Set(view.visible.map((t) => t.name));
  const assistant = span.assistantIndex === null ? null : messages[span.assistantIndex]!;
  const server = serverSearchesOf(ctx, assistant);

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
  for (const e of server.searches) if (!server.resultBlocks.has(e.call_id)) append(loadedLater, e.loaded);
  const loadNow = (names: readonly string[]): void => {
    for (const n of names) if (ctx.mw.index.has(n)) state.nativeLoaded.add(n);
  };

  const tool_calls: ToolCallReport[] = [];
  const searches: SearchReport[] = [];
  for (const step of assistantSteps(assistant)) {
    if ('serverLoaded' in step) {
      loadNow(step.serverLoaded);
      continue;
    }
    const classified = classifyToolCall(ctx, state, visibleNames, call, step.call);
    tool_calls.push(classified.report);
    if (classified.violation) state.violations.push(classified.violation);
    if (step.call.name !== TOOL_SEARCH_NAME) continue;
    const search = searchReportOf(ctx, step.call);
    searches.push(search);
    searchFindings(ctx, state, call, search, loadedLater);
  }
  loadNow(loadedLater);
  append(state.violations, unansweredViolations(ctx, call));

  const dynamicVisible = view.visible.filter((t) => ctx.mw.index.has(t.name)).length;
  state.turns.push({
    call,
    message_index: span.assistantIndex,
    message_count: view.messageCount,
    visible: view.visible.map((t) => t.name),
    deferred: view.deferred.map((t) => t.name),
    added: view.added.map((t) => t.name),
    reminder_index: view.reminderIndex,
    reminder_inserted: view.reminderInserted,
    refilled: view.refilled,
    hidden_count: Math.max(0, ctx.mw.dynamicTools.length - dynamicVisible - view.deferred.length),
    tool_calls,
    searches,
    server_searches: server.searches,
    provider_calls: providerCallsOf(assistant),
    assistant_text: assistant ? assistantText(assistant) : '',
  });
  return refill ? { ...state, refillWarned: true } : state;
}

/**
 * `--replay`: the model calls again, with every search returning what the catalog returns now; their visible
 * tools count towards `TOOLSEARCH_MAX_REPORT_BYTES` too.
 */
function replayedCalls(ctx: SimulationContext, tools: SimulationTools, state: SimulationState): ModelCallView[] {
  const run = new AgentRun(ctx.mw, tools.staticTools);
  return modelCalls(withReplayedResults(ctx.mw, ctx.transcript.messages)).map((span) => {
    const view = run.modelCall(span.newMessages);
    countListed(ctx, state, [view.visible], view.call, span.assistantIndex);
    return view;
  });
}

/** `--replay`: how the visible tools of every call would change with fresh search results. */
function replaySection(
  fresh: readonly ModelCallView[],
  turns: readonly TurnReport[],
  differences: number,
): NonNullable<SimulationReport['replay']> {
  const visibility: VisibilityChange[] = [];
  fresh.forEach((view, i) => {
    const before = new Set(turns[i]!.visible);
    const after = view.visible.map((t) => t.name);
    const afterSet = new Set(after);
    const gained = after.filter((n) => !before.has(n));
    const lost = turns[i]!.visible.filter((n) => !afterSet.has(n));
    if (gained.length > 0 || lost.length > 0) visibility.push({ call: view.call, gained, lost });
  });
  return { differences, visibility };
}

/** What the `details` option adds: tool lists, the visibility timeline, the replayed visibility. */
export interface DetailsInput {
  /**
   * Model-native mode: the loaded deferred tools when each call was made (a snapshot of `nativeLoaded` before each
   * step).
   */
  readonly loadedAtCall: ReadonlyArray<ReadonlySet<string>>;
}

/** The report from the folded state. */
function finishReport(
  ctx: SimulationContext,
  tools: SimulationTools,
  state: SimulationState,
  options: Pick<SimulateOptions, 'replay' | 'engineChoice'>,
  details?: DetailsInput,
): SimulationReport {
  const replay = options.replay;
  const { turns, violations } = state;
  const fresh = replay ? replayedCalls(ctx, tools, state) : null;
  if (details !== undefined) countTimeline(ctx, state, tools, turns.length);
  const transcript = ctx.transcript;
  const replayDifferences = turns.reduce((n, t) => n + t.searches.filter((s) => s.differs).length, 0);
  const last = turns[turns.length - 1];
  return {
    mode: ctx.mode,
    engine: {
      name: 'eino',
      by: options.engineChoice?.by ?? 'default',
      evidence: options.engineChoice?.evidence ?? null,
      params: {},
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
    replay: fresh !== null ? replaySection(fresh, turns, replayDifferences) : null,
    summary: {
      calls: turns.length,
      searches: turns.reduce((n, t) => n + t.searches.length, 0),
      server_searches: turns.reduce((n, t) => n + t.server_searches.length, 0),
      provider_calls: turns.reduce((n, t) => n + t.provider_calls.length, 0),
      // Default mode: dynamic tools visible at the last call. Model-native mode:
      // deferred tools that searches (server side or client-proxied) loaded.
      tools_loaded:
        ctx.mode === 'native'
          ? state.nativeLoaded.size
          : last
            ? last.visible.filter((n) => ctx.mw.index.has(n)).length
            : 0,
      errors: violations.filter((v) => v.severity === 'error').length,
      warnings: violations.filter((v) => v.severity === 'warning').length,
      replay_differences: replay ? replayDifferences : 0,
    },
    ...(details !== undefined
      ? {
          details: {
            tools: { static: tools.staticTools.map((t) => t.name), dynamic: tools.dynamicTools.map((t) => t.name) },
            timeline: visibilityTimeline({
              mode: ctx.mode,
              turns,
              staticTools: tools.staticTools.map((t) => t.name),
              dynamicTools: tools.dynamicTools.map((t) => t.name),
              nativeLoaded: details.loadedAtCall,
            }),
            replay_visible: fresh !== null ? fresh.map((view) => view.visible.map((t) => t.name)) : null,
          },
        }
      : {}),
  };
}

/**
 * Replays a conversation and reports what the model saw at every call: the
 * agent run offers each call's tools, and {@link simulateCallStep} folds the
 * calls into the report's turns and findings.
 */
export function simulate(options: SimulateOptions): SimulationReport {
  if (options.engine === 'ai-sdk' || options.engine === 'mastra')
    return simulateWithEngine({
      ...options,
      engine: options.engine,
      ...(options.engineParams !== undefined ? { params: options.engineParams } : {}),
      ...(options.engineChoice !== undefined ? { detection: options.engineChoice } : {}),
    });
  const tools = simulationTools(options);
  const ctx = simulationContext(options, tools);
  const run = new AgentRun(ctx.mw, tools.staticTools);
  let state = initialState();
  // Model-native mode, for the timeline: what was loaded when each call was made.
  const loadedAtCall: Array<ReadonlySet<string>> = [];
  for (const span of modelCalls(ctx.transcript.messages)) {
    if (options.details === true) loadedAtCall.push(new Set(state.nativeLoaded));
    state = simulateCallStep(ctx, state, { span, view: run.modelCall(span.newMessages) });
  }
  return finishReport(ctx, tools, state, options, options.details === true ? { loadedAtCall } : undefined);
}
