/**
 * Cline / Roo Code task histories, `api_conversation_history.json`: a JSON
 * array of Anthropic `MessageParam`s as the extension sends them, with its
 * own fields beside (`ts`, `id`, `modelInfo`, `metrics`,
 * `provider_metadata`; Roo Code's `isSummary`, `condenseId`,
 * `condenseParent`, `truncationId`, `truncationParent`, `isTruncationMarker`,
 * `reasoning_details`, `reasoning_content`): metadata, not conversation.
 * Roo Code's stored reasoning items (`{type: "reasoning", ...}`) are skipped
 * by rule.
 *
 * Source: the claude-dev@3.10.10 npm package (Cline's source:
 * src/core/task/index.ts, src/core/assistant-message/): the assistant's
 * tools are XML in its text, `<tool_name><param>value</param></tool_name>`,
 * parsed here as `parseAssistantMessage` parses them (only the tool and
 * parameter names it knows; values trimmed; `write_to_file`'s `content` up to
 * the last `</content>`; a tool left open at the end is a call too, as the
 * extension completes partial blocks when the stream ends). A call's
 * arguments are its parameters as a JSON object of strings, its id
 * `<tool>#<n>` (its n-th call). Tool results come back in the next user
 * message as a text block `[<tool> for '…'] Result:` (or `[<tool>] Result:`)
 * followed by the result: the next block, with the image blocks right after
 * it; each answers the earliest unanswered call of that tool. Native
 * `tool_use` / `tool_result` blocks (newer versions) are read as Anthropic
 * blocks.
 */
import { toWellFormed } from '../../core/text.js';
import type { ContentBlock, ToolResultPart } from '../../core/types.js';
import { field, kindName, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import { contentBlocks } from '../transcript-anthropic.js';
import { checkKeys, objects, type TranscriptBuilder } from '../transcript-common.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type RecordingReader } from './types.js';
import { append } from '../../core/append.js';

/** Cline 3.10.10's `toolUseNames` (src/core/assistant-message/index.ts). */
export const CLINE_TOOLS = [
  'execute_command',
  'read_file',
  'write_to_file',
  'replace_in_file',
  'search_files',
  'list_files',
  'list_code_definition_names',
  'browser_action',
  'use_mcp_tool',
  'access_mcp_resource',
  'ask_followup_question',
  'plan_mode_respond',
  'load_mcp_documentation',
  'attempt_completion',
  'new_task',
] as const;
/** Its `toolParamNames`. */
const PARAMS = [
  'command',
  'requires_approval',
  'path',
  'content',
  'diff',
  'regex',
  'file_pattern',
  'recursive',
  'action',
  'url',
  'coordinate',
  'text',
  'server_name',
  'tool_name',
  'arguments',
  'uri',
  'question',
  'options',
  'response',
  'result',
  'context',
] as const;

const MESSAGE_KEYS = [
  'role',
  'content',
  'ts',
  'id',
  'modelInfo',
  'metrics',
  'provider_metadata',
  'isSummary',
  'condenseId',
  'condenseParent',
  'truncationId',
  'truncationParent',
  'isTruncationMarker',
  'reasoning_details',
  'reasoning_content',
];

type Parsed = { type: 'text'; text: string } | { type: 'tool'; name: string; params: Map<string, string> };

/** Cline's parseAssistantMessage, block for block (see the module comment). */
export function parseClineText(message: string): Parsed[] {
  const blocks: Parsed[] = [];
  let text: { start: number; content: string } | null = null;
  let tool: { name: string; params: Map<string, string>; start: number } | null = null;
  let param: string | null = null;
  let paramStart = 0;
  let acc = '';
  for (let i = 0; i < message.length; i++) {
    acc += message[i];
    if (tool && param !== null) {
      const value = acc.slice(paramStart);
      const close = `</${param}>`;
      if (value.endsWith(close)) {
        tool.params.set(param, value.slice(0, -close.length).trim());
        param = null;
      }
      continue;
    }
    if (tool) {
      const value = acc.slice(tool.start);
      if (value.endsWith(`</${tool.name}>`)) {
        blocks.push({ type: 'tool', name: tool.name, params: tool.params });
        tool = null;
        continue;
      }
      for (const p of PARAMS) {
        if (acc.endsWith(`<${p}>`)) {
          param = p;
          paramStart = acc.length;
          break;
        }
      }
      if (tool.name === 'write_to_file' && acc.endsWith('</content>')) {
        const t = acc.slice(tool.start);
        const s = t.indexOf('<content>') + '<content>'.length;
        const e = t.lastIndexOf('</content>');
        if (s !== -1 && e !== -1 && e > s) tool.params.set('content', t.slice(s, e).trim());
      }
      continue;
    }
    let started = false;
    for (const name of CLINE_TOOLS) {
      const open = `<${name}>`;
      if (!acc.endsWith(open)) continue;
      tool = { name, params: new Map(), start: acc.length };
      if (text) {
        const content = text.content.slice(0, -open.slice(0, -1).length).trim();
        blocks.push({ type: 'text', text: content });
        text = null;
      }
      started = true;
      break;
    }
    if (!started) {
      const start: number = text === null ? i : text.start;
      text = { start, content: acc.slice(start).trim() };
    }
  }
  if (tool) {
    if (param !== null) tool.params.set(param, acc.slice(paramStart).trim());
    blocks.push({ type: 'tool', name: tool.name, params: tool.params });
  }
  if (text) blocks.push({ type: 'text', text: text.content });
  return blocks;
}

const HEADER = /^\[([a-z_]+)(?: for [\s\S]*)?\] Result:$/;

/** The unanswered calls, by tool, in order; and how many calls each tool had. */
class Calls {
  readonly open = new Map<string, string[]>();
  readonly counts = new Map<string, number>();
  add(name: string): string {
    const n = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, n);
    const id = `${name}#${n}`;
    this.open.set(name, [...(this.open.get(name) ?? []), id]);
    return id;
  }
  answer(name: string): string {
    const list = this.open.get(name) ?? [];
    return list.shift() ?? `${name}#?`;
  }
}

const textOf = (n: Node): string | null => {
  if (n.kind !== 'object') return null;
  const t = field(n, 'type');
  const x = field(n, 'text');
  return t?.kind === 'string' && t.value === 'text' && x?.kind === 'string' ? x.value : null;
};
const isImage = (n: Node): boolean => {
  const t = n.kind === 'object' ? field(n, 'type') : undefined;
  return t?.kind === 'string' && t.value === 'image';
};

function assistantBlocks(b: TranscriptBuilder, content: Node, calls: Calls): ContentBlock[] {
  if (content.kind === 'string') return parsedBlocks(b, content, parseClineText(content.value), calls);
  if (content.kind !== 'array')
    throw b.error(content, `message content must be a string or a list of blocks, found ${kindName(content)}`);
  const out: ContentBlock[] = [];
  for (const block of content.items) {
    const text = textOf(block);
    if (text !== null) append(out, parsedBlocks(b, block, parseClineText(text), calls));
    else append(out, contentBlocks(b, { kind: 'array', offset: block.offset, items: [block] }));
  }
  return out;
}

function parsedBlocks(b: TranscriptBuilder, at: Node, parsed: Parsed[], calls: Calls): ContentBlock[] {
  return parsed.map((p): ContentBlock => {
    if (p.type === 'text') return { type: 'text', text: toWellFormed(p.text) };
    const callId = calls.add(p.name);
    b.call(callId, p.name, at);
    const args: Record<string, string> = {};
    for (const [k, v] of p.params) args[k] = toWellFormed(v);
    return { type: 'function_tool_call', callId, name: p.name, arguments: JSON.stringify(args) };
  });
}

function userBlocks(b: TranscriptBuilder, content: Node, calls: Calls): ContentBlock[] {
  if (content.kind !== 'array') return contentBlocks(b, content);
  const out: ContentBlock[] = [];
  const items = content.items;
  for (let i = 0; i < items.length; i++) {
    const block = items[i]!;
    const header = HEADER.exec(textOf(block) ?? '');
    if (!header) {
      append(out, contentBlocks(b, { kind: 'array', offset: block.offset, items: [block] }));
      continue;
    }
    const name = header[1]!;
    const callId = calls.answer(name);
    b.resolveCall(block as ObjectNode, callId);
    const parts: ToolResultPart[] = [];
    const next = items[i + 1];
    if (next !== undefined && !HEADER.test(textOf(next) ?? '')) {
      i++;
      const t = textOf(next);
      parts.push(t !== null ? { type: 'text', text: toWellFormed(t) } : { type: 'other', description: 'block' });
      while (i + 1 < items.length && isImage(items[i + 1]!)) {
        i++;
        parts.push({ type: 'other', description: 'image' });
      }
    }
    out.push({ type: 'function_tool_result', callId, name, content: parts });
  }
  return out;
}

/** What only Cline / Roo Code histories have: `ts`, result headers, XML tool use, the `<task>` opening. */
function evidence(doc: ParsedDocument): { n: number; why: string } | null {
  const root = doc.root;
  if (root.kind !== 'array' || doc.syntax === 'sse') return null;
  let ts = 0;
  let headers = 0;
  let xml = 0;
  let task = 0;
  const open = new RegExp(`<(${CLINE_TOOLS.join('|')})>`);
  for (const m of root.items) {
    if (m.kind !== 'object' || field(m, 'role')?.kind !== 'string') continue;
    if (field(m, 'ts')?.kind === 'number') ts++;
    const role = (field(m, 'role') as { value: string }).value;
    const content = field(m, 'content');
    const blocks = content?.kind === 'array' ? content.items : content ? [content] : [];
    for (const bl of blocks) {
      const t = bl.kind === 'string' ? bl.value : textOf(bl);
      if (t === null) continue;
      if (role === 'user' && HEADER.test(t)) headers++;
      if (role === 'user' && t.startsWith('<task>\n')) task++;
      if (role === 'assistant' && open.test(t)) xml++;
    }
  }
  const n = ts + headers + xml + task;
  if (n === 0) return null;
  const said = [
    ts > 0 ? `${ts} with "ts"` : '',
    headers > 0 ? `${headers} "[tool] Result:" blocks` : '',
    xml > 0 ? `${xml} XML tool uses` : '',
    task > 0 ? 'a <task> opening' : '',
  ].filter((s) => s !== '');
  return { n, why: `Cline / Roo Code messages (${said.join(', ')})` };
}

/**
 * Keys of a Cline / Roo Code message that no other format's messages have (not `metrics`,
 * `provider_metadata` or the reasoning keys, which providers' messages may carry too).
 */
const CLINE_KEYS = [
  'modelInfo',
  'isSummary',
  'condenseId',
  'condenseParent',
  'truncationId',
  'truncationParent',
  'isTruncationMarker',
];

/**
 * Cline / Roo Code's own signs with none of the evidence detection counts: messages with `ts` that
 * is no number, with Roo's keys (`modelInfo`, `condenseId`, ...), or whose text carries Cline's
 * `<environment_details>`.
 */
function near(doc: ParsedDocument): NearMiss | null {
  const root = doc.root;
  if (root.kind !== 'array' || doc.syntax === 'sse' || evidence(doc) !== null) return null;
  let n = 0;
  let keys = 0;
  for (const m of root.items) {
    if (m.kind !== 'object' || field(m, 'role')?.kind !== 'string') continue;
    const content = field(m, 'content');
    const blocks = content?.kind === 'array' ? content.items : content ? [content] : [];
    const env = blocks.some((bl) => (bl.kind === 'string' ? bl.value : textOf(bl))?.includes('<environment_details>'));
    const own = m.members.has('ts') || CLINE_KEYS.some((k) => m.members.has(k));
    if (own) keys++;
    if (own || env) n++;
  }
  if (n === 0) return null;
  return {
    // <environment_details> alone is text: a provider's messages logged from a Cline session have it too.
    score: keys > 0 ? DISTINCTIVE + n : n,
    found:
      `${n} ${n === 1 ? 'message' : 'messages'} with Cline / Roo Code's keys or <environment_details> but no ` +
      'numeric "ts", "[tool] Result:" block, XML tool use or <task> opening',
    expected:
      'api_conversation_history.json: [{role, content, "ts": <ms>}] with XML tool use and "[tool] Result:" blocks',
  };
}

function detect(doc: ParsedDocument): Evidence | null {
  const e = evidence(doc);
  return e ? { score: DISTINCTIVE + e.n, detected_by: e.why } : null;
}

function read(doc: ParsedDocument, b: TranscriptBuilder): void {
  const root = doc.root;
  if (root.kind !== 'array')
    throw b.error(
      root,
      `not a cline history: expected a list of messages (api_conversation_history.json), found ${kindName(root)}`,
    );
  const calls = new Calls();
  for (const m of objects(b, root.items, 'a message')) {
    const type = field(m, 'type');
    if (type?.kind === 'string' && type.value === 'reasoning') {
      b.skip('stored reasoning items (type "reasoning": the model\'s reasoning, not a message)');
      continue;
    }
    b.read();
    checkKeys(b, m, MESSAGE_KEYS, 'a Cline message');
    const role = field(m, 'role');
    if (role?.kind !== 'string' || (role.value !== 'user' && role.value !== 'assistant'))
      throw b.error(
        m,
        `a Cline message's role must be "user" or "assistant", found ` +
          (role?.kind === 'string' ? JSON.stringify(role.value) : kindName(role)),
      );
    const content = field(m, 'content') ?? { kind: 'array', offset: m.offset, items: [] };
    const blocks = role.value === 'assistant' ? assistantBlocks(b, content, calls) : userBlocks(b, content, calls);
    b.push({ kind: 'blocks', role: role.value, blocks }, m);
  }
}

export const clineReader: RecordingReader = {
  format: 'cline',
  records: 'conversation',
  summary: 'Cline / Roo Code api_conversation_history.json',
  shape:
    'cline: Cline / Roo Code api_conversation_history.json (Anthropic messages, XML tool use, "[tool] Result:" blocks)',
  detect,
  near,
  read,
};
