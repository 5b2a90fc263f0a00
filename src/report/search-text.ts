/**
 * Human output of `search` and `select`: the ranked table, the per-keyword
 * explanation, `--why`, and the expectation diff. Input text is escaped here;
 * callers pass plain data.
 */
import type { TermScore } from '../core/engines/types.js';
import type { KeywordScore } from '../core/scorer.js';
import type { ExpectationFailure, SearchJson, WhyReport } from '../jobs/search/report.js';
import type { Style } from '../render/color.js';
import { escapeText, inlineText } from '../io/escape.js';
import { renderTable, type Cell, type Column } from '../render/table.js';
import { truncate } from '../render/width.js';
import { tok, wrapTokens, type Token } from '../render/wrap.js';
import { append } from '../core/append.js';

export interface RenderOptions {
  readonly width: number;
  readonly style: Style;
}

/** What the header of a search says about the catalog. */
export interface SearchContext {
  readonly dynamic: number;
  readonly static: number;
  /** The user passed query words (so `-n` is the flag to suggest), not raw `--args`. */
  readonly viaWords: boolean;
  /** The flag that sets the limit, when not `-n` (`--top-k` for Mastra). */
  readonly limitFlag?: string;
}

function quote(s: string): string {
  return `"${escapeText(s)}"`;
}

/** A quoted query as tokens: wraps between words, a huge query is cut. */
function quoted(query: string, width: number): Token[] {
  const words = truncate(`"${inlineText(query)}"`, 3 * width).split(' ');
  return words.map((w) => tok(truncate(w, width - 4)));
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const EXPLAIN_COLUMNS: readonly Column[] = [{}, {}, { shrink: 1 }, { align: 'right' }];

/** Columns of another engine's per-term account: term, rule, points. */
export const TERM_COLUMNS: readonly Column[] = [{ shrink: 1 }, {}, { align: 'right' }];

/** One row of another engine's per-term account (points rounded to 2 decimals, as Mastra rounds). */
export function termCells(t: TermScore, s: Style): Cell[] {
  const points = Math.round(t.points * 100) / 100;
  return [
    escapeText(t.term),
    t.rule === 'none' ? { text: 'no match', style: s.dim } : t.rule,
    points > 0 ? { text: `+${points}`, style: s.green } : { text: '0', style: s.dim },
  ];
}

function explainCells(k: KeywordScore, s: Style): Cell[] {
  const rule = k.rule === 'none' ? { text: 'no match', style: s.dim } : k.rule;
  const part =
    k.part !== null
      ? escapeText(k.part)
      : k.rule === 'name-substring'
        ? '(full name)'
        : k.rule === 'description'
          ? '(description)'
          : '';
  const points =
    k.points > 0 ? { text: `+${k.points}`, style: s.green } : { text: '0', style: k.required ? s.red : s.dim };
  return [`${k.required ? '+' : ''}${escapeText(k.keyword)}`, rule, part, points];
}

/** The lines of a search result (keyword or select mode). */
export function renderSearch(
  r: SearchJson,
  ctx: SearchContext,
  opts: RenderOptions & { readonly explain: boolean },
): string[] {
  const s = opts.style;
  const out: string[] = [];
  const searched = r.static_included ? ctx.dynamic + ctx.static : ctx.dynamic;
  const head: Token[] = [];
  if (r.mode === 'keyword') {
    head.push(tok('keyword search', s.bold));
    append(head, quoted(r.query, opts.width));
    head.push(tok('·'), tok(`limit ${r.max_results ?? 5}`), tok('·'));
    head.push(tok(`${r.total_matches} of ${plural(searched, 'tool')} match`));
  } else {
    const requested = r.matches.length + r.unknown.length;
    head.push(tok('direct selection', s.bold));
    append(head, quoted(r.query, opts.width));
    head.push(tok('·'), tok(`${r.matches.length} of ${plural(requested, 'name')} found`));
  }
  append(out, wrapTokens(head, opts.width, 2));
  if (r.static_included) {
    const note = `beyond the reference: static tools included (${ctx.static} static + ${ctx.dynamic} dynamic searched)`;
    append(
      out,
      wrapTokens(
        note.split(' ').map((w) => tok(w, s.yellow)),
        opts.width,
        2,
      ),
    );
  }
  if (r.results.length === 0) {
    out.push(
      s.dim(
        r.mode === 'keyword'
          ? 'no tool matched: a keyword must appear in a name or a description (--why <tool> explains a tool)'
          : 'no tool selected',
      ),
    );
    return out;
  }

  const keyword = r.mode === 'keyword';
  const columns: Column[] = [
    { header: '#', align: 'right' },
    { header: 'tool', shrink: 2, min: 16 },
    ...(keyword ? [{ header: 'score', align: 'right' as const }] : []),
    ...(r.static_included ? [{ header: 'kind' }] : []),
    { header: 'description', shrink: 3, min: 10 },
  ];
  const rows: Cell[][] = r.results.map((x, i) => [
    String(i + 1),
    { text: escapeText(x.name), style: s.cyan },
    ...(keyword ? [String(x.score ?? '')] : []),
    ...(r.static_included ? [x.static ? { text: 'static', style: s.yellow } : 'dynamic'] : []),
    { text: inlineText(x.description), style: s.dim },
  ]);
  const table = renderTable(columns, rows, { width: opts.width, headerStyle: s.dim });
  out.push(table[0]!);
  if (opts.explain && keyword) {
    const indent = String(r.results.length).length + 2;
    const explainRows = r.results.flatMap((x) => (x.explain ?? []).map((k) => explainCells(k, s)));
    const explained = renderTable(EXPLAIN_COLUMNS, explainRows, { width: opts.width, indent: indent + 2 });
    let at = 0;
    r.results.forEach((x, i) => {
      out.push(table[i + 1]!);
      const n = x.explain?.length ?? 0;
      append(out, explained.slice(at, at + n));
      at += n;
    });
  } else {
    append(out, table.slice(1));
  }
  if (keyword && r.total_matches > r.results.length) {
    const more = r.total_matches - r.results.length;
    const how =
      ctx.limitFlag !== undefined && ctx.limitFlag !== '-n'
        ? `${ctx.limitFlag} ${r.total_matches}`
        : ctx.viaWords
          ? `-n ${r.total_matches}`
          : `"max_results": ${r.total_matches}`;
    out.push(s.dim(`${more} more beyond the limit of ${r.max_results ?? 5} (${how} returns all)`));
  }
  return out;
}

/** One line on where a tool stands (`limitName`: the engine's name for its limit, max_results unless told). */
export function standingText(w: WhyReport, limit: number | null, limitName = 'max_results'): string {
  const score = w.score === null ? '' : ` (score ${w.score})`;
  switch (w.standing) {
    case 'returned':
      return `returned at rank ${w.rank}${score}`;
    case 'beyond-limit':
      return `rank ${w.rank}${score}: beyond the limit ` + `of ${limit ?? 5}, ${limitName} ${w.rank} would return it`;
    case 'no-match':
      return w.terms !== undefined
        ? 'not returned: no query term scores on it (score 0)'
        : 'not returned: no keyword matches its name or description (score 0)';
    case 'excluded':
      return `not returned: the required keyword +${escapeText(w.excluded_by ?? '')} does not match it`;
    case 'static':
      return 'a static tool: always visible to the model, never searched (--all searches it)';
    case 'unknown':
      return w.suggestions.length > 0
        ? `not in the catalog (did you mean ${w.suggestions.map(escapeText).join(', ')}?)`
        : 'not in the catalog';
    case 'selected':
      return 'selected';
    case 'not-requested':
      return 'not requested by the select: query';
  }
}

/** Names with hyphens are one part to the reference; say so when a keyword would have hit a hyphen piece. */
function hyphenNote(w: WhyReport): string | null {
  for (const part of w.parts) {
    if (!part.includes('-')) continue;
    const pieces = part.toLowerCase().split('-');
    const k = w.keywords.find((x) => pieces.includes(x.keyword.toLowerCase()));
    if (k) {
      return (
        `note: the reference does not split names on "-": ${quote(part)} is one ` +
        `name part, so ${quote(k.keyword)} scores ${k.points}, not 10`
      );
    }
  }
  return null;
}

/** `--why <tool>`: the standing, the name parts and the per-keyword account. */
export function renderWhy(
  list: readonly WhyReport[],
  limit: number | null,
  opts: RenderOptions & { readonly limitName?: string },
): string[] {
  const s = opts.style;
  const out: string[] = [];
  for (const w of list) {
    out.push('');
    out.push(`${s.bold('why')} ${s.cyan(escapeText(w.name))}: ${standingText(w, limit, opts.limitName)}`);
    if (w.parts.length > 0)
      out.push(`  ${w.terms !== undefined ? 'name tokens' : 'name parts'}: ${w.parts.map(escapeText).join(', ')}`);
    if (w.terms !== undefined && w.terms.length > 0)
      append(
        out,
        renderTable(
          TERM_COLUMNS,
          w.terms.map((t) => termCells(t, s)),
          { width: opts.width, indent: 4 },
        ),
      );
    if (w.keywords.length > 0)
      append(
        out,
        renderTable(
          EXPLAIN_COLUMNS,
          w.keywords.map((k) => explainCells(k, s)),
          { width: opts.width, indent: 4 },
        ),
      );
    const note = hyphenNote(w);
    if (note !== null) out.push(s.dim(`  ${note}`));
  }
  return out;
}

function flagOf(f: ExpectationFailure): string {
  switch (f.kind) {
    case 'expect':
      return `--expect ${f.expected.join(',')}`;
    case 'expect-exact':
      return `--expect-exact ${f.expected.join(',')}`;
    case 'expect-first':
      return `--expect-first ${f.expected}`;
    case 'expect-none':
      return '--expect-none';
  }
}

/** The headline of an expectation failure. */
export function expectationHeadline(failures: readonly ExpectationFailure[]): string {
  return failures.length === 1
    ? `expectation not met: ${escapeText(flagOf(failures[0]!))}`
    : `${failures.length} expectations not met`;
}

/**
 * The diff of failed expectations: expected against got, with ranks and
 * scores, and for every expected name that was not returned, where it stands.
 */
export function renderExpectationDiff(
  failures: readonly ExpectationFailure[],
  r: SearchJson,
  where: (name: string) => WhyReport,
  opts: RenderOptions,
): string[] {
  const s = opts.style;
  const out: string[] = [];
  const got = r.results;
  const score = (i: number): string => (got[i]?.score === null || got[i] === undefined ? '' : String(got[i]!.score));
  const gotTable = (): string[] =>
    got.length === 0
      ? ['  got: (no matches)']
      : renderTable(
          [
            { header: '#', align: 'right' },
            { header: 'got', shrink: 1, min: 16 },
            { header: r.mode === 'keyword' ? 'score' : '', align: 'right' },
          ],
          got.map((x, i) => [String(i + 1), escapeText(x.name), score(i)]),
          { width: opts.width, indent: 2, headerStyle: s.dim },
        );
  const whereLine = (name: string): string => `  ${escapeText(name)}: ${standingText(where(name), r.max_results)}`;
  for (const f of failures) {
    if (failures.length > 1) out.push(`${s.red('✗')} ${escapeText(flagOf(f))}`);
    switch (f.kind) {
      case 'expect': {
        out.push(`  missing ${plural(f.missing.length, 'tool')}:`);
        append(
          out,
          f.missing.map((n) => `  ${whereLine(n)}`),
        );
        break;
      }
      case 'expect-first': {
        out.push(`  expected first: ${escapeText(f.expected)}`);
        const first = got[0]
          ? `${escapeText(got[0].name)}${got[0].score !== null ? ` (score ${got[0].score})` : ''}`
          : '(no matches)';
        out.push(`  got first:      ${first}`);
        out.push(`  ${whereLine(f.expected)}`);
        break;
      }
      case 'expect-exact': {
        const n = Math.max(f.expected.length, got.length);
        const rows: Cell[][] = [];
        for (let i = 0; i < n; i++) {
          const e = f.expected[i];
          const g = got[i]?.name;
          const same = e !== undefined && e === g;
          rows.push([
            same ? ' ' : { text: '✗', style: s.red },
            String(i + 1),
            e === undefined ? '' : escapeText(e),
            g === undefined ? '' : escapeText(g),
            score(i),
          ]);
        }
        append(
          out,
          renderTable(
            [
              {},
              { header: '#', align: 'right' },
              { header: 'expected', shrink: 1, min: 16 },
              { header: 'got', shrink: 2, min: 16 },
              { header: r.mode === 'keyword' ? 'score' : '', align: 'right' },
            ],
            rows,
            { width: opts.width, indent: 2, gap: 2, headerStyle: s.dim },
          ),
        );
        const gotNames = new Set(got.map((x) => x.name));
        for (const e of f.expected) if (!gotNames.has(e)) out.push(`  ${whereLine(e)}`);
        break;
      }
      case 'expect-none': {
        out.push(`  expected no matches, got ${got.length}`);
        break;
      }
    }
  }
  // The full result once (the side-by-side of --expect-exact already shows it).
  if (failures.some((f) => f.kind !== 'expect-exact')) append(out, gotTable());
  return out;
}
