/** `toolsearch explore`: live search in the terminal (Ink, loaded only here and by `simulate --tui`). */
import { Command, Option } from 'commander';
import type { TerminalIo } from '../../tui/fullscreen.js';
import { assertInteractive, prepareTui } from '../../tui/tty.js';
import type { CliContext } from '../context.js';
import { addCatalogOptions } from '../catalog-options.js';
import { loadCatalog, searchScope, type CatalogFlags } from '../inputs.js';
import { parsePositiveInt } from '../options.js';
import { addEngineOptions, type EngineFlags } from '../engine-options.js';

interface ExploreFlags extends CatalogFlags, EngineFlags {
  readonly maxResults?: number;
}

const EXAMPLES =
  `
Examples:
  $ toolsearch explore -c fixtures/catalogs/demo.yaml
  $ toolsearch explore -c fixtures/catalogs/demo.yaml create issue        # start with a query
  $ toolsearch explore -c fixtures/catalogs/demo.yaml --engine mastra create issue   # Mastra beside the reference
  $ toolsearch explore -c fixtures/catalogs/demo.yaml --engine ./fixtures/engines/bm25-fields.mjs   # your module
  $ toolsearch explore -c fixtures/catalogs/demo.yaml -c fixtures/formats/catalogs/mcp.json -n 10   # two catalogs ` +
  `merged

Keys: type the query (keywords, +required, select:a,b) and the results re-rank
at every key; Tab moves into the results, where ↑/↓ selects a result and shows
the rule, name part and points of every keyword; f shows the fuse.js baseline
side by side; e shows an engine side by side instead, the next at each press
(ai-sdk, mastra, the module of --engine, then none); +/- change max_results; y copies the query as a
"toolsearch search --expect-first …" command for a CI suite (also printed on
exit); ? shows all keys; q, Esc or Ctrl-C quits.

Needs an interactive terminal; in scripts use: toolsearch search -c <file> <query> --json
`;

/** The catalog options as given, to repeat them in a copied command line. */
function catalogArgs(flags: ExploreFlags): string[] {
  const args: string[] = [];
  for (const file of flags.catalog ?? []) args.push('-c', file);
  if (flags.catalogFormat !== undefined && flags.catalogFormat !== 'auto')
    args.push('--catalog-format', flags.catalogFormat);
  if (flags.prefix !== undefined) args.push('--prefix', flags.prefix);
  return args;
}

export function exploreCommand(ctx: CliContext): Command {
  const cmd = new Command('explore')
    .summary('live search: results re-ranked as you type (interactive)')
    .description(
      "Type a query and watch the catalog's dynamic tools re-rank at every key, exactly as tool_search " +
        'ranks them, with the rule behind every point and the fuse.js baseline side by side.',
    )
    .argument('[query...]', 'a query to start with');
  addCatalogOptions(cmd, 'catalog file (required)');
  cmd.addOption(
    new Option('-n, --max-results <n>', 'max_results to start with (default: 5; +/- change it)').argParser(
      parsePositiveInt,
    ),
  );
  addEngineOptions(cmd, {
    engineHelp:
      'the engine shown beside the reference from the start: ai-sdk, mastra, or a module (./my-search.js), ' +
      'which e then also cycles through',
  });
  cmd.addHelpText('after', EXAMPLES).action(async (words: string[], flags: ExploreFlags) => {
    assertInteractive(ctx.io, 'explore', 'toolsearch search -c <file> <query> --json');
    const catalog = await loadCatalog(ctx, flags);
    const scope = searchScope(catalog, false);
    await prepareTui();
    const { runExplore } = await import('../../tui/explore/run.js');
    const { exploreEngines } = await import('../explore-engines.js');
    const engines = exploreEngines(flags, scope.dynamic);
    try {
      await runExplore({
        index: scope.index,
        engines: engines.names,
        loadEngine: engines.load,
        ...(engines.initial !== undefined ? { initialCompare: engines.initial } : {}),
        catalogArgs: catalogArgs(flags),
        source: catalog.sources.map((s) => s.file).join(', '),
        ...(words.length > 0 ? { initialQuery: words.join(' ') } : {}),
        ...(flags.maxResults !== undefined ? { initialMaxResults: flags.maxResults } : {}),
        color: ctx.outStyle.enabled,
        // assertInteractive checked these are the terminal's streams.
        io: ctx.io as unknown as TerminalIo,
      });
    } finally {
      await engines.close();
    }
  });
  return cmd;
}
