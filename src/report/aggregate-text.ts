/**
 * The aggregate of a bulk replay for people: totals, then the lists that
 * say what to fix (zero-result queries, tools called before they were
 * loaded, tools loaded and never called, tools never found), then failed
 * sessions. Formats only; every figure comes from the aggregate.
 */
import type { Style } from '../render/color.js';
import { escapeText } from '../io/escape.js';
import { renderTable } from '../render/table.js';
import { type Aggregate, aggregateViews } from '../jobs/simulate/aggregate.js';
import { append } from '../core/append.js';

export interface AggregateRenderOptions {
  readonly width: number;
  readonly style: Style;
  /** Rows shown per list (the JSON has them all). */
  readonly top?: number;
}

const n = (x: number): string => x.toLocaleString('en-US');

export function renderAggregate(a: Aggregate, opts: AggregateRenderOptions): string[] {
  const { style: s, width } = opts;
  const top = opts.top ?? 10;
  const v = aggregateViews(a);
  const out: string[] = [];
  const heading = (text: string, count?: number): void => {
    out.push('', s.bold(count === undefined ? text : `${text} (${n(count)})`));
  };
  const more = (shown: number, total: number): void => {
    if (total > shown) out.push(s.dim(`  … ${n(total - shown)} more (--json lists them all)`));
  };
  const modes = [
    a.modes.default > 0 ? `${n(a.modes.default)} default` : '',
    a.modes.native > 0 ? `${n(a.modes.native)} native` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const rows: Array<[string, string]> = [
    ['sessions replayed', `${n(a.sessions.replayed)}${modes ? ` (${modes})` : ''}`],
    ['engines', engineTally(a, n)],
    ['sessions failed to read', a.sessions.failed > 0 ? s.red(n(a.sessions.failed)) : '0'],
    ['model calls', n(a.model_calls)],
    ['tool calls', n(a.tool_calls)],
    ['searches', `${n(a.searches.client)} tool_search, ${n(a.searches.server)} server-side`],
    ['zero-result searches', n(a.searches.zero_result)],
    ['tool_search errors', n(a.searches.errors)],
    ['recorded results differing now', n(a.searches.differs)],
    [
      'sessions with violations',
      `${n(a.sessions.with_errors)} with errors, ${n(a.sessions.with_warnings)} with warnings`,
    ],
  ];
  const kinds = Object.entries(a.violations);
  if (kinds.length > 0) rows.push(['findings', kinds.map(([k, c]) => `${k} ${n(c)}`).join(', ')]);
  if (a.loader_warnings > 0) rows.push(['reader warnings', n(a.loader_warnings)]);
  append(rows, coverageRows(a, n));
  if (a.tokens.sessions > 0) {
    const t = a.tokens;
    rows.push([
      'tokens (estimated)',
      `${n(t.total)} sent, ${n(t.all_up_front)} with every tool up front: ${n(t.saved)} saved (${v.savedPercent}%)`,
    ]);
    rows.push(['tokenizer', `${t.encodings.join(', ')}, ${t.tool_formats.join(', ')} tool format`]);
  }
  if (a.cache.sessions > 0) {
    const c = a.cache;
    rows.push([
      'prompt cache (tools block)',
      `${n(c.breaks)} breaks, ${n(c.hits)} hits of ${n(c.compared)} calls ` +
        `compared; ${n(c.sessions_with_breaks)} sessions with a break`,
    ]);
    if (c.by_mode.sessions > 0) {
      rows.push(['  default vs native mode', `breaks ${n(c.by_mode.default.breaks)} vs ${n(c.by_mode.native.breaks)}`]);
    }
  }
  append(out, renderTable([{}, { shrink: 1 }], rows, { width }));

  heading('zero-result queries', a.zero_result_queries.length);
  const zq = a.zero_result_queries.slice(0, top);
  if (zq.length === 0) out.push(s.dim('  none'));
  else
    append(
      out,
      renderTable(
        [{ align: 'right' }, { shrink: 1 }],
        zq.map((q) => [n(q.count), escapeText(q.query === '' ? '(empty)' : q.query)]),
        { width, indent: 2 },
      ),
    );
  more(zq.length, a.zero_result_queries.length);

  heading('called before loaded (not-loaded), by tool', v.notLoadedByTool.length);
  const nl = v.notLoadedByTool.slice(0, top);
  if (nl.length === 0) out.push(s.dim('  none'));
  else
    append(
      out,
      renderTable(
        [{ align: 'right' }, { shrink: 1 }],
        nl.map((t) => [n(t.count), escapeText(t.tool)]),
        { width, indent: 2 },
      ),
    );
  more(nl.length, v.notLoadedByTool.length);

  heading('loaded but never called', v.loadedNeverCalled.length);
  const lnc = [...v.loadedNeverCalled].sort((x, y) => y.loaded_sessions - x.loaded_sessions).slice(0, top);
  if (lnc.length === 0) out.push(s.dim('  none'));
  else {
    append(
      out,
      renderTable(
        [
          { align: 'right', header: 'sessions loaded' },
          { shrink: 1, header: 'tool' },
        ],
        lnc.map((t) => [n(t.loaded_sessions), escapeText(t.name)]),
        { width, indent: 2, headerStyle: s.dim },
      ),
    );
  }
  more(lnc.length, v.loadedNeverCalled.length);

  heading('never found by a search', v.neverFound.length);
  const nf = v.neverFound.slice(0, top);
  if (nf.length === 0) out.push(s.dim('  none'));
  else for (const name of nf) out.push(`  ${escapeText(name)}`);
  more(nf.length, v.neverFound.length);

  if (a.failures.length > 0) {
    heading('sessions that failed to read', a.failures.length);
    for (const f of a.failures.slice(0, top)) out.push(`  ${s.red(escapeText(f.error))}`);
    more(Math.min(top, a.failures.length), a.failures.length);
  }
  return out;
}

/** The readers' coverage over all sessions: items read, skipped by rule, not understood; formats (text escaped). */
export function coverageRows(a: Aggregate, n: (x: number) => string): Array<[string, string]> {
  const c = a.coverage;
  if (c.items === 0) return [];
  const rows: Array<[string, string]> = [['items read', `${n(c.read)} of ${n(c.items)}`]];
  const rules = Object.entries(c.skipped);
  if (rules.length > 0)
    rows.push(['skipped by rule', rules.map(([rule, k]) => `${n(k)} ${escapeText(rule)}`).join('; ')]);
  if (c.unexplained + c.unpaired > 0)
    rows.push(['not understood (--lenient)', `${n(c.unexplained)} items, ${n(c.unpaired)} unpaired calls or results`]);
  rows.push([
    'formats',
    Object.entries(c.formats)
      .map(([f, k]) => `${escapeText(f)} ${n(k)}`)
      .join(', '),
  ]);
  return rows;
}

/** Sessions by the engine that replayed them (`eino 3, mastra 1`), or `none` before any session. */
export function engineTally(a: Aggregate, n: (x: number) => string): string {
  const parts = Object.entries(a.engines).map(([engine, count]) => `${engine} ${n(count)}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}
