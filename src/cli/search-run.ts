/**
 * What `toolsearch search` does once commander has read its arguments (commands/search.ts), apart from the
 * command's definition so that engine-search.ts and select.ts can use it without a cycle.
 */
import { decodeToolSearchArgs, searchDecoded, type ToolSearchArgs } from '../core/toolsearch.js';
import { AssertionFailure, InputError, UsageError } from '../io/errors.js';
import { resolveLimits } from '../io/read.js';
import { JSON_SCHEMA_VERSION } from '../io/schema-version.js';
import { expectationHeadline, renderExpectationDiff, renderSearch, renderWhy } from '../report/search-text.js';
import {
  checkExpectations,
  closeNames,
  expectationsGiven,
  makeRun,
  searchJson,
  standing,
  suggestions,
} from '../jobs/search/report.js';
import { requireBatchLines, runBatch } from './batch.js';
import type { CliContext } from './context.js';
import type { SearchFlags } from './search-flags.js';
import { openInput } from './files.js';
import { loadCatalog, type SearchScope, searchScope } from './inputs.js';
import { append } from '../core/append.js';

export type { SearchFlags } from './search-flags.js';

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

export async function runSearch(ctx: CliContext, words: string[], flags: SearchFlags): Promise<void> {
  const engine = flags.engine;
  if (engine !== undefined && !(engine.kind === 'builtin' && engine.id === 'eino')) {
    // Another engine: its parameters are checked before anything is read.
    const [{ runEngineSearch }, { engineParams }] = await Promise.all([
      import('./engine-search.js'),
      import('./engine-options.js'),
    ]);
    engineParams(flags, engine);
    const scope = searchScope(await loadCatalog(ctx, flags), flags.all === true);
    checkNamedTools(scope, flags);
    await runEngineSearch(ctx, engine, words, flags, scope);
    return;
  }
  if (flags.batch !== undefined) {
    if (words.length > 0) throw new UsageError('--batch reads its queries from the file: give no query words');
    const scope = searchScope(await loadCatalog(ctx, flags), flags.all === true);
    const lines = await runBatch(
      scope.index,
      openInput(flags.batch, ctx.io.stdin),
      (s) => ctx.out(s),
      resolveLimits(ctx.limits).maxBytes,
    );
    requireBatchLines(lines, flags.batch);
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
    const given = expectationsGiven(flags);
    ctx.json({
      schema_version: JSON_SCHEMA_VERSION,
      engine: 'eino',
      ...report,
      ...(given ? { expectations: { passed: failures.length === 0, failures } } : {}),
    });
  } else {
    const opts = { width: ctx.width, style: ctx.outStyle };
    const counts = { dynamic: scope.dynamic.length, static: scope.static.length, viaWords: query.viaWords };
    const lines = renderSearch(report, counts, { ...opts, explain: flags.explain === true });
    if (report.why) append(lines, renderWhy(report.why, report.max_results, opts));
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
