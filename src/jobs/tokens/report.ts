/**
 * Token accounting for a simulation report: resolves the tool names of each
 * model call to their definitions, counts, and attaches the result as
 * `turns[].tokens`, `summary.tokens` and `summary.cache`.
 */
import { reminderText } from '../../core/middleware.js';
import { TOOL_SEARCH_TOOL } from '../../core/toolsearch.js';
import type { ToolInfo } from '../../core/types.js';
import type { SimulationReport, TurnReport } from '../simulate/report.js';
import {
  accountTokens,
  cacheSummaryOf,
  type ReportCacheSummary,
  type CallInput,
  type CallTokens,
  type TokenSummary,
} from './account.js';
import type { ToolFormat } from './serialize.js';
import type { EncodingName } from './tokenizer.js';

export interface ReportTokenOptions {
  readonly encoding?: EncodingName;
  readonly toolFormat?: ToolFormat;
  /**
   * The same conversation simulated in the other mode: adds
   * `summary.cache.by_mode` so default mode (the tools block grows) can be
   * weighed against model-native mode (the tools block stays put).
   */
  readonly otherMode?: SimulationReport;
}

export type { ReportCacheSummary } from './account.js';

export interface ReportTokens {
  /** Same indexes as `report.turns`. */
  readonly turns: readonly CallTokens[];
  readonly summary: { readonly tokens: TokenSummary; readonly cache: ReportCacheSummary };
}

/** The tools of a simulation (as `simulationTools` returns them). */
export interface ReportTools {
  readonly staticTools: readonly ToolInfo[];
  readonly dynamicTools: readonly ToolInfo[];
  /** Another engine's own search tools (the AI SDK's toolSearch, Mastra's search_tools and load_tool). */
  readonly extraTools?: readonly ToolInfo[];
}

function resolver(tools: ReportTools): (names: readonly string[]) => ToolInfo[] {
  const byName = new Map<string, ToolInfo>();
  for (const t of [...tools.staticTools, ...(tools.extraTools ?? [TOOL_SEARCH_TOOL]), ...tools.dynamicTools])
    if (!byName.has(t.name)) byName.set(t.name, t);
  return (names) => names.flatMap((n) => byName.get(n) ?? []);
}

/**
 * Model-native mode: the deferred tools whose definitions are in the context
 * at each call, because a search of an earlier call loaded them (a server-side
 * search's tool references, or a client-proxied tool_search result), and
 * that are not visible anyway.
 */
function nativeLoaded(report: SimulationReport, dynamic: ReadonlySet<string>): string[][] {
  const loaded: string[] = [];
  const seen = new Set<string>();
  return report.turns.map((turn) => {
    const visible = new Set(turn.visible);
    const now = loaded.filter((n) => !visible.has(n));
    for (const s of turn.server_searches) for (const n of s.loaded) add(n);
    for (const s of turn.searches) {
      const got = s.recorded ?? s.replayed;
      if ('matches' in got) for (const n of got.matches) add(n);
    }
    return now;
  });
  function add(name: string): void {
    if (!dynamic.has(name) || seen.has(name)) return;
    seen.add(name);
    loaded.push(name);
  }
}

function callInputs(report: SimulationReport, tools: ReportTools): CallInput[] {
  const resolve = resolver(tools);
  const reminder = reminderText(tools.dynamicTools.map((t) => t.name));
  const loaded = report.mode === 'native' ? nativeLoaded(report, new Set(tools.dynamicTools.map((t) => t.name))) : null;
  return report.turns.map((turn: TurnReport, i) => ({
    visible: resolve(turn.visible),
    deferred: resolve(turn.deferred),
    reminderText: turn.reminder_index === null ? null : reminder,
    ...(loaded ? { loaded: resolve(loaded[i]!) } : {}),
  }));
}

/** Counts the tokens of every model call of a report (loads the tokenizer on first use). */
export async function tokenAccountingForReport(
  report: SimulationReport,
  tools: ReportTools,
  options: ReportTokenOptions = {},
): Promise<ReportTokens> {
  const format = options.toolFormat ?? 'openai';
  const account = await accountTokens({
    calls: callInputs(report, tools),
    allTools: [...tools.staticTools, ...tools.dynamicTools],
    ...(options.encoding !== undefined ? { encoding: options.encoding } : {}),
    toolFormat: format,
  });
  let cache: ReportCacheSummary = account.summary.cache;
  if (options.otherMode && options.otherMode.mode !== report.mode) {
    const other = cacheSummaryOf(callInputs(options.otherMode, tools), format);
    cache = {
      ...cache,
      by_mode:
        report.mode === 'default'
          ? { default: account.summary.cache, native: other }
          : { default: other, native: account.summary.cache },
    };
  }
  return { turns: account.per_call, summary: { tokens: account.summary.tokens, cache } };
}

/** A report with token accounting attached. */
export type ReportWithTokens<R extends SimulationReport = SimulationReport> = Omit<R, 'turns' | 'summary'> & {
  readonly turns: ReadonlyArray<R['turns'][number] & { readonly tokens: CallTokens }>;
  readonly summary: R['summary'] & { readonly tokens: TokenSummary; readonly cache: ReportCacheSummary };
};

/** Attaches `turns[].tokens`, `summary.tokens` and `summary.cache` (a new object; the report is not changed). */
export function withTokens<R extends SimulationReport>(report: R, tokens: ReportTokens): ReportWithTokens<R> {
  return {
    ...report,
    turns: report.turns.map((t, i) => ({ ...t, tokens: tokens.turns[i]! })),
    summary: { ...report.summary, tokens: tokens.summary.tokens, cache: tokens.summary.cache },
  };
}
