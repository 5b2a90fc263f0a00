/**
 * The stepper's screen as lines: layout for a terminal size, and one builder
 * per panel (header, call list, tool list, details, messages, footer, help).
 * Everything is fitted to its width here; components only draw.
 *
 * Over 400 lines: one short builder per panel, sharing the layout.
 */
import { TOOL_SEARCH_NAME } from '../../core/toolsearch.js';
import type { TokenSummary } from '../../jobs/tokens/account.js';
import { formatCache, formatCount } from '../../jobs/tokens/format.js';
import { displayWidth } from '../../render/width.js';
import { hintLine, plural, scrollWindow, titleLine } from '../chrome.js';
import { helpBody, helpFooter, type HelpEntry, type HelpSection } from '../help.js';
import {
  fitLine,
  fitName,
  lineWidth,
  nameCell,
  rowLine,
  safe,
  safeName,
  seg,
  wrapText,
  type Line,
  type Segment,
} from '../line.js';
import type { Size } from '../size.js';
import { messageWindow, type MessageContext } from './messages.js';
import {
  callMarks,
  callMessages,
  callSummary,
  paramRows,
  searchesById,
  toolHistory,
  toolKind,
  toolRows,
  violationsAt,
  visibilityChangeAt,
  type StepperInputs,
  type ToolRow,
} from './model.js';
import type { StepperState } from './state.js';
import { largest } from '../../core/append.js';

export interface StepperLayout {
  readonly width: number;
  /** Rows used (one less than the terminal, see `useTerminalSize`). */
  readonly height: number;
  readonly leftWidth: number;
  readonly rightWidth: number;
  /** Rows of the call list / tool panel, including their title line. */
  readonly topHeight: number;
  /** Rows of the messages panel, including its title line. */
  readonly messagesHeight: number;
}

export function stepperLayout(size: Size): StepperLayout {
  const width = size.columns;
  const height = size.rows - 1;
  const body = Math.max(2, height - 2); // header + footer
  const messagesHeight = Math.max(2, Math.min(body - 4, Math.floor(body * 0.36)));
  const topHeight = Math.max(2, body - messagesHeight);
  const leftWidth = Math.max(18, Math.min(40, Math.floor(width * 0.38)));
  const rightWidth = Math.max(10, width - leftWidth - 1);
  return { width, height, leftWidth, rightWidth, topHeight, messagesHeight };
}

export function headerLine(s: StepperState, width: number): Line {
  const r = s.report;
  // Most telling first: the file name is cut before the counts are.
  const parts: Segment[] = [
    seg('mode '),
    seg(r.mode, 'accent'),
    seg(' · replay '),
    r.replay === null
      ? seg('off', 'dim')
      : seg(`on, ${plural(r.replay.differences, 'difference')}`, r.replay.differences > 0 ? 'replay' : 'accent'),
    seg(` · ${plural(r.summary.calls, 'call')}`),
  ];
  if (r.summary.errors > 0) parts.push(seg(' · '), seg(`✗ ${plural(r.summary.errors, 'error')}`, 'error'));
  if (r.summary.warnings > 0) parts.push(seg(' · '), seg(`! ${plural(r.summary.warnings, 'warning')}`, 'warning'));
  parts.push(seg(` · ${safeName(r.transcript.file)} (${r.transcript.format})`, 'dim'));
  return fitLine(parts, width);
}

/**
 * A call's summary fitted: a single tool name is cut in the middle (its end tells it apart), anything else at the end.
 */
function summaryText(summary: string, width: number): string {
  const text = safe(summary);
  return /^[^\s,"(]+$/.test(summary) ? fitName(text, width) : text;
}

export function callListLines(s: StepperState, width: number, height: number): Line[] {
  const turns = s.report.turns;
  const lines: Line[] = [titleLine([seg(`Calls (${turns.length})`)], width)];
  const rows = Math.max(0, height - 1);
  const digits = String(Math.max(1, turns.length)).length;
  const { start, end } = scrollWindow(turns.length, s.selected, rows);
  for (let i = start; i < end; i++) {
    const t = turns[i]!;
    const marks = callMarks(s.report, t);
    const selected = i === s.selected;
    const mark = marks.errors > 0 ? seg('✗', 'error') : marks.warnings > 0 ? seg('!', 'warning') : seg(' ');
    const replay = marks.replayDiffers ? seg('≠', 'replay') : seg(' ');
    const line: Line = [
      seg(selected ? '›' : ' ', selected ? 'heading' : 'plain'),
      seg(String(t.call).padStart(digits + 1), selected ? 'heading' : 'dim'),
      seg(' '),
      mark,
      replay,
      seg(' '),
      seg(summaryText(callSummary(t), Math.max(1, width - digits - 6))),
    ];
    lines.push(rowLine(line, width, selected && s.focus === 'calls'));
  }
  return lines;
}

function toolTag(inputs: StepperInputs, row: ToolRow): Segment {
  if (row.lost) return seg('lost on replay', 'replay');
  const kind = toolKind(inputs, row.name);
  if (kind === 'static') return seg('[static]', 'dim');
  if (kind === 'search') return seg('[search tool]', 'dim');
  if (kind === 'unknown') return seg('[not in catalog]', 'warning');
  return seg(safe(inputs.tools.get(row.name)?.description ?? ''), 'dim');
}

function toolRowLine(
  inputs: StepperInputs,
  row: ToolRow,
  selected: boolean,
  focused: boolean,
  width: number,
  nameWidth: number,
): Line {
  const marker = row.added
    ? seg('+', 'added')
    : row.lost
      ? seg('-', 'replay')
      : row.section === 'gained'
        ? seg('+', 'replay')
        : row.loaded
          ? seg('•', 'accent')
          : seg(' ');
  const name = nameCell(safeName(row.name), nameWidth);
  const tone = row.added ? 'added' : row.section === 'gained' ? 'replay' : 'plain';
  return rowLine(
    [seg(selected ? '›' : ' ', 'heading'), marker, seg(' '), seg(name, tone), seg(' '), toolTag(inputs, row)],
    width,
    selected && focused,
  );
}

const SECTION_TITLES = { visible: 'Visible', deferred: 'Deferred', gained: 'Replay would add' } as const;

export function toolPanelLines(s: StepperState, inputs: StepperInputs, width: number, height: number): Line[] {
  const turn = s.report.turns[s.selected];
  if (!turn) return [titleLine([seg('No model calls')], width)];
  const rows = toolRows(s.report, s.selected, s.filter);
  const title: Segment[] = [
    seg(`Call ${turn.call}/${s.report.turns.length}`),
    seg(` · ${turn.visible.length} visible`),
  ];
  if (turn.added.length > 0) title.push(seg(` (+${turn.added.length})`, 'added'));
  if (s.report.mode === 'native') {
    const loaded = (s.filter === '' ? rows : toolRows(s.report, s.selected, '')).filter((r) => r.loaded).length;
    title.push(seg(` · ${turn.deferred.length} deferred${loaded > 0 ? ` (•${loaded} loaded)` : ''}`));
  }
  title.push(seg(` · ${turn.hidden_count} hidden`));
  const change = visibilityChangeAt(s.report, turn.call);
  if (change) title.push(seg(` · replay +${change.gained.length} -${change.lost.length}`, 'replay'));
  // Token figures are estimates (`~`); when the title has no room for them, they get a line of their own.
  const tokens: Segment[] = turn.tokens
    ? [
        seg(`~${formatCount(turn.tokens.total)} tok · `),
        seg(formatCache(turn.tokens.cache), turn.tokens.cache.state === 'break' ? 'replay' : 'plain'),
      ]
    : [];
  const fits = lineWidth([seg('─ '), ...title, seg(' · '), ...tokens, seg(' ─')]) <= width;
  const lines: Line[] = [titleLine(tokens.length > 0 && fits ? [...title, seg(' · '), ...tokens] : title, width)];
  if (tokens.length > 0 && !fits) lines.push(fitLine([seg('  '), ...tokens], width));

  // Violations are what the user came for: wrapped, up to three lines each.
  for (const v of violationsAt(s.report, turn.call)) {
    const tone = v.severity;
    const text = wrapText(`${v.kind}: ${safe(v.message)}`, Math.max(1, width - 2), 3);
    text.forEach((t, i) =>
      lines.push(fitLine([seg(i === 0 ? (tone === 'error' ? '✗ ' : '! ') : '  ', tone), seg(t, tone)], width)),
    );
  }
  if (turn.refilled && turn.call > 1)
    lines.push(fitLine([seg('! ', 'warning'), seg('the framework refilled a nil tool list before this call')], width));

  if (s.editingFilter || s.filter !== '') {
    const cursor = s.editingFilter ? '▏' : '';
    lines.push(
      fitLine(
        [
          seg('/ ', 'key'),
          seg(`filter: ${safeName(s.filter)}${cursor}`, 'accent'),
          seg(`  ${rows.length} match`, 'dim'),
        ],
        width,
      ),
    );
  }

  // Rows with section headers between them, scrolled to keep the cursor in view.
  const items: Array<{ row: ToolRow; index: number } | { header: string }> = [];
  let section: string | null = null;
  rows.forEach((row, index) => {
    if (row.section !== section) {
      section = row.section;
      const count = rows.filter((r) => r.section === row.section).length;
      items.push({ header: `${SECTION_TITLES[row.section]} (${count})` });
    }
    items.push({ row, index });
  });
  if (rows.length === 0)
    items.push({ header: s.filter !== '' ? 'No tool matches the filter' : 'No tools offered at this call' });
  const room = Math.max(0, height - lines.length);
  // Names get the room they need, leaving at least 10 columns for the tag or description.
  const longest = Math.max(12, largest(rows.map((r) => displayWidth(safeName(r.name)))));
  const nameWidth = Math.max(8, Math.min(longest, width - 4 - 10));
  const cursorItem = items.findIndex((it) => 'row' in it && it.index === s.toolCursor);
  const { start, end } = scrollWindow(items.length, Math.max(0, cursorItem), room);
  for (let i = start; i < end; i++) {
    const it = items[i]!;
    if ('header' in it) lines.push(fitLine([seg(it.header, 'heading')], width));
    else lines.push(toolRowLine(inputs, it.row, it.index === s.toolCursor, s.focus === 'tools', width, nameWidth));
  }
  return lines;
}

function historyLines(s: StepperState, inputs: StepperInputs, name: string): string[] {
  const kind = toolKind(inputs, name);
  const turn = s.report.turns[s.selected];
  const out: string[] = [];
  if (kind === 'static') out.push('static: always visible, never searched');
  else if (kind === 'search')
    out.push(
      s.report.mode === 'native'
        ? 'the search tool (model-native: registered with the model)'
        : 'the search tool the middleware adds; always visible',
    );
  else if (kind === 'unknown') out.push('not in the catalog');
  const h = toolHistory(s.report, name);
  if (turn) {
    if (turn.visible.includes(name)) out.push(`visible at call ${turn.call}`);
    else if (turn.deferred.includes(name))
      out.push(`deferred at call ${turn.call}: the model can load it with its own search`);
    else out.push(`not visible at call ${turn.call}`);
  }
  if (kind === 'dynamic') {
    if (h.addedAt !== null) out.push(`added at call ${h.addedAt} by forward selection`);
    else if (h.firstVisible !== null) out.push(`visible from call ${h.firstVisible} (the full tool list)`);
    else if (s.report.mode === 'native')
      out.push("never in the visible list: deferred, offered through the model's own search");
    else out.push('never visible in this conversation');
    if (h.loadedBy) {
      const q = h.loadedBy.query === null ? '(arguments did not decode)' : `"${safe(h.loadedBy.query)}"`;
      out.push(
        `${
          h.loadedBy.server ? 'loaded by the server-side search' : 'named by tool_search'
        } ${q} at call ${h.loadedBy.call}`,
      );
    }
  }
  if (h.calls.length > 0)
    out.push(
      `called at ${h.calls.map((c) => `call ${c.call} ${c.status === 'ok' ? '✓' : `✗ ${c.status}`}`).join(', ')}`,
    );
  else if (name !== TOOL_SEARCH_NAME) out.push('never called');
  return out;
}

export function detailLines(s: StepperState, inputs: StepperInputs, width: number, height: number): Line[] {
  const name = s.detail ?? '';
  const meta = inputs.tools.get(name);
  const body: Line[] = [];
  const text = (t: string, tone: Segment['tone'] = 'plain'): void => {
    for (const l of wrapText(t, width - 2)) body.push([seg('  '), seg(l, tone)]);
  };
  body.push([seg('How it got here', 'heading')]);
  for (const h of historyLines(s, inputs, name)) text(h);
  body.push([seg('Description', 'heading')]);
  const desc = meta?.description ?? '';
  text(desc === '' ? '(empty: keywords can only match the name)' : safe(desc), desc === '' ? 'dim' : 'plain');
  body.push([seg('Parameters', 'heading')]);
  const params = paramRows(meta?.parameters);
  if (params === null) {
    text(meta?.parameters === undefined ? '(none)' : safe(JSON.stringify(meta.parameters)), 'dim');
  } else if (params.length === 0) text('(none)', 'dim');
  else {
    for (const p of params) {
      body.push(
        fitLine(
          [
            seg('  '),
            seg(safeName(p.name), 'accent'),
            seg(` ${safe(p.type)}`),
            seg(p.required ? ' required' : '', 'warning'),
            seg(p.description === '' ? '' : ` — ${safe(p.description)}`, 'dim'),
          ],
          width,
        ),
      );
    }
  }
  const room = Math.max(0, height - 1);
  const maxScroll = Math.max(0, body.length - room);
  const scroll = Math.min(s.detailScroll, maxScroll);
  const more = body.length > room ? ` (${scroll + 1}–${Math.min(body.length, scroll + room)} of ${body.length})` : '';
  return [
    titleLine([seg(safeName(name)), seg(more, 'dim')], width),
    ...body.slice(scroll, scroll + room).map((l) => fitLine(l, width)),
  ];
}

export function messagesLines(
  s: StepperState,
  inputs: StepperInputs,
  ctx: MessageContext,
  width: number,
  height: number,
): Line[] {
  const turn = s.report.turns[s.selected];
  if (!turn) return [titleLine([seg('Messages')], width)];
  const entries = callMessages(inputs, turn);
  const received = entries.filter((e) => !e.answer).length;
  const win = messageWindow(ctx, entries, Math.max(0, height - 1), s.messageScroll);
  const reminder = turn.reminder_index === null ? '' : ` · reminder at ${turn.reminder_index}`;
  const scrolled = s.messageScroll > 0 ? ` · scrolled ${Math.min(s.messageScroll, win.maxScroll)} up (PgDn)` : '';
  const title = titleLine(
    [seg(`Messages of call ${turn.call}`), seg(` · ${received} received${reminder}${scrolled}`, 'dim')],
    width,
  );
  return [title, ...win.lines.map((l) => fitLine(l, width))];
}

export function messageContext(s: StepperState): MessageContext {
  const turn = s.report.turns[s.selected];
  return { report: s.report, searches: searchesById(s.report), reminderInsertedNow: turn?.reminder_inserted ?? false };
}

const HINTS: ReadonlyArray<readonly [string, string]> = [
  ['↑↓', 'move'],
  ['Tab', 'panel'],
  ['⏎', 'details'],
  ['m', 'mode'],
  ['r', 'replay'],
  ['/', 'filter'],
  ['?', 'help'],
  ['q', 'quit'],
];

/** The footer; `helpScrolls`: the help is open and taller than its window. */
export function footerLine(s: StepperState, width: number, helpScrolls = false): Line {
  if (s.help) return helpFooter(helpScrolls, width);
  if (s.pending)
    return fitLine(
      [seg('… ', 'accent'), seg(`re-simulating (mode ${s.pending.mode}, replay ${s.pending.replay ? 'on' : 'off'})`)],
      width,
    );
  if (s.error !== null)
    return fitLine([seg('✗ ', 'error'), seg(`re-simulation failed: ${safe(s.error)}`, 'error')], width);
  if (s.editingFilter)
    return hintLine(
      [
        ['type', 'to filter tools by name'],
        ['⏎', 'keep'],
        ['Esc', 'clear'],
      ],
      width,
    );
  if (s.detail !== null)
    return hintLine(
      [
        ['←/Esc', 'back'],
        ['↑↓', 'scroll'],
        ['n/p', 'next/previous call'],
        ['q', 'quit'],
      ],
      width,
    );
  return hintLine(HINTS, width);
}

const HELP_KEYS: readonly HelpEntry[] = [
  { key: '↑/↓  j/k', text: 'previous / next call (in the tool list: previous / next tool)' },
  { key: 'n / p  g / G', text: 'next / previous call from anywhere; first / last (Home/End)' },
  { key: 'Tab', text: 'switch between the call list and the tool list' },
  { key: '→ Enter  ← Esc', text: 'into the tool list; on a tool: its details / back' },
  { key: 'PgUp / PgDn', text: 'scroll the messages of the call' },
  { key: 'm', text: 'switch mode default ⇄ native (re-simulates)' },
  { key: 'r', text: 'replay searches on the current catalog (≠ marks differences)' },
  { key: '/', text: 'filter tools by name (Enter keeps it, Esc clears it)' },
  { key: 'q  Esc  Ctrl-C', text: 'quit (Esc: when nothing is open)' },
];

/** Flowed several to a line: at 80 columns four lines. */
const HELP_MARKS: readonly HelpEntry[] = [
  { key: '›', text: 'selected' },
  { key: '+', text: 'added at this call by forward selection' },
  { key: '✗ / !', text: 'error / warning' },
  { key: '≠', text: 'replay: a search returns something else now' },
  { key: '-', text: 'replay: no longer visible' },
  { key: '•', text: 'native: deferred, loaded by a search' },
  { key: 'mw', text: 'reminder inserted by the middleware' },
  { key: '▶', text: "the assistant's answer to the call" },
];

/** What the token figures of the call title mean (only when the report has them: not with `--no-tokens`). */
function tokenHelp(tokens: TokenSummary): HelpSection {
  const format = tokens.tool_format === 'anthropic' ? 'Anthropic' : 'OpenAI';
  return {
    title: 'Tokens (estimates)',
    entries: [
      {
        key: '~1,234 tok',
        text:
          `${tokens.encoding} estimate (--tokenizer) of what tool search ` +
          `puts in the context at this call: tools + reminder`,
      },
      { key: 'cold · hit', text: "first call · tools block byte-identical to the previous call's" },
      {
        key: 'break@N',
        text:
          `tools block (${format} JSON) first differs from the previous call's ` +
          `at character N: a provider's prefix cache breaks there`,
      },
    ],
  };
}

/** Every line of the stepper's help at `width` (the container windows them). */
export function helpLines(width: number, tokens?: TokenSummary): Line[] {
  const sections: HelpSection[] = [
    { title: 'Keys', entries: HELP_KEYS },
    { title: 'Marks', legend: HELP_MARKS },
  ];
  if (tokens) sections.push(tokenHelp(tokens));
  return helpBody(sections, width);
}
