/** `toolsearch search [query...]`: what `tool_search` returns for a query over the catalog's dynamic tools. */
import { Command, Option } from 'commander';
import type { CliContext } from '../context.js';
import { addCatalogOptions } from '../catalog-options.js';
import { parseNameList, parsePositiveInt } from '../options.js';
import { RULES_IN_WORDS } from '../../core/scorer.js';
import { decodeToolSearchArgs, searchDecoded, type ToolSearchArgs } from '../../core/toolsearch.js';
import { AssertionFailure, InputError, UsageError } from '../../io/errors.js';
import { resolveLimits } from '../../io/read.js';
import { JSON_SCHEMA_VERSION } from '../../io/schema-version.js';
import { expectationHeadline, renderExpectationDiff, renderSearch, renderWhy } from '../../report/search-text.js';
import {
  checkExpectations,
  closeNames,
  type Expectations,
  makeRun,
  searchJson,
  standing,
  suggestions,
} from '../../jobs/search/report.js';
import { runBatch } from '../batch.js';
import { openInput } from '../files.js';
import { type CatalogFlags, loadCatalog, type SearchScope, searchScope } from '../inputs.js';

const EXAMPLES =
  `
Examples:
  # rank the catalog's dynamic tools for a query (as tool_search would)
  $ toolsearch search -c fixtures/catalogs/demo.yaml create issue

  # the raw arguments exactly as a model sent them, with the rule behind every point
  $ toolsearch search -c fixtures/catalogs/demo.yaml --args '{"query":"+slack message","max_results":3}' --explain

  # why is a tool not returned?
  $ toolsearch search -c fixtures/catalogs/demo.yaml create page --why mcp__notion__notion-create-pages

  # CI checks: exit 1 with a diff when the result is not as expected
  $ toolsearch search -c fixtures/catalogs/demo.yaml send slack message --expect-first mcp__slack__send_message
  $ toolsearch search -c fixtures/catalogs/demo.yaml "select:mcp__github__create_issue" --expect-exact ` +
  `mcp__github__create_issue

  # thousands of recorded arguments, one JSON object out per line in
  $ toolsearch search -c fixtures/catalogs/demo.yaml --batch fixtures/eval/demo-queries.jsonl
  $ echo '{"query":"read file"}' | toolsearch search -c fixtures/catalogs/demo.yaml --batch -

Output: a ranked table; --json prints {schema_version, query, mode, max_results,
matches, results, total_matches, unknown, static_included}. --batch prints one line
per input line, {"schema_version": 1, "matches": [...]} or {"schema_version": 1,
"error": "..."} (an empty line is an error line too, as the reference rejects empty
arguments); bad lines do not stop the batch (exit 0).

Scores are the reference's; a keyword scores its best rule, and +keyword is required:
${RULES_IN_WORDS.map((r) => `  ${r}`).join('\n')}
`;

const BATCH_CONFLICTS = [
  'args',
  'maxResults',
  'explain',
  'expect',
  'expectExact',
  'expectFirst',
  'expectNone',
  'json',
  'why',
];

export function searchCommand(ctx: CliContext): Command {
  const cmd = new Command('search')
    .summary('what tool_search returns for a query')
    .description(
      "Run a tool_search query over the catalog's dynamic tools exactly as the reference does: " +
        'keyword scoring, "select:a,b" direct selection, max_results (default 5).',
    )
    .argument('[query...]', 'query words (joined with spaces), e.g. create issue, +slack message, select:a,b');
  addCatalogOptions(cmd, 'catalog file (required)');
  cmd
    .addOption(
      new Option('-n, --max-results <n>', 'max_results of the query (default: 5)')
        .argParser(parsePositiveInt)
        .conflicts('args'),
    )
    .option('--args <json>', 'the raw tool_search arguments as a model sent them, e.g. \'{"query":"create issue"}\'')
    .addOption(
      new Option('--batch <file|->', 'JSONL of raw arguments (- for stdin); prints one JSON object per line').conflicts(
        BATCH_CONFLICTS,
      ),
    )
    .option('--explain', 'per result and keyword: the rule that fired, the name part it hit, the points')
    .option(
      '--why <tool>',
      'explain the rank and score of a tool, returned or not (comma-separated or repeated)',
      parseNameList,
    )
    .option('--expect <a,b>', 'exit 1 unless every one of these tools is returned', parseNameList)
    .option('--expect-exact <a,b>', 'exit 1 unless the result is exactly this ordered list', parseNameList)
    .option('--expect-first <tool>', 'exit 1 unless this tool is returned first')
    .addOption(
      new Option('--expect-none', 'exit 1 unless nothing is returned').conflicts([
        'expect',
        'expectExact',
        'expectFirst',
      ]),
    )
    .option('--all', 'also search the static tools (beyond the reference)')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', EXAMPLES)
    .action(async (words: string[], flags: SearchFlags) => {
      await runSearch(ctx, words, flags);
    });
  return cmd;
}

/** The flags of `search`, as commander gives them to its action. */
export interface SearchFlags extends CatalogFlags, Expectations {
  readonly maxResults?: number;
  readonly args?: string;
  readonly batch?: string;
  readonly explain?: boolean;
  readonly all?: boolean;
  readonly json?: boolean;
  readonly why?: string[];
}

/** The query given as words or as raw `--args`; checked before the catalog is read (a usage error costs nothing). */
function queryFromFlags(words: readonly string[], flags: SearchFlags): { args: ToolSearchArgs; viaWords: boolean } {
  if (flags.args !== undefined) {
    if (words.length > 0) throw new UsageError('give the query either as words or as --args, not both');
    const decoded = decodeToolSearchArgs(flags.args);
    if (!decoded.ok) throw new UsageError(decoded.error);
    return { args: decoded.args, viaWords: false };
  }
  if (words.length === 0) throw new UsageError('a query is required: query words, --args <json> or --batch <file|->');
  return { args: { query: words.join(' '), maxResults: flags.maxResults ?? null }, viaWords: true };
}

async function runSearch(ctx: CliContext, words: string[], flags: SearchFlags): Promise<void> {
  if (flags.batch !== undefined) {
    if (words.length > 0) throw new UsageError('--batch reads its queries from the file: give no query words');
    const scope = searchScope(await loadCatalog(ctx, flags), flags.all === true);
    await runBatch(
      scope.index,
      openInput(flags.batch, ctx.io.stdin),
      (s) => ctx.out(s),
      resolveLimits(ctx.limits).maxBytes,
    );
    return;
  }
  const query = queryFromFlags(words, flags);
  const scope = searchScope(await loadCatalog(ctx, flags), flags.all === true);
  checkNamedTools(scope, flags);
  const outcome = searchDecoded(scope.index, query.args, { explain: flags.explain === true });
  // An empty query is the reference's error: bad input.
  if (!outcome.ok) throw new InputError(outcome.error);
  if (outcome.mode === 'select') for (const name of outcome.unknown) warnUnknown(ctx, scope, name);

  const run = makeRun(scope, outcome);
  const report = searchJson(run, flags.why);
  const failures = checkExpectations(report.matches, flags);
  if (flags.json) {
    // With expectations, the JSON says how they went (a CI step reading it needs no stderr).
    const given =
      flags.expect !== undefined ||
      flags.expectExact !== undefined ||
      flags.expectFirst !== undefined ||
      flags.expectNone === true;
    ctx.json({
      schema_version: JSON_SCHEMA_VERSION,
      ...report,
      ...(given ? { expectations: { passed: failures.length === 0, failures } } : {}),
    });
  } else {
    const opts = { width: ctx.width, style: ctx.outStyle };
    const counts = { dynamic: scope.dynamic.length, static: scope.static.length, viaWords: query.viaWords };
    const lines = renderSearch(report, counts, { ...opts, explain: flags.explain === true });
    if (report.why) lines.push(...renderWhy(report.why, report.max_results, opts));
    ctx.lines(lines);
  }

  if (failures.length > 0) {
    const details = renderExpectationDiff(failures, report, (name) => standing(run, name), {
      width: ctx.width,
      style: ctx.errStyle,
    });
    throw new AssertionFailure(expectationHeadline(failures), details.join('\n'));
  }
}

/**
 * Tools named by --why and --expect* must be tools of the catalog: a typo
 * would otherwise explain nothing, or fail (or pass) for the wrong reason.
 * A usage error (exit 2) with did-you-mean, as suites report it.
 */
function checkNamedTools(scope: SearchScope, flags: SearchFlags): void {
  const named: Array<[string, readonly string[]]> = [
    ['--why', flags.why ?? []],
    ['--expect', flags.expect ?? []],
    ['--expect-exact', flags.expectExact ?? []],
    ['--expect-first', flags.expectFirst !== undefined ? [flags.expectFirst] : []],
  ];
  for (const [flag, names] of named) {
    for (const name of names) {
      if (scope.byName.has(name)) continue;
      const near = closeNames(scope.byName.keys(), name);
      throw new UsageError(
        `${flag}: ${JSON.stringify(name)} is not a tool of the ` +
          `catalog${near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : ''}`,
      );
    }
  }
}

/** Warns about a name in `select:` that the reference skips. */
export function warnUnknown(ctx: CliContext, scope: SearchScope, name: string): void {
  if (scope.static.some((t) => t.name === name)) {
    ctx.warn(`skipped ${name}: a static tool, always visible and never selected`);
    return;
  }
  const near = suggestions(scope.byName.keys(), name);
  ctx.warn(
    `skipped ${name}: not a dynamic ` +
      `tool${near.length > 0 ? ` (did you mean ${near.join(', ')}? names are case-sensitive)` : ''}`,
  );
}
