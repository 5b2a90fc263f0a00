/**
 * The HTML report of `simulate --html`: header (mode, transcript, catalog
 * source), violations first (each a link to its call), the visibility
 * timeline, token bars with cache breaks, the replay side by side, then
 * every model call with its calls and searches (the per-keyword
 * explanation in a <details>). Renders a {@link SimulationReport} built
 * with `details: true`; computes nothing.
 *
 * Over 400 lines: one builder per section of one page, in page order; the pieces other pages share
 * live in page.ts.
 */
import { type KeywordScore, RULES_IN_WORDS } from '../../core/scorer.js';
import type { Coverage } from '../../formats/types.js';
import type { CallTokens } from '../../jobs/tokens/account.js';
import type {
  ExplainedTool,
  SearchExplanation,
  SearchOutcome,
  SearchReport,
  SimulationReport,
  TimelineCell,
  TimelineRow,
  TurnReport,
  Violation,
} from '../../jobs/simulate/report.js';
import { visibilityRanges } from '../simulate-text.js';
import { frag, h, idFor, type Child, type Html } from './html.js';
import { bar, facts, footer, page, plural } from './page.js';
import { largest } from '../../core/append.js';

/** Rows beyond this many that were never loaded or called are left out of the page (counted). */
export const QUIET_ROW_LIMIT = 400;
/** A timeline with more rows than this starts collapsed to the loaded and called tools. */
export const COLLAPSE_ABOVE = 30;

const callId = (call: number): string => idFor('call', call);

const STATE_GLYPH: Readonly<Record<TimelineCell['state'], string>> = {
  static: '■',
  visible: '●',
  loaded: '+',
  'in-context': '●',
  deferred: '○',
  hidden: '·',
};

const STATE_WORDS: Readonly<Record<TimelineCell['state'], string>> = {
  static: 'static (always visible)',
  visible: 'visible',
  loaded: 'loaded at this call',
  'in-context': 'in the context (loaded earlier)',
  deferred: 'deferred (not loaded)',
  hidden: 'not offered',
};

function name(n: string): Html {
  return h('code', { class: 'name' }, n);
}

function names(list: readonly string[], empty = 'none'): Child {
  if (list.length === 0) return h('span', { class: 'muted' }, empty);
  return list.map((n, i) => frag(i > 0 ? ', ' : null, name(n)));
}

function callLink(call: number): Html {
  return h('a', { href: `#${callId(call)}` }, `call ${call}`);
}

function catalogLine(r: SimulationReport): Child {
  const carried = r.catalog.source.startsWith(`${r.transcript.file} (`);
  const counts = `${r.catalog.dynamic} dynamic + ${plural(r.catalog.static, 'static tool')}`;
  return frag(
    counts,
    carried ? ' carried by the transcript' : frag(' from ', h('code', { class: 'name' }, r.catalog.source)),
  );
}

function header(r: SimulationReport): Html {
  const sm = r.summary;
  const chips: Html[] = [
    h('li', { class: 'chip' }, plural(sm.calls, 'model call')),
    h('li', { class: 'chip' }, plural(sm.searches, 'search', 'searches')),
    sm.provider_calls > 0 ? h('li', { class: 'chip' }, plural(sm.provider_calls, 'provider tool call')) : null,
    sm.server_searches > 0
      ? h('li', { class: 'chip' }, plural(sm.server_searches, 'server search', 'server searches'))
      : null,
    h(
      'li',
      { class: 'chip' },
      r.mode === 'native'
        ? `${plural(sm.tools_loaded, 'tool')} loaded by searches`
        : `${plural(sm.tools_loaded, 'tool')} loaded`,
    ),
    h('li', { class: `chip ${sm.errors > 0 ? 'bad' : 'ok'}` }, plural(sm.errors, 'error')),
    h('li', { class: `chip ${sm.warnings > 0 ? 'warn' : ''}` }, plural(sm.warnings, 'warning')),
    r.replay !== null
      ? h(
          'li',
          { class: `chip ${r.replay.differences > 0 ? 'warn' : 'ok'}` },
          `replay: ${plural(r.replay.differences, 'difference')}`,
        )
      : null,
    sm.tokens ? h('li', { class: 'chip' }, `${sm.tokens.saved_percent}% of tool tokens saved`) : null,
    sm.cache
      ? h('li', { class: `chip ${sm.cache.breaks > 0 ? 'warn' : ''}` }, plural(sm.cache.breaks, 'cache break'))
      : null,
  ].filter((x): x is Html => x !== null);
  const coverage = r.coverage;
  return h(
    'header',
    null,
    h('h1', null, 'simulate · ', h('span', { class: 'name' }, r.transcript.file)),
    facts([
      ['engine', frag(h('strong', null, r.engine.name), ` (${engineHow(r)})`)],
      [
        'mode',
        h(
          'strong',
          null,
          r.engine.name !== 'eino'
            ? `the ${r.engine.name} engine's loading rule`
            : r.mode === 'native'
              ? 'native (model-native tool search)'
              : 'default (tool_search as an ordinary tool)',
        ),
      ],
      ['catalog', catalogLine(r)],
      ['transcript', `${r.transcript.format} · ${plural(r.transcript.messages, 'message')}`],
      r.transcript.reminder_recognised_by_text !== null
        ? [
            'reminder',
            `message ${r.transcript.reminder_recognised_by_text} is taken for the ` +
              `middleware's reminder by its text (beyond the reference)`,
          ]
        : null,
      coverage !== null ? ['coverage', coverageText(coverage)] : null,
      coverage?.sessions
        ? [
            'session',
            `${coverage.sessions.index} of ${coverage.sessions.count}: ` +
              `${plural(coverage.sessions.calls.length, 'logged call')} (${coverage.sessions.calls.join(', ')}), ` +
              `${coverage.sessions.rule}` +
              (coverage.sessions.count > 1 ? '; this page shows this session, the text and --json show them all' : ''),
          ]
        : null,
      sm.tokens ? ['tokens', sm.tokens.note] : null,
    ]),
    h('ul', { class: 'chips' }, chips),
  );
}

/** What the recording reader understood (issue 12's coverage): read, skipped by rule, not understood, unpaired. */
function coverageText(c: Coverage): Child {
  const skipped = c.skipped.reduce((n, x) => n + x.count, 0);
  return frag(
    `${c.format} (${c.detected_by}) · ${c.read} of ${plural(c.items, 'item')} read`,
    skipped > 0 ? ` · ${skipped} skipped by rule (${c.skipped.map((x) => `${x.rule} ${x.count}`).join(', ')})` : '',
    c.provider_calls !== undefined ? ` · ${plural(c.provider_calls, 'call')} of the provider's own tools` : '',
    c.unexplained.length > 0 ? h('span', { class: 'bad' }, ` · ${c.unexplained.length} not understood`) : '',
    c.unpaired.length > 0 ? h('span', { class: 'bad' }, ` · ${c.unpaired.length} unpaired`) : '',
  );
}

function violationItem(v: Violation): Html {
  return h(
    'li',
    { class: v.severity },
    h('span', { class: `tag ${v.severity === 'error' ? 'bad' : 'warn'}` }, v.kind),
    ' ',
    callLink(v.call),
    v.tool !== null ? frag(' · ', name(v.tool)) : null,
    h('div', null, v.message),
    v.location ? h('div', { class: 'muted mono' }, `${v.location.file}:${v.location.line}:${v.location.column}`) : null,
  );
}

function violationsSection(r: SimulationReport): Html {
  const sorted = [...r.violations].sort((a, b) =>
    a.severity === b.severity ? a.call - b.call : a.severity === 'error' ? -1 : 1,
  );
  return h(
    'section',
    { id: 'violations' },
    h('h2', null, 'Violations'),
    sorted.length === 0
      ? h('p', { class: 'ok' }, 'No violations: every call went to a tool the model could see.')
      : h('ul', { class: 'violations' }, sorted.map(violationItem)),
  );
}

function cellOf(row: TimelineRow, cell: TimelineCell, call: number): Html {
  const mark = cell.called === 'violation' ? '✗' : cell.called === 'ok' ? '✓' : '';
  const glyph = cell.called !== null && cell.state === 'hidden' ? '' : STATE_GLYPH[cell.state];
  const cls = `t-${cell.state}${cell.called === 'ok' ? ' c-ok' : cell.called === 'violation' ? ' c-bad' : ''}`;
  const called = cell.called === 'violation' ? ', called: violation' : cell.called === 'ok' ? ', called' : '';
  // A title on the cells that say something: the hidden, uncalled ones are most of a big catalog.
  const title =
    cell.state === 'hidden' && cell.called === null
      ? null
      : `${row.name} · call ${call}: ${STATE_WORDS[cell.state]}${called}`;
  return h(
    'td',
    { class: cls, title, 'data-state': cell.state, 'data-called': cell.called ?? undefined },
    glyph + mark,
  );
}

function timelineRow(row: TimelineRow, turns: readonly TurnReport[], quiet: boolean): Html {
  return h(
    'tr',
    { class: quiet ? 'quiet' : null, 'data-tool': row.name, 'data-kind': row.kind },
    h('th', { scope: 'row', title: row.name }, h('span', { class: 'name' }, row.name)),
    row.cells.map((c, i) => cellOf(row, c, turns[i]!.call)),
  );
}

const KIND_LABEL: Readonly<Record<TimelineRow['kind'], string>> = {
  tool_search: 'tool search',
  static: 'static tools',
  dynamic: 'dynamic tools',
  unknown: 'called, but in no catalog',
};

function legend(native: boolean): Html {
  const item = (cls: string, glyph: string, words: string): Html =>
    h('li', null, h('span', { class: `cell ${cls}` }, glyph), words);
  return h(
    'ul',
    { class: 'legend' },
    item('t-static', '■', 'static'),
    item('t-visible', '●', native ? 'visible / in the context' : 'visible'),
    item('t-loaded', '+', 'loaded at this call'),
    native ? item('t-deferred', '○', 'deferred') : null,
    item('t-hidden', '·', 'not offered'),
    item('t-visible c-ok', '●✓', 'called'),
    item('c-bad', '✗', 'called before it was loaded (violation)'),
  );
}

function timelineSection(r: SimulationReport): Html | null {
  const d = r.details;
  if (!d) return null;
  const turns = r.turns;
  const collapse = d.timeline.length > COLLAPSE_ABOVE;
  let quietShown = 0;
  let omitted = 0;
  const body: Html[] = [];
  let group: TimelineRow['kind'] | null = null;
  for (const row of d.timeline) {
    const quiet = collapse && !row.active;
    if (quiet && ++quietShown > QUIET_ROW_LIMIT) {
      omitted++;
      continue;
    }
    if (row.kind !== group) {
      group = row.kind;
      const n = d.timeline.filter((x) => x.kind === row.kind).length;
      body.push(
        h(
          'tr',
          {
            class:
              'group' +
              (quiet && d.timeline.filter((x) => x.kind === row.kind).every((x) => !x.active) ? ' quiet' : ''),
          },
          h('th', { colspan: turns.length + 1 }, `${KIND_LABEL[row.kind]} (${n})`),
        ),
      );
    }
    body.push(timelineRow(row, turns, quiet));
  }
  const active = d.timeline.filter((x) => x.active).length;
  const table = h(
    'table',
    { class: 'timeline', id: 'timeline-table' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, 'tool'),
        turns.map((t) => h('th', { scope: 'col' }, h('a', { href: `#${callId(t.call)}` }, String(t.call)))),
      ),
    ),
    h('tbody', null, body),
  );
  return h(
    'section',
    { id: 'timeline' },
    h('h2', null, 'Visibility timeline'),
    h('p', { class: 'muted' }, 'Model calls as columns (a header links to its call), tools as rows.'),
    legend(r.mode === 'native'),
    collapse
      ? frag(
          h('input', { type: 'checkbox', id: 'tl-all', class: 'tl-toggle' }),
          h(
            'p',
            { class: 'tl-controls' },
            h(
              'span',
              { class: 'when-few' },
              `Showing the ${plural(active, 'tool')} loaded or called of ${d.timeline.length}. `,
            ),
            h('span', { class: 'when-all' }, `Showing all ${d.timeline.length} tools. `),
            h(
              'label',
              { for: 'tl-all' },
              h('span', { class: 'when-few' }, 'show every tool'),
              h('span', { class: 'when-all' }, 'show only loaded and called tools'),
            ),
          ),
          h('div', { class: 'scroll tl-wrap' }, table),
        )
      : h('div', { class: 'scroll tl-wrap' }, table),
    omitted > 0
      ? h('p', { class: 'muted' }, `${plural(omitted, 'more tool')} never loaded nor called are not listed.`)
      : null,
  );
}

function cacheCell(t: CallTokens): Html {
  if (t.cache.state === 'break')
    return h(
      'span',
      { class: 'tag warn', title: 'the tools block differs from the previous call: the prompt cache breaks here' },
      `cache break at char ${t.cache.first_diff ?? '?'}`,
    );
  if (t.cache.state === 'hit') return h('span', { class: 'ok' }, 'hit');
  return h('span', { class: 'muted' }, 'first call');
}

function tokensSection(r: SimulationReport): Html | null {
  const sm = r.summary;
  if (!sm.tokens || r.turns.some((t) => !t.tokens)) return null;
  const max = Math.max(1, largest(r.turns.map((t) => Math.max(t.tokens!.total, t.tokens!.all_up_front))));
  const rows = r.turns.map((t) => {
    const k = t.tokens!;
    return h(
      'tr',
      { class: k.cache.state === 'break' ? 'break' : null },
      h('th', { scope: 'row' }, callLink(t.call)),
      h(
        'td',
        null,
        h(
          'div',
          { class: 'bars' },
          bar(k.total, max, 'a'),
          h('span', { class: 'num' }, k.total.toLocaleString('en-US')),
        ),
        k.reminder > 0 ? h('div', { class: 'muted' }, `incl. reminder ${k.reminder}`) : null,
      ),
      h(
        'td',
        null,
        h(
          'div',
          { class: 'bars' },
          bar(k.all_up_front, max, 'b'),
          h('span', { class: 'num' }, k.all_up_front.toLocaleString('en-US')),
        ),
      ),
      h('td', { class: 'num' }, k.saved.toLocaleString('en-US')),
      h('td', null, cacheCell(k)),
    );
  });
  const tk = sm.tokens;
  return h(
    'section',
    { id: 'tokens', class: 'tokens' },
    h('h2', null, 'Tokens per call'),
    h(
      'p',
      { class: 'muted' },
      `Tool tokens at each call with tool search, against ` +
        `all ${r.catalog.dynamic + r.catalog.static} tools up front (${tk.note}).`,
    ),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { class: 'grid tokgrid' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', null, 'call'),
            h('th', null, 'tool search'),
            h('th', null, 'all up front'),
            h('th', { class: 'num' }, 'saved'),
            h('th', null, 'prompt cache'),
          ),
        ),
        h('tbody', null, rows),
        h(
          'tfoot',
          null,
          h(
            'tr',
            null,
            h('th', null, 'total'),
            h('td', { class: 'num' }, tk.total.toLocaleString('en-US')),
            h('td', { class: 'num' }, tk.all_up_front.toLocaleString('en-US')),
            h('td', { class: 'num' }, `${tk.saved.toLocaleString('en-US')} (${tk.saved_percent}%)`),
            h('td', null, sm.cache ? `${plural(sm.cache.hits, 'hit')}, ${plural(sm.cache.breaks, 'break')}` : ''),
          ),
        ),
      ),
    ),
    sm.cache?.by_mode
      ? h(
          'p',
          { class: 'muted' },
          `Cache breaks by mode: default ${sm.cache.by_mode.default.breaks}, ` +
            `native ${sm.cache.by_mode.native.breaks} (of ${sm.cache.compared} calls compared).`,
        )
      : null,
  );
}

function outcome(o: SearchOutcome | null, other: SearchOutcome | null, label: string): Html {
  if (o === null) return h('div', null, h('h4', null, label), h('span', { class: 'muted' }, 'no recorded result'));
  if ('error' in o)
    return h(
      'div',
      null,
      h('h4', null, label),
      h('span', { class: 'bad' }, 'not a result: '),
      h('code', { class: 'name' }, o.error),
    );
  const others = other !== null && 'matches' in other ? new Set(other.matches) : null;
  return h(
    'div',
    null,
    h('h4', null, label),
    o.matches.length === 0
      ? h('span', { class: 'muted' }, 'no matches')
      : h(
          'ol',
          null,
          o.matches.map((n) =>
            h(
              'li',
              { class: others !== null && !others.has(n) ? (label === 'recorded' ? 'lose' : 'gain') : null },
              name(n),
            ),
          ),
        ),
  );
}

function keywordCell(k: KeywordScore): Html {
  const part =
    k.part !== null
      ? frag(' ', name(k.part))
      : k.rule === 'name-substring'
        ? ' (full name)'
        : k.rule === 'description'
          ? ' (description)'
          : '';
  return h(
    'td',
    null,
    h('span', { class: k.points > 0 ? 'pts' : 'pts0' }, k.points > 0 ? `+${k.points}` : '0'),
    ' ',
    k.rule === 'none' ? h('span', { class: 'muted' }, 'no match') : k.rule,
    part,
  );
}

function explainTable(ex: SearchExplanation): Html {
  const rows = ex.tools.map((t: ExplainedTool) =>
    h(
      'tr',
      null,
      h('th', { scope: 'row' }, name(t.name)),
      h('td', { class: 'num' }, t.unknown ? '—' : t.rank === null ? '—' : String(t.rank)),
      h(
        'td',
        { class: 'num' },
        t.unknown
          ? h('span', { class: 'bad' }, 'not a dynamic tool')
          : t.excluded_by !== null
            ? h('span', { class: 'bad' }, `0 (+${t.excluded_by} required)`)
            : String(t.score),
      ),
      t.keywords.map(keywordCell),
    ),
  );
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'grid explain' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', null, 'tool'),
          h('th', { class: 'num' }, 'rank'),
          h('th', { class: 'num' }, 'score'),
          ex.keywords.map((k) => h('th', null, h('code', null, `${k.required ? '+' : ''}${k.keyword}`))),
        ),
      ),
      h('tbody', null, rows),
    ),
    h(
      'p',
      { class: 'muted' },
      `${ex.total_matches} tools score above 0; limit ${ex.max_results ?? 5}. ` +
        `${RULES_IN_WORDS.join(', ')}; a keyword scores its best rule.`,
    ),
  );
}

function searchBlock(
  s: SearchReport,
  turn: TurnReport,
  index: number,
  replay: boolean,
  where: 'call' | 'replay' = 'call',
): Html {
  const ex = s.explain ?? null;
  const mode = s.mode ?? 'invalid arguments';
  const head = h(
    'div',
    null,
    h('span', { class: 'tag' }, s.client_proxied ? `client-proxied ${mode}` : mode),
    ' ',
    ex !== null ? h('span', { class: 'q' }, `"${ex.query}"`) : h('code', { class: 'q' }, s.arguments),
    ex !== null && ex.requested_max_results !== null
      ? h('span', { class: 'muted' }, ` · max_results ${ex.requested_max_results}`)
      : null,
    s.differs ? frag(' ', h('span', { class: 'tag warn' }, 'differs today')) : null,
  );
  const results = replay
    ? h(
        'div',
        { class: 'side' },
        outcome(s.recorded, s.replayed, 'recorded'),
        outcome(s.replayed, s.recorded, 'replayed (catalog now)'),
      )
    : s.recorded !== null
      ? outcome(s.recorded, null, 'result')
      : outcome(s.replayed, null, 'no recorded result; today');
  const explain =
    ex !== null && s.mode === 'keyword' && ex.tools.length > 0
      ? h(
          'details',
          { class: 'why', id: idFor(where === 'call' ? 'explain' : 'replay-explain', turn.call, index) },
          h('summary', null, 'why these tools: per-keyword scores'),
          explainTable(ex),
        )
      : ex !== null && s.mode === 'keyword'
        ? h('p', { class: 'muted' }, 'No tool matched: a keyword must appear in a name or a description.')
        : null;
  return h(
    'div',
    { class: 'search', id: idFor(where === 'call' ? 'search' : 'replay-search', turn.call, index) },
    head,
    results,
    explain,
  );
}

function callSection(t: TurnReport, r: SimulationReport, replay: boolean): Html {
  const violations = r.violations.filter((v) => v.call === t.call);
  const bad = violations.some((v) => v.severity === 'error');
  const searches = new Map(t.searches.map((s, i) => [s.call_id, { s, i }]));
  const k = t.tokens;
  const facts: Child[] = [
    plural(t.message_count, 'message'),
    `visible ${t.visible.length}`,
    r.mode === 'native' ? `deferred ${t.deferred.length}` : null,
    t.reminder_inserted && t.reminder_index !== null ? `reminder inserted at ${t.reminder_index}` : null,
    k ? `${k.total} tool tokens (all up front ${k.all_up_front})` : null,
    k && k.cache.state === 'break' ? h('span', { class: 'tag warn' }, 'cache break') : null,
    t.refilled && t.call > 1 ? h('span', { class: 'tag warn' }, 'tool list refilled') : null,
  ].filter((x) => x !== null);
  const calls = t.tool_calls.map((c) => {
    const found = searches.get(c.id);
    return h(
      'li',
      null,
      c.status === 'ok' ? h('span', { class: 'ok' }, '✓ ') : h('span', { class: 'bad' }, '✗ '),
      name(c.name),
      c.status === 'not-loaded'
        ? h('span', { class: 'bad' }, ' not loaded: no tool_search result had named it')
        : c.status === 'unknown'
          ? h('span', { class: 'bad' }, ' unknown: not a tool of the catalog')
          : null,
      found
        ? searchBlock(found.s, t, found.i, replay)
        : c.arguments !== ''
          ? h('div', { class: 'muted mono' }, clip(c.arguments, 300))
          : null,
    );
  });
  return h(
    'section',
    { class: `call${bad ? ' has-bad' : ''}`, id: callId(t.call) },
    h(
      'h3',
      null,
      `call ${t.call}`,
      facts.map((f) => h('span', { class: 'muted' }, '· ', f)),
    ),
    t.added.length > 0 ? h('div', null, h('span', { class: 'ok' }, 'loaded at this call: '), names(t.added)) : null,
    t.server_searches.map((ss) =>
      h(
        'div',
        { class: 'search' },
        h('span', { class: 'tag' }, ss.execution === 'client' ? 'client search' : 'server search'),
        ' ',
        ss.query !== '' ? h('span', { class: 'q' }, `"${ss.query}"`) : null,
        ss.pending
          ? [' ', h('span', { class: 'warn' }, 'pending'), ' (no tool_search_output yet)']
          : [' loaded ', names(ss.loaded, 'nothing')],
      ),
    ),
    t.provider_calls.map((pc) =>
      h(
        'div',
        { class: 'search' },
        h('span', { class: 'tag' }, 'provider tool'),
        ' ',
        pc.name !== null || pc.server !== null
          ? h('span', { class: 'name' }, [pc.server, pc.name].filter((x) => x !== null).join('.'))
          : null,
        ` ${pc.type}, run by the ${pc.executed_by}`,
        pc.arguments !== '' ? h('div', { class: 'muted mono' }, clip(pc.arguments, 300)) : null,
      ),
    ),
    calls.length > 0 ? h('ul', { class: 'calllist' }, calls) : null,
    violations
      .filter((v) => v.kind !== 'not-loaded' && v.kind !== 'unknown')
      .map((v) => h('ul', { class: 'violations' }, violationItem(v))),
    t.assistant_text !== '' && t.tool_calls.length === 0 ? h('p', { class: 'muted' }, `“${t.assistant_text}”`) : null,
    t.message_index === null
      ? h('p', { class: 'muted' }, '(no recorded answer: the call after the last message)')
      : null,
  );
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function replaySection(r: SimulationReport): Html | null {
  if (r.replay === null) return null;
  const differing = r.turns.flatMap((t) => t.searches.map((s, i) => ({ t, s, i })).filter((x) => x.s.differs));
  const replayed = r.details?.replay_visible ?? null;
  // Consecutive calls with the same change are shown once (as the text report does).
  const changes = visibilityRanges(r.replay.visibility).map((g) => {
    const at = r.turns.findIndex((t) => t.call === g.first);
    const turn = r.turns[at]!;
    const gained = new Set(g.gained);
    const lost = new Set(g.lost);
    const after = replayed?.[at] ?? null;
    const calls =
      g.first === g.last
        ? callLink(g.first)
        : frag(
            'calls ',
            h('a', { href: `#${callId(g.first)}` }, String(g.first)),
            '–',
            h('a', { href: `#${callId(g.last)}` }, String(g.last)),
          );
    return h(
      'div',
      { class: 'change', 'data-first': g.first, 'data-last': g.last },
      h('h3', null, calls, ' would see something else'),
      h(
        'div',
        { class: 'side' },
        h(
          'div',
          null,
          h('h4', null, 'visible as recorded'),
          h(
            'ul',
            null,
            turn.visible.map((n) => h('li', { class: lost.has(n) ? 'lose' : null }, name(n))),
          ),
        ),
        h(
          'div',
          null,
          h('h4', null, 'visible with today’s results'),
          after === null
            ? h('p', null, names(g.gained))
            : h(
                'ul',
                null,
                after.map((n) => h('li', { class: gained.has(n) ? 'gain' : null }, name(n))),
              ),
        ),
      ),
    );
  });
  return h(
    'section',
    { id: 'replay' },
    h('h2', null, 'Replay: recorded against today'),
    h(
      'p',
      null,
      r.replay.differences === 0
        ? 'Every recorded search returns the same today.'
        : `${plural(r.replay.differences, 'search', 'searches')} ` +
            `${r.replay.differences === 1 ? 'returns' : 'return'} something else today.`,
    ),
    differing.map(({ t, s, i }) =>
      h('div', null, h('h3', null, callLink(t.call), ' · tool_search'), searchBlock(s, t, i, true, 'replay')),
    ),
    changes,
  );
}

/** The whole page. */
export function renderSimulationHtml(r: SimulationReport): string {
  const replay = r.replay !== null;
  return page({
    title: `simulate · ${r.transcript.file}`,
    kind: 'simulate-report',
    body: frag(
      header(r),
      violationsSection(r),
      timelineSection(r),
      tokensSection(r),
      replaySection(r),
      h(
        'section',
        { id: 'calls' },
        h('h2', null, 'Model calls'),
        h(
          'p',
          null,
          h(
            'button',
            { class: 'js-only', type: 'button', 'data-open-all': 'open', 'data-scope': 'calls' },
            'open every explanation',
          ),
          ' ',
          h(
            'button',
            { class: 'js-only', type: 'button', 'data-open-all': 'close', 'data-scope': 'calls' },
            'close them',
          ),
        ),
        h(
          'div',
          { class: 'calls' },
          r.turns.map((t) => callSection(t, r, replay)),
        ),
      ),
      footer('toolsearch simulate'),
    ),
  });
}

/** How the report's engine was chosen. */
function engineHow(r: SimulationReport): string {
  if (r.engine.by === 'flag') return '--engine';
  return r.engine.by === 'recording' ? `detected: ${r.engine.evidence ?? ''}` : 'the default: the reference';
}
