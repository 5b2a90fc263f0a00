/**
 * The messages panel: each message as one or more lines, one formatter per
 * kind of message or block, dispatched in {@link entryLines}.
 */
import { decodeMatches, TOOL_SEARCH_NAME } from '../../core/toolsearch.js';
import type { ChatMessage, ContentBlock, ToolCall, ToolResultPart } from '../../core/types.js';
import type { SearchReport, SimulationReport } from '../../jobs/simulate/report.js';
import { safe, safeName, seg, type Line, type Segment } from '../line.js';
import { searchQuery, type MessageEntry } from './model.js';
import { append, prepend } from '../../core/append.js';

/** What the formatters need to know about the session. */
export interface MessageContext {
  readonly report: SimulationReport;
  /** Searches by tool call id. */
  readonly searches: ReadonlyMap<string, { readonly call: number; readonly search: SearchReport }>;
  /** The middleware inserted the reminder at the call being shown. */
  readonly reminderInsertedNow: boolean;
}

const INDENT = '      ';

function names(list: readonly string[]): string {
  return list.length === 0 ? '(none)' : list.map(safeName).join(', ');
}

/** `→ tool_search "query"` or `→ name {args}`. */
function toolCallLine(c: ToolCall | { name: string; arguments: string; id: string }): Line {
  if (c.name === TOOL_SEARCH_NAME) {
    const q = searchQuery(c.arguments);
    return [
      seg(`${INDENT}→ `, 'dim'),
      seg('tool_search ', 'accent'),
      seg(q === null ? `(bad arguments) ${safe(c.arguments)}` : `"${safe(q)}"`),
    ];
  }
  return [seg(`${INDENT}→ `, 'dim'), seg(`${safeName(c.name)} `, 'accent'), seg(safe(c.arguments), 'dim')];
}

/** The recorded result of a tool_search call: its matches (or what it holds instead). */
function searchResultSegments(text: string | null, tools: readonly string[] | null): Segment[] {
  if (tools !== null) return [seg(`loaded ${names(tools)}`)];
  // Read as forward selection reads it: a text that does not decode is skipped by the middleware.
  const matches = text === null ? null : decodeMatches(text);
  return matches === null
    ? [seg(`(not a matches result: skipped) ${safe(text ?? '')}`, 'warning')]
    : [seg(`matches: ${names(matches)}`)];
}

/** With replay on: the line under a search result that a fresh search would change. */
function replayLines(ctx: MessageContext, callId: string): Line[] {
  const found = ctx.searches.get(callId);
  if (ctx.report.replay === null || !found?.search.differs) return [];
  const r = found.search.replayed;
  return [
    [
      seg(`${INDENT}  ≠ replay: `, 'replay'),
      seg('matches' in r ? `matches: ${names(r.matches)}` : `error: ${safe(r.error)}`, 'replay'),
    ],
  ];
}

function resultPartText(parts: readonly ToolResultPart[]): { text: string | null; tools: readonly string[] | null } {
  for (const p of parts) {
    if (p.type === 'text') return { text: p.text, tools: null };
    if (p.type === 'tool_search_result') return { text: null, tools: p.tools };
  }
  return { text: '', tools: null };
}

function blockLines(ctx: MessageContext, b: ContentBlock): Line[] {
  switch (b.type) {
    case 'text':
      return [[seg(INDENT), seg(safe(b.text))]];
    case 'function_tool_call':
      return [toolCallLine({ id: b.callId, name: b.name, arguments: b.arguments })];
    case 'function_tool_result': {
      const { text, tools } = resultPartText(b.content);
      if (b.name === TOOL_SEARCH_NAME) {
        return [
          [seg(`${INDENT}← `, 'dim'), seg('tool_search ', 'accent'), ...searchResultSegments(text, tools)],
          ...replayLines(ctx, b.callId),
        ];
      }
      return [
        [
          seg(`${INDENT}← `, 'dim'),
          seg(`${safeName(b.name)} `, 'accent'),
          seg(safe(text ?? (tools ? `loaded ${names(tools)}` : '')), 'dim'),
        ],
      ];
    }
    case 'server_tool_search':
      return [
        [
          seg(`${INDENT}⌕ `, 'dim'),
          seg(b.execution === 'client' ? 'client search ' : 'server search ', 'accent'),
          seg(`"${safe(b.query)}"`),
        ],
      ];
    case 'provider_tool_call': {
      const label = [b.server, b.name].filter((x) => x !== '').join('.') || b.kind;
      return [
        [
          seg(`${INDENT}⚙ `, 'dim'),
          seg(`${safeName(label)} `, 'accent'),
          seg(`(${b.kind}, run by the ${b.executedBy}) ${safe(b.arguments)}`, 'dim'),
        ],
      ];
    }
    case 'server_tool_search_result':
      return [[seg(`${INDENT}⌕ `, 'dim'), seg('server search loaded ', 'accent'), seg(names(b.tools))]];
    case 'other':
      return [[seg(INDENT), seg(`(${safe(b.description)})`, 'dim')]];
    default: {
      const never: never = b;
      return never;
    }
  }
}

function chatLines(ctx: MessageContext, m: ChatMessage, head: Segment[]): Line[] {
  if (m.role === 'tool') {
    const name = m.toolName ?? '?';
    if (name === TOOL_SEARCH_NAME)
      return [
        [...head, seg('tool_search ', 'accent'), ...searchResultSegments(m.content, null)],
        ...replayLines(ctx, m.toolCallId ?? ''),
      ];
    return [[...head, seg(`${safeName(name)} `, 'accent'), seg(safe(m.content), 'dim')]];
  }
  const lines: Line[] = [[...head, seg(safe(m.content))]];
  for (const c of m.toolCalls ?? []) lines.push(toolCallLine(c));
  return lines;
}

/** The lines of one message: a head line (`#index role`), then its tool calls or blocks. */
export function entryLines(ctx: MessageContext, e: MessageEntry): Line[] {
  const m = e.message;
  const pointer = e.answer ? seg('▶', 'heading') : seg(' ');
  const index = seg(e.index === null ? ' mw ' : `#${e.index}`.padStart(4), e.answer ? 'heading' : 'dim');
  const role = seg(` ${m.role.padEnd(9)} `, e.answer ? 'heading' : 'plain');
  const head = [pointer, index, role];
  if (e.reminder) {
    // The note first: at 80 columns the list itself does not fit anyway.
    const count = Math.max(0, (m.kind === 'chat' ? m.content : '').split('\n').length - 2);
    const note =
      e.index === null
        ? ctx.reminderInsertedNow
          ? '◆ reminder inserted by the middleware at this call'
          : '◆ reminder inserted by the middleware'
        : '◆ reminder (already in the transcript)';
    return [
      [
        ...head,
        seg(note, 'accent'),
        seg(count > 0 && m.kind === 'chat' ? `: <available-deferred-tools> ${count} names` : '', 'dim'),
      ],
    ];
  }
  if (m.kind === 'chat') return chatLines(ctx, m, head);
  const lines: Line[] = [head];
  for (const b of m.blocks) append(lines, blockLines(ctx, b));
  return lines.length === 1 ? [[...head, seg('(no blocks)', 'dim')]] : lines;
}

/**
 * The last `height` lines of the call's messages, `scroll` lines up from the
 * answer; builds only the lines it needs, from the end.
 */
export function messageWindow(
  ctx: MessageContext,
  entries: readonly MessageEntry[],
  height: number,
  scroll: number,
): { lines: Line[]; maxScroll: number; total: number | null } {
  const need = height + scroll;
  const collected: Line[] = [];
  let i = entries.length - 1;
  for (; i >= 0 && collected.length < need; i--) prepend(collected, entryLines(ctx, entries[i]!));
  const complete = i < 0;
  const maxScroll = complete ? Math.max(0, collected.length - height) : Number.MAX_SAFE_INTEGER;
  const s = Math.min(scroll, maxScroll);
  const end = collected.length - s;
  return {
    lines: collected.slice(Math.max(0, end - height), end),
    maxScroll,
    total: complete ? collected.length : null,
  };
}
