/** Human output that another engine adds to a search: which engine ran, and its per-term account (`--explain`). */
import { append } from '../core/append.js';
import { escapeText } from '../io/escape.js';
import type { OpenEngine } from '../jobs/engines/engine.js';
import type { EngineSearchJson } from '../jobs/search/engine-report.js';
import { renderTable } from '../render/table.js';
import { type RenderOptions, TERM_COLUMNS, termCells } from './search-text.js';

/** `engine ai-sdk: <summary>`, first. */
export function renderEngineHeader(engine: Pick<OpenEngine, 'name' | 'summary'>, opts: RenderOptions): string[] {
  return [opts.style.dim(`engine ${escapeText(engine.name)}: ${escapeText(engine.summary)}`)];
}

/** `--explain`: per result, the points of each query term. */
export function renderEngineExtras(report: EngineSearchJson, opts: RenderOptions): string[] {
  const s = opts.style;
  const out: string[] = [];
  if (report.results.every((r) => r.terms === undefined)) {
    out.push(s.dim('no per-term account: a module engine returns names only'));
    return out;
  }
  out.push('');
  out.push(s.bold('explain'));
  report.results.forEach((r, i) => {
    out.push(`${i + 1}  ${s.cyan(escapeText(r.name))}${r.score !== null ? `  ${r.score}` : ''}`);
    append(
      out,
      renderTable(
        TERM_COLUMNS,
        (r.terms ?? []).map((t) => termCells(t, s)),
        { width: opts.width, indent: 4 },
      ),
    );
  });
  return out;
}
