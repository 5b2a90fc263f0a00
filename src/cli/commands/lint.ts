/** `toolsearch lint <catalog...>`: how findable is each dynamic tool with the reference's keyword search? */
import { JSON_SCHEMA_VERSION } from '../../io/schema-version.js';
import { Command } from 'commander';
import { AssertionFailure } from '../../io/errors.js';
import type { CliContext } from '../context.js';
import { addCatalogOptions } from '../catalog-options.js';
import { loadCatalog, type CatalogFlags } from '../inputs.js';
import { addEngineOptions, engineOf, engineParams, type EngineFlags } from '../engine-options.js';

interface LintFlags extends CatalogFlags, EngineFlags {
  readonly json?: boolean;
  readonly strict?: boolean;
  readonly all?: boolean;
}

const EXAMPLES = `
Examples:
  $ toolsearch lint fixtures/catalogs/demo.yaml
  $ toolsearch lint fixtures/formats/catalogs/mcp.json --catalog-format mcp --prefix github --json
  $ toolsearch lint fixtures/lint/problems.yaml --strict   # CI: exit 1 when a tool has an error
  # findability under the AI SDK 7's toolSearch, Mastra's ToolSearchProcessor, or your module
  $ toolsearch lint fixtures/catalogs/demo.yaml --engine ai-sdk
  $ toolsearch lint fixtures/catalogs/demo.yaml --engine mastra --top-k 3 --json
  $ toolsearch lint fixtures/lint/problems.yaml --engine ./fixtures/engines/bm25-fields.mjs

Per dynamic tool, with the reference's scorer and max_results 5:
  errors    own-name-missed   a query of its own name parts does not return it
            crowded-out       no single word of its name or description returns it
            no-name-parts     the name splits into nothing (only underscores)
            case-collision    another tool has the same name up to case
  warnings  own-name-not-first, identical-name-parts, empty-name-pieces,
            giant-name-part (a part over 20 characters), unsplit-separator
            (-, ., / inside a part: the reference does not split there),
            empty-description, duplicate-description, long-description
            (over 500 characters and 3x the median: it matches most words)
--engine ai-sdk|mastra|./x.js asks the same of that engine, within its limit
(maxResults, topK): own-name-missed, own-name-not-first and crowded-out by its own
ranking and tokens; case-collision, identical-name-parts (its name tokens),
empty- and duplicate-description; the reference's name-splitting rules are its own.
Tools are listed worst first. Exit codes: 0 (also with findings, unless --strict),
1 --strict and an error was found, 2 bad input.
`;

export function lintCommand(ctx: CliContext): Command {
  const cmd = new Command('lint')
    .summary('findability: which tools are hard to find with the reference keyword search')
    .description('Check how well the reference keyword search finds each dynamic tool of a catalog, and why not.')
    .argument('[catalog...]', 'catalog files (merged), JSON or YAML; or use -c');
  addCatalogOptions(
    cmd,
    'catalog file (or give it as an argument)',
    'exit 1 when any tool has an error; an unknown key or wrong type in a catalog tool is an error (exit 2)',
  );
  cmd.option('--json', 'print the full report as JSON').option('--all', 'also list the tools without findings');
  addEngineOptions(cmd, { maxResults: true });
  return cmd.addHelpText('after', EXAMPLES).action(async (files: string[], flags: LintFlags) => {
    await runLint(ctx, files, flags);
  });
}

async function runLint(ctx: CliContext, files: string[], flags: LintFlags): Promise<void> {
  const catalog = await loadCatalog(ctx, { ...flags, catalog: [...files, ...(flags.catalog ?? [])] });
  const { UsageError } = await import('../../io/errors.js');
  if (!catalog.tools.some((t) => !t.static))
    throw new UsageError('tools is required: the catalog has no dynamic tools');
  const spec = engineOf(flags);
  const params = engineParams(flags, spec);
  const { lintCatalog } = await import('../../jobs/lint/lint.js');
  // A big catalog takes a while: a progress line when stderr is a terminal (nothing otherwise).
  const progress = ctx.progress();
  progress.update(`lint: indexing ${catalog.tools.length} tools…`);
  let report: import('../../jobs/lint/types.js').LintReport & { readonly engine: string };
  if (spec.kind === 'builtin' && spec.id === 'eino') {
    if (params.maxResults !== undefined)
      throw new UsageError("--max-results: the reference's lint measures findability at max_results 5, its default");
    report = {
      engine: 'eino',
      ...lintCatalog(catalog, undefined, { onProgress: (done, total) => progress.count('lint', done, total) }),
    };
  } else {
    const [{ openEngine }, { lintWithEngine }] = await Promise.all([
      import('../../jobs/engines/engine.js'),
      import('../../jobs/lint/engine-lint.js'),
    ]);
    const engine = await openEngine(
      spec,
      catalog.tools.filter((t) => !t.static),
      params,
      { ...(flags.engineTimeout !== undefined ? { timeoutMs: flags.engineTimeout } : {}), cwd: process.cwd() },
    );
    try {
      report = await lintWithEngine(catalog, engine, {
        onProgress: (done, total) => progress.count('lint', done, total),
      });
    } finally {
      await engine.close();
    }
  }
  progress.done();
  if (flags.json) {
    const { safeJsonPieces } = await import('../../io/json-out.js');
    // The catalog's own warnings (unknown keys, wrong types) are findings of a lint too.
    const warnings = catalog.warnings ?? [];
    const doc = {
      schema_version: JSON_SCHEMA_VERSION,
      ...report,
      ...(warnings.length > 0 ? { catalog_warnings: warnings } : {}),
    };
    // Written a tool at a time, in writes of about a megabyte: a large catalog's report is never one string.
    let pending = '';
    for (const piece of safeJsonPieces(doc)) {
      pending += piece;
      if (pending.length >= 1 << 20) {
        ctx.out(pending);
        pending = '';
      }
    }
    ctx.out(`${pending}\n`);
  } else {
    const { renderLintLines } = await import('../../report/lint-text.js');
    ctx.lines(renderLintLines(report, { style: ctx.outStyle, all: flags.all === true, width: ctx.width }));
  }
  if (flags.strict && report.summary.errors > 0) {
    const n = report.tools.filter((t) => t.errors > 0).length;
    throw new AssertionFailure(
      `${report.summary.errors} ` +
        `error${report.summary.errors === 1 ? '' : 's'} in ${n} tool${n === 1 ? '' : 's'} (--strict)`,
    );
  }
}
