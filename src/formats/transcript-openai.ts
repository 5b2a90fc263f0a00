/**
 * OpenAI Chat Completions messages → chat messages.
 *
 * `system` and `developer` are system messages. A tool message's tool name
 * is resolved from the assistant `tool_calls` with the same id (an unknown id
 * is a warning; the message's own `name`, if any, is used then). The legacy
 * `function` role becomes a tool message named by its `name`. Content is a
 * string or a list of parts whose text parts are joined.
 */
import type { ChatMessage, ChatRole, ToolCall } from '../core/types.js';
import { field, type Node, type ObjectNode } from '../io/nodes.js';
import {
  argumentsText,
  checkKeys,
  objects,
  optArray,
  optObject,
  optString,
  roleOf,
  textContent,
  type TranscriptBuilder,
  unknownRole,
} from './transcript-common.js';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;
/**
 * Keys of a Chat Completions message (request and response); `reasoning_content` / `reasoning` are provider
 * extensions that carry no tool use; an Eino `tool_name` is not needed (the name is resolved from the call).
 */
const KEYS = [
  'role',
  'content',
  'name',
  'tool_calls',
  'tool_call_id',
  'refusal',
  'audio',
  'annotations',
  'reasoning_content',
  'reasoning',
  'tool_name',
];
const PART_TYPES = new Set(['text', 'image_url', 'input_audio', 'file', 'refusal']);

function toolCalls(b: TranscriptBuilder, node: Node | undefined): ToolCall[] {
  return objects(b, optArray(b, node, '"tool_calls"'), 'a tool call').map((c) => {
    const type = optString(b, field(c, 'type'), 'tool call type', 'function');
    // `custom` tools (free-form input) carry {custom: {name, input}}.
    const body = optObject(
      b,
      field(c, type === 'custom' ? 'custom' : 'function'),
      `"${type === 'custom' ? 'custom' : 'function'}"`,
    );
    const call: ToolCall = {
      id: optString(b, field(c, 'id'), 'tool call id'),
      name: body ? optString(b, field(body, 'name'), 'tool call name') : '',
      arguments: body ? argumentsText(field(body, type === 'custom' ? 'input' : 'arguments')) : '',
    };
    b.call(call.id, call.name, c);
    return call;
  });
}

function message(b: TranscriptBuilder, node: ObjectNode): void {
  const role = roleOf(b, node, field(node, 'role'));
  if (!(ROLES as readonly string[]).includes(role)) throw unknownRole(b, node, role, ROLES);
  checkKeys(b, node, KEYS, 'an OpenAI Chat message');
  const contentNode = field(node, 'content');
  if (contentNode?.kind === 'array') {
    for (const p of contentNode.items) {
      const t = p.kind === 'object' ? field(p, 'type') : undefined;
      if (t?.kind === 'string' && !PART_TYPES.has(t.value))
        b.unexplained(p, `unknown OpenAI Chat content part type ${JSON.stringify(t.value)}`);
    }
  }
  const content = textContent(b, contentNode, 'message content');
  let msg: ChatMessage;
  if (role === 'tool') {
    const toolCallId = optString(b, field(node, 'tool_call_id'), '"tool_call_id"');
    const resolved = b.resolveCall(node, toolCallId);
    const name = resolved ?? optString(b, field(node, 'name'), 'tool name');
    msg = {
      kind: 'chat',
      role: 'tool',
      content,
      toolCallId,
      ...(resolved !== null || name !== '' ? { toolName: name } : {}),
    };
  } else if (role === 'function') {
    msg = { kind: 'chat', role: 'tool', content, toolName: optString(b, field(node, 'name'), 'function name') };
  } else {
    const chatRole: ChatRole = role === 'developer' ? 'system' : (role as ChatRole);
    const calls = field(node, 'tool_calls');
    msg =
      calls && calls.kind !== 'null' && role === 'assistant'
        ? { kind: 'chat', role: chatRole, content, toolCalls: toolCalls(b, calls) }
        : { kind: 'chat', role: chatRole, content };
  }
  b.push(msg, node);
}

/** Reads Chat Completions messages. */
export function readOpenAIMessages(b: TranscriptBuilder, items: readonly Node[]): void {
  for (const node of objects(b, items, 'a message')) {
    b.read();
    message(b, node);
  }
}
