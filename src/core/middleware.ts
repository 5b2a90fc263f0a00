/**
 * The middleware state machine (SPEC §4), as plain functions over plain data.
 *
 * Nothing here mutates its inputs: every step returns new arrays, so a report
 * can keep the state of every model call side by side.
 */
import { decodeMatches, TOOL_SEARCH_NAME, TOOL_SEARCH_TOOL } from './toolsearch.js';
import { ToolIndex } from './index/tool-index.js';
import type { ChatMessage, Message, Mode, ToolInfo } from './types.js';

/** The extra field that marks the reminder message. */
export const REMINDER_MARKER = '__toolsearch_reminder__';

/**
 * Run-local key the reference uses to remember initialization (shown for reference; the port keeps it in {@link
 * RunLocal}).
 */
export const INITIALIZED_KEY = '__toolsearch_initialized__';

/** A configured middleware: the dynamic tools, the mode, and what is derived from them once. */
export interface Middleware {
  readonly mode: Mode;
  /** Dynamic tools in catalog order. */
  readonly dynamicTools: readonly ToolInfo[];
  /** Index over the dynamic tools (what `tool_search` searches). */
  readonly index: ToolIndex;
  /** Text of the reminder message. */
  readonly reminderText: string;
}

/** Construction error, with the reference's message. */
export class MiddlewareConfigError extends Error {
  override readonly name = 'MiddlewareConfigError';
}

/** The reminder text: the dynamic tool names, one per line, inside `<available-deferred-tools>`. */
export function reminderText(names: readonly string[]): string {
  return `<available-deferred-tools>\n${names.map((n) => `${n}\n`).join('')}</available-deferred-tools>`;
}

/**
 * Creates the middleware (the reference's `New`): at least one dynamic tool
 * ("tools is required"), names unique ("duplicate dynamic tool name: NAME").
 */
export function createMiddleware(config: { dynamicTools: readonly ToolInfo[]; mode?: Mode }): Middleware {
  if (config.dynamicTools.length === 0) throw new MiddlewareConfigError('tools is required');
  const seen = new Set<string>();
  for (const t of config.dynamicTools) {
    if (seen.has(t.name)) throw new MiddlewareConfigError(`duplicate dynamic tool name: ${t.name}`);
    seen.add(t.name);
  }
  const dynamicTools = [...config.dynamicTools];
  return {
    mode: config.mode ?? 'default',
    dynamicTools,
    index: new ToolIndex(dynamicTools),
    reminderText: reminderText(dynamicTools.map((t) => t.name)),
  };
}

/** The agent's tool list after `BeforeAgent`: static tools, then `tool_search`, then the dynamic tools. */
export function agentTools(mw: Middleware, staticTools: readonly ToolInfo[]): ToolInfo[] {
  return [...staticTools, TOOL_SEARCH_TOOL, ...mw.dynamicTools];
}

/**
 * The per-call state the middleware rewrites (Eino `ChatModelAgentState`). `null` is Go's nil slice, which the
 * framework treats differently from an empty one.
 */
export interface ModelCallState {
  readonly messages: readonly Message[];
  readonly toolInfos: readonly ToolInfo[] | null;
  readonly deferredToolInfos: readonly ToolInfo[] | null;
}

/** Run-local values: whether this run already initialized. */
export interface RunLocal {
  readonly initialized: boolean;
}

/** What one `BeforeModelRewriteState` did, besides the new state. */
export interface BeforeModelCallResult {
  readonly state: ModelCallState;
  readonly runLocal: RunLocal;
  /** Index of the reminder inserted by this call, or null when one was already present. */
  readonly reminderInsertedAt: number | null;
  /** True when this call ran the first-call initialization. */
  readonly initializedNow: boolean;
  /** Tools appended by forward selection in this call, in order. */
  readonly added: readonly ToolInfo[];
}

/** Whether a message carries the reminder marker (`extra.__toolsearch_reminder__ === true`). */
export function hasReminderMarker(msg: Message): boolean {
  return msg.extra !== undefined && Object.hasOwn(msg.extra, REMINDER_MARKER) && msg.extra[REMINDER_MARKER] === true;
}

/** The reminder message as the middleware inserts it. */
export function reminderMessage(mw: Middleware, kind: Message['kind'] = 'chat'): Message {
  const extra = { [REMINDER_MARKER]: true };
  if (kind === 'blocks')
    return { kind: 'blocks', role: 'user', blocks: [{ type: 'text', text: mw.reminderText }], extra };
  const msg: ChatMessage = { kind: 'chat', role: 'user', content: mw.reminderText, extra };
  return msg;
}

/**
 * Inserts the reminder unless a message already carries the marker: right
 * before the first message whose role is not `system`, or at the end when
 * there is none.
 */
export function ensureReminder(
  mw: Middleware,
  messages: readonly Message[],
): { messages: readonly Message[]; insertedAt: number | null } {
  for (const m of messages) if (hasReminderMarker(m)) return { messages, insertedAt: null };
  const kind = messages[0]?.kind ?? 'chat';
  const reminder = reminderMessage(mw, kind);
  let at = messages.findIndex((m) => m.role !== 'system');
  if (at < 0) at = messages.length;
  return { messages: [...messages.slice(0, at), reminder, ...messages.slice(at)], insertedAt: at };
}

/**
 * The text of a `tool_search` result in a message, as the reference reads it:
 * a chat message with role `tool` and tool name `tool_search` (its content);
 * in a content-block message, the first text part of the first
 * `function_tool_result` block named `tool_search` that has a text part.
 */
export function toolSearchResultText(msg: Message): string | null {
  if (msg.kind === 'chat') {
    return msg.role === 'tool' && msg.toolName === TOOL_SEARCH_NAME ? msg.content : null;
  }
  for (const block of msg.blocks) {
    if (block.type !== 'function_tool_result' || block.name !== TOOL_SEARCH_NAME) continue;
    for (const part of block.content) if (part.type === 'text') return part.text;
  }
  return null;
}

/**
 * Forward selection: appends, in order, every dynamic tool named by a
 * `tool_search` result in `messages[from..]` that is not yet in `toolInfos`.
 * Results that do not decode are skipped; unknown names are ignored.
 * `from` lets a caller that only appends messages scan just the new ones
 * (the result is the same, since tools are only ever added).
 */
export function forwardSelect(
  mw: Middleware,
  messages: readonly Message[],
  toolInfos: readonly ToolInfo[] | null,
  from = 0,
): { toolInfos: readonly ToolInfo[] | null; added: ToolInfo[] } {
  let existing: Set<string> | null = null;
  const added: ToolInfo[] = [];
  for (let i = from; i < messages.length; i++) {
    const text = toolSearchResultText(messages[i]!);
    if (text === null) continue;
    const names = decodeMatches(text);
    if (names === null) continue;
    for (const name of names) {
      existing ??= new Set((toolInfos ?? []).map((t) => t.name));
      if (existing.has(name)) continue;
      const info = mw.index.get(name);
      if (info === undefined) continue;
      added.push(info);
      existing.add(name);
    }
  }
  if (added.length === 0) return { toolInfos, added };
  return { toolInfos: [...(toolInfos ?? []), ...added], added };
}

function withoutDynamic(mw: Middleware, tools: readonly ToolInfo[] | null): ToolInfo[] | null {
  const out = (tools ?? []).filter((t) => !mw.index.has(t.name));
  return out.length === 0 ? null : out; // Go appends to a nil slice: nothing kept is nil
}

/**
 * `BeforeModelRewriteState`: reminder, first-call initialization, and (default
 * mode) forward selection. `options.scanFrom` limits forward selection to
 * messages from that index on (see {@link forwardSelect}).
 */
export function beforeModelCall(
  mw: Middleware,
  state: ModelCallState,
  runLocal: RunLocal,
  options: { scanFrom?: number } = {},
): BeforeModelCallResult {
  const { messages, insertedAt } = ensureReminder(mw, state.messages);
  let toolInfos = state.toolInfos;
  let deferredToolInfos = state.deferredToolInfos;
  const initializedNow = !runLocal.initialized;
  if (initializedNow) {
    if (mw.mode === 'native') {
      // The model searches the deferred tools itself: they move to the
      // deferred list, and tool_search leaves the visible list.
      const deferred = (toolInfos ?? []).filter((t) => mw.index.has(t.name));
      deferredToolInfos = deferred.length === 0 ? null : deferred;
      const rest = withoutDynamic(mw, toolInfos)?.filter((t) => t.name !== TOOL_SEARCH_NAME) ?? [];
      toolInfos = rest.length === 0 ? null : rest;
    } else {
      toolInfos = withoutDynamic(mw, toolInfos);
    }
  }
  let added: ToolInfo[] = [];
  if (mw.mode === 'default') {
    // A reminder inserted before the scan start shifts the unscanned messages by one.
    let from = options.scanFrom ?? 0;
    if (insertedAt !== null && insertedAt <= from && from > 0) from++;
    const selected = forwardSelect(mw, messages, toolInfos, from);
    toolInfos = selected.toolInfos;
    added = selected.added;
  }
  return {
    state: { messages, toolInfos, deferredToolInfos },
    runLocal: { initialized: true },
    reminderInsertedAt: insertedAt,
    initializedNow,
    added,
  };
}
