/**
 * One session of a bulk replay, the same in a worker thread and in the main
 * thread: read it (any recording format, detected per session), simulate
 * it, add it to this thread's aggregate and, when asked, give its JSON line.
 * A session that cannot be read or simulated is a failure of that session
 * only.
 */
import type { EngineId, EngineParams } from '../../core/engines/index.js';
import type { Mode } from '../../core/types.js';
import { chooseEngine } from './engines.js';
import { InputError } from '../../io/errors.js';
import type { Limits } from '../../io/read.js';
import { requireModelCall } from '../../formats/recordings/registry.js';
import {
  itemSessions,
  readSession,
  type SessionInput,
  type SessionItem,
  type SessionSource,
} from '../../formats/sessions.js';
import type { Catalog, TranscriptFormat } from '../../formats/types.js';
import { safeJson } from '../../io/json-out.js';
import { JSON_SCHEMA_VERSION } from '../../io/schema-version.js';
import { type Aggregate, AggregateBuilder } from './aggregate.js';
import { prepareTools, type PreparedTools, simulationTools } from './engine.js';
import type { SimulationReport } from './report.js';
import { simulateWithTokens, type TokenCounting } from './with-tokens.js';

/** What every session of a bulk replay shares (structured-cloneable: it is a worker's `workerData`). */
export interface BulkSetup {
  /** Null: each session must carry its own tools. */
  readonly catalog: Catalog | null;
  /** `--engine` (built-in); each session's recording decides when not given. */
  readonly engine?: EngineId;
  /** The engines' parameters as given (each session's engine takes its own). */
  readonly engineFlags?: EngineParams;
  readonly mode: Mode;
  readonly staticNames?: readonly string[];
  readonly replay: boolean;
  readonly tokens: TokenCounting | null;
  readonly format: TranscriptFormat | 'auto';
  readonly limits: Limits;
  /** Give each session's JSON line (`--jsonl`). */
  readonly lines: boolean;
  /** How recordings are read (`--lenient`, `--search-tool`). */
  readonly recording?: { readonly lenient?: boolean; readonly searchTools?: readonly string[] };
}

/**
 * What one session gave: its JSON line (when asked; a log of model calls holding several sessions gives one
 * line per session, joined by line feeds), and whether it failed.
 */
export interface SessionOutcome {
  readonly line: string | null;
  readonly failed: boolean;
}

/** The text of an error, in one line. */
function errorText(err: unknown): string {
  if (err instanceof InputError) return err.headline;
  if (err instanceof Error) return `${err.name === 'Error' ? 'error' : err.name}: ${err.message}`;
  return String(err);
}

export class SessionReplayer {
  private readonly builder = new AggregateBuilder();
  private readonly prepared: PreparedTools | null;
  private readonly dynamicNames: readonly string[] | null;

  constructor(private readonly setup: BulkSetup) {
    this.prepared = setup.catalog ? prepareTools(setup.catalog, setup.staticNames ?? []) : null;
    this.dynamicNames = this.prepared ? this.prepared.tools.dynamicTools.map((t) => t.name) : null;
  }

  async replay(input: SessionInput): Promise<SessionOutcome> {
    const { source } = input;
    const done: Array<{ report: SimulationReport; warnings: readonly string[]; dynamicNames: readonly string[] }> = [];
    try {
      if (input.kind === 'unreadable') throw new InputError(input.error);
      const transcript = readSession(input, {
        ...this.setup.recording,
        format: this.setup.format,
        limits: this.setup.limits,
      });
      // A log of model calls may hold several sessions (grouped by continuity): each is replayed.
      const conversations = [transcript, ...(transcript.sidechains ?? [])];
      // As for one recording: a session in which the model was never called is an error.
      for (const t of conversations) requireModelCall(t);
      for (const [i, t] of conversations.entries()) {
        const chosen = chooseEngine(this.setup.engine, t);
        const options = {
          transcript: t,
          catalog: this.setup.catalog,
          engine: chosen.engine,
          engineParams: paramsFor(chosen.engine, this.setup.engineFlags ?? {}),
          engineChoice: { by: chosen.by, evidence: chosen.evidence },
          mode: this.setup.mode,
          ...(this.setup.staticNames !== undefined ? { staticNames: this.setup.staticNames } : {}),
          replay: this.setup.replay,
          ...(this.prepared ? { prepared: this.prepared } : {}),
        };
        done.push({
          report: await simulateWithTokens(options, this.setup.tokens),
          // The reader's warnings are the file's: given once.
          warnings: i === 0 ? transcript.warnings : [],
          dynamicNames: this.dynamicNames ?? simulationTools(options).dynamicTools.map((x) => x.name),
        });
      }
    } catch (err) {
      const text = errorText(err);
      const where = source.line === null ? source.file : `${source.file}:${source.line}`;
      const error = text.startsWith(source.file) ? text : `${where}: ${text}`;
      this.builder.addFailure({ source, error });
      const line = this.setup.lines ? safeJson({ schema_version: JSON_SCHEMA_VERSION, source, error }) : null;
      return { line, failed: true };
    }
    const lines: string[] = [];
    for (const { report, warnings, dynamicNames } of done) {
      this.builder.add(report, dynamicNames, warnings.length);
      // The report exactly as `simulate --json` prints it for that one session.
      if (this.setup.lines)
        lines.push(
          safeJson({
            schema_version: JSON_SCHEMA_VERSION,
            source,
            ...(warnings.length > 0 ? { warnings } : {}),
            report: { schema_version: JSON_SCHEMA_VERSION, ...report },
          }),
        );
    }
    return { line: this.setup.lines ? lines.join('\n') : null, failed: false };
  }

  /** Every session of an item (a chunk of lines is many), in order, with where each came from. */
  async replayItem(item: SessionItem): Promise<Array<{ readonly source: SessionSource } & SessionOutcome>> {
    const out = [];
    for (const input of itemSessions(item)) out.push({ source: input.source, ...(await this.replay(input)) });
    return out;
  }

  /** This thread's aggregate so far. */
  aggregate(): Aggregate {
    return this.builder.value();
  }
}

/** The parameters of the session's engine among those given (a detected engine takes only its own). */
function paramsFor(engine: EngineId, given: EngineParams): EngineParams {
  if (engine === 'mastra') {
    const { maxResults: _, ...mastra } = given;
    return mastra;
  }
  return given.maxResults !== undefined ? { maxResults: given.maxResults } : {};
}
