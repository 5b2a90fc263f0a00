/**
 * `search --engine ai-sdk|mastra|<module>` and `select --engine mastra`: the
 * same query, flags and checks as the reference's search, run by another
 * engine. Loaded only when `--engine` names one (search-run.ts).
 */
import { append } from '../core/append.js';
import type { EngineOutcome } from '../core/engines/types.js';
import { AssertionFailure, InputError, UsageError } from '../io/errors.js';
import { safeJson } from '../io/json-out.js';
import { resolveLimits } from '../io/read.js';
import { JSON_SCHEMA_VERSION } from '../io/schema-version.js';
import { engineName, type EngineSpec, openEngine, type OpenEngine } from '../jobs/engines/engine.js';
import { decodeEngineArgs } from '../jobs/search/engine-args.js';
import { engineSearchJson, engineStanding } from '../jobs/search/engine-report.js';
import { checkExpectations, expectationsGiven, type SearchScope } from '../jobs/search/report.js';
import { renderEngineExtras, renderEngineHeader } from '../report/engine-text.js';
import { expectationHeadline, renderExpectationDiff, renderSearch, renderWhy } from '../report/search-text.js';
import type { CliContext } from './context.js';
import { engineParams, type EngineFlags } from './engine-options.js';
import { openInput } from './files.js';
import type { SearchFlags } from './search-flags.js';

/** The engine over the scope's searched tools (dynamic ones, or all with `--all`). */
export async function openScopeEngine(
  ctx: CliContext,
  spec: EngineSpec,
  scope: SearchScope,
  flags: EngineFlags,
): Promise<OpenEngine> {
  const tools = scope.all ? [...scope.byName.values()] : scope.dynamic;
  return openEngine(spec, tools, engineParams(flags, spec), {
    ...(flags.engineTimeout !== undefined ? { timeoutMs: flags.engineTimeout } : {}),
    cwd: process.cwd(),
  });
}

/** The query of words or `--args`, as the engine's stack reads it; keys it does not read are warned about. */
function engineQuery(ctx: CliContext, spec: EngineSpec, words: readonly string[], flags: SearchFlags): string {
  if (flags.args === undefined) {
    if (words.length === 0) throw new UsageError('a query is required: query words, --args <json> or --batch <file|->');
    return words.join(' ');
  }
  if (words.length > 0) throw new UsageError('give the query either as words or as --args, not both');
  const decoded = decodeEngineArgs(engineName(spec), flags.args);
  if (!decoded.ok) throw new UsageError(decoded.error);
  for (const key of decoded.ignored)
    ctx.warn(`--args: the ${engineName(spec)} engine does not read ${JSON.stringify(key)} (it changes nothing)`);
  return decoded.query;
}

export async function runEngineSearch(
  ctx: CliContext,
  spec: EngineSpec,
  words: string[],
  flags: SearchFlags,
  scope: SearchScope,
): Promise<void> {
  if (flags.batch !== undefined) {
    if (words.length > 0) throw new UsageError('--batch reads its queries from the file: give no query words');
    await runEngineBatch(ctx, spec, flags, scope);
    return;
  }
  const query = engineQuery(ctx, spec, words, flags);
  const engine = await openScopeEngine(ctx, spec, scope, flags);
  let outcome: EngineOutcome;
  try {
    outcome = await engine.search(query);
  } finally {
    await engine.close();
  }
  if (!outcome.ok) throw new InputError(outcome.error);
  const report = engineSearchJson(engine, scope, query, outcome, {
    explain: flags.explain === true,
    ...(flags.why !== undefined ? { why: flags.why } : {}),
  });
  const failures = checkExpectations(report.matches, flags);
  if (flags.json) {
    const given = expectationsGiven(flags);
    ctx.json({
      schema_version: JSON_SCHEMA_VERSION,
      engine: engine.name,
      ...report,
      ...(given ? { expectations: { passed: failures.length === 0, failures } } : {}),
    });
  } else {
    const opts = { width: ctx.width, style: ctx.outStyle };
    const counts = {
      dynamic: scope.dynamic.length,
      static: scope.static.length,
      viaWords: flags.args === undefined,
      limitFlag: engine.name === 'mastra' ? '--top-k' : '-n',
    };
    const lines = [...renderEngineHeader(engine, opts), ...renderSearch(report, counts, { ...opts, explain: false })];
    if (flags.explain === true) append(lines, renderEngineExtras(report, opts));
    if (report.why)
      append(
        lines,
        renderWhy(report.why, report.max_results, {
          ...opts,
          limitName: engine.name === 'mastra' ? 'topK' : 'maxResults',
        }),
      );
    ctx.lines(lines);
  }
  if (failures.length > 0) {
    const details = renderExpectationDiff(
      failures,
      report,
      (name) => engineStanding(engine, scope, query, outcome as Extract<EngineOutcome, { ok: true }>, name),
      { width: ctx.width, style: ctx.errStyle },
    );
    throw new AssertionFailure(expectationHeadline(failures), details.join('\n'));
  }
}

/** `--batch` with an engine: one JSON object per line, as with the reference. */
async function runEngineBatch(
  ctx: CliContext,
  spec: EngineSpec,
  flags: SearchFlags,
  scope: SearchScope,
): Promise<void> {
  const engine = await openScopeEngine(ctx, spec, scope, flags);
  try {
    const { requireBatchLines, runBatchWith } = await import('./batch.js');
    const lines = await runBatchWith(
      async (line) => {
        // Each line names the engine that answered it (the reference's lines are its result, unchanged).
        const head = { schema_version: JSON_SCHEMA_VERSION, engine: engine.name };
        const decoded = decodeEngineArgs(engine.name, line.toString('utf8'));
        if (!decoded.ok) return safeJson({ ...head, error: decoded.error });
        const out = await engine.search(decoded.query);
        return out.ok ? safeJson({ ...head, matches: out.matches }) : safeJson({ ...head, error: out.error });
      },
      openInput(flags.batch!, ctx.io.stdin),
      (s) => ctx.out(s),
      resolveLimits(ctx.limits).maxBytes,
    );
    requireBatchLines(lines, flags.batch!);
  } finally {
    await engine.close();
  }
}
