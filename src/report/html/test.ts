/**
 * The HTML report of `test --reporter html --output <file>`: the summary,
 * failed cases first (links), then every suite with its cases, pass/fail,
 * and for each failure the expected value against what came back, side by
 * side, with where the named tools stand. Renders a {@link TestReport};
 * computes nothing.
 */
import type { JsonValue } from '../../core/index.js';
import type { CaseResult, Failure, SimulateGot, SuiteResult, TestReport } from '../../jobs/suite/types.js';
import { gotHeadline, isSearchGot, standingText, summaryLine } from '../test-text.js';
import { frag, h, idFor, type Child, type Html } from './html.js';
import { facts, footer, page, plural } from './page.js';

const caseId = (si: number, ci: number): string => idFor('case', si + 1, ci + 1);

function statusTag(c: CaseResult): Html {
  const cls = c.status === 'passed' ? 'ok' : c.status === 'failed' ? 'bad' : 'skip';
  return h('span', { class: `tag ${cls}` }, c.status);
}

function isNameList(v: JsonValue): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** One side of the diff: a list of names marked against the other side, or the JSON value. */
function side(title: string, v: JsonValue, other: JsonValue, mark: 'missing' | 'extra'): Html {
  if (isNameList(v)) {
    const others = isNameList(other) ? other : null;
    const otherSet = new Set(others ?? []);
    return h(
      'div',
      { class: `side-${mark}` },
      h('h4', null, title),
      v.length === 0
        ? h('span', { class: 'muted' }, 'nothing')
        : h(
            'ol',
            null,
            v.map((n, i) => {
              const cls =
                others === null
                  ? null
                  : !otherSet.has(n)
                    ? mark === 'missing'
                      ? 'lose'
                      : 'gain'
                    : others[i] !== n
                      ? 'moved'
                      : null;
              return h(
                'li',
                { class: cls },
                h('code', { class: 'name' }, n),
                cls === 'moved' ? h('span', { class: 'muted' }, ' (other position)') : null,
              );
            }),
          ),
    );
  }
  return h(
    'div',
    { class: `side-${mark}` },
    h('h4', null, title),
    h('pre', null, JSON.stringify(v, null, 2) ?? 'null'),
  );
}

function failureBlock(f: Failure, c: CaseResult): Html {
  const got = isSearchGot(c.got) ? c.got : null;
  return h(
    'div',
    { class: 'failure', 'data-expectation': f.expectation },
    h('div', null, h('strong', null, f.expectation), ': ', f.message),
    h(
      'div',
      { class: 'diff' },
      side('expected', f.expected, f.actual, 'missing'),
      side('got', f.actual, f.expected, 'extra'),
    ),
    f.standings.length > 0
      ? h(
          'ul',
          { class: 'calllist' },
          f.standings.map((s) => h('li', null, h('code', { class: 'name' }, s.name), ': ', standingText(s, got))),
        )
      : null,
    f.notes.length > 0
      ? h(
          'ul',
          { class: 'calllist' },
          f.notes.map((n) => h('li', null, n)),
        )
      : null,
  );
}

function gotBlock(c: CaseResult): Child {
  if (c.got === null) return null;
  if (isSearchGot(c.got)) {
    const g = c.got;
    return h(
      'div',
      { class: 'got' },
      h(
        'div',
        { class: 'muted' },
        g.query !== null ? frag(h('span', { class: 'q mono' }, `"${g.query}"`), ' · ') : null,
        gotHeadline(g),
      ),
      g.matches.length > 0
        ? h(
            'ol',
            null,
            g.matches.map((n, i) =>
              h(
                'li',
                null,
                h('code', { class: 'name' }, n),
                g.scores ? h('span', { class: 'muted' }, ` (${g.scores[i]})`) : null,
              ),
            ),
          )
        : null,
    );
  }
  const s: SimulateGot = c.got;
  return h(
    'div',
    { class: 'got muted' },
    `simulated with the ${s.engine} engine in ${s.mode} mode: ${plural(s.calls, 'model call')},` +
      ` ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}`,
    s.replay_differences !== null ? `, ${plural(s.replay_differences, 'replay difference')}` : '',
  );
}

function caseBlock(c: CaseResult, si: number, ci: number): Html {
  const failed = c.status === 'failed';
  return h(
    'details',
    { class: `case ${c.status}`, id: caseId(si, ci), open: failed, 'data-status': c.status },
    h(
      'summary',
      null,
      statusTag(c),
      ' ',
      h('span', { class: 'case-name' }, c.name),
      ' ',
      h('span', { class: 'muted' }, c.kind),
      c.updated ? frag(' ', h('span', { class: 'tag warn' }, 'updated')) : null,
    ),
    h(
      'div',
      { class: 'loc muted mono' },
      `${c.location.file}:${c.location.line}:${c.location.column} · ${c.duration_ms.toFixed(1)} ms`,
    ),
    c.status === 'skipped' ? h('p', { class: 'muted' }, c.skip_reason ? `skipped: ${c.skip_reason}` : 'skipped') : null,
    c.failures.map((f) => failureBlock(f, c)),
    gotBlock(c),
  );
}

function suiteSection(s: SuiteResult, si: number): Html {
  const failed = s.cases.filter((c) => c.status === 'failed').length;
  const skipped = s.cases.filter((c) => c.status === 'skipped').length;
  if (s.error !== null) {
    const e = s.error;
    return h(
      'section',
      { class: 'suite errored', id: idFor('suite', si + 1) },
      h('h2', null, s.name, ' ', h('span', { class: 'tag bad' }, 'did not run')),
      h(
        'div',
        { class: 'failure' },
        h(
          'div',
          { class: 'mono' },
          `${e.location.file}${e.location.line > 0 ? `:${e.location.line}:${e.location.column}` : ''}`,
        ),
        h('div', null, e.message),
        e.excerpt !== null ? h('pre', null, e.excerpt) : null,
      ),
    );
  }
  return h(
    'section',
    { class: 'suite', id: idFor('suite', si + 1) },
    h(
      'h2',
      null,
      s.name,
      ' ',
      h('span', { class: `tag ${failed > 0 ? 'bad' : 'ok'}` }, failed > 0 ? `${failed} failed` : 'passed'),
    ),
    facts([
      ['file', h('code', { class: 'name' }, s.file)],
      [
        'catalog',
        s.catalog !== null ? h('code', { class: 'name' }, s.catalog) : h('span', { class: 'muted' }, 'per case'),
      ],
      [
        'cases',
        `${s.cases.length - failed - skipped} passed, ${failed} ` +
          `failed${skipped > 0 ? `, ${skipped} skipped` : ''} · ${s.duration_ms.toFixed(0)} ms`,
      ],
    ]),
    h(
      'div',
      { class: 'cases' },
      s.cases.map((c, ci) => caseBlock(c, si, ci)),
    ),
  );
}

/** The whole page. */
export function renderTestHtml(report: TestReport): string {
  const sm = report.summary;
  const failures = report.suites.flatMap((s, si) =>
    s.cases.map((c, ci) => ({ s, c, si, ci })).filter((x) => x.c.status === 'failed'),
  );
  const errored = report.suites.flatMap((s, si) => (s.error !== null ? [{ s, si }] : []));
  return page({
    title: `test · ${summaryLine(report)}`,
    kind: 'test-report',
    body: frag(
      h(
        'header',
        null,
        h('h1', null, 'test · ', summaryLine(report)),
        h(
          'ul',
          { class: 'chips' },
          h('li', { class: 'chip' }, plural(report.suites.length, 'suite')),
          h('li', { class: 'chip' }, plural(sm.total, 'case')),
          h('li', { class: 'chip ok' }, `${sm.passed} passed`),
          h('li', { class: `chip ${sm.failed > 0 ? 'bad' : ''}` }, `${sm.failed} failed`),
          sm.skipped > 0 ? h('li', { class: 'chip' }, `${sm.skipped} skipped`) : null,
          sm.errors > 0 ? h('li', { class: 'chip bad' }, plural(sm.errors, 'invalid suite')) : null,
          sm.updated > 0 ? h('li', { class: 'chip warn' }, `${sm.updated} updated`) : null,
          h('li', { class: 'chip' }, `${sm.duration_ms.toFixed(0)} ms`),
        ),
      ),
      h(
        'section',
        { id: 'failures' },
        h('h2', null, 'Failures'),
        failures.length === 0 && errored.length === 0
          ? h('p', { class: 'ok' }, 'Every case passed.')
          : h(
              'ul',
              { class: 'violations' },
              errored.map(({ s, si }) =>
                h(
                  'li',
                  null,
                  h('a', { href: `#${idFor('suite', si + 1)}` }, s.name),
                  h('span', { class: 'muted' }, ' · did not run'),
                  h('div', null, s.error!.message),
                ),
              ),
              failures.map(({ s, c, si, ci }) =>
                h(
                  'li',
                  null,
                  h('a', { href: `#${caseId(si, ci)}` }, c.name),
                  h('span', { class: 'muted' }, ` · ${s.name}`),
                  h('div', null, c.failures[0]?.message ?? ''),
                ),
              ),
            ),
      ),
      report.suites.map(suiteSection),
      footer('toolsearch test'),
    ),
  });
}
