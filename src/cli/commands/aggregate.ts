/** `toolsearch aggregate <parts...>`: merge partial aggregates of bulk replays into one report. */
import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { parsePositiveInt, FORCE_OPTION } from '../options.js';

const EXAMPLES =
  `
Examples:
  # two halves of a replay, merged: the same report as one run over all sessions
  $ toolsearch aggregate fixtures/bulk/part-1.json fixtures/bulk/part-2.json

  # one self-contained HTML page of the merged aggregate
  $ toolsearch aggregate fixtures/bulk/part-1.json fixtures/bulk/part-2.json --html aggregate.html

  # as JSON (itself a part that merges again)
  $ toolsearch aggregate fixtures/bulk/part-*.json --json

  # the 3 most frequent entries per list
  $ toolsearch aggregate fixtures/bulk/part-*.json --top 3

  # CI over all the shards: exit 1 when any session called a tool before loading it
  $ toolsearch aggregate fixtures/bulk/part-*.json --fail-on-violation

  # CI after a catalog change: exit 1 when a recorded search returns something else today
  $ toolsearch aggregate fixtures/bulk/part-*.json --expect-same

  # a shard's output first, then merged with the others (shell sharding)
  $ toolsearch simulate fixtures/bulk/sessions.jsonl -c fixtures/catalogs/demo.yaml --no-tokens --aggregate ` +
  `part-3.json > /dev/null && toolsearch aggregate fixtures/bulk/part-1.json part-3.json

A part is what \`simulate --json\` (or \`--aggregate FILE\`) writes over many
sessions; a file may also hold one part per line (JSONL). Counts add up,
lists merge by key in a canonical order, so any split of the sessions (files,
workers, machines, in any order) merges into exactly the aggregate of one run.

Exit codes: 0 ok, 1 --fail-on-violation or --expect-same over the merged
sessions, 2 bad input (a file that is not an aggregate, at its position) or
when the merged parts hold sessions that failed to read.
`;

interface AggregateFlags {
  readonly force?: boolean;
  readonly json?: boolean;
  readonly html?: string;
  readonly top?: number;
  readonly failOnViolation?: boolean;
  readonly expectSame?: boolean;
}

export function aggregateCommand(ctx: CliContext): Command {
  return new Command('aggregate')
    .summary('merge partial aggregates of bulk simulate runs into one report')
    .description(
      'Merge the aggregates of bulk `simulate` runs (one per shard, worker or machine) into the report one run ' +
        'over all their sessions would give.',
    )
    .argument('<parts...>', 'aggregate files (JSON, or JSONL with one aggregate per line)')
    .option('--json', 'print the merged aggregate as JSON')
    .option(
      '--html <file>',
      'also write the merged aggregate as one self-contained HTML file (- for stdout, then the page only)',
    )
    .option(...FORCE_OPTION)
    .option('--top <n>', 'rows per list in the human report (default 10; --json has them all)', parsePositiveInt)
    .option('--fail-on-violation', 'exit 1 when a merged session had a violation (not a warning)')
    .option('--expect-same', 'exit 1 when a recorded search differed from a fresh run in any merged session')
    .addHelpText('after', EXAMPLES)
    .action(async (parts: string[], flags: AggregateFlags) => {
      const { loadAggregateFile } = await import('../../jobs/simulate/aggregate-file.js');
      const { AggregateBuilder } = await import('../../jobs/simulate/aggregate.js');
      const { expandSessionPaths } = await import('../../formats/sessions.js');
      const files = expandSessionPaths(parts);
      const inputs = files.map((path) => ({ kind: 'aggregate part', path }));
      const html =
        flags.html !== undefined ? { option: '--html', path: flags.html, force: flags.force === true } : null;
      if (html) {
        const { checkOutputs, checkReplaceable } = await import('../../io/output.js');
        checkOutputs([html], inputs);
        checkReplaceable([html]);
      }
      const builder = new AggregateBuilder();
      for (const file of files) for (const a of loadAggregateFile(file, ctx.limits)) builder.merge(a);
      const merged = builder.value();
      if (html) {
        const [{ renderAggregateHtml }, { writeOutput }] = await Promise.all([
          import('../../report/html/aggregate.js'),
          import('../../io/output.js'),
        ]);
        writeOutput(html, renderAggregateHtml(merged), inputs, (t) => ctx.out(t));
      }
      if (html?.path === '-') {
        // the page is the output
      } else if (flags.json) ctx.json(merged);
      else {
        const { renderAggregate } = await import('../../report/aggregate-text.js');
        ctx.lines(
          renderAggregate(merged, {
            width: ctx.width,
            style: ctx.outStyle,
            ...(flags.top !== undefined ? { top: flags.top } : {}),
          }),
        );
      }
      const { checkAggregate } = await import('./simulate-bulk.js');
      checkAggregate(merged, flags);
    });
}
