/**
 * The HTML report of a bulk replay's aggregate (`simulate <many> --html`,
 * `aggregate <parts> --html`): the totals, the findings by kind, then the
 * lists that say what to fix (zero-result queries, tools called before they
 * were loaded, loaded and never called, never found), every tool's counts
 * and the sessions that failed to read. Renders an {@link Aggregate} and
 * its {@link aggregateViews}; computes nothing.
 */
import { type Aggregate, aggregateViews, type ToolAggregate } from '../../jobs/simulate/aggregate.js';
import { frag, h, type Child, type Html } from './html.js';
import { coverageRows, engineTally } from '../aggregate-text.js';
import { bar, facts, footer, page, plural } from './page.js';
import { largest } from '../../core/append.js';

/** Rows listed per table; the rest are counted (`--json` has them all). */
export const AGGREGATE_ROW_LIMIT = 500;

const n = (x: number): string => x.toLocaleString('en-US');

function more(shown: number, total: number): Child {
  return total > shown ? h('p', { class: 'muted' }, `… ${n(total - shown)} more (--json lists them all)`) : null;
}

function counted(
  id: string,
  title: string,
  rows: ReadonlyArray<{ readonly label: string; readonly count: number; readonly code: boolean }>,
  empty: string,
): Html {
  const shown = rows.slice(0, AGGREGATE_ROW_LIMIT);
  const max = Math.max(1, largest(shown.map((r) => r.count)));
  return h(
    'section',
    { id },
    h('h2', null, `${title} (${n(rows.length)})`),
    shown.length === 0
      ? h('p', { class: 'ok' }, empty)
      : h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { class: 'grid counted tokens' },
            h(
              'tbody',
              null,
              shown.map((r) =>
                h(
                  'tr',
                  null,
                  h(
                    'td',
                    { class: 'barcell' },
                    h('div', { class: 'bars' }, bar(r.count, max, 'a'), h('span', { class: 'num' }, n(r.count))),
                  ),
                  h('td', null, r.code ? h('code', { class: 'name' }, r.label) : r.label),
                ),
              ),
            ),
          ),
        ),
    more(shown.length, rows.length),
  );
}

function toolsTable(tools: readonly ToolAggregate[]): Html {
  const active = tools.filter((t) => t.found_sessions > 0 || t.loaded_sessions > 0 || t.called_sessions > 0);
  const shown = active.slice(0, AGGREGATE_ROW_LIMIT);
  const col = (label: string): Html => h('th', { class: 'num' }, label);
  return h(
    'section',
    { id: 'tools' },
    h('h2', null, `Tools found, loaded or called (${n(active.length)} of ${n(tools.length)})`),
    h(
      'p',
      { class: 'muted' },
      'Sessions in which a search returned the tool, it was loaded, it ' +
        'was called; calls of it; calls before it was loaded.',
    ),
    active.length === 0
      ? h('p', { class: 'muted' }, 'No tool was found, loaded or called.')
      : h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { class: 'grid agg-tools' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                h('th', null, 'tool'),
                col('found'),
                col('loaded'),
                col('called'),
                col('loaded, not called'),
                col('calls'),
                col('not loaded'),
              ),
            ),
            h(
              'tbody',
              null,
              shown.map((t) =>
                h(
                  'tr',
                  { 'data-tool': t.name },
                  h('th', { scope: 'row' }, h('code', { class: 'name' }, t.name)),
                  h('td', { class: 'num' }, n(t.found_sessions)),
                  h('td', { class: 'num' }, n(t.loaded_sessions)),
                  h('td', { class: 'num' }, n(t.called_sessions)),
                  h('td', { class: 'num' }, n(t.loaded_not_called_sessions)),
                  h('td', { class: 'num' }, n(t.calls)),
                  h('td', { class: `num${t.not_loaded > 0 ? ' bad' : ''}` }, n(t.not_loaded)),
                ),
              ),
            ),
          ),
        ),
    more(shown.length, active.length),
  );
}

/** The whole page. */
export function renderAggregateHtml(a: Aggregate): string {
  const v = aggregateViews(a);
  const modes = [
    a.modes.default > 0 ? `${n(a.modes.default)} default` : '',
    a.modes.native > 0 ? `${n(a.modes.native)} native` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const kinds = Object.entries(a.violations);
  const t = a.tokens;
  const c = a.cache;
  const loadedNeverCalled = [...v.loadedNeverCalled].sort((x, y) => y.loaded_sessions - x.loaded_sessions);
  return page({
    title: `bulk replay · ${plural(a.sessions.replayed, 'session')}`,
    kind: 'aggregate-report',
    body: frag(
      h(
        'header',
        null,
        h('h1', null, `bulk replay · ${plural(a.sessions.replayed, 'session')}`),
        h(
          'ul',
          { class: 'chips' },
          h('li', { class: 'chip' }, `${plural(a.sessions.replayed, 'session')} replayed${modes ? ` (${modes})` : ''}`),
          h('li', { class: 'chip' }, `engines: ${engineTally(a, n)}`),
          h('li', { class: `chip ${a.sessions.failed > 0 ? 'bad' : ''}` }, `${n(a.sessions.failed)} failed to read`),
          h(
            'li',
            { class: `chip ${a.sessions.with_errors > 0 ? 'bad' : 'ok'}` },
            `${n(a.sessions.with_errors)} with violations`,
          ),
          h(
            'li',
            { class: `chip ${a.sessions.with_warnings > 0 ? 'warn' : ''}` },
            `${n(a.sessions.with_warnings)} with warnings`,
          ),
          t.sessions > 0 ? h('li', { class: 'chip' }, `${v.savedPercent}% of tool tokens saved`) : null,
          c.sessions > 0
            ? h('li', { class: `chip ${c.breaks > 0 ? 'warn' : ''}` }, plural(c.breaks, 'cache break'))
            : null,
        ),
        facts([
          ['model calls', n(a.model_calls)],
          ['messages', n(a.messages)],
          ['tool calls', n(a.tool_calls)],
          ['searches', `${n(a.searches.client)} tool_search, ${n(a.searches.server)} server-side`],
          ['zero-result searches', n(a.searches.zero_result)],
          ['tool_search errors', n(a.searches.errors)],
          ['recorded results differing now', n(a.searches.differs)],
          ['findings', kinds.length > 0 ? kinds.map(([k, x]) => `${k} ${n(x)}`).join(', ') : 'none'],
          a.loader_warnings > 0 ? ['reader warnings', n(a.loader_warnings)] : null,
          ...coverageRows(a, n),
          t.sessions > 0
            ? [
                'tokens (estimated)',
                `${n(t.total)} sent, ${n(t.all_up_front)} with every tool up front: ${n(t.saved)} saved ` +
                  `(${v.savedPercent}%) · ${t.encodings.join(', ')}, ${t.tool_formats.join(', ')} tool format`,
              ]
            : null,
          c.sessions > 0
            ? [
                'prompt cache (tools block)',
                `${n(c.breaks)} breaks, ${n(c.hits)} hits of ${n(c.compared)} calls ` +
                  `compared; ${plural(c.sessions_with_breaks, 'session')} with a ` +
                  `break${
                    c.by_mode.sessions > 0
                      ? `; default vs native ` +
                        `mode: ${n(c.by_mode.default.breaks)} vs ${n(c.by_mode.native.breaks)} breaks`
                      : ''
                  }`,
              ]
            : null,
        ]),
      ),
      counted(
        'not-loaded',
        'Called before loaded (not-loaded), by tool',
        v.notLoadedByTool.map((x) => ({ label: x.tool, count: x.count, code: true })),
        'No tool was called before it was loaded.',
      ),
      counted(
        'zero-result',
        'Zero-result queries',
        a.zero_result_queries.map((q) => ({ label: q.query === '' ? '(empty)' : q.query, count: q.count, code: true })),
        'Every search returned something.',
      ),
      counted(
        'loaded-never-called',
        'Loaded but never called (sessions loaded)',
        loadedNeverCalled.map((x) => ({ label: x.name, count: x.loaded_sessions, code: true })),
        'Every loaded tool was called somewhere.',
      ),
      h(
        'section',
        { id: 'never-found' },
        h('h2', null, `Never found by a search (${n(v.neverFound.length)})`),
        v.neverFound.length === 0
          ? h('p', { class: 'ok' }, 'Every tool was found by some search.')
          : h(
              'details',
              null,
              h('summary', null, `show the ${plural(v.neverFound.length, 'tool')}`),
              h(
                'ul',
                { class: 'calllist' },
                v.neverFound.slice(0, AGGREGATE_ROW_LIMIT).map((x) => h('li', null, h('code', { class: 'name' }, x))),
              ),
              more(Math.min(AGGREGATE_ROW_LIMIT, v.neverFound.length), v.neverFound.length),
            ),
      ),
      toolsTable(a.tools),
      a.failures.length > 0
        ? h(
            'section',
            { id: 'failures' },
            h('h2', null, `Sessions that failed to read (${n(a.failures.length)})`),
            h(
              'ul',
              { class: 'violations' },
              a.failures
                .slice(0, AGGREGATE_ROW_LIMIT)
                .map((f) =>
                  h(
                    'li',
                    null,
                    h(
                      'code',
                      { class: 'name' },
                      f.source.line === null ? f.source.file : `${f.source.file}:${f.source.line}`,
                    ),
                    h('div', null, f.error),
                  ),
                ),
            ),
            more(Math.min(AGGREGATE_ROW_LIMIT, a.failures.length), a.failures.length),
          )
        : null,
      footer('toolsearch simulate (bulk) / toolsearch aggregate'),
    ),
  });
}
