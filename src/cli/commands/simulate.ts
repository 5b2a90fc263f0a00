/**
 * `toolsearch simulate <transcript>`: replay a recorded conversation through the middleware state machine.
 * Over 400 lines: its options, their checks and help examples; the work is in src/jobs/simulate/.
 */
import { JSON_SCHEMA_VERSION } from '../../io/schema-version.js';
import { MODES } from '../../core/types.js';
import { Command, Option } from 'commander';
import { AssertionFailure, UsageError } from '../../io/errors.js';
import type { Catalog, Transcript } from '../../formats/types.js';
import { escapeText } from '../../io/escape.js';
import { renderSimulation, visibilityRanges } from '../../report/simulate-text.js';
import type { SearchOutcome, SimulationReport } from '../../jobs/simulate/report.js';
import { withoutDetails } from '../../jobs/simulate/strip.js';
import type { RunInput, RunOutput } from '../../io/output.js';
import type { CliContext } from '../context.js';
import { addCatalogOptions } from '../catalog-options.js';
import { loadCatalog } from '../inputs.js';
import { collect, parsePositiveInt, FORCE_OPTION } from '../options.js';
import type { BulkFlags } from './simulate-bulk.js';
import { DEFAULT_ENCODING, ENCODINGS } from '../../jobs/tokens/tokenizer.js';
import { TOOL_FORMATS } from '../../jobs/tokens/serialize.js';
import { addEngineOptions, engineParams } from '../engine-options.js';
import { simulateEngine } from '../simulate-engine.js';
import { append } from '../../core/append.js';
import { FORMAT_CHOICES, formatHelpLines } from '../../formats/recordings/registry.js';

/**
 * `--format` choices: auto and every recording reader's format, from the registry (the one list of
 * formats). Defining the command loads the readers, which every run of simulate reads with anyway.
 */
export const TRANSCRIPT_FORMATS = FORMAT_CHOICES;

/** simulate's flags: bulk replay's (every one of which a single recording also takes), and --tui. */
interface SimulateFlags extends BulkFlags {
  readonly tui?: boolean;
}

const EXAMPLES =
  `
Examples:
  # what the model saw at every call (the transcript carries its own tools)
  $ toolsearch simulate fixtures/transcripts/keyword-search-then-call.openai.json

  # a conversation recorded against a catalog
  $ toolsearch simulate fixtures/transcripts/keyword-search-then-call.json -c fixtures/catalogs/demo.yaml

  # model-native mode: every call offers the 5 static tools and defers the other 125;
  # call 2 calls mcp__google_calendar__list_events before a search loaded it (not-loaded)
  $ toolsearch simulate fixtures/transcripts/deferred-tool-called-too-early.json -c fixtures/catalogs/demo.yaml ` +
  `--mode native

  # a catalog that cannot mark static tools (Eino ToolInfo): --static makes the same split
  $ toolsearch simulate fixtures/transcripts/deferred-tool-called-too-early.json -c fixtures/catalogs/demo.eino.json ` +
  `--static get_current_time,ask_user,read_todo_list,write_todo_list,think

  # CI after a catalog change: exit 1 when a recorded search returns something else today
  $ toolsearch simulate fixtures/transcripts/stale-after-catalog-change.json -c fixtures/catalogs/demo-v2.yaml ` +
  `--replay --expect-same

  # CI: exit 1 when the model called a tool it could not see
  $ toolsearch simulate fixtures/transcripts/deferred-tool-called-too-early.json -c fixtures/catalogs/demo.yaml ` +
  `--fail-on-violation --json > report.json

  # a self-contained HTML report (timeline, token bars, explanations) next to the text
  $ toolsearch simulate fixtures/transcripts/deferred-tool-called-too-early.json -c fixtures/catalogs/demo.yaml ` +
  `--replay --html simulate.html

  # step through the calls interactively (m: switch mode, r: replay, ?: keys)
  $ toolsearch simulate fixtures/transcripts/deferred-tool-called-too-early.json -c fixtures/catalogs/demo.yaml --tui

Recording formats (--format; detected by shape when auto; README "Formats" has an example of each):
${formatHelpLines().join('\n')}
Every item is read, skipped by a documented rule (counted in "coverage"), or an
error at its location (exit 2); --lenient counts what it cannot read instead.

  # HTTP traffic a test suite recorded (a VCR cassette; nock JSON and HAR files too): its
  # model calls, each streamed answer assembled; other requests skipped and counted
  $ toolsearch simulate fixtures/recordings/vcr/anthropic-stream.yaml -c fixtures/catalogs/demo.yaml

  # a Claude Code session; ToolSearch is its search tool, tool_reference results load in native mode
  $ toolsearch simulate fixtures/transcripts/toolsearch-references.claude-code.jsonl -c fixtures/catalogs/demo.yaml ` +
  `--mode native

Model call k happens right before the k-th assistant message; when the transcript
does not end with an assistant message, one more call follows the last message.
Engines (--engine, detected from the recording's search tool when not given):
eino replays the reference's middleware; ai-sdk the AI SDK 7 toolSearch (deferred tools
hidden until a search result of the same generation names them; a user message starts
a new generation); mastra Mastra's ToolSearchProcessor (tools hidden until load_tool
loads them, kept across generate calls until --ttl passes without an access, when the
recording dates its messages).

  # an AI SDK 7 conversation: a tool found in the first generation, called in the second
  $ toolsearch simulate fixtures/engines/recordings/ai-sdk7-two-generations.json -c fixtures/catalogs/demo.yaml

  # a Mastra conversation: search_tools, load_tool, and a call after the TTL dropped the tool
  $ toolsearch simulate fixtures/engines/recordings/mastra-ttl.json -c fixtures/catalogs/demo.yaml --ttl 600000

  # the same thread as Mastra's memory stores it (memory.recall()), dated step by step
  $ toolsearch simulate fixtures/engines/recordings/mastra-memory.json -c fixtures/catalogs/demo.yaml --ttl 600000

Violations: not-loaded (a deferred tool called before any tool_search result named
it), unknown (a tool that exists nowhere); warnings: redundant-select (a select:
for a tool a keyword search already returned), native-refill, unknown-call-id,
unanswered-call (a tool call no result answers, replayed as the reference does),
sent-differs (the tools a call sent, by a call log, OTel span, AI SDK step or request
body, are not what the reference offers), reference-result
(tool_reference results, which the reference's default mode does not load).
--html <file> also writes one self-contained HTML page (no network access, works
without JavaScript): violations first, the visibility timeline (calls as columns,
tools as rows), token bars with cache breaks, every search with its per-keyword
explanation, the replay side by side; over many sessions, the aggregate.
--json prints the full report: {mode, transcript, catalog, turns, violations,
replay, summary}; with token accounting (on unless --no-tokens) each turn has
"tokens" and the summary "tokens" and "cache". Token counts are estimates for the
chosen tokenizer; providers' own templates and tokenizers differ.

Bulk replay (several recordings, a directory, a glob, a JSONL file of one session
per line, or - for sessions on stdin) prints an aggregate over all sessions:
sessions and model calls, searches, zero-result queries, not-loaded calls by
tool, tools loaded but never called, tools never found, tokens, cache breaks,
sessions that failed to read. A session that fails to read never stops the others.

  # every recording below a directory, on every core
  $ toolsearch simulate fixtures/transcripts/ -c fixtures/catalogs/demo.yaml --no-tokens

  # a JSONL file of sessions (each line a whole recording, any format): the aggregate as JSON
  $ toolsearch simulate fixtures/bulk/sessions.jsonl -c fixtures/catalogs/demo.yaml --no-tokens --json

  # one JSON line per session, in input order, on 2 worker threads; the aggregate to a file
  $ toolsearch simulate 'fixtures/transcripts/*.anthropic.json' -c fixtures/catalogs/demo.yaml --no-tokens --jsonl ` +
  `--jobs 2 --aggregate agg.json

  # sessions on stdin, one per line (a map step of a batch engine)
  $ cat fixtures/bulk/sessions.jsonl | toolsearch simulate - -c fixtures/catalogs/demo.yaml --no-tokens --json

  # a .jsonl file of messages: one recording, whatever its first line looks like
  $ toolsearch simulate fixtures/transcripts/keyword-search-then-call.jsonl -c fixtures/catalogs/demo.yaml ` +
  `--no-tokens --jsonl-input recording

  # the 3 most frequent entries of each list (zero-result queries, not-loaded calls, ...)
  $ toolsearch simulate fixtures/bulk/sessions.jsonl -c fixtures/catalogs/demo.yaml --no-tokens --top 3

Exit codes: 0 ok, 1 --expect-same found a difference or --fail-on-violation a
violation, 2 bad input or usage. In bulk: 2 when any session failed to read
(after all the others were replayed and the output written), else 1 for the
checks above over all sessions, else 0.
`;

export function simulateCommand(ctx: CliContext): Command {
  const cmd = new Command('simulate')
    .summary('replay a conversation: what the model saw at every call')
    .description(
      'Replay a recorded conversation through the tool search middleware and show, for every ' +
        'model call, which tools the model was offered, what tool_search loaded, and which ' +
        'calls went to tools the model could not see.',
    )
    .argument(
      '<recordings...>',
      'recordings in any format below (Claude Code, AI SDK, Agents SDK, LangChain, ' +
        'OTel, call logs, Eino, OpenAI, Anthropic); several files, ' +
        'directories, globs, JSONL files of one session per line, or - (sessions on stdin) replay in bulk',
    );
  addCatalogOptions(cmd, 'catalog file (optional when the transcript carries its own tools)');
  cmd
    .addOption(new Option('--mode <mode>', 'middleware mode').choices(MODES).default('default'))
    .addOption(
      new Option('--format <format>', 'transcript shape (detected from the content when auto)')
        .choices(TRANSCRIPT_FORMATS)
        .default('auto'),
    )
    .option(
      '--lenient',
      'replay what can be read: items no rule explains and unpaired calls ' +
        'or results become counted warnings instead of errors',
    )
    .option(
      '--sidechains',
      'also replay subagent sidechains (Claude Code), each as its own conversation (--json: a list of reports)',
    )
    .option(
      '--search-tool <name>',
      "the agent's search tool has this name (repeatable; e.g. " +
        'ToolSearch): its calls and results are read as tool_search',
      collect,
    )
    .option('--replay', 're-run every recorded tool_search call against the catalog and show the differences')
    .option('--expect-same', 'exit 1 when a replayed search differs from the recording (implies --replay)')
    .option('--fail-on-violation', 'exit 1 when a violation (not a warning) is found')
    .option('--json', 'print the report as JSON')
    .option('--html <file>', 'also write the report as one self-contained HTML file (- for stdout, then the page only)')
    .option('--no-tokens', 'skip token and prompt-cache accounting (faster on long transcripts)')
    .addOption(
      new Option('--tokenizer <encoding>', 'tokenizer for the token estimates (gpt-tokenizer)')
        .choices(ENCODINGS)
        .default(DEFAULT_ENCODING),
    )
    .addOption(
      new Option('--tool-format <format>', "serialize offered tools as an OpenAI tools array or in Anthropic's shape")
        .choices(TOOL_FORMATS)
        .default('openai'),
    )
    .addOption(
      new Option('--tui', 'step through the calls in an interactive terminal UI (? shows the keys)').conflicts([
        'json',
        'html',
        'expectSame',
        'failOnViolation',
      ]),
    )
    .option(
      '--jsonl',
      'bulk: print one JSON line per session ({schema_version, source, report} or {schema_version, source, error}), ' +
        'in input order',
    )
    .option(
      '--jobs <n>',
      'bulk: threads that replay, this one and n - 1 workers (default: the number of cores; 1: no worker)',
      parsePositiveInt,
    )
    .addOption(
      new Option(
        '--jsonl-input <mode>',
        'JSONL inputs: one session per line, one recording, or decided by the first line',
      )
        .choices(['auto', 'sessions', 'recording'])
        .default('auto'),
    )
    .option(
      '--aggregate <file>',
      'bulk: also write the aggregate as JSON to this file (merge parts with toolsearch aggregate)',
    )
    .option(...FORCE_OPTION)
    .option(
      '--top <n>',
      'bulk: rows per list in the human aggregate (default 10; --json has them all)',
      parsePositiveInt,
    );
  addEngineOptions(cmd, {
    maxResults: true,
    ttl: true,
    engineHelp:
      "whose loading rule to replay: eino (the reference's middleware), ai-sdk (the AI SDK 7's discovered " +
      "tools), mastra (Mastra's load_tool and TTL); detected from the recording's search tool when not given",
  });
  cmd.addHelpText('after', EXAMPLES).action(async (files: string[], flags: SimulateFlags) => {
    simulateEngine(flags);
    const { isBulk, runBulk } = await import('./simulate-bulk.js');
    if (await isBulk(files, flags)) {
      if (flags.tui)
        throw new UsageError('--tui steps through one session; bulk replay prints an aggregate (drop --tui)');
      return runBulk(ctx, files, flags);
    }
    const file = files[0]!;
    if (flags.tui) return runTui(ctx, file, flags);
    // An output that is an input of the run is refused before anything runs (src/io/output.ts).
    const html = flags.html !== undefined ? { option: '--html', path: flags.html, force: flags.force === true } : null;
    const inputs = [
      { kind: 'transcript', path: file },
      ...(html
        ? (await import('../../formats/mcp/catalog-inputs.js')).catalogInputs(flags.catalog ?? [], {
            limits: ctx.limits,
          })
        : []),
    ];
    if (html) {
      const { checkOutputs, checkReplaceable } = await import('../../io/output.js');
      checkOutputs([html], inputs);
      checkReplaceable([html]);
    }
    const reports = await runSimulate(ctx, file, flags);
    const replay = flags.replay === true || flags.expectSame === true;
    // The page shows the main conversation (reports[0]); sidechains are in the text and --json.
    if (html) await writeHtml(ctx, html, reports[0]!, inputs);
    if (html?.path === '-') {
      // `--html -`: the page is the output.
    } else if (flags.json) {
      const versioned = (r: (typeof reports)[number]) => ({
        schema_version: JSON_SCHEMA_VERSION,
        ...withoutDetails(r),
      });
      // Several conversations (--sidechains, the sessions of a call log): a list of reports.
      ctx.json(flags.sidechains || reports.length > 1 ? reports.map(versioned) : versioned(reports[0]!));
    } else {
      const lines: string[] = [];
      for (const [i, r] of reports.entries()) {
        if (i > 0) lines.push('');
        append(lines, renderSimulation(r, { width: ctx.width, style: ctx.outStyle, replay }));
      }
      ctx.lines(lines);
    }
    for (const r of reports) check(r, flags);
  });
  return cmd;
}

/** Writes the HTML report through the shared output writer (atomic; an input of the run is never overwritten). */
async function writeHtml(
  ctx: CliContext,
  output: RunOutput,
  report: SimulationReport,
  inputs: readonly RunInput[],
): Promise<void> {
  const [{ renderSimulationHtml }, { writeOutput }] = await Promise.all([
    import('../../report/html/simulate.js'),
    import('../../io/output.js'),
  ]);
  writeOutput(output, renderSimulationHtml(report), inputs, (t) => ctx.out(t));
}

async function loadInputs(
  ctx: CliContext,
  file: string,
  flags: SimulateFlags,
): Promise<{ transcript: Transcript; catalog: Catalog | null }> {
  const { loadTranscriptFile } = await import('../../formats/index.js');
  const transcript = await loadTranscriptFile(file, {
    format: flags.format,
    limits: ctx.limits,
    lenient: flags.lenient === true,
    sidechains: flags.sidechains === true,
    ...(flags.searchTool !== undefined ? { searchTools: flags.searchTool } : {}),
  });
  for (const w of transcript.warnings) ctx.warn(w);
  const { requireModelCall } = await import('../../formats/recordings/registry.js');
  for (const t of [transcript, ...(transcript.sidechains ?? [])]) requireModelCall(t);
  const catalog =
    flags.catalog !== undefined && flags.catalog.length > 0
      ? await loadCatalog(ctx, { ...flags, static: undefined })
      : null;
  return { transcript, catalog };
}

/** `--tui`: the same report, stepped through in the terminal (React and Ink are loaded only here). */
async function runTui(ctx: CliContext, file: string, flags: SimulateFlags): Promise<void> {
  const { assertInteractive } = await import('../../tui/tty.js');
  assertInteractive(ctx.io, 'simulate --tui', 'simulate --json');
  const { transcript, catalog } = await loadInputs(ctx, file, flags);
  const { runSimulateTui } = await import('../../tui/simulate-command.js');
  const engine = simulateEngine(flags);
  await runSimulateTui({
    transcript,
    catalog,
    ...(engine !== undefined ? { engine, engineParams: engineParams(flags, { kind: 'builtin', id: engine }) } : {}),
    mode: flags.mode,
    ...(flags.static !== undefined ? { staticNames: flags.static } : {}),
    replay: flags.replay === true,
    tokens: flags.tokens ? { encoding: flags.tokenizer, toolFormat: flags.toolFormat } : null,
    color: ctx.outStyle.enabled,
    limits: ctx.limits,
    io: ctx.io,
  });
}

async function runSimulate(ctx: CliContext, file: string, flags: SimulateFlags): Promise<SimulationReport[]> {
  const { transcript, catalog } = await loadInputs(ctx, file, flags);
  const out: SimulationReport[] = [];
  for (const t of [transcript, ...(transcript.sidechains ?? [])]) out.push(await simulateOne(ctx, t, catalog, flags));
  return out;
}

async function simulateOne(
  ctx: CliContext,
  transcript: Transcript,
  catalog: Catalog | null,
  flags: SimulateFlags,
): Promise<SimulationReport> {
  const [{ simulateWithTokens }, { chooseEngine }] = await Promise.all([
    import('../../jobs/simulate/with-tokens.js'),
    import('../../jobs/simulate/engines.js'),
  ]);
  const chosen = chooseEngine(simulateEngine(flags), transcript);
  if (chosen.contradicts !== null) ctx.warn(chosen.contradicts);
  const options = {
    transcript,
    catalog,
    engine: chosen.engine,
    engineParams: engineParams(flags, { kind: 'builtin', id: chosen.engine }),
    engineChoice: { by: chosen.by, evidence: chosen.evidence },
    mode: flags.mode,
    ...(flags.static !== undefined ? { staticNames: flags.static } : {}),
    replay: flags.replay === true || flags.expectSame === true,
    details: flags.html !== undefined,
    limits: ctx.limits,
  };
  return simulateWithTokens(options, flags.tokens ? { encoding: flags.tokenizer, toolFormat: flags.toolFormat } : null);
}

/** How a recorded search result differs from the fresh one, in one line. */
function change(recorded: SearchOutcome | null, replayed: SearchOutcome): string {
  const show = (o: SearchOutcome): string => ('error' in o ? `error: ${o.error}` : `[${o.matches.join(', ')}]`);
  if (recorded === null) return `no recorded result, now ${show(replayed)}`;
  if ('matches' in recorded && 'matches' in replayed) {
    const now = new Set(replayed.matches);
    const before = new Set(recorded.matches);
    const diff = [
      ...recorded.matches.filter((n) => !now.has(n)).map((n) => `-${n}`),
      ...replayed.matches.filter((n) => !before.has(n)).map((n) => `+${n}`),
    ];
    return diff.length > 0 ? diff.join(' ') : `same tools, other order: ${show(replayed)}`;
  }
  return `recorded ${show(recorded)}, now ${show(replayed)}`;
}

/** The exit-1 checks: --expect-same, then --fail-on-violation. */
function check(report: SimulationReport, flags: SimulateFlags): void {
  const failures: string[] = [];
  const details: string[] = [];
  if (flags.expectSame && report.replay !== null) {
    const differing = report.turns.flatMap((t) =>
      t.searches.filter((s) => s.differs).map((s) => ({ call: t.call, s })),
    );
    if (differing.length > 0 || report.replay.visibility.length > 0) {
      failures.push(
        `${differing.length} recorded` +
          ` ${differing.length === 1 ? 'search differs' : 'searches differ'} from a fresh run (--expect-same)`,
      );
      for (const { call, s } of differing) {
        details.push(
          `  call ${call}: tool_search ${escapeText(s.arguments)}: ${escapeText(change(s.recorded, s.replayed))}`,
        );
      }
      for (const g of visibilityRanges(report.replay.visibility)) {
        const change = [...g.gained.map((n) => `+${n}`), ...g.lost.map((n) => `-${n}`)].join(' ');
        details.push(
          `  ${g.first === g.last ? `call ${g.first}` : `calls ${g.first}-${g.last}`} would see: ${escapeText(change)}`,
        );
      }
    }
  }
  if (flags.failOnViolation && report.summary.errors > 0) {
    const n = report.summary.errors;
    failures.push(`${n} ${n === 1 ? 'violation' : 'violations'} (--fail-on-violation)`);
    for (const v of report.violations) {
      if (v.severity === 'error') details.push(`  call ${v.call}: ${v.kind}: ${escapeText(v.message)}`);
    }
  }
  if (failures.length > 0) throw new AssertionFailure(failures.join('; '), details.join('\n'));
}
