/**
 * The human report of `toolsearch lint`: tools with findings, worst first,
 * each finding on its own line, then catalog-wide figures and a summary.
 * Lines fit the width like those of search and simulate: prose wraps (a
 * finding continues under its message), a name or a location wider than a
 * line is cut with `…`.
 */
import type { Style } from '../render/color.js';
import { escapeText, inlineText } from '../render/escape.js';
import { displayWidth, truncate } from '../render/width.js';
import { tok, wordTokens, wrapText, wrapTokens } from '../render/wrap.js';
import type { LintReport, ToolLint } from '../lint/types.js';

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

/** `✗ name  file:line:col  1 error`: the pieces after the name move to the next line (indented 4) when they do not fit. */
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

function toolLines(t: ToolLint, style: Style, width: number): string[] {
  const mark = t.errors > 0 ? style.red('✗') : t.warnings > 0 ? style.yellow('!') : style.green('✓');
  const counts = [t.errors > 0 ? plural(t.errors, 'error') : '', t.warnings > 0 ? plural(t.warnings, 'warning') : ''].filter((s) => s !== '').join(', ');
  const at = truncate(escapeText(t.source.line > 0 ? `${t.source.file}:${t.source.line}:${t.source.column}` : t.source.file), width - 4);
  const pieces = [{ text: at, styled: style.dim(at) }, ...(counts ? [{ text: counts, styled: counts }] : [])];
  const out = headLines(`${mark} ${style.bold(truncate(escapeText(t.name), width - 2))}`, pieces, width);
  for (const f of t.findings) {
    const sev = f.severity === 'error' ? { text: 'error  ', styled: `${style.red('error')}  ` } : { text: 'warning', styled: style.yellow('warning') };
    // Continuation lines start under the rule.
    out.push(...wrapTokens([sev, ...wordTokens(`${f.rule}: ${inlineText(f.message)}`, Math.max(8, width - 12))], width, 12, '    ').map((l) => l.trimEnd()));
  }
  const own = t.own_name.rank !== null ? `rank ${t.own_name.rank}` : t.own_name.full_rank !== null ? `rank ${t.own_name.full_rank} (not returned)` : 'no match';
  const best = t.reach.best.map((b) => `${escapeText(b.word)} (${b.rank})`).join(', ');
  const reach = `    own name "${inlineText(t.own_name.query)}": ${own}; ${t.reach.words_reaching} of ${t.reach.words_tried} single words reach it${best ? `, best: ${best}` : ''}`;
  out.push(...wrapText(reach, width, 6, style.dim));
  return out;
}

export function renderLint(report: LintReport, opts: LintTextOptions): string[] {
  const { style } = opts;
  const width = opts.width ?? DEFAULT_WIDTH;
  const s = report.summary;
  const out: string[] = [];
  const statics = report.catalog.static > 0 ? `; ${plural(report.catalog.static, 'static tool')}, never searched` : '';
  const room = Math.max(8, width - 2);
  out.push(
    ...wrapTokens(
      [...wordTokens(`Findability of ${plural(report.catalog.dynamic, 'dynamic tool')}`, room, style.bold), ...wordTokens(`(${escapeText(report.catalog.source)}${statics})`, room)],
      width,
      2,
    ),
  );
  out.push('');
  const shown = report.tools.filter((t) => opts.all || t.findings.length > 0);
  for (const t of shown) out.push(...toolLines(t, style, width));
  if (shown.length > 0) out.push('');
  out.push(...wrapText(`Own-name query (its name parts, max_results 5) returns the tool first: ${s.own_name_first} of ${s.tools}`, width, 2));
  const rules = Object.entries(s.by_rule).filter(([, n]) => n > 0);
  if (rules.length > 0) {
    // A rule and its count stay on one line.
    const counts = rules.map(([r, n], i) => tok(`${r} ${n}${i < rules.length - 1 ? ',' : ''}`));
    out.push(...wrapTokens([...wordTokens('Findings by rule:', room), ...counts], width, 2));
  }
  out.push(...wrapText(`${plural(s.tools, 'tool')}: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}; ${s.clean} clean`, width, 2));
  return out;
}
