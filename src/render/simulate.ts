/**
 * Human output of `simulate`: a compact block per model call, then a
 * summary. Renders a {@link SimulationReport} and nothing else.
 */
import type { SearchOutcome, SearchReport, SimulationReport, ToolCallReport, TurnReport, Violation } from '../simulate/report.js';
import type { Style } from './color.js';
import { escapeText, inlineText } from './escape.js';
import { displayWidth, truncate } from './width.js';

export interface SimulateRenderOptions {
  readonly width: number;
  readonly style: Style;
  /** Show the recorded against the replayed result of every search. */
  readonly replay: boolean;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A piece of text: its plain form (measured) and its styled form (written). */
export interface Token {
  readonly text: string;
  readonly styled: string;
}

function tok(text: string, style?: (s: string) => string): Token {
  return { text, styled: style ? style(text) : text };
}

/** Lays out tokens separated by spaces on lines of at most `width` columns; continuation lines are indented. */
export function wrapTokens(tokens: readonly Token[], width: number, indent: number): string[] {
  const lines: string[] = [];
  let line = '';
  let w = 0;
  for (const t of tokens) {
    const tw = displayWidth(t.text);
    if (w > indent && w + 1 + tw > width) {
      lines.push(line);
      line = ' '.repeat(indent) + t.styled;
      w = indent + tw;
    } else {
      line += (w > 0 ? ' ' : '') + t.styled;
      w += (w > 0 ? 1 : 0) + tw;
    }
  }
  lines.push(line);
  return lines;
}

function outcomeText(o: SearchOutcome): string {
  if ('error' in o) return `error: ${inlineText(o.error)}`;
  return o.matches.length === 0 ? '(no matches)' : o.matches.map(escapeText).join(', ');
}

function statusMark(c: ToolCallReport, s: Style): string {
  return c.status === 'ok' ? s.green('✓') : s.red('✗');
}

function callReason(c: ToolCallReport): string {
  switch (c.status) {
    case 'ok':
      return '';
    case 'not-loaded':
      return 'not loaded: no tool_search result had named it';
    case 'unknown':
      return 'unknown: not a tool of the catalog';
  }
}

function searchLines(sr: SearchReport, o: SimulateRenderOptions): string[] {
  const w = o.width - 6;
  if (!o.replay) {
    const text = sr.recorded === null ? `(no recorded result; today: ${outcomeText(sr.replayed)})` : outcomeText(sr.recorded);
    return [`      ${truncate(`↳ ${sr.mode ?? 'invalid'}: ${text}`, w)}`];
  }
  const recorded = sr.recorded === null ? '(no recorded result)' : outcomeText(sr.recorded);
  const fresh = `↳ replayed: ${outcomeText(sr.replayed)}`;
  return [
    `      ${truncate(`↳ recorded: ${recorded}`, w)}`,
    sr.differs ? `      ${truncate(fresh, w - 11)}  ${o.style.yellow('≠ differs')}` : `      ${truncate(fresh, w)}`,
  ];
}

function violationLines(v: Violation, s: Style, width: number): string[] {
  const mark = v.severity === 'error' ? tok('✗', s.red) : tok('!', s.yellow);
  const words = inlineText(v.message).split(' ').map((w) => tok(w));
  return wrapTokens([tok('  '), mark, tok(`${v.kind}:`, v.severity === 'error' ? s.red : s.yellow), ...words], width, 6);
}

function turnLines(t: TurnReport, r: SimulationReport, violations: readonly Violation[], o: SimulateRenderOptions): string[] {
  const s = o.style;
  const out: string[] = [];
  const head: Token[] = [tok(`call ${t.call}`, s.bold), tok(`· ${plural(t.message_count, 'message')}`), tok(`· visible ${t.visible.length}`)];
  if (r.mode === 'native') head.push(tok(`· deferred ${t.deferred.length}`));
  if (t.reminder_inserted && t.reminder_index !== null) head.push(tok(`· reminder inserted at ${t.reminder_index}`));
  if (t.refilled && t.call > 1) head.push(tok('· tool list refilled', s.yellow));
  if (t.added.length > 0) head.push(tok('·'));
  for (const n of t.added) head.push(tok(`+${escapeText(n)}`, s.green));
  out.push(...wrapTokens(head, o.width, 4));

  for (const ss of t.server_searches) {
    const loaded = ss.loaded.length === 0 ? '(nothing)' : ss.loaded.map(escapeText).join(', ');
    out.push(`  ${s.cyan('⌕')} ${truncate(`server search "${inlineText(ss.query)}" loaded ${loaded}`, o.width - 4)}`);
  }
  const searches = new Map(t.searches.map((x) => [x.call_id, x]));
  for (const c of t.tool_calls) {
    const reason = callReason(c);
    const name = truncate(escapeText(c.name), Math.max(16, o.width - 20));
    const room = Math.max(10, o.width - 5 - displayWidth(name));
    const tail = reason === '' ? s.dim(truncate(inlineText(c.arguments), room)) : s.red(truncate(reason, room));
    out.push(`  ${statusMark(c, s)} ${s.cyan(name)} ${tail}`.trimEnd());
    const sr = searches.get(c.id);
    if (sr) out.push(...searchLines(sr, o));
  }
  for (const v of violations) if (v.kind !== 'not-loaded' && v.kind !== 'unknown') out.push(...violationLines(v, s, o.width));
  if (t.assistant_text !== '' && t.tool_calls.length === 0) {
    out.push(`  ${s.dim(truncate(`“${inlineText(t.assistant_text)}”`, o.width - 2))}`);
  } else if (t.message_index === null) {
    out.push(`  ${s.dim('(no recorded answer: the call after the last message)')}`);
  }
  return out;
}

/** The whole human report. */
export function renderSimulation(r: SimulationReport, o: SimulateRenderOptions): string[] {
  const s = o.style;
  const out: string[] = [];
  out.push(
    `${s.bold('simulate')} ${escapeText(r.transcript.file)} · ${r.transcript.format} · ${plural(r.transcript.messages, 'message')} · mode ${r.mode}`,
  );
  out.push(truncate(`catalog: ${r.catalog.dynamic} dynamic + ${r.catalog.static} static tools (${escapeText(r.catalog.source)})`, o.width));
  for (const t of r.turns) {
    out.push('');
    out.push(...turnLines(t, r, r.violations.filter((v) => v.call === t.call), o));
  }
  if (r.replay !== null) {
    out.push('');
    const d = r.replay.differences;
    out.push(`${s.bold('replay')}: ${d === 0 ? 'every recorded search returns the same today' : `${plural(d, 'search', 'searches')} ${d === 1 ? 'returns' : 'return'} something else today`}`);
    for (const v of r.replay.visibility) {
      const parts = [...v.gained.map((n) => s.green(`+${escapeText(n)}`)), ...v.lost.map((n) => s.red(`-${escapeText(n)}`))];
      out.push(`  call ${v.call} would see ${parts.join(' ')}`);
    }
  }
  out.push('');
  const sm = r.summary;
  const problems = sm.errors === 0 && sm.warnings === 0 ? s.green('no violations') : [sm.errors > 0 ? s.red(plural(sm.errors, 'error')) : plural(0, 'error'), sm.warnings > 0 ? s.yellow(plural(sm.warnings, 'warning')) : plural(0, 'warning')].join(', ');
  const parts = [plural(sm.calls, 'model call'), plural(sm.searches, 'search', 'searches')];
  if (sm.server_searches > 0) parts.push(plural(sm.server_searches, 'server search', 'server searches'));
  parts.push(`${plural(sm.tools_loaded, 'tool')} loaded`, problems);
  out.push(`${s.bold('summary')}: ${parts.join(' · ')}`);
  return out;
}
