/**
 * Reading a transcript the way the simulation needs it: where the model calls
 * are, what each assistant message did, which results answer which calls,
 * and the transcript with fresh search results for `--replay`. Plain
 * functions over core messages; the engine folds over what they return.
 */
import { hasReminderMarker, type Middleware } from '../../core/middleware.js';
import { decodeMatches, encodeMatches, runToolSearch, TOOL_SEARCH_NAME } from '../../core/toolsearch.js';
import type { Message } from '../../core/types.js';
import type { Transcript } from '../../formats/types.js';
import type { ProviderCallReport, SearchOutcome } from './report.js';

export interface CallSpan {
  /** Messages appended before this call. */
  readonly newMessages: readonly Message[];
  /** Transcript index of the assistant message answering the call, or null. */
  readonly assistantIndex: number | null;
}

/** Splits a transcript into model calls: call k happens right before the k-th assistant message. */
export function modelCalls(messages: readonly Message[]): CallSpan[] {
  const spans: CallSpan[] = [];
  let from = 0;
  for (let i = 0; i < messages.length; i++) {
    if (messages[i]!.role !== 'assistant') continue;
    spans.push({ newMessages: messages.slice(from, i), assistantIndex: i });
    from = i;
  }
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'assistant') spans.push({ newMessages: messages.slice(from), assistantIndex: null });
  return spans;
}

export interface CallMade {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export function toolCallsOf(msg: Message): CallMade[] {
  if (msg.kind === 'chat')
    return (msg.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
  const out: CallMade[] = [];
  for (const b of msg.blocks)
    if (b.type === 'function_tool_call') out.push({ id: b.callId, name: b.name, arguments: b.arguments });
  return out;
}

function firstLine(text: string, max = 120): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function assistantText(msg: Message): string {
  if (msg.kind === 'chat') return firstLine(msg.content);
  for (const b of msg.blocks) if (b.type === 'text' && b.text.trim() !== '') return firstLine(b.text);
  return '';
}

/** The recorded result of a tool call: the raw text, or a structured tool search result (model-native). */
export type RecordedResult = { readonly text: string } | { readonly tools: readonly string[] };

/** The recorded results by call id (the first result for an id wins), and the tools each server-side search loaded. */
export function indexResults(messages: readonly Message[]): {
  results: Map<string, RecordedResult>;
  serverResults: Map<string, readonly string[]>;
} {
  const results = new Map<string, RecordedResult>();
  const serverResults = new Map<string, readonly string[]>();
  for (const m of messages) {
    if (m.kind === 'chat') {
      if (m.role === 'tool' && m.toolCallId !== undefined && !results.has(m.toolCallId))
        results.set(m.toolCallId, { text: m.content });
      continue;
    }
    for (const b of m.blocks) {
      if (b.type === 'server_tool_search_result') {
        if (!serverResults.has(b.callId)) serverResults.set(b.callId, b.tools);
        continue;
      }
      if (b.type !== 'function_tool_result' || results.has(b.callId)) continue;
      let r: RecordedResult = { text: '' };
      for (const p of b.content) {
        if (p.type === 'text') {
          r = { text: p.text };
          break;
        }
        if (p.type === 'tool_search_result') {
          r = { tools: p.tools };
          break;
        }
      }
      results.set(b.callId, r);
    }
  }
  return { results, serverResults };
}

export function outcomeOfRecorded(r: RecordedResult): SearchOutcome {
  if ('tools' in r) return { matches: r.tools };
  const names = decodeMatches(r.text);
  return names === null ? { error: r.text } : { matches: names };
}

export function sameOutcome(a: SearchOutcome, b: SearchOutcome): boolean {
  if ('matches' in a && 'matches' in b)
    return a.matches.length === b.matches.length && a.matches.every((n, i) => n === b.matches[i]);
  if ('error' in a && 'error' in b) return a.error === b.error;
  return false;
}

export function replayOutcome(
  mw: Middleware,
  args: string,
): { outcome: SearchOutcome; mode: 'select' | 'keyword' | null } {
  const r = runToolSearch(mw.index, args);
  if (!r.ok) return { outcome: { error: r.error }, mode: null };
  return { outcome: { matches: r.matches }, mode: r.mode };
}

/** The transcript with every tool_search result text replaced by what the catalog returns now. */
export function withReplayedResults(mw: Middleware, messages: readonly Message[]): Message[] {
  const argsById = new Map<string, string>();
  for (const m of messages)
    for (const c of toolCallsOf(m)) if (c.name === TOOL_SEARCH_NAME) argsById.set(c.id, c.arguments);
  const fresh = (id: string): string | null => {
    const args = argsById.get(id);
    if (args === undefined) return null;
    const r = runToolSearch(mw.index, args);
    return r.ok ? encodeMatches(r.matches) : r.error;
  };
  return messages.map((m): Message => {
    if (m.kind === 'chat') {
      if (m.role !== 'tool' || m.toolName !== TOOL_SEARCH_NAME || m.toolCallId === undefined) return m;
      const text = fresh(m.toolCallId);
      return text === null ? m : { ...m, content: text };
    }
    let changed = false;
    const blocks = m.blocks.map((b) => {
      if (b.type !== 'function_tool_result' || b.name !== TOOL_SEARCH_NAME) return b;
      const text = fresh(b.callId);
      if (text === null) return b;
      changed = true;
      return { ...b, content: [{ type: 'text' as const, text }] };
    });
    return changed ? { ...m, blocks } : m;
  });
}

/** A tool result whose call id no earlier tool call has. */
export interface OrphanResult {
  readonly index: number;
  readonly callId: string;
  readonly tool: string | null;
}

/**
 * Tool results pointing to an unknown call id: no tool call before them (in
 * message and block order) has that id. The same rule as the loaders'
 * warnings, so the report and stderr agree; an empty id matches no call.
 */
export function orphanResults(messages: readonly Message[]): OrphanResult[] {
  const calls = new Set<string>();
  const out: OrphanResult[] = [];
  messages.forEach((m, index) => {
    if (m.kind === 'chat') {
      for (const c of m.toolCalls ?? []) if (c.id !== '') calls.add(c.id);
      if (m.role === 'tool' && m.toolCallId !== undefined && !calls.has(m.toolCallId)) {
        out.push({ index, callId: m.toolCallId, tool: m.toolName || null });
      }
      return;
    }
    for (const b of m.blocks) {
      if (b.type === 'function_tool_call' && b.callId !== '') calls.add(b.callId);
      else if (b.type === 'function_tool_result' && !calls.has(b.callId))
        out.push({ index, callId: b.callId, tool: b.name || null });
    }
  });
  return out;
}

/** A tool call no later message answers, while the conversation goes on after it. */
export interface UnansweredCall {
  /** The assistant message that made it. */
  readonly index: number;
  readonly callId: string;
  readonly tool: string;
}

/**
 * Tool calls that no later tool result answers, except those of the last message (a recording
 * may end with the model asking for tools). The reference replays such a conversation as it is
 * (the middleware does not pair calls and results); the simulation reports each as a warning.
 * An empty id is never answered, and never reported: it pairs with nothing by design.
 */
export function unansweredCalls(messages: readonly Message[]): UnansweredCall[] {
  const answered = new Set<string>();
  for (const m of messages) {
    if (m.kind === 'chat') {
      if (m.role === 'tool' && m.toolCallId !== undefined) answered.add(m.toolCallId);
    } else for (const b of m.blocks) if (b.type === 'function_tool_result') answered.add(b.callId);
  }
  const out: UnansweredCall[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < messages.length - 1; index++) {
    const m = messages[index]!;
    if (m.role !== 'assistant') continue;
    for (const c of toolCallsOf(m)) {
      if (c.id === '' || answered.has(c.id) || seen.has(c.id)) continue;
      seen.add(c.id);
      out.push({ index, callId: c.id, tool: c.name });
    }
  }
  return out;
}

/**
 * The transcript index of the reminder that the loader recognised by its
 * text, or null. Provider formats carry no `extra`, so a marker in one of
 * their messages was restored from the text (beyond the reference, which
 * only knows the marker); in Eino transcripts only the marker counts.
 */
export function reminderByText(transcript: Transcript): number | null {
  if (transcript.format === 'eino') return null;
  const i = transcript.messages.findIndex((m) => hasReminderMarker(m));
  return i < 0 ? null : i;
}

/** The calls of the provider's own tools in one response, in block order. */
export function providerCallsOf(assistant: Message | null): ProviderCallReport[] {
  if (!assistant || assistant.kind !== 'blocks') return [];
  const out: ProviderCallReport[] = [];
  for (const b of assistant.blocks)
    if (b.type === 'provider_tool_call')
      out.push({
        id: b.callId,
        type: b.kind,
        name: b.name === '' ? null : b.name,
        server: b.server === '' ? null : b.server,
        arguments: b.arguments,
        executed_by: b.executedBy,
      });
  return out;
}
