/**
 * The HTML report of `eval --html`: R@k and MRR per scorer as an SVG bar
 * chart (with the same figures as a table), and the misses: every query
 * some scorer missed, with each scorer's top results and the rank of the
 * first relevant tool. Renders an {@link EvalReport}; computes nothing.
 */
import { METRIC_LABELS, type Metrics } from '../../jobs/eval/metrics.js';
import type { EvalReport, QueryResult } from '../../jobs/eval/types.js';
import { frag, h, idFor, type Html } from './html.js';
import { facts, footer, page, plural } from './page.js';
import { largest, smallest } from '../../core/append.js';

/** The metrics the chart draws (all share the 0..1 scale). */
const CHART_METRICS: ReadonlyArray<keyof Metrics> = [
  'recall_at_1',
  'recall_at_3',
  'recall_at_5',
  'recall_at_10',
  'mrr',
];

const label = (key: keyof Metrics): string => METRIC_LABELS.find(([k]) => k === key)?.[1] ?? key;

function fmt(key: keyof Metrics, v: number): string {
  return key === 'no_result' ? `${(100 * v).toFixed(1)}%` : v.toFixed(3);
}

/** Grouped bars: one group per metric, one bar per scorer, 0 to 1. */
function chart(report: EvalReport): Html {
  const W = 640;
  const H = 260;
  const left = 48;
  const top = 12;
  const bottom = 40;
  const plotH = H - top - bottom;
  const plotW = W - left - 8;
  const groupW = plotW / CHART_METRICS.length;
  const n = Math.max(1, report.scorers.length);
  const barW = Math.min(26, (groupW - 16) / n);
  const y = (v: number): number => top + plotH * (1 - Math.max(0, Math.min(1, v)));
  const grid = [0, 0.25, 0.5, 0.75, 1].map((v) =>
    frag(
      h('line', {
        class: v === 0 ? 'axis' : 'gridline',
        x1: left,
        x2: W - 8,
        y1: y(v).toFixed(1),
        y2: y(v).toFixed(1),
      }),
      h('text', { x: left - 6, y: (y(v) + 4).toFixed(1), 'text-anchor': 'end' }, v.toFixed(2)),
    ),
  );
  const groups = CHART_METRICS.map((key, g) => {
    const x0 = left + g * groupW + (groupW - barW * n) / 2;
    return frag(
      report.scorers.map((s, i) => {
        const v = s.metrics[key];
        return h('rect', {
          class: `s${i % 6}`,
          x: (x0 + i * barW).toFixed(1),
          y: y(v).toFixed(1),
          width: Math.max(1, barW - 2).toFixed(1),
          height: (y(0) - y(v)).toFixed(1),
          'data-scorer': s.name,
          'data-metric': key,
          'data-value': v.toFixed(3),
          'aria-label': `${s.name} ${label(key)} ${v.toFixed(3)}`,
        });
      }),
      h(
        'text',
        { x: (left + g * groupW + groupW / 2).toFixed(1), y: H - bottom + 16, 'text-anchor': 'middle' },
        label(key),
      ),
    );
  });
  const legend = report.scorers.map((s, i) =>
    frag(
      h('rect', { class: `s${i % 6}`, x: left + i * 110, y: H - 14, width: 10, height: 10 }),
      h('text', { x: left + i * 110 + 14, y: H - 5 }, s.name),
    ),
  );
  return h(
    'svg',
    {
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      'aria-label': `R@1, R@3, R@5, R@10 and MRR for ${report.scorers.map((s) => s.name).join(', ')}`,
      width: W,
      height: H,
    },
    grid,
    groups,
    legend,
  );
}

function metricsTable(report: EvalReport): Html {
  const best = METRIC_LABELS.map(([key]) => {
    const vals = report.scorers.map((s) => s.metrics[key]);
    return key === 'no_result' ? smallest(vals) : largest(vals);
  });
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'grid metrics' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', null, 'scorer'),
          METRIC_LABELS.map(([, l]) => h('th', { class: 'num' }, l)),
          h('th', { class: 'num' }, 'misses'),
        ),
      ),
      h(
        'tbody',
        null,
        report.scorers.map((s, si) =>
          h(
            'tr',
            { 'data-scorer': s.name },
            h('th', { scope: 'row' }, h('span', { class: `swatch s${si % 6}` }), s.name),
            METRIC_LABELS.map(([key], i) =>
              h(
                'td',
                { class: 'num' },
                report.scorers.length > 1 && s.metrics[key] === best[i]
                  ? h('strong', null, fmt(key, s.metrics[key]))
                  : fmt(key, s.metrics[key]),
              ),
            ),
            h('td', { class: 'num' }, String(s.misses.length)),
          ),
        ),
      ),
    ),
  );
}

function resultsCell(q: QueryResult, scorer: string, cutoff: number, depth: number): Html {
  const r = q.results[scorer];
  if (r === undefined) return h('td', null, '');
  const relevant = new Set(q.relevant);
  const rank = r.first_relevant_rank;
  const missed = rank === null || rank > cutoff;
  return h(
    'td',
    { class: missed ? 'missed' : null, 'data-scorer': scorer },
    h(
      'div',
      null,
      rank === null
        ? h('span', { class: 'bad' }, `relevant not in the first ${depth}`)
        : h('span', { class: missed ? 'bad' : 'ok' }, `relevant at rank ${rank}`),
    ),
    r.ranked.length === 0
      ? h('span', { class: 'muted' }, 'no result')
      : h(
          'ol',
          { class: 'top' },
          r.ranked
            .slice(0, cutoff)
            .map((n) => h('li', { class: relevant.has(n) ? 'rel' : null }, h('code', { class: 'name' }, n))),
        ),
  );
}

function missesSection(report: EvalReport): Html {
  const missedBy = new Map<number, string[]>();
  for (const s of report.scorers)
    for (const m of s.misses) missedBy.set(m.line, [...(missedBy.get(m.line) ?? []), s.name]);
  const rows = report.per_query.filter((q) => missedBy.has(q.line));
  const scorers: readonly string[] = report.scorers.map((s) => s.name);
  return h(
    'section',
    { id: 'misses' },
    h('h2', null, `Misses (${rows.length})`),
    h(
      'p',
      { class: 'muted' },
      `A query is missed by a scorer when no relevant tool is in its first ${report.miss_cutoff} ` +
        `results. Each cell: where the first relevant tool ranks (within ${report.depth}), then the ` +
        `scorer's top ${report.miss_cutoff}; relevant tools in bold.`,
    ),
    rows.length === 0
      ? h('p', { class: 'ok' }, 'No misses: every scorer found a relevant tool for every query.')
      : frag(
          filters(report, rows.length),
          h(
            'div',
            { class: 'scroll' },
            h(
              'table',
              { class: 'grid misses' },
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  h('th', null, 'query'),
                  scorers.map((s) => h('th', null, s)),
                ),
              ),
              h(
                'tbody',
                null,
                rows.map((q) =>
                  h(
                    'tr',
                    {
                      id: idFor('line', q.line),
                      'data-line': q.line,
                      class: missedBy
                        .get(q.line)!
                        .map((n) => `m${scorers.indexOf(n)}`)
                        .join(' '),
                    },
                    h(
                      'th',
                      { scope: 'row' },
                      h('div', { class: 'q mono' }, `"${q.query}"`),
                      q.request !== null ? h('div', { class: 'muted' }, q.request) : null,
                      h(
                        'div',
                        { class: 'muted' },
                        `line ${q.line} · relevant: `,
                        q.relevant.map((n, i) => frag(i > 0 ? ', ' : null, h('code', { class: 'name rel' }, n))),
                      ),
                      h('div', { class: 'muted' }, `missed by ${missedBy.get(q.line)!.join(', ')}`),
                    ),
                    scorers.map((s) => resultsCell(q, s, report.miss_cutoff, report.depth)),
                  ),
                ),
              ),
            ),
          ),
        ),
  );
}

/**
 * Radio buttons choosing whose misses the table lists (CSS only, so it
 * works without JavaScript): the first scorer's (the reference) at first.
 * A row carries `mN` for each scorer N that missed it; the stylesheet's
 * `.f-N:checked` rules hide the others (scorers 0 to 5, as many as exist).
 */
function filters(report: EvalReport, any: number): Html {
  const items = [
    ...report.scorers.map((s, i) => ({ id: `f-${i}`, label: `${s.name} (${s.misses.length})` })),
    { id: 'f-any', label: `any scorer (${any})` },
  ];
  return frag(
    items.map((it, i) =>
      h('input', { type: 'radio', name: 'miss-filter', id: it.id, class: `mf ${it.id}`, checked: i === 0 }),
    ),
    h(
      'p',
      { class: 'mf-labels' },
      'misses of: ',
      items.map((it) => h('label', { for: it.id }, it.label)),
    ),
  );
}

/** The whole page. */
export function renderEvalHtml(report: EvalReport): string {
  const field = report.queries.field === 'request' ? 'the "request" text' : 'the query';
  return page({
    title: `eval · ${report.queries.file}`,
    kind: 'eval-report',
    body: frag(
      h(
        'header',
        null,
        h('h1', null, 'eval · ', h('span', { class: 'name' }, report.queries.file)),
        facts([
          ['queries', `${plural(report.queries.count, 'labeled query', 'labeled queries')}, scored on ${field}`],
          [
            'catalog',
            frag(`${report.catalog.dynamic} dynamic tools from `, h('code', { class: 'name' }, report.catalog.source)),
          ],
          [
            'scorers',
            h(
              'ul',
              { class: 'plain' },
              report.scorers.map((s) => h('li', null, h('strong', null, s.name), `: ${s.summary}`)),
            ),
          ],
        ]),
      ),
      h(
        'section',
        { id: 'metrics', class: 'chart' },
        h('h2', null, 'Recall and MRR per scorer'),
        chart(report),
        metricsTable(report),
        h(
          'p',
          { class: 'muted' },
          `R@k: share of the relevant tools in the first k results; MRR: mean 1/rank of the first relevant tool ` +
            `(within ${report.depth}); nDCG@5: binary relevance; no result: share of queries with no result.`,
        ),
      ),
      missesSection(report),
      footer('toolsearch eval'),
    ),
  });
}
