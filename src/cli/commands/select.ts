/** `toolsearch select <name...>`: direct selection, as `tool_search` does for "select:a,b". */
import { JSON_SCHEMA_VERSION } from '../../io/schema-version.js';
import { Command } from 'commander';
import { searchDecoded } from '../../core/toolsearch.js';
import { AssertionFailure } from '../../io/errors.js';
import { renderSearch } from '../../report/search-text.js';
import type { CliContext } from '../context.js';
import { addCatalogOptions } from '../catalog-options.js';
import { loadCatalog, searchScope, type CatalogFlags } from '../inputs.js';
import { makeRun, searchJson } from '../../jobs/search/report.js';
import { warnUnknown } from './search.js';

interface SelectFlags extends CatalogFlags {
  readonly json?: boolean;
  readonly strict?: boolean;
}

const EXAMPLES = `
Examples:
  $ toolsearch select -c fixtures/catalogs/demo.yaml mcp__github__create_issue mcp__slack__send_message
  $ toolsearch select -c fixtures/catalogs/demo.yaml mcp__github__create_issue,mcp__github__list_issues --json
  # CI: exit 1 when a name is not a dynamic tool of the catalog
  $ toolsearch select -c fixtures/catalogs/demo.yaml --strict mcp__github__create_issue

The names are joined into "select:name1,name2" and run as the reference does:
split on ",", each piece trimmed, exact (case-sensitive) names kept in the order
given, duplicates kept; other names are skipped (a warning here). --json prints
{"matches": [...], "unknown": [...]}.

Exit codes: 0 ok, 1 --strict and a name is not a dynamic tool, 2 bad input or usage.
`;

export function selectCommand(ctx: CliContext): Command {
  const cmd = new Command('select')
    .summary('direct selection of tools by exact name')
    .description('Select tools by exact name, as tool_search does for a "select:name1,name2" query.')
    .argument('<name...>', 'tool names (also comma-separated)');
  addCatalogOptions(
    cmd,
    'catalog file (required)',
    'exit 1 when a name is not a dynamic tool; an unknown key or wrong type in a catalog tool is an error (exit 2)',
  );
  cmd
    .option('--json', 'print {"matches": [...], "unknown": [...]}')
    .addHelpText('after', EXAMPLES)
    .action(async (names: string[], flags: SelectFlags) => {
      const scope = searchScope(await loadCatalog(ctx, flags), false);
      const outcome = searchDecoded(scope.index, { query: `select:${names.join(',')}`, maxResults: null });
      if (!outcome.ok || outcome.mode !== 'select') {
        // Only an empty query fails; "select:" is never empty.
        throw new Error(`unexpected selection outcome for ${JSON.stringify(names)}`);
      }
      for (const name of outcome.unknown) warnUnknown(ctx, scope, name);
      if (flags.json) {
        ctx.json({ schema_version: JSON_SCHEMA_VERSION, matches: outcome.matches, unknown: outcome.unknown });
      } else {
        const report = searchJson(makeRun(scope, outcome), undefined);
        ctx.lines(
          renderSearch(
            report,
            { dynamic: scope.dynamic.length, static: scope.static.length, viaWords: true },
            { width: ctx.width, style: ctx.outStyle, explain: false },
          ),
        );
      }
      if (flags.strict && outcome.unknown.length > 0) {
        const n = outcome.unknown.length;
        throw new AssertionFailure(`${n} ${n === 1 ? 'name is' : 'names are'} not a dynamic tool (--strict)`);
      }
    });
  return cmd;
}
