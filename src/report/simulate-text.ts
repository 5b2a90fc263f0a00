/**
 * Human output of `simulate`: a compact block per model call, then a
 * summary. Renders a {@link SimulationReport} and nothing else.
 */
import { formatCallTokens, tokenSummaryLines } from '../jobs/tokens/format.js';
import type {
  SearchOutcome,
  SearchReport,
  SimulationReport,
  ToolCallReport,
  TurnReport,
  Violation,
  VisibilityChange,
} from '../jobs/simulate/report.js';
import type { Style } from '../render/color.js';
import { escapeText, inlineText } from '../io/escape.js';
import { displayWidth, truncate } from '../render/width.js';
import { tok, wrapText, wrapTokens, type Token } from '../render/wrap.js';
import { append } from '../core/append.js';

export { wrapTokens } from '../render/wrap.js';

export interface SimulateRenderOptions {
  readonly width: number;
  readonly style: Style;
  /** Show the recorded against the replayed result of every search. */
  readonly replay: boolean;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * An outcome as tokens: the names (comma-separated, so they wrap between
 * names), or the error. A recorded error is the raw text that did not decode
 * as `{"matches": [...]}`; in default mode forward selection skips it.
 */
function outcomeTokens(
  o: SearchOutcome,
  s: Style,
  width: number,
  recorded: 'default' | 'native' | false = false,
): Token[] {
  if ('error' in o) {
    const label = recorded ? tok('recorded result not decodable:', s.red) : tok('error:', s.red);
    const words = truncate(inlineText(o.error), 2 * width).split(' ');
    const tail = recorded === 'default' ? [tok('(forward selection skips it)', s.dim)] : [];
    return [label, ...words.map((w) => tok(truncate(w, width - 10))), ...tail];
  }
  if (o.matches.length === 0) return [tok('(no matches)', s.dim)];
  return o.matches.map((n, i) => tok(escapeText(n) + (i < o.matches.length - 1 ? ',' : '')));
}

/** What changed between two outcomes, as `-old +new` tokens. */
function changeTokens(before: SearchOutcome, after: SearchOutcome, s: Style): Token[] {
  if (!('matches' in before) || !('matches' in after)) return [];
  const a = new Set(after.matches);
  const b = new Set(before.matches);
  const lost = before.matches.filter((n) => !a.has(n)).map((n) => tok(`-${escapeText(n)}`, s.red));
  const gained = after.matches.filter((n) => !b.has(n)).map((n) => tok(`+${escapeText(n)}`, s.green));
  if (lost.length === 0 && gained.length === 0) return [tok('same tools, other order')];
  return [...lost, ...gained];
}

function statusMark(c: ToolCallReport, s: Style): string {
  return c.status === 'ok' ? s.green('✓') : s.red('✗');
}

function callReason(c: ToolCallReport, engine: string): string {
  switch (c.status) {
    case 'ok':
      return '';
    case 'not-loaded':
      return engine === 'ai-sdk'
        ? 'not sent: no search result of this generation had named it'
        : engine === 'mastra'
          ? 'not loaded: no load_tool had loaded it'
          : 'not loaded: no tool_search result had named it';
    case 'unknown':
      return 'unknown: not a tool of the catalog';
  }
}

function searchLines(sr: SearchReport, o: SimulateRenderOptions): string[] {
  const s = o.style;
  const w = o.width;
  // Model-native mode: the client ran this search for the model (client-proxied).
  const proxied = sr.client_proxied ? 'client-proxied ' : '';
  const recordedAs = sr.client_proxied ? 'native' : 'default';
  if (!o.replay) {
    const head = tok(`↳ ${proxied}${sr.mode ?? 'invalid'}:`);
    if (sr.recorded !== null)
      return wrapTokens([head, ...outcomeTokens(sr.recorded, s, w, recordedAs)], w, 8, '      ');
    return wrapTokens(
      [head, tok('(no recorded result; today:', s.dim), ...outcomeTokens(sr.replayed, s, w), tok(')', s.dim)],
      w,
      8,
      '      ',
    );
  }
  const recorded =
    sr.recorded === null
      ? [tok(`↳ ${proxied}recorded:`), tok('(no recorded result)', s.dim)]
      : 'error' in sr.recorded
        ? [tok(sr.client_proxied ? '↳ client-proxied,' : '↳'), ...outcomeTokens(sr.recorded, s, w, recordedAs)]
        : [tok(`↳ ${proxied}recorded:`), ...outcomeTokens(sr.recorded, s, w, recordedAs)];
  const out = wrapTokens(recorded, w, 8, '      ');
  append(out, wrapTokens([tok('↳ replayed:'), ...outcomeTokens(sr.replayed, s, w)], w, 8, '      '));
  if (sr.differs && sr.recorded !== null) {
    const change = changeTokens(sr.recorded, sr.replayed, s);
    append(out, wrapTokens([tok(change.length > 0 ? '≠ differs:' : '≠ differs', s.yellow), ...change], w, 8, '      '));
  }
  return out;
}

function violationLines(v: Violation, s: Style, width: number): string[] {
  const mark = v.severity === 'error' ? tok('✗', s.red) : tok('!', s.yellow);
  const words = inlineText(v.message)
    .split(' ')
    .map((w) => tok(w));
  return wrapTokens([mark, tok(`${v.kind}:`, v.severity === 'error' ? s.red : s.yellow), ...words], width, 6, '  ');
}

function turnLines(
  t: TurnReport,
  r: SimulationReport,
  violations: readonly Violation[],
  o: SimulateRenderOptions,
): string[] {
  const s = o.style;
  const out: string[] = [];
  const head: Token[] = [
    tok(`call ${t.call}`, s.bold),
    tok(`· ${plural(t.message_count, 'message')}`),
    tok(`· visible ${t.visible.length}`),
  ];
  if (r.mode === 'native') head.push(tok(`· deferred ${t.deferred.length}`));
  if (t.reminder_inserted && t.reminder_index !== null) head.push(tok(`· reminder inserted at ${t.reminder_index}`));
  if (t.tokens) head.push(tok(`· ${formatCallTokens(t.tokens)}`, t.tokens.cache.state === 'break' ? s.yellow : s.dim));
  if (t.refilled && t.call > 1) head.push(tok('· tool list refilled', s.yellow));
  if (t.added.length > 0) head.push(tok('·'));
  for (const n of t.added) head.push(tok(`+${escapeText(n)}`, s.green));
  append(out, wrapTokens(head, o.width, 4));

  for (const ss of t.server_searches) {
    const query = ss.query === '' ? [] : [tok(`"${truncate(inlineText(ss.query), 60)}"`)];
    const loaded: Token[] =
      ss.loaded.length === 0
        ? [tok('nothing', s.dim)]
        : ss.loaded.map((n, i) => tok(escapeText(n) + (i < ss.loaded.length - 1 ? ',' : '')));
    const what = ss.execution === 'client' ? 'client search' : 'server search';
    append(
      out,
      wrapTokens(
        ss.pending
          ? [tok('⌕', s.cyan), tok(what), ...query, tok('pending', s.yellow), tok('(no tool_search_output yet)', s.dim)]
          : [tok('⌕', s.cyan), tok(what), ...query, tok('loaded'), ...loaded],
        o.width,
        6,
        '  ',
      ),
    );
  }
  for (const pc of t.provider_calls) {
    const label = [pc.server, pc.name].filter((x) => x !== null).join('.');
    const head = `${label === '' ? '' : `${escapeText(label)} `}(${escapeText(pc.type)}, run by the ${pc.executed_by})`;
    const room = Math.max(10, o.width - 6 - displayWidth(head));
    const args = pc.arguments === '' ? '' : ` ${s.dim(truncate(inlineText(pc.arguments), room))}`;
    out.push(`  ${s.cyan('⚙')} ${head}${args}`.trimEnd());
  }
  const searches = new Map(t.searches.map((x) => [x.call_id, x]));
  for (const c of t.tool_calls) {
    const reason = callReason(c, r.engine.name);
    const name = truncate(escapeText(c.name), Math.max(16, o.width - 20));
    const room = Math.max(10, o.width - 5 - displayWidth(name));
    const tail = reason === '' ? s.dim(truncate(inlineText(c.arguments), room)) : s.red(truncate(reason, room));
    out.push(`  ${statusMark(c, s)} ${s.cyan(name)} ${tail}`.trimEnd());
    const sr = searches.get(c.id);
    if (sr) append(out, searchLines(sr, o));
  }
  for (const v of violations)
    if (v.kind !== 'not-loaded' && v.kind !== 'unknown') append(out, violationLines(v, s, o.width));
  if (t.assistant_text !== '' && t.tool_calls.length === 0) {
    out.push(`  ${s.dim(truncate(`“${inlineText(t.assistant_text)}”`, o.width - 2))}`);
  } else if (t.message_index === null) {
    out.push(`  ${s.dim('(no recorded answer: the call after the last message)')}`);
  }
  return out;
}

/** Consecutive calls with the same visibility change, merged: calls 2-5 would see +x. */
export function visibilityRanges(
  changes: readonly VisibilityChange[],
): Array<{ first: number; last: number; gained: readonly string[]; lost: readonly string[] }> {
  const out: Array<{ first: number; last: number; gained: readonly string[]; lost: readonly string[] }> = [];
  const key = (c: { gained: readonly string[]; lost: readonly string[] }): string => JSON.stringify([c.gained, c.lost]);
  for (const c of changes) {
    const prev = out[out.length - 1];
    if (prev && prev.last === c.call - 1 && key(prev) === key(c)) prev.last = c.call;
    else out.push({ first: c.call, last: c.call, gained: c.gained, lost: c.lost });
  }
  return out;
}

/** What the loader read: format and evidence, items read and skipped by rule, what --lenient let through. */
function coverageLines(r: SimulationReport, o: SimulateRenderOptions): string[] {
  const c = r.coverage!;
  const s = o.style;
  const out: string[] = [];
  if (c.sessions) {
    const { index, count, calls, rule } = c.sessions;
    // Calls of the report's own file are shown by line (by line:column when lines repeat: a one-line JSON export).
    const prefix = `${r.transcript.file}:`;
    const own = calls.every((l) => l.startsWith(prefix));
    const byLine = own ? calls.map((l) => l.slice(prefix.length).split(':')[0]!) : [];
    const lines = !own
      ? null
      : new Set(byLine).size === byLine.length
        ? byLine
        : calls.map((l) => l.slice(prefix.length));
    const list = (lines ?? calls).slice(0, 12).map(inlineText).join(', ');
    const more = calls.length > 12 ? `, … ${calls.length - 12} more` : '';
    const where = `${lines ? (calls.length === 1 ? 'line' : 'lines') : 'at'} ${list}${more}`;
    append(
      out,
      wrapText(
        `session ${index} of ${count}: ${plural(calls.length, 'logged call')} (${where}), ${inlineText(rule)}`,
        o.width,
        2,
      ),
    );
  } else if (c.conversation !== 'main')
    append(out, wrapText(`conversation: sidechain ${inlineText(c.conversation)}`, o.width, 2));
  const skipped = c.skipped.reduce((n, x) => n + x.count, 0);
  let line = `read: ${c.read} of ${plural(c.items, 'item')} as ${c.format}, `;
  line +=
    c.skipped.length === 0
      ? 'none skipped'
      : `${skipped} skipped by rule (${c.skipped.map((x) => `${inlineText(x.rule)}: ${x.count}`).join('; ')})`;
  if (c.provider_calls !== undefined)
    line += `; ${plural(c.provider_calls, 'call')} of the provider's own tools (listed at their model calls)`;
  line += `; detected by ${inlineText(c.detected_by)}`;
  append(out, wrapText(line, o.width, 2));
  if (c.search_tool)
    append(
      out,
      wrapText(
        `search tool: ${c.search_tool.names.map(inlineText).join(', ')} ` +
          `(${inlineText(c.search_tool.source)}), read as tool_search`,
        o.width,
        2,
      ),
    );
  const problems = [...c.unexplained, ...c.unpaired];
  if (problems.length > 0) {
    const parts: string[] = [];
    if (c.unexplained.length > 0) parts.push(`${plural(c.unexplained.length, 'item')} not understood`);
    if (c.unpaired.length > 0)
      parts.push(plural(c.unpaired.length, 'unpaired call or result', 'unpaired calls or results'));
    const head = `${parts.join(' and ')} (--lenient): the replay is partial`;
    append(out, wrapTokens([tok('!', s.yellow), ...head.split(' ').map((w) => tok(w, s.yellow))], o.width, 2));
    for (const p of problems.slice(0, 5))
      append(out, wrapText(`  ${inlineText(p.location)}: ${inlineText(p.message)}`, o.width, 4));
    if (problems.length > 5) out.push(`    … ${problems.length - 5} more (--json lists them all)`);
  }
  return out;
}

/** Which engine's loading rule ran, how it was chosen, and its parameters. */
function engineLine(r: SimulationReport): string {
  const e = r.engine;
  const how =
    e.by === 'flag' ? '--engine' : e.by === 'recording' ? `detected: ${inlineText(e.evidence ?? '')}` : 'default';
  const params = Object.entries(e.params)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return `engine: ${e.name} (${how})${params !== '' ? ` · ${params}` : ''}`;
}

/** The whole human report. */
export function renderSimulation(r: SimulationReport, o: SimulateRenderOptions): string[] {
  const s = o.style;
  const out: string[] = [];
  const head = [
    tok('simulate', s.bold),
    tok(truncate(escapeText(r.transcript.file), o.width - 12)),
    tok(`· ${r.transcript.format}`),
    tok(`· ${plural(r.transcript.messages, 'message')}`),
    tok(`· mode ${r.mode}`),
  ];
  append(out, wrapTokens(head, o.width, 2));
  const carried = r.catalog.source.startsWith(`${r.transcript.file} (`);
  const from = carried ? 'carried by the transcript' : `from ${inlineText(r.catalog.source)}`;
  append(
    out,
    wrapText(`catalog: ${r.catalog.dynamic} dynamic + ${plural(r.catalog.static, 'static tool')} ${from}`, o.width, 2),
  );
  if (r.engine.name !== 'eino' || r.engine.by === 'flag') append(out, wrapText(engineLine(r), o.width, 2));
  const byText = r.transcript.reminder_recognised_by_text;
  if (byText !== null) {
    append(
      out,
      wrapText(
        `reminder: message ${byText} is taken for the middleware's reminder by its text ` +
          `(beyond the reference: provider logs drop Eino's marker field)`,
        o.width,
        2,
      ),
    );
  }
  if (r.transcript.messages === 0)
    append(
      out,
      wrapText(
        'conversation: empty, the reference replays it as one model call that receives no message ' +
          '(but the reminder the middleware inserts)',
        o.width,
        2,
      ),
    );
  for (const t of r.turns) {
    out.push('');
    append(
      out,
      turnLines(
        t,
        r,
        r.violations.filter((v) => v.call === t.call),
        o,
      ),
    );
  }
  if (r.replay !== null) {
    out.push('');
    const d = r.replay.differences;
    const verdict =
      d === 0
        ? 'every recorded search returns the same today'
        : `${plural(d, 'search', 'searches')} ${d === 1 ? 'returns' : 'return'} something else today`;
    append(
      out,
      wrapTokens(
        [{ text: 'replay:', styled: `${s.bold('replay')}:` }, ...verdict.split(' ').map((w) => tok(w))],
        o.width,
        2,
      ),
    );
    for (const g of visibilityRanges(r.replay.visibility)) {
      const calls = g.first === g.last ? `call ${g.first}` : `calls ${g.first}-${g.last}`;
      const parts = [
        ...g.gained.map((n) => tok(`+${escapeText(n)}`, s.green)),
        ...g.lost.map((n) => tok(`-${escapeText(n)}`, s.red)),
      ];
      append(out, wrapTokens([tok(`${calls} would see`), ...parts], o.width, 4, '  '));
    }
  }
  out.push('');
  // What was read of the recording, right above the summary: nothing is skipped unseen.
  if (r.coverage) append(out, coverageLines(r, o));
  const sm = r.summary;
  const problems: Token[] =
    sm.errors === 0 && sm.warnings === 0
      ? [tok('no violations', s.green)]
      : [
          {
            text: `${plural(sm.errors, 'error')},`,
            styled: `${sm.errors > 0 ? s.red(plural(sm.errors, 'error')) : plural(0, 'error')},`,
          },
          tok(plural(sm.warnings, 'warning'), sm.warnings > 0 ? s.yellow : undefined),
        ];
  const parts = [plural(sm.calls, 'model call'), plural(sm.searches, 'search', 'searches')];
  if (sm.server_searches > 0) {
    // The provider's own searches: run by the server, or (Responses `execution: "client"`) by the client.
    const client = r.turns.reduce((n, t) => n + t.server_searches.filter((x) => x.execution === 'client').length, 0);
    if (sm.server_searches > client)
      parts.push(plural(sm.server_searches - client, 'server search', 'server searches'));
    if (client > 0) parts.push(plural(client, 'client search', 'client searches'));
  }
  if (sm.provider_calls > 0) parts.push(plural(sm.provider_calls, 'provider tool call'));
  parts.push(
    r.mode === 'native'
      ? `${plural(sm.tools_loaded, 'tool')} loaded by searches`
      : `${plural(sm.tools_loaded, 'tool')} loaded`,
  );
  // Prose: wrapped at the width, never cut; a line breaks between the parts.
  const summary: Token[] = [{ text: 'summary:', styled: `${s.bold('summary')}:` }];
  for (const [i, p] of parts.entries()) summary.push(tok(i === 0 ? p : `· ${p}`));
  summary.push({ ...problems[0]!, text: `· ${problems[0]!.text}`, styled: `· ${problems[0]!.styled}` });
  append(summary, problems.slice(1));
  append(out, wrapTokens(summary, o.width, 2));
  if (sm.tokens && sm.cache)
    for (const line of tokenSummaryLines(sm.tokens, sm.cache)) append(out, wrapText(line.text, o.width, line.hang));
  return out;
}
