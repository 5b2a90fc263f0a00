/**
 * LangChain / LangGraph messages, three serializations of the same
 * `BaseMessage` fields (`content`, `tool_calls: [{name, args, id}]`,
 * `tool_call_id`, `name`, `additional_kwargs`, `response_metadata`, `id`):
 *
 * - `messages_to_dict(messages)`: `[{type: "human"|"ai"|"system"|"tool"|"chat"|"function", data: {...}}]`;
 * - a LangGraph state's `model_dump()` (or `message.model_dump()` per
 *   message): `{messages: [{type, content, ...}]}` or a list of them;
 * - `dumpd` / `lc`-serialized: `{lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs: {...}}`
 *   (LangChain JS's `JSON.stringify(message)` too; its `mapChatMessagesToStoredMessages` is the
 *   `{type, data}` form, and its ToolMessage carries `metadata`);
 * - LangGraph's `stream(..., {streamMode: "updates"})` chunks, one per line:
 *   `{<node>: {messages: [...]}}`, the messages each node added, in order (the
 *   stream does not repeat the input messages, so the conversation starts
 *   with the first node's).
 *
 * Content is a string or a list of blocks whose `text` blocks are joined;
 * an AI message's tool calls are its `tool_calls` (Anthropic-style
 * `tool_use` blocks in its content repeat them and are not read again;
 * older messages carry them in `additional_kwargs.tool_calls`, OpenAI style).
 * `invalid_tool_calls` (calls whose arguments did not parse) are calls the
 * model made and are read as calls with their raw `args` text.
 *
 * The keys are those both libraries write: Python's `model_dump()` fields, and
 * @langchain/core's (JS) constructor fields as `toJSON()` and
 * `mapChatMessagesToStoredMessages` keep them (a tool()'s ToolMessage has
 * `status` and `metadata`; a v1 message its standard blocks in `content_blocks`,
 * read when it has no `content`).
 */
import { append } from '../../core/append.js';
import { toWellFormed } from '../../core/text.js';
import type { ToolCall } from '../../core/types.js';
import { field, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import { checkKeys, type TranscriptBuilder } from '../transcript-common.js';
import { argsText, pushAssistant, pushToolResult } from './chat-build.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type RecordingReader } from './types.js';

const TYPES = ['human', 'ai', 'system', 'tool', 'chat', 'function', 'developer'];
const CLASS_TYPES: Readonly<Record<string, string>> = {
  HumanMessage: 'human',
  AIMessage: 'ai',
  SystemMessage: 'system',
  ToolMessage: 'tool',
  ChatMessage: 'chat',
  FunctionMessage: 'function',
  HumanMessageChunk: 'human',
  AIMessageChunk: 'ai',
  SystemMessageChunk: 'system',
  ToolMessageChunk: 'tool',
};
const KEYS = [
  'content',
  'additional_kwargs',
  'response_metadata',
  'type',
  'name',
  'id',
  'example',
  'tool_calls',
  'invalid_tool_calls',
  'usage_metadata',
  'tool_call_id',
  'artifact',
  'status',
  'role',
  'tool_call_chunks',
  'chunk_position',
  // @langchain/core (JS): a ToolMessage a tool() returns carries `metadata` (the library's versions);
  // a v1 message (`response_metadata.output_version: "v1"`) its standard blocks under `content_blocks`.
  'metadata',
  'content_blocks',
  // @langchain/core 1.x rebuilds a v1 model output from the message object itself, so its
  // serialized fields also hold the message's own properties: `lc_kwargs` (the fields it was first
  // built with: the same content and calls, before the conversion), `lc_serializable`,
  // `lc_namespace`, `contentBlocks`. Not read: the message's `content` and `tool_calls` say it all.
  'lc_serializable',
  'lc_kwargs',
  'lc_namespace',
  'contentBlocks',
];
const BLOCK_SKIPPED = new Set([
  'image_url',
  'image',
  'file',
  'audio',
  'video',
  'reasoning',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_call',
  'input_json_delta',
  'document',
  // LangChain v1 standard blocks (@langchain/core messages/content): the calls repeat `tool_calls`
  // and `invalid_tool_calls`; `text-plain` is a document given to the model.
  'tool_call_chunk',
  'invalid_tool_call',
  'refusal',
  'text-plain',
]);
/** Blocks skipped by a rule of their own, counted: what they hold is not a catalog tool's call. */
const BLOCK_RULES: Readonly<Record<string, string>> = {
  server_tool_call: "server_tool_call content blocks (calls of the provider's own tools)",
  server_tool_call_chunk: "server_tool_call content blocks (calls of the provider's own tools)",
  server_tool_call_result: "server_tool_call content blocks (calls of the provider's own tools)",
  non_standard: 'non_standard content blocks (provider data LangChain does not map)',
};

const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);

/**
 * The messages of a LangGraph `streamMode: "updates"` chunk `{<node>: {messages: [...]}}` (a node that
 * returned nothing is null), or null when the value is no such chunk.
 */
export function updateMessages(n: Node): readonly Node[] | null {
  if (n.kind !== 'object' || n.members.size === 0 || n.members.has('messages') || n.members.has('type')) return null;
  const out: Node[] = [];
  for (const m of n.members.values()) {
    if (m.value.kind === 'null') continue;
    const msgs = m.value.kind === 'object' ? field(m.value, 'messages') : undefined;
    if (msgs?.kind !== 'array') return null;
    append(out, msgs.items);
  }
  return out;
}

function list(doc: ParsedDocument): readonly Node[] | null {
  const root = doc.root;
  if (root.kind === 'array') {
    const updates = root.items.map(updateMessages);
    if (updates.length > 0 && updates.every((u) => u !== null)) return updates.flatMap((u) => u!);
    return root.items;
  }
  if (root.kind === 'object') {
    const m = field(root, 'messages');
    if (m?.kind === 'array') return m.items;
    const values = field(root, 'values');
    const vm = values?.kind === 'object' ? field(values, 'messages') : undefined;
    if (vm?.kind === 'array') return vm.items;
  }
  return null;
}

/** A message's type and its fields object, whichever serialization it uses; null when it is none of them. */
function unwrap(n: Node): { type: string; data: ObjectNode; how: string } | null {
  if (n.kind !== 'object') return null;
  if (field(n, 'lc') !== undefined && str(field(n, 'type')) === 'constructor') {
    const id = field(n, 'id');
    const cls = id?.kind === 'array' ? str(id.items[id.items.length - 1]) : null;
    const kwargs = field(n, 'kwargs');
    if (cls && CLASS_TYPES[cls] && kwargs?.kind === 'object')
      return { type: CLASS_TYPES[cls]!, data: kwargs, how: 'lc-serialized' };
    return null;
  }
  const type = str(field(n, 'type'));
  if (type === null || !TYPES.includes(type)) return null;
  const data = field(n, 'data');
  if (data?.kind === 'object' && n.members.size <= 2) return { type, data, how: 'messages_to_dict' };
  if (n.members.has('content') && !n.members.has('role')) return { type, data: n, how: 'model_dump' };
  if (n.members.has('content') && type === 'chat') return { type, data: n, how: 'model_dump' };
  return null;
}

function detect(doc: ParsedDocument): Evidence | null {
  const items = list(doc);
  if (!items) return null;
  let n = 0;
  let how = doc.root.kind === 'array' && doc.root.items !== items ? 'LangGraph stream updates, ' : '';
  for (const it of items) {
    const u = unwrap(it);
    if (u) {
      if (n === 0) how += u.how;
      n++;
    }
  }
  if (n === 0) return null;
  return {
    score: DISTINCTIVE + n,
    detected_by: `${n} LangChain ${n === 1 ? 'message' : 'messages'} (${how}: "type" human/ai/system/tool)`,
  };
}

/**
 * LangChain's own envelopes around values that are no message: lc-serialized objects (`lc`,
 * `"type": "constructor"`) whose `id` names no message class or that have no `kwargs`, and
 * `messages_to_dict` entries `{type, data: {content}}` of an unknown type.
 */
function near(doc: ParsedDocument): NearMiss | null {
  if (detect(doc) !== null) return null;
  const root = doc.root;
  const items = list(doc) ?? (root.kind === 'array' ? root.items : []);
  let lc = 0;
  let dict = 0;
  for (const n of items) {
    if (n.kind !== 'object') continue;
    if (field(n, 'lc') !== undefined && str(field(n, 'type')) === 'constructor') lc++;
    else {
      const data = field(n, 'data');
      if (str(field(n, 'type')) !== null && data?.kind === 'object' && data.members.has('content')) dict++;
    }
  }
  if (lc + dict === 0) return null;
  const said = [
    lc > 0
      ? `${lc} lc-serialized ${lc === 1 ? 'object' : 'objects'} ("lc", "type": "constructor") ` +
        `${lc === 1 ? 'that is' : 'that are'} no message`
      : '',
    dict > 0 ? `${dict} {type, data: {content}} ${dict === 1 ? 'entry' : 'entries'} of no message type` : '',
  ].filter((x) => x !== '');
  const classes = Object.keys(CLASS_TYPES).filter((c) => !c.endsWith('Chunk'));
  return {
    score: DISTINCTIVE + lc + dict,
    found: said.join(', '),
    expected:
      lc > 0
        ? `"id" ending in a message class (${classes.join(', ')}, or their chunks) and "kwargs" {content, ...}`
        : `"type" one of ${TYPES.join(', ')}`,
  };
}

function contentText(b: TranscriptBuilder, node: Node | undefined): string {
  if (!node || node.kind === 'null') return '';
  if (node.kind === 'string') return toWellFormed(node.value);
  if (node.kind !== 'array') {
    b.unexplained(node, `LangChain message content must be a string or a list of blocks, found ${node.kind}`);
    return '';
  }
  let out = '';
  for (const p of node.items) {
    if (p.kind === 'string') {
      out += toWellFormed(p.value);
      continue;
    }
    const type = p.kind === 'object' ? str(field(p, 'type')) : null;
    if (type === 'text' && p.kind === 'object') out += str(field(p, 'text')) ?? '';
    else if (type !== null && BLOCK_RULES[type] !== undefined) b.skip(BLOCK_RULES[type]);
    else if (type === null || !BLOCK_SKIPPED.has(type))
      b.unexplained(p, `unknown LangChain content block type ${JSON.stringify(type)}`);
  }
  return out;
}

function toolCalls(b: TranscriptBuilder, data: ObjectNode): Array<ToolCall & { at: Node }> {
  const out: Array<ToolCall & { at: Node }> = [];
  const calls = field(data, 'tool_calls');
  const invalid = field(data, 'invalid_tool_calls');
  for (const c of [
    ...(calls?.kind === 'array' ? calls.items : []),
    ...(invalid?.kind === 'array' ? invalid.items : []),
  ]) {
    if (c.kind !== 'object') {
      b.unexplained(c, 'a LangChain tool call must be an object');
      continue;
    }
    out.push({
      id: str(field(c, 'id')) ?? '',
      name: str(field(c, 'name')) ?? '',
      arguments: argsText(field(c, 'args')),
      at: c,
    });
  }
  if (out.length > 0) return out;
  // Older messages: OpenAI-style calls in additional_kwargs.
  const kw = field(data, 'additional_kwargs');
  const legacy = kw?.kind === 'object' ? field(kw, 'tool_calls') : undefined;
  if (legacy?.kind === 'array') {
    for (const c of legacy.items) {
      const fn = c.kind === 'object' ? field(c, 'function') : undefined;
      if (c.kind !== 'object' || fn?.kind !== 'object') {
        b.unexplained(c, 'a LangChain additional_kwargs tool call without "function"');
        continue;
      }
      out.push({
        id: str(field(c, 'id')) ?? '',
        name: str(field(fn, 'name')) ?? '',
        arguments: argsText(field(fn, 'arguments')),
        at: c,
      });
    }
  }
  return out;
}

function read(doc: ParsedDocument, b: TranscriptBuilder): void {
  const items = list(doc);
  if (!items) throw b.error(doc.root, 'not a langchain recording: expected a list of messages, or {messages: [...]}');
  for (const it of items) {
    const u = unwrap(it);
    if (!u) {
      b.unexplained(
        it,
        'not a LangChain message (expected {type, data}, {type, content, ' +
          '...} or {lc: 1, type: "constructor", id, kwargs})',
      );
      continue;
    }
    b.read();
    const { data } = u;
    checkKeys(b, data, KEYS, 'a LangChain message');
    // A v1 message built from its blocks has `content_blocks` and no `content`; with both, they are the same.
    const content = field(data, 'content') ?? field(data, 'content_blocks');
    const text = contentText(b, content);
    let type = u.type;
    if (type === 'chat') {
      const role = str(field(data, 'role'));
      type = role === 'user' ? 'human' : role === 'assistant' ? 'ai' : (role ?? 'chat');
    }
    switch (type) {
      case 'human':
        b.push({ kind: 'chat', role: 'user', content: text }, it);
        break;
      case 'system':
      case 'developer':
        b.push({ kind: 'chat', role: 'system', content: text }, it);
        break;
      case 'ai':
        pushAssistant(b, text, toolCalls(b, data), it);
        break;
      case 'tool':
        pushToolResult(b, str(field(data, 'tool_call_id')) ?? '', str(field(data, 'name')), text, it);
        break;
      case 'function':
        b.push({ kind: 'chat', role: 'tool', content: text, toolName: str(field(data, 'name')) ?? '' }, it);
        break;
      default:
        b.unexplained(it, `unknown LangChain message role ${JSON.stringify(type)}`);
    }
  }
}

export const langchainReader: RecordingReader = {
  format: 'langchain',
  records: 'conversation',
  summary: 'messages_to_dict, LangGraph model_dump, lc-serialized messages',
  shape:
    'langchain: messages_to_dict [{type, data}], LangGraph model_dump {messages: [{type, content, ' +
    'tool_calls}]}, or lc-serialized {lc: 1, type: "constructor", id, kwargs}',
  detect,
  near,
  read,
};
