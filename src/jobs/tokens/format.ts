/**
 * Plain-text views of token accounting for the human output of `simulate`
 * (no colors; the caller styles them): a compact per-call cell and the
 * summary lines.
 */
import type { CacheView, CallTokens, TokenSummary } from './account.js';
import type { ReportCacheSummary } from './account.js';
import { largest } from '../../core/append.js';

/** 12345 → `12,345`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `hit`, `cold`, or `break@1,234` (the character offset in the tools block where it first differs). */
export function formatCache(cache: CacheView): string {
  return cache.state === 'break' ? `break@${formatCount(cache.first_diff ?? 0)}` : cache.state;
}

/** The per-call cell: tokens tool search puts in the context, and the cache state: `1,234 tok · hit`. */
export function formatCallTokens(t: CallTokens): string {
  return `${formatCount(t.total)} tok · ${formatCache(t.cache)}`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * A summary line, and the indent of its continuation lines when a renderer
 * wraps it to a width (prose is wrapped, never cut).
 */
export interface SummaryLine {
  readonly text: string;
  readonly hang: number;
}

/** The summary lines (two-space indented details under two headings). */
export function formatTokenSummary(tokens: TokenSummary, cache: ReportCacheSummary): string[] {
  return tokenSummaryLines(tokens, cache).map((l) => l.text);
}

/**
 * {@link formatTokenSummary} with the indent each line continues at when
 * wrapped: a heading's details at 2, a figure's under its value column.
 */
export function tokenSummaryLines(tokens: TokenSummary, cache: ReportCacheSummary): SummaryLine[] {
  const parts = [`tools ${formatCount(tokens.tools)}`, `reminder ${formatCount(tokens.reminder)}`];
  if (tokens.loaded > 0) parts.push(`loaded by searches ${formatCount(tokens.loaded)}`);
  const rows: Array<[string, string]> = [
    ['with tool search', `${formatCount(tokens.total)} (${parts.join(' + ')}) over ${plural(tokens.calls, 'call')}`],
    ['all tools up front', formatCount(tokens.all_up_front)],
    [
      tokens.saved >= 0 ? 'saved' : 'extra cost',
      `${formatCount(Math.abs(tokens.saved))} (${Math.abs(tokens.saved_percent)}%)`,
    ],
  ];
  if (tokens.deferred > 0)
    rows.push(['deferred, not in context', `${formatCount(tokens.deferred)} (definitions sent with defer_loading)`]);
  const w = largest(rows.map(([k]) => k.length));
  const lines: SummaryLine[] = [
    { text: `Tokens (${tokens.note}):`, hang: 2 },
    ...rows.map(([k, v]) => ({ text: `  ${k.padEnd(w)}  ${v}`, hang: w + 4 })),
  ];
  if (cache.compared === 0) {
    lines.push({ text: 'Prompt cache: one model call, nothing to compare', hang: 2 });
  } else if (cache.breaks === 0) {
    lines.push({
      text:
        `Prompt cache: the tools block never changed ` +
        `over ${plural(cache.compared + 1, 'call')}; a provider's prefix cache can hit every time`,
      hang: 2,
    });
  } else {
    lines.push({
      text:
        `Prompt cache: the tools block changed at ${cache.breaks} of ${cache.compared} later calls ` +
        `(${cache.breaks === 1 ? 'call' : 'calls'} ${cache.break_calls.join(', ')}); ` +
        `a provider's prefix cache breaks there`,
      hang: 2,
    });
  }
  if (cache.by_mode)
    lines.push({
      text:
        `  by mode: default ${plural(cache.by_mode.default.breaks, 'break')}, ` +
        `native ${plural(cache.by_mode.native.breaks, 'break')}`,
      hang: 4,
    });
  return lines;
}
