/**
 * Explore's screen as lines: layout for a terminal size and one builder per
 * part (header, query, status, results, baseline comparison, explanation,
 * footer, help), each fitted to its width here.
 *
 * Over 400 lines: one short builder per part, sharing the layout.
 */
import { RULES } from '../../core/scorer.js';
import { displayWidth, graphemes } from '../../render/width.js';
import {
  bar,
  cell,
  fitLine,
  nameCell,
  padLine,
  rowLine,
  safe,
  safeName,
  seg,
  withTone,
  type Line,
  type Segment,
} from '../line.js';
import type { Size } from '../size.js';
import { hintLine, plural, scrollWindow, titleLine } from '../chrome.js';
import { helpBody, helpFooter, type HelpEntry } from '../help.js';
import { rankDelta, type ExploreResult } from './search.js';
import type { ExploreState } from './state.js';

/** What the screen shows besides the state. */
export interface ExploreView {
  readonly result: ExploreResult;
  /** The baseline's ranking of the query, when the comparison is on and loaded. */
  readonly baseline: readonly string[] | null;
  /** The baseline shown is still the previous query's (being re-ranked). */
  readonly baselineStale?: boolean;
  /** Where the tools came from (catalog files). */
  readonly source: string;
  readonly toolCount: number;
  /** Name parts of a tool, as the scorer splits them. */
  readonly partsOf: (name: string) => readonly string[];
}

export interface ExploreLayout {
  readonly width: number;
  readonly height: number;
  /** Rows for the results (title included). */
  readonly resultsHeight: number;
  /** Rows for the explanation (title included); 0 when there is none. */
  readonly explainHeight: number;
}

const FIXED_ROWS = 4; // header, query, status, footer

/** Rows the explanation wants: title, column heads, one per keyword. */
function explanationWant(result: ExploreResult): number {
  if (result.kind === 'keyword') return result.rows.length === 0 ? 0 : 2 + result.keywords.length;
  if (result.kind === 'select') return 2 + (result.unknown.length > 0 ? 1 : 0);
  return 0;
}

export function exploreLayout(size: Size, result: ExploreResult): ExploreLayout {
  const width = size.columns;
  const height = size.rows - 1;
  const body = Math.max(2, height - FIXED_ROWS);
  const want = explanationWant(result);
  // The results keep at least 6 rows (title + 5), the explanation gets what is left up to what it wants.
  const explainHeight = want === 0 ? 0 : Math.max(0, Math.min(want, body - Math.min(body, 6)));
  return { width, height, resultsHeight: body - explainHeight, explainHeight };
}

export function headerLine(s: ExploreState, view: ExploreView, width: number): Line {
  const fuse =
    s.fuse === 'on'
      ? seg('on', 'accent')
      : s.fuse === 'loading'
        ? seg('loading…', 'accent')
        : s.fuse === 'off'
          ? seg('off', 'dim')
          : seg('failed', 'error');
  return fitLine(
    [
      seg('toolsearch explore', 'heading'),
      seg(` · ${view.toolCount} tools · max_results `),
      seg(String(s.maxResults), 'accent'),
      seg(` · ${s.compare === 'fuse' ? 'fuse' : safeName(s.compare)} `),
      fuse,
      seg(` · ${safeName(view.source)}`, 'dim'),
    ],
    width,
  );
}

export function queryLine(s: ExploreState, width: number): Line {
  const label = seg('query › ', s.focus === 'query' ? 'key' : 'dim');
  const chars = Array.from(s.query);
  const room = Math.max(4, width - displayWidth(label.text) - 1);
  if (s.focus !== 'query') return fitLine([label, seg(safeName(s.query))], width);
  // Keep the cursor in view on long queries: show the end of the text around it.
  const before = safeName(chars.slice(0, s.cursor).join(''));
  const at = chars[s.cursor] !== undefined ? safeName(chars[s.cursor]!) : ' ';
  const after = safeName(chars.slice(s.cursor + 1).join(''));
  let shownBefore = before;
  while (displayWidth(shownBefore) > room - 2 && shownBefore.length > 0)
    shownBefore = graphemes(shownBefore).slice(1).join('');
  const lead = shownBefore !== before ? seg('…', 'dim') : seg('');
  return fitLine([label, lead, seg(shownBefore), seg(at, 'cursor'), seg(after)], width);
}

export function statusLine(view: ExploreView, width: number): Line {
  const r = view.result;
  switch (r.kind) {
    case 'empty':
      return fitLine(
        [
          seg('type keywords (', 'dim'),
          seg('+word', 'key'),
          seg(' is required) or ', 'dim'),
          seg('select:name1,name2', 'key'),
        ],
        width,
      );
    case 'error':
      return fitLine([seg('✗ ', 'error'), seg(safe(r.message), 'error')], width);
    case 'select':
      return fitLine(
        [
          seg('select: ', 'accent'),
          seg(`${plural(r.rows.length, 'tool')} returned`),
          r.unknown.length > 0 ? seg(` · ${r.unknown.length} skipped`, 'warning') : seg(''),
        ],
        width,
      );
    case 'keyword': {
      if (r.keywords.length === 0) return fitLine([seg('no keywords: no matches', 'warning')], width);
      const required = r.keywords.filter((k) => k.required).length;
      return fitLine(
        [
          seg(`${plural(r.keywords.length, 'keyword')}`),
          seg(required > 0 ? ` (${required} required)` : '', 'dim'),
          seg(` · ${r.total} of ${view.toolCount} tools match · showing ${r.rows.length}`),
        ],
        width,
      );
    }
    default: {
      const never: never = r;
      return never;
    }
  }
}

interface Row {
  readonly name: string;
  readonly score: number | null;
  readonly description: string;
}

function rowsOf(r: ExploreResult): Row[] {
  if (r.kind === 'keyword') return r.rows.map((x) => ({ name: x.name, score: x.score, description: x.description }));
  if (r.kind === 'select') return r.rows.map((x) => ({ name: x.name, score: null, description: x.description }));
  return [];
}

export function resultCount(r: ExploreResult): number {
  return rowsOf(r).length;
}

function emptyMessage(r: ExploreResult): string {
  if (r.kind === 'empty') return '';
  if (r.kind === 'error') return 'the reference returns an error for this query';
  return r.kind === 'select' ? 'no requested name is a dynamic tool' : 'no tool matches';
}

/** The reference's results: rank, name, score bar, description. */
export function resultLines(s: ExploreState, view: ExploreView, width: number, height: number): Line[] {
  const rows = rowsOf(view.result);
  const lines: Line[] = [titleLine([seg('Results'), seg(' (the reference)', 'dim')], width)];
  if (rows.length === 0) {
    const msg = emptyMessage(view.result);
    if (msg !== '') lines.push(fitLine([seg(`  ${msg}`, 'dim')], width));
    return lines;
  }
  const top = Math.max(1, ...rows.map((r) => r.score ?? 0));
  const rankW = String(rows.length).length + 1;
  const nameW = Math.min(
    Math.max(12, ...rows.map((r) => displayWidth(safeName(r.name)))),
    Math.max(12, Math.floor(width * 0.42)),
  );
  const barW = width >= 70 ? 8 : 0;
  const scoreW = Math.max(2, ...rows.map((r) => String(r.score ?? '').length));
  const sel = Math.min(s.selected, rows.length - 1);
  const { start, end } = scrollWindow(rows.length, sel, Math.max(0, height - 1));
  for (let i = start; i < end; i++) {
    const r = rows[i]!;
    const selected = i === sel;
    const score: Segment[] =
      r.score === null
        ? [seg(cell('select', barW > 0 ? barW + 1 + scoreW : scoreW), 'dim')]
        : [seg(barW > 0 ? `${bar(r.score / top, barW)} ` : '', 'accent'), seg(cell(String(r.score), scoreW, 'right'))];
    const line: Line = [
      seg(selected ? '›' : ' ', 'heading'),
      seg(cell(String(i + 1), rankW, 'right'), 'dim'),
      seg('  '),
      seg(nameCell(safeName(r.name), nameW)),
      seg('  '),
      ...score,
      seg('  '),
      seg(safe(r.description), 'dim'),
    ];
    lines.push(rowLine(line, width, selected && s.focus === 'results'));
  }
  return lines;
}

/** Reference and baseline side by side; each side marks where the other ranks the tool. */
export function comparisonLines(s: ExploreState, view: ExploreView, width: number, height: number): Line[] {
  const leftW = Math.floor((width - 1) / 2);
  const rightW = width - leftW - 1;
  const r = view.result;
  const refRows = rowsOf(r);
  const fuseState = s.fuse;
  const baseline = view.baseline ?? [];
  const isFuse = s.compare === 'fuse';
  // The letter that marks the other side's rank: f3 (fuse), a3 (ai-sdk), m3 (mastra), x3 (a module).
  const letter = isFuse ? 'f' : s.compare === 'ai-sdk' ? 'a' : s.compare === 'mastra' ? 'm' : 'x';
  const label = isFuse ? 'fuse' : safeName(s.compare);
  const head = titleLine([seg('Reference'), seg(` · ${label} rank`, 'dim')], leftW);
  const headR = titleLine(
    [
      seg(isFuse ? 'fuse.js baseline' : `${label} engine`),
      seg(view.baselineStale && fuseState === 'on' ? ' · ranking…' : ' · Δ vs reference', 'dim'),
    ],
    rightW,
  );
  const lines: Line[] = [[...head, seg('┬', 'dim'), ...headR]];
  const rows = Math.max(0, height - 1);
  const count = Math.max(refRows.length, baseline.length);
  const sel = Math.min(s.selected, Math.max(0, refRows.length - 1));
  const { start, end } = scrollWindow(count, sel, rows);
  const baselineRank = new Map<string, number>();
  baseline.forEach((n, i) => baselineRank.set(n, i + 1));
  const refRank = (name: string): number | undefined => (r.kind === 'keyword' ? r.rankOf(name) : undefined);
  const rankW = String(Math.max(1, count)).length;
  for (let i = start; i < Math.max(end, Math.min(rows, 1)); i++) {
    const ref = refRows[i];
    let left: Line = [];
    if (ref) {
      const selected = i === sel;
      const fr = baselineRank.get(ref.name);
      const mark = fr === undefined ? `${letter}—` : `${letter}${fr}`;
      const nameW = Math.max(4, leftW - rankW - 3 - 4 - 4);
      left = padLine(
        [
          seg(selected ? '›' : ' ', 'heading'),
          seg(cell(String(i + 1), rankW, 'right'), 'dim'),
          seg(' '),
          seg(nameCell(safeName(ref.name), nameW)),
          seg(cell(ref.score === null ? '' : String(ref.score), 4, 'right')),
          seg(cell(` ${mark}`, 4), fr === i + 1 ? 'dim' : 'replay'),
        ],
        leftW,
      );
      if (selected && s.focus === 'results') left = withTone(left, 'cursor');
    } else left = padLine([], leftW);
    let right: Line;
    if (fuseState !== 'on') {
      const msg =
        i > start
          ? ''
          : fuseState === 'loading'
            ? `  loading ${isFuse ? 'fuse.js' : label}…`
            : typeof fuseState === 'object'
              ? `  ✗ ${safe(fuseState.failed)}`
              : '';
      right = fitLine([seg(msg, typeof fuseState === 'object' ? 'error' : 'dim')], rightW);
    } else if (r.kind === 'select') {
      right = fitLine([seg(i > start ? '' : '  select: is not a search: no baseline', 'dim')], rightW);
    } else {
      const name = baseline[i];
      if (name === undefined)
        right = fitLine(
          [seg(i === 0 && baseline.length === 0 && r.kind === 'keyword' ? '  no match' : '', 'dim')],
          rightW,
        );
      else {
        const delta = rankDelta(refRank(name), i + 1);
        const nameW = Math.max(4, rightW - rankW - 2 - 5);
        right = fitLine(
          [
            seg(' '),
            seg(cell(String(i + 1), rankW, 'right'), 'dim'),
            seg(' '),
            seg(nameCell(safeName(name), nameW)),
            seg(cell(` ${delta}`, 5, 'right'), delta === '=' ? 'dim' : 'replay'),
          ],
          rightW,
        );
      }
    }
    lines.push([...left, seg('│', 'dim'), ...right]);
  }
  return lines;
}

export function explanationLines(s: ExploreState, view: ExploreView, width: number, height: number): Line[] {
  if (height <= 0) return [];
  const r = view.result;
  if (r.kind === 'select') {
    const lines: Line[] = [
      titleLine([seg('select:'), seg(' direct selection', 'dim')], width),
      fitLine([seg('  exact names, in the order given, duplicates kept; max_results does not apply', 'dim')], width),
    ];
    if (r.unknown.length > 0)
      lines.push(
        fitLine([seg('  skipped, not dynamic tools: ', 'warning'), seg(r.unknown.map(safeName).join(', '))], width),
      );
    return lines.slice(0, height);
  }
  if (r.kind !== 'keyword' || r.rows.length === 0) return [];
  const row = r.rows[Math.min(s.selected, r.rows.length - 1)]!;
  const parts = view.partsOf(row.name).map(safeName).join(' · ');
  const lines: Line[] = [
    titleLine(
      [
        seg(`#${Math.min(s.selected, r.rows.length - 1) + 1} ${safeName(row.name)}`),
        seg(` · score ${row.score} · parts ${parts}`, 'dim'),
      ],
      width,
    ),
  ];
  const kwW = Math.min(24, Math.max(8, ...row.explain.map((k) => displayWidth(safeName(k.keyword)) + 1)));
  const partW = Math.min(20, Math.max(6, ...row.explain.map((k) => displayWidth(safeName(k.part ?? '')))));
  lines.push(
    fitLine(
      [
        seg(
          `  ${cell('keyword', kwW)}  ${cell('rule', 14)}  ${cell('part', partW)}  ${cell('points', 6, 'right')}`,
          'dim',
        ),
      ],
      width,
    ),
  );
  for (const k of row.explain) {
    const tone = k.points === 0 ? 'dim' : 'plain';
    lines.push(
      fitLine(
        [
          seg('  '),
          seg(cell(`${k.required ? '+' : ''}${safeName(k.keyword)}`, kwW), k.required ? 'key' : 'plain'),
          seg('  '),
          seg(cell(k.rule, 14), tone),
          seg('  '),
          seg(cell(k.part === null ? '—' : safeName(k.part), partW), tone),
          seg('  '),
          seg(cell(String(k.points), 6, 'right'), k.points > 0 ? 'added' : 'dim'),
          seg(`  ${RULES[k.rule].summary}`, 'dim'),
        ],
        width,
      ),
    );
  }
  return lines.slice(0, height);
}

/** The footer; `helpScrolls`: the help is open and taller than its window. */
export function footerLine(s: ExploreState, width: number, helpScrolls = false): Line {
  if (s.help) return helpFooter(helpScrolls, width);
  if (s.notice !== null) return fitLine([seg(safeName(s.notice), 'accent')], width);
  if (s.focus === 'query')
    return hintLine(
      [
        ['Tab', 'results'],
        ['^F', 'fuse'],
        ['^Y', 'copy as test'],
        ['^U', 'clear'],
        ['Esc', 'quit'],
      ],
      width,
    );
  return hintLine(
    [
      ['↑↓', 'select'],
      ['f', 'fuse'],
      ['e', 'engine'],
      ['+/-', 'max_results'],
      ['y', 'copy as test'],
      ['Tab', 'query'],
      ['?', 'help'],
      ['q', 'quit'],
    ],
    width,
  );
}

const HELP_KEYS: readonly HelpEntry[] = [
  { key: 'typing', text: 'keywords, +required or select:a,b; re-ranked at every key' },
  { key: '←/→ Home/End', text: 'move in the query; Ctrl-U clears it, Ctrl-W deletes a word' },
  { key: 'Tab  Enter  ↓', text: 'into the results (Tab, Esc or / back to the query)' },
  { key: '↑/↓  j/k', text: 'select a result: its per-keyword explanation shows below' },
  { key: 'f  (Ctrl-F)', text: 'fuse.js baseline side by side; f3 = fuse rank, ↑/↓n = change' },
  { key: 'e', text: 'the next engine side by side: ai-sdk, mastra, your module' },
  { key: '+ / -', text: 'max_results up / down' },
  { key: 'y  (Ctrl-Y)', text: 'copy the query as a `toolsearch search --expect-first` test' },
  { key: 'q  Ctrl-C', text: 'quit (Esc in the query)' },
];

/** Every line of explore's help at `width` (the container windows them). */
export function helpLines(width: number): Line[] {
  return helpBody(
    [
      { title: 'Keys', entries: HELP_KEYS },
      {
        title: 'Scoring (the reference)',
        keyTone: 'accent',
        entries: (['exact-part', 'part-substring', 'name-substring', 'description'] as const).map((rule) => ({
          key: `${RULES[rule].points} points`,
          text: `${rule}: ${RULES[rule].summary}`,
        })),
        notes: ['a keyword scores its best rule; a tool scores the sum; a +required keyword scoring 0 drops the tool'],
      },
    ],
    width,
  );
}
