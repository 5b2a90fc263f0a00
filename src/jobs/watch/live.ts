/**
 * The sessions `watch` has seen, kept as recordings and simulated again as
 * each model call arrives: a proxy session is a call log (`[{request,
 * response}, ...]`, read by the call-log reader), an OTLP session the spans
 * of one trace (an OTLP JSON document, read by the otel reader). Every
 * arrival yields one JSON line per new model call, with its turn and the
 * violations found at it; the recording of all sessions (`-o`) is one JSON
 * line per session, which `simulate` replays session by session.
 *
 * No I/O here: the CLI's server hands calls and spans in and writes out what
 * comes back.
 */
import type { EngineParams } from '../../core/engines/index.js';
import type { EngineId } from '../../core/engines/types.js';
import type { Mode } from '../../core/types.js';
import { InputError } from '../../io/errors.js';
import { append } from '../../core/append.js';
import { JSON_SCHEMA_VERSION } from '../../io/schema-version.js';
import { type Limits, resolveLimits } from '../../io/read.js';
import { loadRecordingText } from '../../formats/from-text.js';
import type { Catalog, Transcript } from '../../formats/types.js';
import type { LiveProvider } from '../../formats/live/calls.js';
import { liveFormat, recordedCallOf } from '../../formats/live/group.js';
import { CallGrouping } from '../../formats/recordings/calls.js';
import { type ReceivedSpan, traceDocument } from '../../formats/live/otlp.js';
import { simulate } from '../simulate/engine.js';
import { chooseEngine } from '../simulate/engines.js';
import type { SimulationReport, TurnReport, Violation } from '../simulate/report.js';

/** What the simulation of every session uses (`simulate`'s options). */
export interface WatchOptions {
  readonly catalog: Catalog | null;
  readonly mode: Mode;
  /** `--engine`: the loading rule every session replays; without it each session's is detected (simulate's rule). */
  readonly engine?: EngineId;
  /** Each engine's parameters from the flags, or why they are not that engine's (a session using it says so). */
  readonly engineParams?: Readonly<Record<EngineId, { readonly params: EngineParams } | { readonly error: string }>>;
  readonly staticNames?: readonly string[];
  readonly searchTools?: readonly string[];
  readonly limits?: Partial<Limits>;
  readonly replay?: boolean;
}

/** What the proxy knows of a call besides its bodies (credentials already dropped). */
export interface CallMeta {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly streamed: boolean;
  /** Milliseconds from the request to the end of the upstream answer. */
  readonly duration_ms: number;
  /** The request's headers without credentials (src/formats/live/redact.ts). */
  readonly request_headers: Readonly<Record<string, string>>;
}

/** One line of `watch --jsonl`: one model call (or one call that failed). */
export interface WatchLine {
  readonly schema_version: number;
  readonly source: 'proxy' | 'otlp';
  /** `s1`, `s2`, ... in order of first appearance; null for a call that was never answered. */
  readonly session: string | null;
  /** The OTel trace id of the session (otlp). */
  readonly trace_id?: string;
  /** 1-based call number within the session; null when the call could not be read. */
  readonly call: number | null;
  readonly provider?: LiveProvider;
  readonly http?: CallMeta;
  /**
   * The engine whose loading rule replayed the session (detected from its search tool, as `simulate`
   * does: eino, the reference, unless the recording shows the AI SDK's or Mastra's); with a turn only.
   */
  readonly engine?: string;
  readonly turn: TurnReport | null;
  /** Violations and warnings found at this call. */
  readonly violations: readonly Violation[];
  /** Why the call could not be read or answered. */
  readonly error?: string;
  /**
   * Said once per session, on its first line it applies to: `--engine` names another engine than the
   * session's search tool shows (simulate's warning, word for word).
   */
  readonly warning?: string;
}

/** One session as seen so far. */
export class LiveSession {
  readonly calls: Array<{ request: unknown; response: unknown; http: CallMeta }> = [];
  readonly spans: ReceivedSpan[] = [];
  report: SimulationReport | null = null;
  transcript: Transcript | null = null;
  /** Why the recording did not read strictly (it was then read leniently), or why it did not read at all. */
  problem: string | null = null;
  /** Turns already given out as JSON lines. */
  emitted = 0;
  /** The problem last given out as a line (OTLP sessions). */
  reported: string | null = null;
  /** `--engine` against what the session shows (simulate's warning), and the one last given out. */
  contradicts: string | null = null;
  warned: string | null = null;

  /** The warning to put on the next line, once per text. */
  warning(): { warning: string } | Record<string, never> {
    if (this.contradicts === null || this.contradicts === this.warned) return {};
    this.warned = this.contradicts;
    return { warning: this.contradicts };
  }

  constructor(
    readonly id: string,
    readonly source: 'proxy' | 'otlp',
    readonly traceId: string | null,
    readonly provider: LiveProvider | null,
  ) {}

  /** Each call's or span's JSON text, made once when it arrives (a session is read again at every call). */
  readonly texts: string[] = [];
  /** UTF-8 bytes of the recording (the texts and their separators). */
  bytes = 25;

  add(text: string): void {
    this.texts.push(text);
    this.bytes += Buffer.byteLength(text) + 1;
  }

  /** The session as a recording, in JSON text: a call log (a list of calls) or an OTLP JSON document. */
  recording(): string {
    if (this.source === 'proxy') return `[${this.texts.join(',')}]`;
    return `{"resourceSpans":[${this.texts.join(',')}]}`;
  }
}

function message(err: unknown): string {
  if (err instanceof InputError) return err.headline;
  return err instanceof Error ? err.message : String(err);
}

/** Every session, in order of first appearance. */
export class LiveWatch {
  readonly sessions: LiveSession[] = [];
  /** The recordings' grouping by continuity: one per provider API of the proxy's calls, one for OTLP traces. */
  private readonly groupings = new Map<string, { grouping: CallGrouping; sessions: LiveSession[] }>();
  /** Each trace's session; spans of a trace not yet placed (no model call read yet) wait in `pending`. */
  private readonly traces = new Map<string, LiveSession>();
  private readonly pending = new Map<string, ReceivedSpan[]>();
  private mode: Mode;
  private replay: boolean;
  private readonly listeners = new Set<() => void>();
  /** Bumped at every change (the TUI re-renders on it). */
  version = 0;

  constructor(private readonly options: WatchOptions) {
    this.mode = options.mode;
    this.replay = options.replay === true;
  }

  get currentMode(): Mode {
    return this.mode;
  }

  get currentReplay(): boolean {
    return this.replay;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.version++;
    for (const l of this.listeners) l();
  }

  /** Simulates every session again in another mode or with replay (the TUI's `m` and `r`). */
  setView(mode: Mode, replay: boolean): void {
    this.mode = mode;
    this.replay = replay;
    for (const s of this.sessions) this.resimulate(s);
    this.changed();
  }

  /** A call the proxy forwarded and saw answered (the response object, or null when none could be read). */
  addCall(provider: LiveProvider, request: unknown, response: unknown, meta: CallMeta, error?: string): WatchLine[] {
    const base = { schema_version: JSON_SCHEMA_VERSION, source: 'proxy' as const, provider, http: meta };
    if (response === null || error !== undefined) {
      this.changed();
      return [
        { ...base, session: null, call: null, turn: null, violations: [], error: error ?? 'no response to read' },
      ];
    }
    const s = this.placeCall(provider, request, response);
    const entry = { request, response, http: meta };
    s.calls.push(entry);
    s.add(JSON.stringify(entry));
    this.resimulate(s);
    const call = s.calls.length;
    const turn = s.report?.turns[call - 1] ?? null;
    s.emitted = Math.max(s.emitted, call);
    this.changed();
    const violations = s.report?.violations.filter((v) => v.call === call) ?? [];
    const engine = s.report?.engine.name;
    const line: WatchLine = {
      ...base,
      session: s.id,
      call,
      ...(turn !== null && engine !== undefined ? { engine } : {}),
      turn,
      violations,
      ...s.warning(),
    };
    return [turn === null ? { ...line, error: s.problem ?? `call ${call} was not read` } : line];
  }

  private grouping(key: string): { grouping: CallGrouping; sessions: LiveSession[] } {
    let g = this.groupings.get(key);
    if (!g) {
      g = { grouping: new CallGrouping(), sessions: [] };
      this.groupings.set(key, g);
    }
    return g;
  }

  private newSession(source: 'proxy' | 'otlp', traceId: string | null, provider: LiveProvider | null): LiveSession {
    const s = new LiveSession(`s${this.sessions.length + 1}`, source, traceId, provider);
    this.sessions.push(s);
    return s;
  }

  /** The session a proxy call continues (the recordings' grouping by continuity), or a new one. */
  private placeCall(provider: LiveProvider, request: unknown, response: unknown): LiveSession {
    const g = this.grouping(`proxy:${provider}`);
    const recorded = recordedCallOf(provider, request, response, this.options.limits);
    if (recorded === null) {
      // A call that does not read continues nothing and is continued by nothing: a session of its own.
      const s = this.newSession('proxy', null, provider);
      g.grouping.add({ request: [], response: [], previousResponseId: '' }, g.grouping.size);
      g.sessions.push(s);
      return s;
    }
    const k = g.grouping.add(recorded);
    if (k === g.sessions.length) g.sessions.push(this.newSession('proxy', null, provider));
    return g.sessions[k]!;
  }

  /**
   * The session of a trace seen for the first time: its spans are read as one recording, and a trace whose
   * conversation starts with an OTLP session's whole conversation and adds to it continues it (an agent
   * whose runs each export a trace of their own); null while it holds no model call (it waits for spans).
   */
  private placeTrace(traceId: string, spans: readonly ReceivedSpan[]): LiveSession | null {
    let transcript: Transcript;
    try {
      transcript = this.readText(`{"resourceSpans":${JSON.stringify(traceDocument(spans).resourceSpans)}}`, true);
    } catch {
      // It does not read: a session of its own, which says why.
      return this.newSession('otlp', traceId, null);
    }
    if (!transcript.messages.some((m) => m.role === 'assistant')) return null;
    const g = this.grouping('otlp');
    const k = g.grouping.find({ request: transcript.messages, response: [] }, true);
    if (k !== null) return g.sessions[k]!;
    const s = this.newSession('otlp', traceId, null);
    // Closed until it has been read (below, in addSpans): what it holds is then what a later trace continues.
    g.grouping.add({ request: [], response: [], previousResponseId: '' }, g.grouping.size);
    g.sessions.push(s);
    return s;
  }

  /** Spans an OTLP export brought: grouped by trace, then traces by continuity; each touched session read again. */
  addSpans(spans: readonly ReceivedSpan[]): WatchLine[] {
    const touched: LiveSession[] = [];
    const byTrace = new Map<string, ReceivedSpan[]>();
    for (const sp of spans) {
      const list = byTrace.get(sp.traceId) ?? [];
      list.push(sp);
      byTrace.set(sp.traceId, list);
    }
    for (const [traceId, list] of byTrace) {
      let s = this.traces.get(traceId);
      let add = list;
      if (!s) {
        const waiting = append(this.pending.get(traceId) ?? [], list);
        const placed = this.placeTrace(traceId, waiting);
        if (placed === null) {
          this.pending.set(traceId, waiting);
          continue;
        }
        this.pending.delete(traceId);
        this.traces.set(traceId, placed);
        s = placed;
        add = waiting;
      }
      for (const sp of add) {
        s.spans.push(sp);
        s.add(JSON.stringify((traceDocument([sp]).resourceSpans as unknown[])[0]));
      }
      if (!touched.includes(s)) touched.push(s);
    }
    for (const s of touched) {
      this.resimulate(s);
      // The session's conversation so far is what a later trace must start with to continue it.
      const g = this.grouping('otlp');
      const k = g.sessions.indexOf(s);
      if (k >= 0 && s.transcript !== null) g.grouping.add({ request: s.transcript.messages, response: [] }, k);
    }
    const out: WatchLine[] = [];
    for (const s of touched) {
      if (s.report === null && s.problem !== null && s.problem !== s.reported) {
        // Never silent: a session that does not read (or simulate) says why, once per reason.
        s.reported = s.problem;
        out.push({
          schema_version: JSON_SCHEMA_VERSION,
          source: 'otlp',
          session: s.id,
          trace_id: s.traceId!,
          call: null,
          turn: null,
          violations: [],
          error: s.problem,
        });
      }
      const turns = s.report?.turns ?? [];
      for (let i = s.emitted; i < turns.length; i++) {
        const turn = turns[i]!;
        if (turn.message_index === null) break;
        out.push({
          schema_version: JSON_SCHEMA_VERSION,
          source: 'otlp',
          session: s.id,
          trace_id: s.traceId!,
          call: turn.call,
          engine: s.report!.engine.name,
          turn,
          violations: s.report!.violations.filter((v) => v.call === turn.call),
          ...s.warning(),
        });
        s.emitted = i + 1;
      }
    }
    if (touched.length > 0) this.changed();
    return out;
  }

  private read(s: LiveSession, lenient: boolean): Transcript {
    return this.readText(s.recording(), lenient, s);
  }

  private readText(text: string, lenient: boolean, s?: LiveSession): Transcript {
    return loadRecordingText(text, {
      name: s ? `session ${s.id}` : 'trace',
      format: s === undefined || s.source === 'otlp' ? 'otel' : liveFormat(s.provider!),
      lenient,
      ...(this.options.searchTools ? { searchTools: this.options.searchTools } : {}),
      ...(this.options.limits ? { limits: this.options.limits } : {}),
    });
  }

  private resimulate(s: LiveSession): void {
    let transcript: Transcript;
    // A session is read again at every call: past TOOLSEARCH_MAX_BYTES it is kept (and recorded) but no longer read.
    const max = resolveLimits(this.options.limits).maxBytes;
    if (s.bytes > max) {
      s.problem = `the session is larger than TOOLSEARCH_MAX_BYTES (${max} bytes): recorded, no longer simulated`;
      return;
    }
    s.problem = null;
    try {
      transcript = this.read(s, false);
    } catch (err) {
      s.problem = message(err);
      try {
        transcript = this.read(s, true);
      } catch (err2) {
        s.problem = message(err2);
        s.report = null;
        s.transcript = null;
        return;
      }
    }
    if (!(transcript.request === true || transcript.messages.some((m) => m.role === 'assistant'))) {
      s.report = null;
      s.transcript = transcript;
      return;
    }
    // The engine as simulate chooses it: --engine, else what the session's search tool shows.
    const chosen = chooseEngine(this.options.engine, transcript);
    s.contradicts = chosen.contradicts;
    const params = this.options.engineParams?.[chosen.engine] ?? { params: {} };
    if ('error' in params) {
      s.problem = params.error;
      s.report = null;
      s.transcript = transcript;
      return;
    }
    try {
      s.report = simulate({
        transcript,
        catalog: this.options.catalog,
        engine: chosen.engine,
        engineParams: params.params,
        engineChoice: { by: chosen.by, evidence: chosen.evidence },
        mode: this.mode,
        ...(this.options.staticNames ? { staticNames: this.options.staticNames } : {}),
        replay: this.replay,
      });
      s.transcript = transcript;
    } catch (err) {
      s.problem = message(err);
      s.report = null;
      s.transcript = transcript;
    }
  }

  /** Every session as one JSON line (`-o`): a call log or an OTLP JSON document per line. */
  recording(): string {
    const lines = this.sessions
      .filter((s) => (s.source === 'proxy' ? s.calls.length > 0 : s.spans.length > 0))
      .map((s) => `${s.recording()}\n`);
    // Traces with no model call (yet): kept too, one line each, as they came.
    for (const spans of this.pending.values())
      lines.push(`{"resourceSpans":${JSON.stringify(traceDocument(spans).resourceSpans)}}\n`);
    return lines.join('');
  }
}
