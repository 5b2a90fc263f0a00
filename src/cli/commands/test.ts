/** `toolsearch test <suite...>`: run test suites of search, select and simulate cases. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { engineName, type EngineSpec, parseEngineSpec } from '../../jobs/engines/engine.js';
import type { EngineRef } from '../../jobs/suite/types.js';
import { engineParams, parseScore } from '../engine-options.js';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AssertionFailure, InputError, UsageError } from '../../io/errors.js';
import type { RunInput } from '../../io/output.js';
import type { CliContext } from '../context.js';
import { MCP_TIMEOUT_OPTION, mcpTimeoutMs } from '../inputs.js';
import { collect, FORCE_OPTION, parsePositiveInt } from '../options.js';

export const REPORTERS = ['human', 'json', 'junit', 'tap', 'html'] as const;
type Reporter = (typeof REPORTERS)[number];

interface TestFlags {
  readonly force?: boolean;
  readonly reporter: Reporter;
  readonly json?: boolean;
  readonly catalog?: string[];
  readonly grep?: string;
  readonly output?: string;
  readonly update?: boolean;
  readonly mcpTimeout?: string;
  readonly engine?: EngineSpec;
  readonly maxResults?: number;
  readonly topK?: number;
  readonly minScore?: number;
  readonly engineTimeout?: number;
}

const EXAMPLES = `
Examples:
  # run suites (globs work quoted too; a directory runs every suite under it)
  $ toolsearch test fixtures/suites/*.yaml

  # the same suite under the AI SDK 7's toolSearch (cases that name no engine: 6 fail), and a suite of engines
  $ toolsearch test fixtures/suites/demo.yaml --engine ai-sdk
  $ toolsearch test fixtures/engines/suite.yaml

  # CI: a JUnit file for the CI's test report, the human report in the log
  $ toolsearch test fixtures/suites/*.yaml --reporter junit --output junit.xml

  # a self-contained HTML page for reviewers (suites, cases, expected vs. got)
  $ toolsearch test fixtures/suites/*.yaml --reporter html --output report.html

  # a candidate catalog against the same suites; only the cases about Slack
  $ toolsearch test fixtures/suites/demo.yaml -c fixtures/catalogs/demo.yaml --grep Slack

  # re-record the "exact" lists of the cases marked record: true
  $ toolsearch test fixtures/suites/demo.yaml --update

A suite (YAML or JSON):
  catalog: ../catalogs/demo.yaml          # relative to the suite file; a list merges;
                                          # "mcp:<command line>" or "mcp:<url>": a live MCP server
  cases:
    - name: naming the service puts its issue tool first
      query: create github issue          # or args: '{"query":"create github issue","max_results":3}'
      first: mcp__github__create_issue    # also includes, excludes, exact, rank_at_most: {tool: n}, none, error
    - name: direct selection keeps the order
      select: [mcp__slack__send_message, mcp__github__create_issue]
      exact: [mcp__slack__send_message, mcp__github__create_issue]
    - name: the recorded conversation still works
      transcript: ../transcripts/keyword-search-then-call.json
      mode: default                       # or native; static: [a, b]
      visible_at: {call: 2, includes: [mcp__slack__send_message]}   # what call 1's search loaded
      no_violations: true
      same_as_recorded: true
  Any case: skip: true (or a reason), record: true (--update writes "exact").

Reporters: human (default; its last line is "N passed, N failed[, N skipped]
[, N invalid suites]"), json (also --json), junit, tap, html (one self-contained page: no network access,
readable without JavaScript). With --output the report
goes to the file (written atomically, its directory created; a device or FIFO is
written in place) and the human report still prints; --output - is stdout (the
report only). A suite that is invalid, or names an input that cannot be read, is
an errored suite in every reporter (JUnit <error>, TAP not ok, JSON "error"), and
the other suites still run. An output that is one of the run's inputs (a suite,
a catalog, a transcript) is refused (exit 2) before anything runs.
With -c, a tool a case names that the candidate does not have fails that case
("... is not a tool of the candidate catalog (-c)"); the other cases still run.
Exit codes: 0 every case passed (skipped ones aside), 1 a case failed, 2 a suite
is invalid (file:line:column) or an input cannot be read.
`;

export function testCommand(ctx: CliContext): Command {
  return new Command('test')
    .summary('run test suites: search, select and simulate cases with expectations')
    .description(
      'Run suite files (YAML or JSON) of cases with expectations: what a query returns, what a selection ' +
        'loads, what a recorded conversation made visible. Failures show expected vs. got with ranks and scores.',
    )
    .argument('<suite...>', 'suite files, directories or globs')
    .addOption(new Option('-r, --reporter <name>', 'report format').choices(REPORTERS).default('human'))
    .addOption(new Option('--json', 'the json reporter (same as --reporter json)').conflicts('reporter'))
    .option(
      '-c, --catalog <file>',
      'run every case against this catalog instead of its own (a candidate); repeat to merge',
      collect,
    )
    .option('--grep <pattern>', 'only the cases whose name matches this regular expression')
    .option(
      '-o, --output <file>',
      'write the report to this file (atomically; a device or FIFO in place; - is stdout) instead of stdout',
    )
    .option(...FORCE_OPTION)
    .option('-u, --update', 'write the current results into "exact" of the cases marked record: true')
    .option(...MCP_TIMEOUT_OPTION)
    .option('--no-cache', 'no effect: suites always parse their catalogs (TOOLSEARCH_CACHE=off turns off every cache)')
    .addOption(
      new Option(
        '--engine <name|module>',
        'the engine of every case that names none (engine: in the case or the suite): eino, ai-sdk, mastra, ./x.js',
      ).argParser((v: string) => {
        try {
          return parseEngineSpec(v);
        } catch (err) {
          throw new InvalidArgumentError((err as Error).message);
        }
      }),
    )
    .addOption(
      new Option(
        '-n, --max-results <n>',
        'with --engine ai-sdk: toolSearch maxResults (default 5) of the search cases that give no max_results',
      ).argParser(parsePositiveInt),
    )
    .addOption(new Option('--top-k <n>', 'with --engine mastra: search.topK (default 5)').argParser(parsePositiveInt))
    .addOption(new Option('--min-score <x>', 'with --engine mastra: search.minScore (default 0)').argParser(parseScore))
    .addOption(
      new Option(
        '--engine-timeout <ms>',
        'a module engine: how long it may take to load or to answer (default 10000)',
      ).argParser(parsePositiveInt),
    )
    .addHelpText('after', EXAMPLES)
    .action(async (suites: string[], flags: TestFlags) => {
      await runTest(ctx, suites, flags);
    });
}

/** `--engine` of `test`, with its parameters, as a suite's `engine:` reads. */
function engineRefOf(flags: TestFlags): EngineRef | undefined {
  if (flags.engine === undefined) {
    if (flags.topK !== undefined || flags.minScore !== undefined)
      throw new UsageError('--top-k and --min-score are parameters of the mastra engine: add --engine mastra');
    if (flags.maxResults !== undefined)
      throw new UsageError(
        "--max-results is the AI SDK's toolSearch maxResults: add --engine ai-sdk (the reference's cases give " +
          'max_results in args, or max_results beside query)',
      );
    return undefined;
  }
  const spec = flags.engine;
  if (flags.maxResults !== undefined && !(spec.kind === 'builtin' && spec.id === 'ai-sdk'))
    throw new UsageError(
      `--max-results is not a parameter of the ${engineName(spec)} engine here (it is the AI SDK's toolSearch ` +
        "maxResults: --engine ai-sdk; Mastra's limit is --top-k; a case's max_results limits any engine)",
    );
  const params = engineParams(
    {
      ...(flags.maxResults !== undefined ? { maxResults: flags.maxResults } : {}),
      ...(flags.topK !== undefined ? { topK: flags.topK } : {}),
      ...(flags.minScore !== undefined ? { minScore: flags.minScore } : {}),
    },
    spec,
  );
  return { spec, name: engineName(spec), params, location: { file: '--engine', line: 0, column: 0 } };
}

/** `--grep`'s pattern as a regular expression; a usage error when it is not one. */
function grepPattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch (err) {
    throw new UsageError(
      `--grep ${JSON.stringify(pattern)} is not a regular ` +
        `expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`,
    );
  }
}

/**
 * --output reports/junit.xml in a fresh CI checkout: the directory is made (writeOutput reports what is wrong with a
 * path).
 */
function makeOutputDir(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch {
    // reported by the write
  }
}

async function runTest(ctx: CliContext, args: string[], given: TestFlags): Promise<void> {
  const flags: TestFlags = given.json ? { ...given, reporter: 'json' } : given;
  if (flags.update === true && args.includes('-'))
    throw new UsageError("--update rewrites suite files, and - (standard input) is none: give the suite's path");
  const { expandSuitePaths } = await import('../../io/glob.js');
  const timeoutMs = mcpTimeoutMs(flags.mcpTimeout);
  const grep = flags.grep !== undefined ? grepPattern(flags.grep) : undefined;
  const engine = engineRefOf(flags);
  const [{ runSuitesAsync }, { checkOutputs, isStdout, writeOutput }] = await Promise.all([
    import('../../jobs/suite/run.js'),
    import('../../io/output.js'),
  ]);
  // Every output is checked against every input of the run as the inputs become known (the suites,
  // then the catalogs and transcripts they name), before any case runs (src/io/output.ts).
  const outputs =
    flags.output !== undefined ? [{ option: '--output', path: flags.output, force: flags.force === true }] : [];
  const inputs: RunInput[] = [];
  const onInput = (input: RunInput) => {
    inputs.push(input);
    checkOutputs(outputs, [input]);
  };
  let report: Awaited<ReturnType<typeof runSuitesAsync>>['report'];
  try {
    const run = await runSuitesAsync(expandSuitePaths(args), {
      update: flags.update === true,
      mcpTimeoutMs: timeoutMs,
      limits: ctx.limits,
      // (only needed with an output: the inputs of MCP catalogs are found by reading their configs)
      ...(outputs.length > 0 ? { onInput } : {}),
      ...(flags.catalog !== undefined ? { catalog: flags.catalog } : {}),
      ...(grep !== undefined ? { grep } : {}),
      ...(engine !== undefined ? { engine } : {}),
      ...(flags.engineTimeout !== undefined ? { engineTimeoutMs: flags.engineTimeout } : {}),
    });
    report = run.report;
    if (run.rewrites.length > 0) {
      // --update rewrites the suites the run read (the engine returns their new text).
      const { writeFileAtomic } = await import('../../io/atomic.js');
      for (const r of run.rewrites) writeFileAtomic(r.file, r.text);
    }
  } catch (err) {
    // A suite that does not load is exit 2; with --reporter junit --output, the file still says why
    // (never over an input: the output was checked against each one already known).
    if (err instanceof InputError && flags.reporter === 'junit' && flags.output !== undefined) {
      const { renderJUnitError } = await import('../../report/test-junit.js');
      try {
        makeOutputDir(outputs[0]!.path);
        writeOutput(outputs[0]!, renderJUnitError(err.message, err.location), inputs, (t) => ctx.out(t));
      } catch {
        // the output directory is missing or unwritable: the error below is what matters
      }
    }
    throw err;
  }

  const { renderTestHuman } = await import('../../report/test-human.js');
  const render = async (reporter: Reporter, color: boolean): Promise<string> => {
    switch (reporter) {
      case 'human': {
        const { createStyle } = await import('../../render/color.js');
        const { clipLines } = await import('../../io/escape.js');
        const human = renderTestHuman(report, { style: color ? ctx.outStyle : createStyle(false) });
        return `${clipLines(human.join('\n'))}\n`;
      }
      case 'json':
        return (await import('../../report/test-json.js')).renderTestJson(report);
      case 'junit':
        return (await import('../../report/test-junit.js')).renderJUnit(report);
      case 'tap':
        return (await import('../../report/test-tap.js')).renderTap(report);
      case 'html':
        return (await import('../../report/html/test.js')).renderTestHtml(report);
    }
  };
  if (grep !== undefined && report.summary.total === 0 && report.summary.errors === 0) {
    throw new UsageError(`--grep ${JSON.stringify(flags.grep)} matches no case`);
  }
  // When no suite could run, the human report would only repeat the error on stderr: it is left out
  // (the machine reporters still write theirs, errored suites included).
  const nothingRan = report.suites.length > 0 && report.suites.every((x) => x.error !== null);
  const human = async (): Promise<string> => (nothingRan ? '' : render('human', true));
  if (flags.output !== undefined && !isStdout(flags.output)) {
    makeOutputDir(flags.output);
    writeOutput(outputs[0]!, await render(flags.reporter, false), inputs, (t) => ctx.out(t));
    // People reading the CI log still see what happened.
    ctx.out(await human());
  } else {
    ctx.out(flags.reporter === 'human' ? await human() : await render(flags.reporter, true));
  }
  const { failed, total, errors } = report.summary;
  if (errors > 0) {
    // Every other suite ran and is in the report; the first invalid one is the error (exit 2).
    const first = report.suites.find((x) => x.error !== null)!.error!;
    const more = errors > 1 ? ` (and ${errors - 1} more invalid suite${errors === 2 ? '' : 's'})` : '';
    throw new InputError(`${first.message}${more}`, first.location, first.excerpt ?? undefined);
  }
  if (failed > 0) throw new AssertionFailure(`${failed} of ${total} case${total === 1 ? '' : 's'} failed`);
}
