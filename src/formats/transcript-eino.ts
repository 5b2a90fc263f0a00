/**
 * Eino transcripts: `schema.Message` JSON (chat messages) and
 * `schema.AgenticMessage` JSON (content blocks).
 *
 * `schema.Message`: `{role, content, tool_calls: [{id, type, function: {name,
 * arguments}}], tool_call_id, tool_name, extra}`. The tool name of a tool
 * message is taken from `tool_name` only, as the reference reads it: a tool
 * message without one is not a `tool_search` result to the middleware (a
 * warning says so when its call was a `tool_search` call).
 *
 * `schema.AgenticMessage`: `{role, content_blocks: [{type, <type>: {...}}],
 * extra}` with blocks `user_input_text`, `assistant_gen_text`,
 * `function_tool_call` `{call_id, name, arguments}`, `function_tool_result`
 * `{call_id, name, content: [{type: "text", text: {text}}]}` (older versions:
 * `result` text), `tool_search_result` (`tool_search_function_tool_result`
 * `{call_id, name, result: {tools: [ToolInfo]}}`), `server_tool_call` /
 * `server_tool_result`. Field names match loosely (case and underscores
 * ignored), because versions of Eino without JSON tags write `ContentBlocks`,
 * `FunctionToolCall`, `CallID`.
 */
import { toWellFormed } from '../core/text.js';
import type {
  BlockMessage,
  BlockRole,
  ChatMessage,
  ChatRole,
  ContentBlock,
  ToolCall,
  ToolResultPart,
} from '../core/types.js';
import { field, looseField, type Node, type ObjectNode } from '../io/nodes.js';
import {
  argumentsText,
  checkKeys,
  extraOf,
  objects,
  optArray,
  optObject,
  optString,
  referencedToolNames,
  roleOf,
  textContent,
  type TranscriptBuilder,
  unknownRole,
} from './transcript-common.js';

const CHAT_ROLES: readonly ChatRole[] = ['system', 'user', 'assistant', 'tool'];
/** Keys of `schema.Message` (JSON tags; matched loosely, as Go's decoder does). */
const MESSAGE_KEYS = [
  'role',
  'content',
  'multi_content',
  'user_input_multi_content',
  'assistant_output_multi_content',
  'assistant_gen_multi_content',
  'name',
  'tool_calls',
  'tool_call_id',
  'tool_name',
  'response_meta',
  'reasoning_content',
  'extra',
];
/** Keys of `schema.AgenticMessage`. */
const AGENTIC_KEYS = ['role', 'content_blocks', 'response_meta', 'extra'];
/** Block types of `schema.ContentBlock`; the ones not read for tool search become `other` blocks. */
const BLOCK_TYPES = new Set([
  'user_input_text',
  'user_input_image',
  'user_input_audio',
  'user_input_video',
  'user_input_file',
  'assistant_gen_text',
  'assistant_gen_image',
  'assistant_gen_audio',
  'assistant_gen_video',
  'reasoning',
  'function_tool_call',
  'function_tool_result',
  'server_tool_call',
  'server_tool_result',
  'mcp_tool_call',
  'mcp_tool_result',
  'mcp_list_tools_result',
  'mcp_tool_approval_request',
  'mcp_tool_approval_response',
  'tool_search_result',
]);

/**
 * The text of `user_input_multi_content` / `assistant_output_multi_content`
 * (`[{type: "text", text}, {type: "image_url", ...}]`): its text parts, joined.
 */
function multiContentText(b: TranscriptBuilder, node: Node | undefined): string {
  let out = '';
  for (const p of objects(b, optArray(b, node, 'multi content'), 'a multi content part')) {
    const type = optString(b, looseField(p, 'type'), 'part type');
    if (type === 'text') out += optString(b, looseField(p, 'text'), 'text');
  }
  return out;
}
const AGENTIC_ROLES = ['system', 'user', 'assistant', 'developer'] as const;

/** Whether a message object is an AgenticMessage (has content blocks). */
export function isAgenticMessage(node: ObjectNode): boolean {
  return looseField(node, 'content_blocks') !== undefined;
}

function einoToolCalls(b: TranscriptBuilder, node: Node | undefined): ToolCall[] {
  return objects(b, optArray(b, node, '"tool_calls"'), 'a tool call').map((c) => {
    const fn = optObject(b, looseField(c, 'function'), '"function"');
    const call: ToolCall = {
      id: optString(b, looseField(c, 'id'), 'tool call id'),
      name: fn ? optString(b, looseField(fn, 'name'), 'tool call name') : '',
      arguments: fn ? argumentsText(looseField(fn, 'arguments')) : '',
    };
    b.call(call.id, call.name, c);
    return call;
  });
}

function chatMessage(b: TranscriptBuilder, node: ObjectNode): void {
  const role = roleOf(b, node, looseField(node, 'role'));
  if (!(CHAT_ROLES as readonly string[]).includes(role)) throw unknownRole(b, node, role, CHAT_ROLES);
  checkKeys(b, node, MESSAGE_KEYS, 'an Eino message', true);
  const contentNode = looseField(node, 'content');
  if (contentNode?.kind === 'array') {
    // Content is a Go string; parts other than text (a tool call, say) would be lost.
    for (const p of contentNode.items) {
      const t = p.kind === 'object' ? looseField(p, 'type') : undefined;
      if (t?.kind === 'string' && !['text', 'input_text', 'output_text', 'image_url'].includes(t.value))
        b.unexplained(p, `a content part typed ${JSON.stringify(t.value)} in an Eino message (its content is text)`);
    }
  }
  let content = textContent(b, looseField(node, 'content'), 'message content');
  // The reference reads a tool result from Content only; other roles' text may sit in the multi content parts.
  if (content === '' && role !== 'tool') {
    content = multiContentText(
      b,
      looseField(node, 'user_input_multi_content') ??
        looseField(node, 'assistant_output_multi_content') ??
        looseField(node, 'multi_content'),
    );
  }
  const msg: { -readonly [K in keyof ChatMessage]: ChatMessage[K] } = {
    kind: 'chat',
    role: role as ChatRole,
    content,
  };
  const calls = looseField(node, 'tool_calls');
  if (calls && calls.kind !== 'null') msg.toolCalls = einoToolCalls(b, calls);
  const callIdNode = looseField(node, 'tool_call_id');
  const toolNameNode = looseField(node, 'tool_name');
  if (callIdNode && callIdNode.kind !== 'null') msg.toolCallId = optString(b, callIdNode, '"tool_call_id"');
  if (toolNameNode && toolNameNode.kind !== 'null') msg.toolName = optString(b, toolNameNode, '"tool_name"');
  if (role === 'tool' && msg.toolCallId !== undefined) {
    const called = b.resolveCall(node, msg.toolCallId);
    if (msg.toolName === undefined && called === 'tool_search') {
      b.warn(
        node,
        'tool message answers a tool_search call but has no tool_name: the ' +
          'reference does not read it as a tool_search result',
      );
    }
  }
  const extra = extraOf(b, looseField(node, 'extra'));
  if (extra) msg.extra = extra;
  b.push(msg, node);
}

function resultParts(b: TranscriptBuilder, ftr: ObjectNode): ToolResultPart[] {
  const parts: ToolResultPart[] = [];
  const content = looseField(ftr, 'content');
  if (content && content.kind !== 'null') {
    for (const p of objects(b, optArray(b, content, 'tool result content'), 'a tool result part')) {
      const type = optString(b, looseField(p, 'type'), 'part type');
      const text = optObject(b, looseField(p, 'text'), 'text part');
      if (type === 'text' && text) parts.push({ type: 'text', text: optString(b, looseField(text, 'text'), 'text') });
      else parts.push({ type: 'other', description: type || 'part' });
    }
    return parts;
  }
  // Older Eino versions: `Result string`.
  const result = looseField(ftr, 'result');
  if (result && result.kind === 'string') parts.push({ type: 'text', text: toWellFormed(result.value) });
  return parts;
}

function searchQuery(node: Node | undefined): string {
  if (!node || node.kind === 'null') return '';
  if (node.kind === 'string') return toWellFormed(node.value);
  if (node.kind === 'object') {
    const q = field(node, 'query') ?? field(node, 'pattern');
    if (q?.kind === 'string') return toWellFormed(q.value);
  }
  return argumentsText(node);
}

function block(b: TranscriptBuilder, node: ObjectNode): ContentBlock {
  const type = optString(b, looseField(node, 'type'), 'block type');
  const body = (key: string): ObjectNode | undefined => optObject(b, looseField(node, key), `"${key}"`);
  switch (type) {
    case 'user_input_text':
    case 'assistant_gen_text': {
      const t = body(type);
      return { type: 'text', text: t ? optString(b, looseField(t, 'text'), 'text') : '' };
    }
    case 'function_tool_call': {
      const c = body(type);
      const callId = c ? optString(b, looseField(c, 'call_id'), 'call_id') : '';
      const name = c ? optString(b, looseField(c, 'name'), 'name') : '';
      b.call(callId, name, node);
      return {
        type: 'function_tool_call',
        callId,
        name,
        arguments: c ? argumentsText(looseField(c, 'arguments')) : '',
      };
    }
    case 'function_tool_result': {
      const r = body(type);
      const callId = r ? optString(b, looseField(r, 'call_id'), 'call_id') : '';
      // An empty id answers no call, as in every other format (the simulation reports it too).
      b.resolveCall(node, callId);
      return {
        type: 'function_tool_result',
        callId,
        name: r ? optString(b, looseField(r, 'name'), 'name') : '',
        content: r ? resultParts(b, r) : [],
      };
    }
    case 'tool_search_result': {
      // Model-native mode, client-proxied: the full definitions a tool search returned.
      const r = body('tool_search_function_tool_result');
      const callId = r ? optString(b, looseField(r, 'call_id'), 'call_id') : '';
      b.resolveCall(node, callId);
      const result = r ? optObject(b, looseField(r, 'result'), '"result"') : undefined;
      const tools = result ? objects(b, optArray(b, looseField(result, 'tools'), '"tools"'), 'a tool') : [];
      return {
        type: 'function_tool_result',
        callId,
        name: (r && optString(b, looseField(r, 'name'), 'name')) || 'tool_search',
        content: [
          { type: 'tool_search_result', tools: tools.map((t) => optString(b, looseField(t, 'name'), 'tool name')) },
        ],
      };
    }
    case 'server_tool_call': {
      const c = body(type);
      const name = c ? optString(b, looseField(c, 'name'), 'name') : '';
      if (c && name.includes('tool_search')) {
        return {
          type: 'server_tool_search',
          callId: optString(b, looseField(c, 'call_id'), 'call_id'),
          query: searchQuery(looseField(c, 'arguments')),
        };
      }
      if (c && name !== '')
        // Another tool the model's provider runs: a provider call.
        return {
          type: 'provider_tool_call',
          callId: optString(b, looseField(c, 'call_id'), 'call_id'),
          kind: 'server_tool_call',
          name,
          server: '',
          arguments: argumentsText(looseField(c, 'arguments')),
          executedBy: 'provider',
        };
      return { type: 'other', description: type };
    }
    case 'server_tool_result': {
      const r = body(type);
      const name = r ? optString(b, looseField(r, 'name'), 'name') : '';
      if (r && name.includes('tool_search')) {
        return {
          type: 'server_tool_search_result',
          callId: optString(b, looseField(r, 'call_id'), 'call_id'),
          tools: referencedToolNames(looseField(r, 'content') ?? looseField(r, 'result')),
        };
      }
      return { type: 'other', description: name ? `server_tool_result ${name}` : type };
    }
    default:
      if (!BLOCK_TYPES.has(type)) b.unexplained(node, `unknown Eino content block type ${JSON.stringify(type)}`);
      return { type: 'other', description: type || 'block' };
  }
}

function agenticMessage(b: TranscriptBuilder, node: ObjectNode): void {
  const role = roleOf(b, node, looseField(node, 'role'));
  if (!(AGENTIC_ROLES as readonly string[]).includes(role)) throw unknownRole(b, node, role, AGENTIC_ROLES);
  // `developer` stays its own role: the reference treats it as not-system, so the reminder goes before it.
  const blockRole = role as BlockRole;
  checkKeys(b, node, AGENTIC_KEYS, 'an Eino agentic message', true);
  const blocks = objects(b, optArray(b, looseField(node, 'content_blocks'), '"content_blocks"'), 'a content block').map(
    (n) => block(b, n),
  );
  const msg: { -readonly [K in keyof BlockMessage]: BlockMessage[K] } = { kind: 'blocks', role: blockRole, blocks };
  const extra = extraOf(b, looseField(node, 'extra'));
  if (extra) msg.extra = extra;
  b.push(msg, node);
}

/** Reads Eino messages (chat or agentic, per message). */
export function readEinoMessages(b: TranscriptBuilder, items: readonly Node[]): void {
  for (const node of objects(b, items, 'a message')) {
    b.read();
    if (isAgenticMessage(node)) agenticMessage(b, node);
    else chatMessage(b, node);
  }
}
