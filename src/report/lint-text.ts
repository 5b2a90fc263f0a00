/**
 * The human report of `toolsearch lint`: tools with findings, worst first,
 * each finding on its own line, then catalog-wide figures and a summary.
 * Lines fit the width like those of search and simulate: prose wraps (a
 * finding continues under its message), a name or a location wider than a
 * line is cut with `…`.
 */
import type { Style } from '../render/color.js';
import { escapeText, inlineText } from '../io/escape.js';
import { displayWidth, truncate } from '../render/width.js';
import { tok, wordTokens, wrapText, wrapTokens } from '../render/wrap.js';
import type { LintReport, ToolLint } from '../jobs/lint/types.js';

export interface LintTextOptions {
  readonly style: Style;
  /** Also list the tools without findings. */
  readonly all: boolean;
  /** Columns to fit the lines to (the CLI's width: COLUMNS, the terminal, or 100); default 100. */
  readonly width?: number;
}

/** The width when none is given: the CLI's when stdout is not a terminal. */
const DEFAULT_WIDTH = 100;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * `✗ name file:line:col 1 error`: the pieces after the name move to the next line (indented 4) when they do not fit.
 */
function headLines(first: string, pieces: ReadonlyArray<{ text: string; styled: string }>, width: number): string[] {
  const out: string[] = [];
  let line = first;
  let w = displayWidth(first);
  for (const p of pieces) {
    const pw = displayWidth(p.text);
    if (w + 2 + pw <= width) {
      line += `  ${p.styled}`;
      w += 2 + pw;
    } else {
      out.push(line);
      line = `    ${p.styled}`;
      w = 4 + pw;
    }
  }
  out.push(line);
  return out;
}

/** At most `max` items, then how many more. */
function some(items: readonly string[], max = 3): string {
  return items.length > max ? `${items.slice(0, max).join(', ')}, … (${items.length - max} more)` : items.join(', ');
}

/**
 * Which single words of its name and description reach the tool: in the
 * top 5 (what a model gets by default), only beyond it, or never.
 */
function reachText(t: ToolLint): string {
  const r = t.reach;
  const ranked = (ws: ReadonlyArray<{ word: string; rank: number | null }>): string[] =>
    ws.map((w) => `${escapeText(w.word)} (${w.rank})`);
  // Best rank first; equal ranks keep the order tried (name words first).
  const byRank = r.words.filter((w) => w.rank !== null).sort((a, b) => a.rank! - b.rank!);
  const top = byRank.filter((w) => w.rank! <= 5);
  const beyond = byRank.filter((w) => w.rank! > 5);
  const never = r.words.filter((w) => w.rank === null).map((w) => escapeText(w.word));
  let text =
    `${r.words_reaching} of ${r.words_tried} single words reach it in the ` +
    `top 5${top.length > 0 ? `: ${some(ranked(top))}` : ''}`;
  if (beyond.length > 0)
    text +=
      `; ${r.words_matching} ${r.words_matching === 1 ? 'reaches' : 'reach'} ` +
      `it at all, ${some(ranked(beyond))} only beyond the top 5`;
  if (never.length > 0)
    text += `; ${never.length === 1 ? '1 never returns' : `${never.length} never return`} it: ${some(never)}`;
  return text;
}

function toolLines(t: ToolLint, style: Style, width: number): string[] {
  const mark = t.errors > 0 ? style.red('✗') : t.warnings > 0 ? style.yellow('!') : style.green('✓');
  const counts = [t.errors > 0 ? plural(t.errors, 'error') : '', t.warnings > 0 ? plural(t.warnings, 'warning') : '']
    .filter((s) => s !== '')
    .join(', ');
  const at = truncate(
    escapeText(t.source.line > 0 ? `${t.source.file}:${t.source.line}:${t.source.column}` : t.source.file),
    width - 4,
  );
  const pieces = [{ text: at, styled: style.dim(at) }, ...(counts ? [{ text: counts, styled: counts }] : [])];
  const out = headLines(`${mark} ${style.bold(truncate(escapeText(t.name), width - 2))}`, pieces, width);
  for (const f of t.findings) {
    const sev =
      f.severity === 'error'
        ? { text: 'error  ', styled: `${style.red('error')}  ` }
        : { text: 'warning', styled: style.yellow('warning') };
    // Continuation lines start under the rule.
    out.push(
      ...wrapTokens(
        [sev, ...wordTokens(`${f.rule}: ${inlineText(f.message)}`, Math.max(8, width - 12))],
        width,
        12,
        '    ',
      ).map((l) => l.trimEnd()),
    );
  }
  const own =
    t.own_name.rank !== null
      ? `rank ${t.own_name.rank}`
      : t.own_name.full_rank !== null
        ? `rank ${t.own_name.full_rank} (not returned)`
        : 'no match';
  out.push(...wrapText(`    own name "${inlineText(t.own_name.query)}": ${own}; ${reachText(t)}`, width, 6, style.dim));
  return out;
}

export function renderLint(report: LintReport, opts: LintTextOptions): string[] {
  return [...renderLintLines(report, opts)];
}

/** {@link renderLint} line by line, as the lines are made: a large catalog's report is never held whole. */
export function* renderLintLines(report: LintReport, opts: LintTextOptions): Generator<string> {
  const { style } = opts;
  const width = opts.width ?? DEFAULT_WIDTH;
  const s = report.summary;
  const engine = (report as LintReport & { readonly engine?: string }).engine ?? 'eino';
  const statics = report.catalog.static > 0 ? `; ${plural(report.catalog.static, 'static tool')}, never searched` : '';
  const room = Math.max(8, width - 2);
  yield* wrapTokens(
    [
      ...wordTokens(`Findability of ${plural(report.catalog.dynamic, 'dynamic tool')}`, room, style.bold),
      ...wordTokens(`(${escapeText(report.catalog.source)}${statics})`, room),
      ...(engine !== 'eino' ? wordTokens(`with the ${escapeText(engine)} engine`, room, style.bold) : []),
    ],
    width,
    2,
  );
  yield '';
  const shown = report.tools.filter((t) => opts.all || t.findings.length > 0);
  for (const t of shown) yield* toolLines(t, style, width);
  if (shown.length > 0) yield '';
  yield* wrapText(
    engine === 'eino'
      ? `Own-name query (its name parts, max_results 5) returns the tool first: ${s.own_name_first} of ${s.tools}`
      : `Own-name query (its name tokens) returns the tool first: ${s.own_name_first} of ${s.tools}`,
    width,
    2,
  );
  const rules = Object.entries(s.by_rule).filter(([, n]) => n > 0);
  if (rules.length > 0) {
    // A rule and its count stay on one line.
    const counts = rules.map(([r, n], i) => tok(`${r} ${n}${i < rules.length - 1 ? ',' : ''}`));
    yield* wrapTokens([...wordTokens('Findings by rule:', room), ...counts], width, 2);
  }
  yield* wrapText(
    `${plural(s.tools, 'tool')}: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}; ${s.clean} clean`,
    width,
    2,
  );
}
