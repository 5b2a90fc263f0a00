/** `toolsearch search [query...]`: what `tool_search` returns for a query over the catalog's dynamic tools. */
import { Command, Option } from 'commander';
import type { CliContext } from '../context.js';
import { addCatalogOptions } from '../catalog-options.js';
import { parseNameList, parsePositiveInt } from '../options.js';
import { RULES_IN_WORDS } from '../../core/scorer.js';
import { addEngineOptions } from '../engine-options.js';
import { runSearch, type SearchFlags } from '../search-run.js';

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

  # the same query as the Vercel AI SDK 7's toolSearch and Mastra's ToolSearchProcessor rank it
  $ toolsearch search -c fixtures/catalogs/demo.yaml --engine ai-sdk create issue
  $ toolsearch search -c fixtures/catalogs/demo.yaml --engine mastra --top-k 3 --explain create issue
  # your own search module: export function search({ query, tools, maxResults }) → names
  $ toolsearch search -c fixtures/catalogs/demo.yaml --engine ./fixtures/engines/bm25-fields.mjs create issue

  # thousands of recorded arguments, one JSON object out per line in
  $ toolsearch search -c fixtures/catalogs/demo.yaml --batch fixtures/eval/demo-queries.jsonl
  $ echo '{"query":"read file"}' | toolsearch search -c fixtures/catalogs/demo.yaml --batch -

Output: a ranked table; --json prints {schema_version, engine, query, mode, max_results,
matches, results, total_matches, unknown, static_included} (another engine adds
"result": the tool result as its model receives it). --batch prints one line
per input line, {"schema_version": 1, "matches": [...]} or {"schema_version": 1,
"error": "..."} (an empty line is an error line too, as the reference rejects empty
arguments; another engine adds "engine"); bad lines do not stop the batch (exit 0).

Scores are the reference's; a keyword scores its best rule, and +keyword is required:
${RULES_IN_WORDS.map((r) => `  ${r}`).join('\n')}
--engine ai-sdk: 2 per query term among the name's tokens + 1 among the description's
(maxResults: -n); --engine mastra: BM25 over "name description" plus a name boost
(--top-k, --min-score). README "Engines" compares them.
`;

const BATCH_CONFLICTS = ['args', 'explain', 'expect', 'expectExact', 'expectFirst', 'expectNone', 'json', 'why'];

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
      // Not with --args or --batch for the reference (max_results is then in the arguments: the preAction hook
      // below); another engine's limit is its own parameter and goes with both.
      new Option('-n, --max-results <n>', 'max_results of the query (default: 5)').argParser(parsePositiveInt),
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
    .option('--json', 'print the result as JSON');
  addEngineOptions(cmd);
  cmd.hook('preAction', (c) => {
    const o = c.opts<SearchFlags>();
    const reference = o.engine === undefined || (o.engine.kind === 'builtin' && o.engine.id === 'eino');
    if (!reference || o.maxResults === undefined) return;
    // As commander says it for declared conflicts.
    if (o.batch !== undefined)
      c.error("error: option '--batch <file|->' cannot be used with option '-n, --max-results <n>'");
    if (o.args !== undefined)
      c.error("error: option '-n, --max-results <n>' cannot be used with option '--args <json>'");
  });
  cmd.addHelpText('after', EXAMPLES).action(async (words: string[], flags: SearchFlags) => {
    await runSearch(ctx, words, flags);
  });
  return cmd;
}
