/** `toolsearch test <suite...>`: run test suites of search, select and simulate cases. */
import { Command, Option } from 'commander';
import { AssertionFailure, InputError } from '../../errors.js';
import type { RunInput } from '../../report/output.js';
import type { CliContext } from '../context.js';
import { MCP_TIMEOUT_OPTION, mcpTimeoutMs } from '../inputs.js';

export const REPORTERS = ['human', 'json', 'junit', 'tap'] as const;
type Reporter = (typeof REPORTERS)[number];

interface TestFlags {
  readonly reporter: Reporter;
  readonly output?: string;
  readonly update?: boolean;
  readonly mcpTimeout?: string;
}

const EXAMPLES = `
Examples:
  # run suites (globs work quoted too; a directory runs every suite under it)
  $ toolsearch test fixtures/suites/*.yaml

  # CI: a JUnit file for the CI's test report, the human report in the log
  $ toolsearch test fixtures/suites/*.yaml --reporter junit --output junit.xml

  # re-record the "exact" lists of the cases marked record: true
  $ toolsearch test fixtures/suites/demo.yaml --update

A suite (YAML or JSON):
  catalog: ../catalogs/demo.yaml          # relative to the suite file; a list merges;
                                          # "mcp:<command line>" or "mcp:<url>": a live MCP server
  cases:
    - name: creating an issue finds the GitHub tool first
      query: create issue                 # or args: '{"query":"create issue","max_results":3}'
      first: mcp__github__create_issue    # also includes, excludes, exact, rank_at_most: {tool: n}, none, error
    - name: direct selection keeps the order
      select: [mcp__slack__send_message, mcp__github__create_issue]
      exact: [mcp__slack__send_message, mcp__github__create_issue]
    - name: the recorded conversation still works
      transcript: ../transcripts/keyword-search-then-call.json
      mode: default                       # or native; static: [a, b]
      visible_at: {call: 2, includes: [mcp__github__create_issue]}
      no_violations: true
      same_as_recorded: true
  Any case: skip: true (or a reason), record: true (--update writes "exact").

Reporters: human (default; its last line is "N passed, N failed[, N skipped]"),
json, junit, tap. With --output the report goes to the file (written atomically;
a device or FIFO is written in place) and the human report still prints; --output -
is stdout (the report only). An output that is one of the run's inputs (a suite,
a catalog, a transcript) is refused (exit 2) before anything runs.
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
    .option('-o, --output <file>', 'write the report to this file (atomically; a device or FIFO in place; - is stdout) instead of stdout')
    .option('-u, --update', 'write the current results into "exact" of the cases marked record: true')
    .option(...MCP_TIMEOUT_OPTION)
    .addHelpText('after', EXAMPLES)
    .action(async (suites: string[], flags: TestFlags) => {
      await runTest(ctx, suites, flags);
    });
}

async function runTest(ctx: CliContext, args: string[], flags: TestFlags): Promise<void> {
  const { expandSuitePaths } = await import('../../suite/glob.js');
  const timeoutMs = mcpTimeoutMs(flags.mcpTimeout);
  const [{ runSuitesAsync }, { checkOutputs, isStdout, writeOutput }] = await Promise.all([import('../../suite/run.js'), import('../../report/output.js')]);
  // Every output is checked against every input of the run as the inputs become known (the suites,
  // then the catalogs and transcripts they name), before any case runs (src/report/output.ts).
  const outputs = flags.output !== undefined ? [{ option: '--output', path: flags.output }] : [];
  const inputs: RunInput[] = [];
  const onInput = (input: RunInput) => {
    inputs.push(input);
    checkOutputs(outputs, [input]);
  };
  let report: Awaited<ReturnType<typeof runSuitesAsync>>['report'];
  try {
    const run = await runSuitesAsync(expandSuitePaths(args), { update: flags.update === true, mcpTimeoutMs: timeoutMs, limits: ctx.limits, onInput });
    report = run.report;
    if (run.rewrites.length > 0) {
      // --update rewrites the suites the run read (the engine returns their new text).
      const { writeFileAtomic } = await import('../../report/atomic.js');
      for (const r of run.rewrites) writeFileAtomic(r.file, r.text);
    }
  } catch (err) {
    // A suite that does not load is exit 2; with --reporter junit --output, the file still says why
    // (never over an input: the output was checked against each one already known).
    if (err instanceof InputError && flags.reporter === 'junit' && flags.output !== undefined) {
      const { renderJUnitError } = await import('../../report/test-junit.js');
      try {
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
        const { clipLines } = await import('../../render/escape.js');
        return `${clipLines(renderTestHuman(report, { style: color ? ctx.outStyle : createStyle(false) }).join('\n'))}\n`;
      }
      case 'json':
        return (await import('../../report/test-json.js')).renderTestJson(report);
      case 'junit':
        return (await import('../../report/test-junit.js')).renderJUnit(report);
      case 'tap':
        return (await import('../../report/test-tap.js')).renderTap(report);
    }
  };
  if (flags.output !== undefined && !isStdout(flags.output)) {
    writeOutput(outputs[0]!, await render(flags.reporter, false), inputs, (t) => ctx.out(t));
    // People reading the CI log still see what happened.
    ctx.out(await render('human', true));
  } else {
    ctx.out(await render(flags.reporter, true));
  }
  const { failed, total } = report.summary;
  if (failed > 0) throw new AssertionFailure(`${failed} of ${total} case${total === 1 ? '' : 's'} failed`);
}
