/**
 * Which session a live model call belongs to (a small stand-in until the
 * recordings' own grouping by continuity is shared): a call continues a
 * session when its request's conversation items start with the items of the
 * session's last request, the first new item carries the marks of the
 * session's last response (its tool-call ids, else its text), and it has
 * more items. A Responses request with `previous_response_id` continues the
 * session whose last response has that id. Anything else starts a session.
 * Several candidates: the longest prefix, then the most recent.
 */
import type { LiveProvider } from './calls.js';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A request's conversation items as JSON texts (system, instructions and messages or input, in order). */
export function conversationItems(provider: LiveProvider, request: unknown): string[] {
  if (!isObj(request)) return [];
  const out: string[] = [];
  const push = (v: unknown): void => {
    out.push(JSON.stringify(v) ?? 'null');
  };
  if (provider === 'openai-responses') {
    if (request.instructions !== undefined) push({ instructions: request.instructions });
    const input = request.input;
    if (Array.isArray(input)) for (const i of input) push(i);
    else if (input !== undefined) push(input);
  } else if (provider === 'gemini') {
    if (request.systemInstruction !== undefined) push({ system: request.systemInstruction });
    if (Array.isArray(request.contents)) for (const c of request.contents) push(c);
  } else {
    if (provider === 'anthropic' && request.system !== undefined) push({ system: request.system });
    if (Array.isArray(request.messages)) for (const m of request.messages) push(m);
  }
  return out;
}

/** Strings that the message answering a response carries when a client sends it back. */
export function responseMarks(provider: LiveProvider, response: unknown): string[] {
  if (!isObj(response)) return [];
  const ids: string[] = [];
  const texts: string[] = [];
  if (provider === 'openai' && Array.isArray(response.choices)) {
    const m = isObj(response.choices[0]) ? response.choices[0].message : undefined;
    if (isObj(m)) {
      if (Array.isArray(m.tool_calls))
        for (const c of m.tool_calls) if (isObj(c) && typeof c.id === 'string') ids.push(c.id);
      if (typeof m.content === 'string') texts.push(m.content);
    }
  } else if (provider === 'anthropic' && Array.isArray(response.content)) {
    for (const b of response.content) {
      if (!isObj(b)) continue;
      if (b.type === 'tool_use' && typeof b.id === 'string') ids.push(b.id);
      if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    }
  } else if (provider === 'gemini' && Array.isArray(response.candidates)) {
    const content = isObj(response.candidates[0]) ? response.candidates[0].content : undefined;
    const parts = isObj(content) && Array.isArray(content.parts) ? content.parts : [];
    for (const p of parts) {
      if (!isObj(p)) continue;
      const call = p.functionCall;
      // A call without an id is sent back as it came: its name marks it.
      if (isObj(call)) ids.push(typeof call.id === 'string' ? call.id : String(call.name));
      if (typeof p.text === 'string') texts.push(p.text);
    }
  } else if (provider === 'openai-responses' && Array.isArray(response.output)) {
    for (const o of response.output) if (isObj(o) && typeof o.call_id === 'string') ids.push(o.call_id);
  }
  const marks = ids.length > 0 ? ids : texts.filter((t) => t !== '').slice(0, 1);
  // As they appear inside JSON text.
  return marks.map((m) => JSON.stringify(m).slice(1, -1));
}

interface Open {
  readonly id: string;
  provider: LiveProvider;
  items: string[];
  marks: string[];
  responseId: string | null;
  last: number;
}

/** Assigns live model calls to sessions, in arrival order. */
export class CallGrouper {
  private readonly open: Open[] = [];
  private clock = 0;
  private next = 1;

  /** The session id of a call (`s1`, `s2`, ... in order of their first call). */
  assign(provider: LiveProvider, request: unknown, response: unknown): string {
    const items = conversationItems(provider, request);
    const prev =
      isObj(request) && typeof request.previous_response_id === 'string' ? request.previous_response_id : null;
    let best: Open | null = null;
    for (const s of this.open) {
      if (s.provider !== provider) continue;
      if (prev !== null) {
        if (s.responseId === prev && (best === null || s.last > best.last)) best = s;
        continue;
      }
      if (items.length <= s.items.length) continue;
      if (!s.items.every((t, i) => items[i] === t)) continue;
      const first = items[s.items.length]!;
      if (!s.marks.every((m) => first.includes(m))) continue;
      if (
        best === null ||
        s.items.length > best.items.length ||
        (s.items.length === best.items.length && s.last > best.last)
      )
        best = s;
    }
    const s =
      best ??
      (() => {
        const created: Open = { id: `s${this.next++}`, provider, items: [], marks: [], responseId: null, last: 0 };
        this.open.push(created);
        return created;
      })();
    s.items = items;
    s.marks = responseMarks(provider, response);
    s.responseId = isObj(response) && typeof response.id === 'string' ? response.id : null;
    s.last = ++this.clock;
    return s.id;
  }
}
