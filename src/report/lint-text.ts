/**
 * The human report of `toolsearch lint`: tools with findings, worst first,
 * each finding on its own line, then catalog-wide figures and a summary.
 */
import type { Style } from '../render/color.js';
import { escapeText, inlineText } from '../render/escape.js';
import type { LintReport, ToolLint } from '../lint/types.js';

export interface LintTextOptions {
  readonly style: Style;
  /** Also list the tools without findings. */
  readonly all: boolean;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function toolLines(t: ToolLint, style: Style): string[] {
  const mark = t.errors > 0 ? style.red('✗') : t.warnings > 0 ? style.yellow('!') : style.green('✓');
  const counts = [t.errors > 0 ? plural(t.errors, 'error') : '', t.warnings > 0 ? plural(t.warnings, 'warning') : ''].filter((s) => s !== '').join(', ');
  const at = t.source.line > 0 ? `${t.source.file}:${t.source.line}:${t.source.column}` : t.source.file;
  const out = [`${mark} ${style.bold(escapeText(t.name))}  ${style.dim(escapeText(at))}${counts ? `  ${counts}` : ''}`];
  for (const f of t.findings) {
    const sev = f.severity === 'error' ? style.red('error  ') : style.yellow('warning');
    out.push(`    ${sev} ${f.rule}: ${inlineText(f.message)}`);
  }
  const own = t.own_name.rank !== null ? `rank ${t.own_name.rank}` : t.own_name.full_rank !== null ? `rank ${t.own_name.full_rank} (not returned)` : 'no match';
  const best = t.reach.best.map((b) => `${escapeText(b.word)} (${b.rank})`).join(', ');
  out.push(style.dim(`    own name "${inlineText(t.own_name.query)}": ${own}; ${t.reach.words_reaching} of ${t.reach.words_tried} single words reach it${best ? `, best: ${best}` : ''}`));
  return out;
}

export function renderLint(report: LintReport, opts: LintTextOptions): string[] {
  const { style } = opts;
  const s = report.summary;
  const out: string[] = [];
  const statics = report.catalog.static > 0 ? `; ${plural(report.catalog.static, 'static tool')}, never searched` : '';
  out.push(style.bold(`Findability of ${plural(report.catalog.dynamic, 'dynamic tool')}`) + ` (${escapeText(report.catalog.source)}${statics})`);
  out.push('');
  const shown = report.tools.filter((t) => opts.all || t.findings.length > 0);
  for (const t of shown) out.push(...toolLines(t, style));
  if (shown.length > 0) out.push('');
  out.push(`Own-name query (its name parts, max_results 5) returns the tool first: ${s.own_name_first} of ${s.tools}`);
  const rules = Object.entries(s.by_rule).filter(([, n]) => n > 0);
  if (rules.length > 0) out.push(`Findings by rule: ${rules.map(([r, n]) => `${r} ${n}`).join(', ')}`);
  out.push(`${plural(s.tools, 'tool')}: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}; ${s.clean} clean`);
  return out;
}
