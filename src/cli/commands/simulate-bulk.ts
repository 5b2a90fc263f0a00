/**
 * `toolsearch simulate` over many sessions (several paths, directories,
 * globs, JSONL files of sessions, `-`): per-session JSON lines (`--jsonl`)
 * and the aggregate (human or `--json`; `--aggregate FILE` writes it too).
 * Exit 2 when a session failed to read (after every other session was
 * replayed and the output written), else 1 for --fail-on-violation /
 * --expect-same findings, else 0.
 */
import { availableParallelism } from 'node:os';
import type { Mode } from '../../core/types.js';
import { AssertionFailure, InputError, UsageError } from '../../io/errors.js';
import type { JsonlInputMode } from '../../formats/sessions.js';
import type { Catalog, TranscriptFormat } from '../../formats/types.js';
import { renderAggregate } from '../../report/aggregate-text.js';
import { escapeText } from '../../io/escape.js';
import { safeJson } from '../../io/json-out.js';
import type { Aggregate } from '../../jobs/simulate/aggregate.js';
import type { ToolFormat } from '../../jobs/tokens/serialize.js';
import type { EncodingName } from '../../jobs/tokens/tokenizer.js';
import type { CliContext } from '../context.js';
import { type CatalogFlags, loadCatalog } from '../inputs.js';

import type { EngineFlags } from '../engine-options.js';

export interface BulkFlags extends CatalogFlags, EngineFlags {
  readonly force?: boolean;
  readonly mode: Mode;
  readonly static?: string[];
  readonly format: TranscriptFormat | 'auto';
  readonly replay?: boolean;
  readonly expectSame?: boolean;
  readonly failOnViolation?: boolean;
  readonly json?: boolean;
  readonly jsonl?: boolean;
  readonly jobs?: number;
  readonly jsonlInput: JsonlInputMode;
  readonly aggregate?: string;
  /** The aggregate as one self-contained HTML page. */
  readonly html?: string;
  readonly top?: number;
  readonly lenient?: boolean;
  readonly sidechains?: boolean;
  readonly searchTool?: string[];
  readonly tokens: boolean;
  readonly tokenizer: EncodingName;
  readonly toolFormat: ToolFormat;
}

/** Whether the arguments ask for a bulk replay rather than the one-session report. */
export async function isBulk(args: readonly string[], flags: BulkFlags): Promise<boolean> {
  if (
    args.length !== 1 ||
    flags.jsonl ||
    flags.jobs !== undefined ||
    flags.aggregate !== undefined ||
    flags.jsonlInput === 'sessions'
  )
    return true;
  const arg = args[0]!;
  // `-` is sessions on stdin, unless --jsonl-input recording says it is one recording (issue 12).
  if (arg === '-') return flags.jsonlInput !== 'recording';
  const { statSync } = await import('node:fs');
  try {
    if (statSync(arg).isDirectory()) return true;
  } catch {
    // Not a file: a glob, else the one-session path reports it. An existing file is itself (`run[1].json`).
    const { isGlob } = await import('../../io/glob.js');
    return isGlob(arg);
  }
  const { readsAsSessions } = await import('../../formats/sessions.js');
  return readsAsSessions(arg, flags.jsonlInput);
}

/** Output is gathered and written in pieces of about this size. */
const WRITE_CHUNK = 1 << 16;

export async function runBulk(ctx: CliContext, args: readonly string[], flags: BulkFlags): Promise<void> {
  if (flags.sidechains)
    throw new UsageError(
      "--sidechains replays one recording; bulk replay reads each session's main conversation (drop --sidechains)",
    );
  if (flags.json && flags.jsonl)
    throw new InputError('--json and --jsonl both write to stdout: use --jsonl with --aggregate FILE for both');
  const { expandSessionPaths, sessionItems } = await import('../../formats/sessions.js');
  const { resolveLimits } = await import('../../io/read.js');
  const { inputBytes, replaySessions, WORKER_PAYBACK_MS } = await import('../../jobs/simulate/bulk.js');
  if (args.includes('-') && (flags.catalog ?? []).includes('-'))
    throw new UsageError(
      'standard input (-) is given twice, for the sessions and for the catalog (-c -): give one of them as a file',
    );
  const paths = expandSessionPaths(args);
  // --aggregate and --html never write over an input of the run (a session file, a catalog), checked before
  // anything runs, and again when they are written (src/io/output.ts).
  const { checkOutputs, checkReplaceable, writeOutput } = await import('../../io/output.js');
  const html = flags.html !== undefined ? { option: '--html', path: flags.html, force: flags.force === true } : null;
  const outputs = [
    ...(flags.aggregate !== undefined
      ? [{ option: '--aggregate', path: flags.aggregate, force: flags.force === true }]
      : []),
    ...(html ? [html] : []),
  ];
  const inputs = [
    ...paths.filter((p) => p !== '-').map((path) => ({ kind: 'session file', path })),
    ...(outputs.length > 0
      ? (await import('../../formats/mcp/catalog-inputs.js')).catalogInputs(flags.catalog ?? [], { limits: ctx.limits })
      : []),
  ];
  checkOutputs(outputs, inputs);
  checkReplaceable(outputs);
  const catalog: Catalog | null =
    flags.catalog !== undefined && flags.catalog.length > 0 ? await loadCatalog(ctx, flags) : null;
  if (catalog) {
    // A bad --static fails once, here, not once per session.
    const { prepareTools } = await import('../../jobs/simulate/engine.js');
    prepareTools(catalog, flags.static ?? []);
  }
  const { simulateEngine } = await import('../simulate-engine.js');
  const engine = simulateEngine(flags);
  const setup = {
    catalog,
    ...(engine !== undefined ? { engine } : {}),
    engineFlags: {
      ...(flags.maxResults !== undefined ? { maxResults: flags.maxResults } : {}),
      ...(flags.topK !== undefined ? { topK: flags.topK } : {}),
      ...(flags.minScore !== undefined ? { minScore: flags.minScore } : {}),
      ...(flags.autoLoad !== undefined ? { autoLoad: flags.autoLoad } : {}),
      ...(flags.ttl !== undefined ? { ttl: flags.ttl } : {}),
    },
    mode: flags.mode,
    ...(flags.static !== undefined ? { staticNames: flags.static } : {}),
    replay: flags.replay === true || flags.expectSame === true,
    tokens: flags.tokens ? { encoding: flags.tokenizer, toolFormat: flags.toolFormat } : null,
    format: flags.format,
    limits: resolveLimits(ctx.limits),
    lines: flags.jsonl === true,
    recording: {
      lenient: flags.lenient === true,
      ...(flags.searchTool !== undefined ? { searchTools: flags.searchTool } : {}),
    },
  };
  let pending = '';
  const jobs = flags.jobs ?? availableParallelism();
  const bytes = inputBytes(paths);
  let started: { readonly workers: number; readonly bytesRead: number } | null = null;
  const aggregate = await replaySessions(
    sessionItems(paths, {
      jsonl: flags.jsonlInput,
      limits: ctx.limits,
      stdin: ctx.io.stdin as import('node:stream').Readable,
    }),
    setup,
    // At most this many threads; workers start only when the input left pays for their warm-up (bulk.ts).
    {
      jobs,
      inputBytes: bytes,
      onWorkersStart: (start) => {
        started = start;
      },
    },
    (session) => {
      if (session.line === null) return;
      pending += `${session.line}\n`;
      if (pending.length >= WRITE_CHUNK) {
        ctx.out(pending);
        pending = '';
      }
    },
  );
  if (pending !== '') ctx.out(pending);
  if (ctx.verbose) ctx.err(`note: ${workersNote(jobs, flags.jobs !== undefined, bytes, started, WORKER_PAYBACK_MS)}\n`);
  if (flags.aggregate !== undefined)
    writeOutput(
      { option: '--aggregate', path: flags.aggregate, force: flags.force === true },
      `${safeJson(aggregate, undefined, 2)}\n`,
      inputs,
      (t) => ctx.out(t),
    );
  if (html) {
    const { renderAggregateHtml } = await import('../../report/html/aggregate.js');
    writeOutput(html, renderAggregateHtml(aggregate), inputs, (t) => ctx.out(t));
  }
  if (html?.path === '-') {
    // the page is the output
  } else if (flags.json) ctx.json(aggregate);
  else if (!flags.jsonl)
    ctx.lines(
      renderAggregate(aggregate, {
        width: ctx.width,
        style: ctx.outStyle,
        ...(flags.top !== undefined ? { top: flags.top } : {}),
      }),
    );
  checkAggregate(aggregate, flags);
}

/** Exit codes of a bulk replay: failed sessions (2) first, then the exit-1 checks. */
export function checkAggregate(a: Aggregate, flags: Pick<BulkFlags, 'expectSame' | 'failOnViolation'>): void {
  if (a.sessions.failed > 0) {
    const total = a.sessions.failed + a.sessions.replayed;
    const first = a.failures[0]!;
    throw new InputError(
      `${a.sessions.failed} of ${total} sessions failed to read (the ` +
        `others were replayed); first: ${escapeText(first.error)}`,
    );
  }
  const failures: string[] = [];
  if (flags.expectSame && a.searches.differs > 0)
    failures.push(`${a.searches.differs} recorded searches differ from a fresh run (--expect-same)`);
  if (flags.failOnViolation && a.sessions.with_errors > 0) {
    failures.push(`${a.sessions.with_errors} of ${a.sessions.replayed} sessions with violations (--fail-on-violation)`);
  }
  if (failures.length > 0) throw new AssertionFailure(failures.join('; '), '');
}

/** What `--verbose` says of the threads a bulk replay used (issue 27: say what was chosen, and why). */
export function workersNote(
  jobs: number,
  given: boolean,
  bytes: number | null,
  started: { readonly workers: number; readonly bytesRead: number } | null,
  paybackMs: number,
): string {
  const choice = given ? `--jobs ${jobs}` : `${jobs} ${jobs === 1 ? 'job' : 'jobs'}: one per core`;
  if (jobs <= 1) return `bulk replay: one thread (${choice})`;
  if (started !== null) {
    const into = `${mb(started.bytesRead)} into ${bytes === null ? 'standard input' : mb(bytes)}`;
    const workers = `${started.workers} ${started.workers === 1 ? 'worker' : 'workers'}`;
    return `bulk replay: ${workers} started ${into} (${choice})`;
  }
  const when =
    bytes === null
      ? `once this thread has replayed standard input alone for ${paybackMs / 1000} s`
      : `once the input left would take this thread ${paybackMs / 1000} s alone even at the least it could cost`;
  return `bulk replay: this thread alone (${choice}): workers start ${when}`;
}

/** Bytes as MB with one decimal, or kB below 1 MB. */
function mb(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)} MB` : `${Math.ceil(n / 1000)} kB`;
}
