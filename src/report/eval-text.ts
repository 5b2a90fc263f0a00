/**
 * The human report of `toolsearch eval`: one table row per scorer, what each
 * scorer is, and the queries each scorer misses (no relevant tool in the
 * first 5 results).
 */
import type { Style } from '../render/color.js';
import { escapeText, inlineText } from '../io/escape.js';
import { renderTable, type Column } from '../render/table.js';
import { METRIC_LABELS } from '../jobs/eval/metrics.js';
import type { EvalReport } from '../jobs/eval/types.js';
import { append, largest, smallest } from '../core/append.js';

export interface EvalTextOptions {
  readonly style: Style;
  readonly width: number;
  /** Misses listed per scorer (the JSON report has all of them). */
  readonly misses: number;
}

function fmt(key: string, v: number): string {
  return key === 'no_result' ? `${(100 * v).toFixed(1)}%` : v.toFixed(3);
}

export function renderEval(report: EvalReport, opts: EvalTextOptions): string[] {
  const { style } = opts;
  const out: string[] = [];
  const field = report.queries.field === 'request' ? ', scored on the "request" text' : '';
  out.push(
    style.bold(`${report.queries.count} labeled queries`) +
      ` (${escapeText(report.queries.file)}${field}) ` +
      `over ${report.catalog.dynamic} dynamic tools (${escapeText(report.catalog.source)})`,
  );
  out.push('');
  const columns: Column[] = [
    { header: 'scorer' },
    ...METRIC_LABELS.map(([, label]) => ({ header: label, align: 'right' as const })),
    { header: 'misses', align: 'right' },
  ];
  // The best value of each column is bold (lowest for "no result").
  const best = METRIC_LABELS.map(([key]) => {
    const vals = report.scorers.map((s) => s.metrics[key]);
    return key === 'no_result' ? smallest(vals) : largest(vals);
  });
  const rows = report.scorers.map((s) => [
    s.name,
    ...METRIC_LABELS.map(([key], i) => {
      const text = fmt(key, s.metrics[key]);
      return report.scorers.length > 1 && s.metrics[key] === best[i] ? { text, style: style.bold } : text;
    }),
    String(s.misses.length),
  ]);
  append(out, renderTable(columns, rows, { width: opts.width, headerStyle: style.dim }));
  out.push('');
  out.push(
    style.dim(
      `R@k: share of the relevant tools in the first k results; MRR: mean ` +
        `1/rank of the first relevant tool (within ${report.depth});`,
    ),
  );
  out.push(
    style.dim(
      `nDCG@5: binary relevance; no result: share of queries with no result; ` +
        `misses: no relevant tool in the first ${report.miss_cutoff}.`,
    ),
  );
  for (const s of report.scorers) out.push(style.dim(`${s.name}: ${s.summary}`));
  for (const s of report.scorers) {
    if (s.invalid.length === 0) continue;
    // Counted whatever --misses says: such a query measures nothing for this scorer.
    out.push('');
    const n = s.invalid.length;
    // regex: a pattern RE2 cannot read; fuse: a query longer than it searches.
    const plural = n === 1 ? ['pattern', 'query'] : ['patterns', 'queries'];
    const what = s.name === 'regex' ? `invalid ${plural[0]}` : `rejected ${plural[1]}`;
    out.push(style.bold(`${s.name}: ${n} ${what} (no result):`));
    for (const q of s.invalid.slice(0, Math.max(opts.misses, 3)))
      out.push(`  ${style.dim(`line ${q.line}`)}  "${inlineText(q.query)}": ${inlineText(q.reason)}`);
    if (n > Math.max(opts.misses, 3))
      out.push(style.dim(`  … and ${n - Math.max(opts.misses, 3)} more (--json lists them all)`));
  }
  if (opts.misses <= 0) return out;
  for (const s of report.scorers) {
    if (s.misses.length === 0) continue;
    out.push('');
    const shown = s.misses.slice(0, opts.misses);
    const more = s.misses.length > shown.length ? `, first ${shown.length} shown` : '';
    out.push(style.bold(`${s.name} misses ${s.misses.length} quer${s.misses.length === 1 ? 'y' : 'ies'}${more}:`));
    for (const m of shown) {
      const rank = m.first_relevant_rank !== null ? ` (found at rank ${m.first_relevant_rank})` : '';
      out.push(
        `  ${style.dim(`line ${m.line}`)}  "${inlineText(m.query)}" → ${m.relevant.map(escapeText).join(', ')}${rank}`,
      );
      out.push(style.dim(`      got: ${m.got.length > 0 ? m.got.map(escapeText).join(', ') : 'nothing'}`));
    }
  }
  return out;
}
