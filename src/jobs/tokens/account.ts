/**
 * Token and prompt-cache accounting over the model calls of a conversation:
 * what tool search puts in the context at each call (the visible tools and
 * the reminder), what "all tools up front" would have cost instead, and
 * whether each call's tools block is byte-identical to the previous call's
 * (a provider prefix cache can hit) or where it first differs (the cache
 * breaks from there: the tools block comes before the system prompt and the
 * messages, so everything after that point is processed again).
 *
 * All counts are estimates for the chosen tokenizer (see `tokenizer.ts`).
 * JSON keys are snake_case: they are part of `simulate --json`.
 */
import type { ToolInfo } from '../../core/types.js';
import { firstDifference, serializeTools, type ToolFormat } from './serialize.js';
import { DEFAULT_ENCODING, loadTokenizer, type EncodingName, type Tokenizer } from './tokenizer.js';

/** What the model is offered at one call. */
export interface CallInput {
  /** The visible tools, in order (what the tools block holds). */
  readonly visible: readonly ToolInfo[];
  /** Model-native mode: the deferred tools (sent with `defer_loading`, outside the context until found). */
  readonly deferred: readonly ToolInfo[];
  /** The reminder text when the messages of this call hold it, else null. */
  readonly reminderText: string | null;
  /**
   * Model-native mode: deferred tools that searches of earlier calls loaded into the context (their definitions are
   * part of the prompt).
   */
  readonly loaded?: readonly ToolInfo[];
}

export interface AccountTokensInput {
  readonly calls: readonly CallInput[];
  /** Every tool of the agent without tool search: static tools, then dynamic tools. */
  readonly allTools: readonly ToolInfo[];
  readonly encoding?: EncodingName;
  readonly toolFormat?: ToolFormat;
}

/** How the tools block of a call compares with the previous call's. */
export interface CacheView {
  /** `cold`: the first call; `hit`: byte-identical to the previous call's block; `break`: it differs. */
  readonly state: 'cold' | 'hit' | 'break';
  readonly hit: boolean;
  /** Offset (in characters of the serialized tools block) of the first difference; null unless `break`. */
  readonly first_diff: number | null;
}

/** Tokens of one model call (`turns[].tokens` in `simulate --json`). */
export interface CallTokens {
  /** The visible tools block. */
  readonly tools: number;
  /** The reminder message's text. */
  readonly reminder: number;
  /** Model-native: definitions of deferred tools that earlier searches loaded into the context. */
  readonly loaded: number;
  /** Model-native: the deferred definitions sent with `defer_loading` (not in the context; not in `total`). */
  readonly deferred: number;
  /** What tool search puts in the context at this call: tools + reminder + loaded. */
  readonly total: number;
  /** The counterfactual: every tool up front, no tool_search, no reminder. */
  readonly all_up_front: number;
  /** all_up_front − total (negative when tool search costs more). */
  readonly saved: number;
  readonly cache: CacheView;
}

/** Totals over the conversation (`summary.tokens`). */
export interface TokenSummary {
  readonly encoding: EncodingName;
  readonly tool_format: ToolFormat;
  readonly calls: number;
  readonly tools: number;
  readonly reminder: number;
  readonly loaded: number;
  readonly deferred: number;
  readonly total: number;
  readonly all_up_front: number;
  readonly saved: number;
  /** saved / all_up_front × 100, one decimal; 0 when there is nothing to compare. */
  readonly saved_percent: number;
  /** Says that these are estimates, and for which tokenizer. */
  readonly note: string;
}

/** Prompt-cache view over the conversation (`summary.cache`). */
export interface CacheSummary {
  /** Model calls. */
  readonly calls: number;
  /** Model calls compared with the one before (all but the first). */
  readonly compared: number;
  readonly hits: number;
  readonly breaks: number;
  /** Calls whose tools block differs from the previous call's. */
  readonly break_calls: readonly number[];
}

/** Cache summary with, when asked, the same view for both modes. */
export interface ReportCacheSummary extends CacheSummary {
  readonly by_mode?: { readonly default: CacheSummary; readonly native: CacheSummary };
}

export interface TokenAccount {
  /** One entry per call, in order. */
  readonly per_call: readonly CallTokens[];
  readonly summary: { readonly tokens: TokenSummary; readonly cache: CacheSummary };
  readonly note: string;
}

/** The note shown with every count. */
export function estimateNote(encoding: EncodingName, format: ToolFormat): string {
  const shape = format === 'anthropic' ? 'Anthropic' : 'OpenAI';
  return (
    `estimates for ${encoding}, tools serialized as ${shape} JSON; a ` +
    `provider's own template and tokenizer give other exact numbers`
  );
}

/** Compares consecutive tools blocks. */
export function cacheViews(blocks: readonly string[]): CacheView[] {
  return blocks.map((block, i) => {
    if (i === 0) return { state: 'cold', hit: false, first_diff: null };
    const diff = firstDifference(blocks[i - 1]!, block);
    return diff === null
      ? { state: 'hit', hit: true, first_diff: null }
      : { state: 'break', hit: false, first_diff: diff };
  });
}

/** Summarizes cache views. */
export function cacheSummary(views: readonly CacheView[]): CacheSummary {
  const break_calls = views.flatMap((v, i) => (v.state === 'break' ? [i + 1] : []));
  return {
    calls: views.length,
    compared: Math.max(0, views.length - 1),
    hits: views.filter((v) => v.state === 'hit').length,
    breaks: break_calls.length,
    break_calls,
  };
}

/** The prompt-cache view alone (no tokenizer needed), e.g. for another mode's run. */
export function cacheSummaryOf(
  calls: readonly Pick<CallInput, 'visible'>[],
  toolFormat: ToolFormat = 'openai',
): CacheSummary {
  return cacheSummary(cacheViews(calls.map((c) => serializeTools(c.visible, toolFormat))));
}

/** {@link accountTokens} with a tokenizer already loaded. */
export function accountTokensWith(tokenizer: Tokenizer, input: AccountTokensInput): TokenAccount {
  const format = input.toolFormat ?? 'openai';
  // Tool lists repeat from call to call (the visible set changes only when a
  // search loads something; the deferred set only when one is loaded): each
  // distinct list (the same tool objects in the same order) is serialized and
  // counted once.
  const ids = new Map<ToolInfo, number>();
  const idOf = (t: ToolInfo): number => {
    let id = ids.get(t);
    if (id === undefined) ids.set(t, (id = ids.size));
    return id;
  };
  const blocks = new Map<string, { readonly text: string; tokens: number | null }>();
  const block = (
    tools: readonly ToolInfo[],
    deferLoading = false,
  ): { readonly text: string; tokens: number | null } => {
    const key = `${deferLoading ? 'd' : 'v'}${tools.map(idOf).join(',')}`;
    let b = blocks.get(key);
    if (b === undefined) {
      b = { text: serializeTools(tools, format, { deferLoading }), tokens: null };
      blocks.set(key, b);
    }
    return b;
  };
  const texts = new Map<string, number>();
  const countText = (text: string): number => {
    let n = texts.get(text);
    if (n === undefined) {
      n = tokenizer.count(text);
      texts.set(text, n);
    }
    return n;
  };
  const count = (b: { readonly text: string; tokens: number | null }): number => (b.tokens ??= countText(b.text));
  const allUpFront = count(block(input.allTools));
  const visible = input.calls.map((c) => block(c.visible));
  // The same block object twice is the same string: the comparison is immediate.
  const views = cacheViews(visible.map((b) => b.text));
  const per_call: CallTokens[] = input.calls.map((c, i) => {
    const tools = count(visible[i]!);
    const reminder = c.reminderText === null ? 0 : countText(c.reminderText);
    const loaded = count(block(c.loaded ?? []));
    const deferred = count(block(c.deferred, true));
    const total = tools + reminder + loaded;
    return {
      tools,
      reminder,
      loaded,
      deferred,
      total,
      all_up_front: allUpFront,
      saved: allUpFront - total,
      cache: views[i]!,
    };
  });
  const sum = (k: 'tools' | 'reminder' | 'loaded' | 'deferred' | 'total' | 'all_up_front'): number =>
    per_call.reduce((a, c) => a + c[k], 0);
  const all_up_front = sum('all_up_front');
  const total = sum('total');
  const note = estimateNote(tokenizer.encoding, format);
  return {
    per_call,
    summary: {
      tokens: {
        encoding: tokenizer.encoding,
        tool_format: format,
        calls: per_call.length,
        tools: sum('tools'),
        reminder: sum('reminder'),
        loaded: sum('loaded'),
        deferred: sum('deferred'),
        total,
        all_up_front,
        saved: all_up_front - total,
        saved_percent: all_up_front === 0 ? 0 : Math.round(((all_up_front - total) / all_up_front) * 1000) / 10,
        note,
      },
      cache: cacheSummary(views),
    },
    note,
  };
}

/**
 * Counts, per model call, the tokens of the tools block (OpenAI or Anthropic
 * shape), the reminder, and the counterfactual "all tools up front"; totals
 * and saving; and the prompt-cache view. Loads the tokenizer on first use.
 */
export async function accountTokens(input: AccountTokensInput): Promise<TokenAccount> {
  return accountTokensWith(await loadTokenizer(input.encoding ?? DEFAULT_ENCODING), input);
}
