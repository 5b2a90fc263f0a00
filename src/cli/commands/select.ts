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
import { warnUnknown } from '../search-run.js';
import { engineName, parseEngineSpec, type EngineSpec } from '../../jobs/engines/engine.js';
import { Option, InvalidArgumentError } from 'commander';
import { UsageError } from '../../io/errors.js';
import { escapeText, inlineText } from '../../io/escape.js';

interface SelectFlags extends CatalogFlags {
  readonly engine?: EngineSpec;
  readonly json?: boolean;
  readonly strict?: boolean;
}

const EXAMPLES = `
Examples:
  $ toolsearch select -c fixtures/catalogs/demo.yaml mcp__github__create_issue mcp__slack__send_message
  $ toolsearch select -c fixtures/catalogs/demo.yaml mcp__github__create_issue,mcp__github__list_issues --json
  # CI: exit 1 when a name is not a dynamic tool of the catalog
  $ toolsearch select -c fixtures/catalogs/demo.yaml --strict mcp__github__create_issue
  # Mastra's direct loading: load_tool({ toolNames }), its output as the model receives it
  $ toolsearch select -c fixtures/catalogs/demo.yaml --engine mastra mcp__github__create_issue,mcp__nope --json

The names are joined into "select:name1,name2" and run as the reference does:
split on ",", each piece trimmed, exact (case-sensitive) names kept in the order
given, duplicates kept; other names are skipped (a warning here). --json prints
{"engine", "matches": [...], "unknown": [...]}. --engine mastra runs Mastra's load_tool
instead (duplicates dropped; "result" is its output); the AI SDK's toolSearch has no
direct selection (a tool loads only when a search returns it).

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
    .option('--json', 'print {"engine", "matches": [...], "unknown": [...]}')
    .addOption(
      new Option(
        '--engine <name>',
        "eino (select:a,b, default) or mastra (load_tool); the AI SDK's toolSearch has none",
      ).argParser((v: string) => {
        try {
          return parseEngineSpec(v);
        } catch (err) {
          throw new InvalidArgumentError((err as Error).message);
        }
      }),
    )
    .addHelpText('after', EXAMPLES)
    .action(async (names: string[], flags: SelectFlags) => {
      const engine = flags.engine;
      if (engine !== undefined && !(engine.kind === 'builtin' && (engine.id === 'eino' || engine.id === 'mastra')))
        throw new UsageError(
          engine.kind === 'builtin'
            ? 'the ai-sdk engine has no direct selection: ' +
                "the AI SDK's toolSearch loads a tool only when a search returns it"
            : `${engineName(engine)}: a module engine has no direct selection (its contract is search only)`,
        );
      if (engine?.kind === 'builtin' && engine.id === 'mastra') {
        await selectMastra(ctx, names, flags);
        return;
      }
      const scope = searchScope(await loadCatalog(ctx, flags), false);
      const outcome = searchDecoded(scope.index, { query: `select:${names.join(',')}`, maxResults: null });
      if (!outcome.ok || outcome.mode !== 'select') {
        // Only an empty query fails; "select:" is never empty.
        throw new Error(`unexpected selection outcome for ${JSON.stringify(names)}`);
      }
      for (const name of outcome.unknown) warnUnknown(ctx, scope, name);
      if (flags.json) {
        ctx.json({
          schema_version: JSON_SCHEMA_VERSION,
          engine: 'eino',
          matches: outcome.matches,
          unknown: outcome.unknown,
        });
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

/** `select --engine mastra`: Mastra's `load_tool({ toolNames })` over the catalog's dynamic tools. */
async function selectMastra(ctx: CliContext, names: string[], flags: SelectFlags): Promise<void> {
  const { createMastraEngine } = await import('../../core/engines/mastra.js');
  const scope = searchScope(await loadCatalog(ctx, flags), false);
  const requested = names
    .flatMap((n) => n.split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const engine = createMastraEngine(scope.dynamic);
  const { output, loaded } = engine.loadTool({ toolNames: requested }, new Set());
  const unknown = output.notFound ?? [];
  for (const name of unknown) warnUnknown(ctx, scope, name);
  if (flags.json) {
    ctx.json({ schema_version: JSON_SCHEMA_VERSION, engine: 'mastra', matches: loaded, unknown, result: output });
  } else {
    ctx.lines([
      ctx.outStyle.dim(
        "engine mastra: load_tool, Mastra's direct loading (tools available from the model's next step)",
      ),
      `${ctx.outStyle.bold('load_tool')} ${output.success ? 'succeeded' : 'failed'}: ${inlineText(output.message)}`,
      ...loaded.map((n, i) => `${i + 1}  ${ctx.outStyle.cyan(escapeText(n))}`),
    ]);
  }
  if (flags.strict && unknown.length > 0) {
    const n = unknown.length;
    throw new AssertionFailure(`${n} ${n === 1 ? 'name is' : 'names are'} not a dynamic tool (--strict)`);
  }
}
