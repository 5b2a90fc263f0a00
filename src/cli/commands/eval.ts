/** `toolsearch eval <labeled.jsonl> -c <catalog>`: retrieval quality of the reference against baselines. */
import { JSON_SCHEMA_VERSION } from '../../io/schema-version.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { CliContext } from '../context.js';
import { addCatalogOptions } from '../catalog-options.js';
import { loadCatalog, type CatalogFlags } from '../inputs.js';
import { ENGINE_SCORER_NAMES, SCORER_NAMES as SCORERS, type ScorerName } from '../../jobs/eval/scorers/types.js';
import { isModulePath } from '../../jobs/engines/custom.js';
import { parseScore } from '../engine-options.js';
import { parsePositiveInt, FORCE_OPTION } from '../options.js';
import { quote } from '../../io/errors.js';
import type { Metrics } from '../../jobs/eval/metrics.js';

/** One `--min` threshold: a scorer's metric must be at least `min`. */
interface Threshold {
  readonly scorer: ScorerName;
  readonly metric: keyof Metrics;
  /** As written (`recall@5`). */
  readonly label: string;
  readonly min: number;
}

/** `--min` metric names: the report's own (`recall_at_5`) or the short form (`recall@5`). */
const MIN_METRICS: ReadonlyMap<string, keyof Metrics> = new Map([
  ['recall@1', 'recall_at_1'],
  ['recall@3', 'recall_at_3'],
  ['recall@5', 'recall_at_5'],
  ['recall@10', 'recall_at_10'],
  ['mrr', 'mrr'],
  ['ndcg@5', 'ndcg_at_5'],
  ['recall_at_1', 'recall_at_1'],
  ['recall_at_3', 'recall_at_3'],
  ['recall_at_5', 'recall_at_5'],
  ['recall_at_10', 'recall_at_10'],
  ['ndcg_at_5', 'ndcg_at_5'],
]);

/** Every scorer name `--scorers` and `--engine` take, besides module paths. */
const ALL_SCORERS: readonly string[] = [...SCORERS, ...ENGINE_SCORER_NAMES];

/** Whether a string names a scorer: a baseline, an engine, or a module path (`./my-search.js`). */
function isScorer(name: string): boolean {
  return ALL_SCORERS.includes(name) || isModulePath(name);
}

/** `[scorer:]metric=value[,…]`, e.g. `recall@5=0.9,mrr=0.8` or `bm25:mrr=0.5` (the scorer defaults to spec). */
function parseMin(value: string, previous: Threshold[] = []): Threshold[] {
  const out = [...previous];
  for (const piece of value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const m = /^(?:([^:=]+):)?([a-z_@0-9]+)=([0-9]*\.?[0-9]+)$/i.exec(piece);
    if (!m)
      throw new InvalidArgumentError(
        `expected [scorer:]metric=value, e.g. recall@5=0.9 or bm25:mrr=0.5; got ${quote(piece)}.`,
      );
    const scorer = (m[1] ?? 'spec') as ScorerName;
    if (!isScorer(scorer))
      throw new InvalidArgumentError(
        `unknown scorer ${quote(scorer)}; the scorers are ${ALL_SCORERS.join(', ')} or a module path.`,
      );
    const metric = MIN_METRICS.get(m[2]!.toLowerCase());
    if (metric === undefined) {
      const hint = m[2]!.toLowerCase() === 'no_result' ? ' (no_result is better when lower: it has no minimum)' : '';
      throw new InvalidArgumentError(
        `unknown metric ${quote(m[2]!)}${hint}; the metrics are recall@1, recall@3, recall@5, recall@10, mrr, ndcg@5.`,
      );
    }
    const min = Number(m[3]);
    if (!(min >= 0 && min <= 1)) throw new InvalidArgumentError(`a minimum is between 0 and 1, got ${m[3]}.`);
    out.push({ scorer, metric, label: m[2]!, min });
  }
  if (out.length === previous.length)
    throw new InvalidArgumentError('expected [scorer:]metric=value, e.g. recall@5=0.9.');
  return out;
}

interface EvalFlags extends CatalogFlags {
  readonly force?: boolean;
  readonly min?: Threshold[];
  readonly scorers: ScorerName[];
  /** `--engine a,b`: the scorers by another name (engines and baselines side by side). */
  readonly engine?: ScorerName[];
  readonly topK?: number;
  readonly minScore?: number;
  readonly engineTimeout?: number;
  readonly field: 'query' | 'request';
  readonly misses: number;
  readonly json?: boolean;
  readonly html?: string;
}

function parseScorers(value: string): ScorerName[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) throw new InvalidArgumentError(`expected scorer names: ${ALL_SCORERS.join(', ')}.`);
  for (const n of names) {
    if (!isScorer(n))
      throw new InvalidArgumentError(
        `unknown scorer ${quote(n)}; the scorers are ${ALL_SCORERS.join(', ')} or a module path (./my-search.js).`,
      );
  }
  return [...new Set(names)] as ScorerName[];
}

function parseCount(value: string): number {
  if (value === '0') return 0;
  return parsePositiveInt(value);
}

const EXAMPLES =
  `
Examples:
  $ toolsearch eval fixtures/eval/demo-queries.jsonl -c fixtures/catalogs/demo.yaml
  $ toolsearch eval fixtures/eval/demo-queries.jsonl -c fixtures/catalogs/demo.yaml --scorers spec,bm25 --json > ` +
  `eval.json
  # the metrics as a chart and every miss with each scorer's top results, in one HTML file
  $ toolsearch eval fixtures/eval/demo-queries.jsonl -c fixtures/catalogs/demo.yaml --html eval.html
  # how would the scorers do if the model passed the user's words through?
  $ toolsearch eval fixtures/eval/demo-queries.jsonl -c fixtures/catalogs/demo.yaml --field request
  # CI: exit 1 when the reference's recall@5 or MRR falls below a floor
  $ toolsearch eval fixtures/eval/demo-queries.jsonl -c fixtures/catalogs/demo.yaml --min recall@5=0.5,mrr=0.4
  # the engines side by side with the baselines: Eino, the AI SDK 7, Mastra, fuse.js, BM25
  $ toolsearch eval fixtures/eval/demo-queries.jsonl -c fixtures/catalogs/demo.yaml --engine ` +
  `eino,ai-sdk,mastra,fuse,bm25
  # your own search module against the reference, with a floor for it
  $ toolsearch eval fixtures/eval/demo-queries.jsonl -c fixtures/catalogs/demo.yaml --engine ` +
  `eino,./fixtures/engines/bm25-fields.mjs --min ./fixtures/engines/bm25-fields.mjs:recall@5=0.5

Input: JSON lines {"query": "...", "relevant": ["tool", ...], "request": "..."?};
relevant tools must be dynamic tools of the catalog.
Scorers (all over the catalog's dynamic tools):
  spec   the reference (the exact port of the Eino scorer)
  fuse   fuse.js token search over name words (weight 2) and description (weight 1),
         threshold 0.3, ignoreLocation
  bm25   Okapi BM25 (k1 1.2, b 0.75) over name words and description words
  regex  the query as a case-insensitive regular expression over name and description,
         run by RE2 (linear time): a pattern RE2 rejects (lookaround, backreferences)
         or over 200 characters finds nothing and is counted as an invalid pattern
Engines (--engine, or in --scorers), each ranking to the evaluation depth (10):
  eino   the reference (the same ranking as spec, under its engine name)
  ai-sdk the Vercel AI SDK 7 toolSearch (name token 2, description token 1)
  mastra Mastra's ToolSearchProcessor (BM25 + name boost; --min-score; topK = 10)
  ./x.js your module: export function search({ query, tools, maxResults }) → names
Metrics: recall@1/3/5/10 (share of the relevant tools in the first k results), MRR
(within 10), nDCG@5 (binary relevance), share of queries with no result; a query is
missed when no relevant tool is in the first 5 results (max_results' default).
--min [scorer:]metric=value[,…] (scorer: spec unless named; metrics recall@1/3/5/10,
mrr, ndcg@5) exits 1 when a metric is below its floor, naming each; with --json
the checks are in the report ("min": [{scorer, metric, min, value, passed}]).
`;

export function evalCommand(ctx: CliContext): Command {
  const cmd = new Command('eval')
    .summary('retrieval quality: the reference scorer against fuse.js, BM25 and regex baselines')
    .description('Score labeled queries with the reference keyword scorer and baselines, over the same catalog.')
    .argument('<labeled>', 'labeled queries, JSON lines: {"query", "relevant": [...], "request"?}');
  addCatalogOptions(cmd, 'catalog file (required)');
  return cmd
    .addOption(
      new Option('--scorers <list>', `comma-separated scorers (${ALL_SCORERS.join(', ')}, or a module path)`)
        .argParser(parseScorers)
        .default([...SCORERS], SCORERS.join(',')),
    )
    .addOption(
      new Option(
        '--engine <list>',
        'the engines and baselines to score side by side, e.g. eino,ai-sdk,mastra,fuse,bm25 (instead of --scorers)',
      ).argParser(parseScorers),
    )
    .addOption(new Option('--min-score <x>', 'mastra: search.minScore (default 0)').argParser(parseScore))
    .addOption(
      new Option(
        '--engine-timeout <ms>',
        'a module engine: how long it may take to load or to answer (default 10000)',
      ).argParser(parsePositiveInt),
    )
    .addOption(
      new Option('--field <field>', 'which text the scorers receive: the query, or the user request')
        .choices(['query', 'request'])
        .default('query'),
    )
    .addOption(
      new Option('--misses <n>', 'misses listed per scorer in the human report (0: none)')
        .argParser(parseCount)
        .default(10),
    )
    .option('--json', 'print the full report as JSON (every miss, every ranking)')
    .option(
      '--html <file>',
      'also write the report as one self-contained HTML file: chart, misses ' +
        'with top results (- for stdout, then the page only)',
    )
    .option(...FORCE_OPTION)
    .option(
      '--min <metric=value,…>',
      'exit 1 when a metric is below this floor, e.g. recall@5=0.9,mrr=0.8 (spec unless scorer:metric); repeatable',
      parseMin,
    )
    .addHelpText('after', EXAMPLES)
    .action(async (labeled: string, flags: EvalFlags, command: Command) => {
      await runEval(ctx, labeled, flags, command.getOptionValueSource('scorers') === 'cli');
    });
}

async function runEval(ctx: CliContext, labeled: string, given: EvalFlags, scorersGiven: boolean): Promise<void> {
  const { loadQuerySet } = await import('../../jobs/eval/queries.js');
  const { UsageError } = await import('../../io/errors.js');
  if (given.engine !== undefined && scorersGiven)
    throw new UsageError('--engine and --scorers both list the scorers: give one of them');
  const flags: EvalFlags = given.engine !== undefined ? { ...given, scorers: given.engine } : given;
  if (flags.minScore !== undefined && !flags.scorers.includes('mastra'))
    throw new UsageError('--min-score is a parameter of the mastra engine, which is not scored here');
  if (flags.engineTimeout !== undefined && !flags.scorers.some(isModulePath))
    throw new UsageError('--engine-timeout bounds a module engine, and none is scored here');
  // An output that is an input of the run is refused before anything runs (src/io/output.ts).
  const html = flags.html !== undefined ? { option: '--html', path: flags.html, force: flags.force === true } : null;
  const inputs = [
    { kind: 'labeled queries', path: labeled },
    ...(html
      ? (await import('../../formats/mcp/catalog-inputs.js')).catalogInputs(flags.catalog ?? [], { limits: ctx.limits })
      : []),
  ];
  if (html) {
    const { checkOutputs, checkReplaceable } = await import('../../io/output.js');
    checkOutputs([html], inputs);
    checkReplaceable([html]);
  }
  const catalog = await loadCatalog(ctx, flags);
  const set = loadQuerySet(labeled, ctx.limits);
  const dynamic = catalog.tools.filter((t) => !t.static);
  if (dynamic.length === 0) throw new UsageError('tools is required: the catalog has no dynamic tools');
  set.validate(new Set(dynamic.map((t) => t.name)), new Set(catalog.tools.filter((t) => t.static).map((t) => t.name)));
  if (flags.field === 'request') {
    const without = set.queries.find((q) => q.request === null);
    if (without)
      throw new UsageError(`--field request: the query on line ${without.line} of ${labeled} has no "request"`);
  }
  const { evaluate } = await import('../../jobs/eval/evaluate.js');
  const progress = ctx.progress();
  const report = await evaluate({
    tools: dynamic,
    queries: set.queries,
    scorers: flags.scorers,
    field: flags.field,
    catalogSource: catalog.sources.map((s) => s.file).join(', '),
    queriesFile: labeled,
    // Thousands of queries take a while: a progress line when stderr is a terminal.
    onProgress: (scorer, done, total) => progress.count(`eval ${scorer}`, done, total),
    engineParams: flags.minScore !== undefined ? { minScore: flags.minScore } : {},
    engineOptions: {
      ...(flags.engineTimeout !== undefined ? { timeoutMs: flags.engineTimeout } : {}),
      cwd: process.cwd(),
    },
  });
  progress.done();
  if (html) {
    const [{ renderEvalHtml }, { writeOutput }] = await Promise.all([
      import('../../report/html/eval.js'),
      import('../../io/output.js'),
    ]);
    writeOutput(html, renderEvalHtml(report), inputs, (t) => ctx.out(t));
  }
  const thresholds = flags.min ?? [];
  for (const t of thresholds) {
    if (!flags.scorers.includes(t.scorer))
      throw new UsageError(
        `--min ${t.scorer}:${t.label}: the scorer ${t.scorer} is not run (--scorers ${flags.scorers.join(',')})`,
      );
  }
  const checks = thresholds.map((t) => {
    const value = report.scorers.find((x) => x.name === t.scorer)!.metrics[t.metric];
    return { scorer: t.scorer, metric: t.label, min: t.min, value, passed: value >= t.min };
  });
  if (html?.path === '-') {
    // `--html -`: the page is the output (the --min checks still apply).
  } else if (flags.json) {
    const { safeJson } = await import('../../io/json-out.js');
    const body = { schema_version: JSON_SCHEMA_VERSION, ...report, ...(checks.length > 0 ? { min: checks } : {}) };
    ctx.out(`${safeJson(body, undefined, 2)}\n`);
  } else {
    const { renderEval } = await import('../../report/eval-text.js');
    ctx.lines(renderEval(report, { style: ctx.outStyle, width: ctx.width, misses: flags.misses }));
  }
  const below = checks.filter((c) => !c.passed);
  if (below.length > 0) {
    const { AssertionFailure } = await import('../../io/errors.js');
    throw new AssertionFailure(
      below.map((c) => `${c.scorer} ${c.metric} is ${c.value.toFixed(3)}, below --min ${c.min}`).join('; '),
    );
  }
}
