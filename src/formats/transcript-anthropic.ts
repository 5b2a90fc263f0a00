/**
 * Anthropic Messages → content-block messages (one Anthropic message is one
 * message).
 *
 * - `text` → text block; `tool_use` `{id, name, input}` → `function_tool_call`
 *   whose arguments are `JSON.stringify(input)`;
 * - `tool_result` `{tool_use_id, content}` → `function_tool_result`, named
 *   after the `tool_use` with that id; content is a string (one text part) or
 *   blocks (each text block a text part; `tool_reference` blocks — a client
 *   tool search answering with references — one `tool_search_result` part);
 * - `server_tool_use` of a tool search tool → `server_tool_search`;
 *   `tool_search_tool_result` → `server_tool_search_result` with the names of
 *   its `tool_reference`s; of another server tool (web search, web fetch, code
 *   execution), and `mcp_tool_use` (the MCP connector) → `provider_tool_call`
 *   (their results stay `other` blocks);
 * - anything else (thinking, images, …) → an `other` block.
 *
 * A top-level `system` (a string or text blocks) becomes a first system message.
 */
import { toWellFormed } from '../core/text.js';
import type { BlockRole, ContentBlock, ToolResultPart } from '../core/types.js';
import { field, type Node, type ObjectNode, toJsonValue } from '../io/nodes.js';
import {
  argumentsText,
  checkKeys,
  objects,
  optString,
  referencedToolNames,
  roleOf,
  type TranscriptBuilder,
  unknownRole,
} from './transcript-common.js';

const ROLES = ['user', 'assistant', 'system'] as const;
/** Block types of the Messages API; those not read for tool search become `other` blocks. */
const BLOCK_TYPES = new Set([
  'text',
  'image',
  'document',
  'search_result',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
  'tool_reference',
]);

/**
 * Keys of the blocks read for tool search, from the Messages API types
 * (anthropics/anthropic-sdk-typescript src/resources/messages/messages.ts and
 * beta/messages: `TextBlock(Param)`, `ToolUseBlock(Param)`,
 * `ToolResultBlockParam`, `ServerToolUseBlock`, `ToolSearchToolResultBlock`,
 * `ToolReferenceBlock`, `BetaMCPToolUseBlock`): content, ids and names are read; `cache_control`,
 * `citations`, `caller` and `is_error` do not change which tool was called
 * or what the result text is. Any other key is an error (`--lenient`: counted).
 */
const BLOCK_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ['type', 'text', 'cache_control', 'citations'],
  tool_use: ['type', 'id', 'name', 'input', 'cache_control', 'caller'],
  tool_result: ['type', 'tool_use_id', 'content', 'is_error', 'cache_control'],
  server_tool_use: ['type', 'id', 'name', 'input', 'cache_control', 'caller'],
  mcp_tool_use: ['type', 'id', 'name', 'server_name', 'input', 'cache_control'],
  tool_search_tool_result: ['type', 'tool_use_id', 'content', 'cache_control'],
  tool_reference: ['type', 'tool_name', 'cache_control'],
};

function checkBlockKeys(b: TranscriptBuilder, p: ObjectNode, type: string): void {
  const keys = BLOCK_KEYS[type];
  if (keys) checkKeys(b, p, keys, `an Anthropic ${type} block`);
}

function resultParts(b: TranscriptBuilder, node: Node | undefined): ToolResultPart[] {
  if (!node || node.kind === 'null') return [];
  if (node.kind === 'string') return [{ type: 'text', text: toWellFormed(node.value) }];
  if (node.kind !== 'array')
    throw b.error(node, `tool_result content must be a string or a list of blocks, found ${node.kind}`);
  const parts: ToolResultPart[] = [];
  for (const p of objects(b, node.items, 'a tool_result block')) {
    const type = optString(b, field(p, 'type'), 'block type');
    checkBlockKeys(b, p, type);
    if (type === 'text') parts.push({ type: 'text', text: optString(b, field(p, 'text'), 'text') });
    else if (type === 'tool_reference') {
      const name = optString(b, field(p, 'tool_name'), 'tool_name');
      const last = parts[parts.length - 1];
      // Consecutive references are one search result.
      if (last?.type === 'tool_search_result')
        parts[parts.length - 1] = { type: 'tool_search_result', tools: [...last.tools, name] };
      else parts.push({ type: 'tool_search_result', tools: [name] });
    } else parts.push({ type: 'other', description: type || 'block' });
  }
  return parts;
}

function searchQuery(input: Node | undefined): string {
  if (input?.kind === 'object') {
    const q = field(input, 'query') ?? field(input, 'pattern');
    if (q?.kind === 'string') return toWellFormed(q.value);
  }
  return argumentsText(input);
}

function block(b: TranscriptBuilder, p: ObjectNode): ContentBlock {
  const type = optString(b, field(p, 'type'), 'block type');
  checkBlockKeys(b, p, type);
  switch (type) {
    case 'text':
      return { type: 'text', text: optString(b, field(p, 'text'), 'text') };
    case 'tool_use': {
      const callId = optString(b, field(p, 'id'), 'tool_use id');
      const name = optString(b, field(p, 'name'), 'tool_use name');
      b.call(callId, name, p);
      const input = field(p, 'input');
      // The input is a JSON value; the arguments are its JSON text (`{}` when absent).
      return { type: 'function_tool_call', callId, name, arguments: input ? JSON.stringify(toJsonValue(input)) : '{}' };
    }
    case 'tool_result': {
      const callId = optString(b, field(p, 'tool_use_id'), 'tool_use_id');
      const name = b.resolveCall(p, callId) ?? '';
      return { type: 'function_tool_result', callId, name, content: resultParts(b, field(p, 'content')) };
    }
    case 'server_tool_use': {
      const name = optString(b, field(p, 'name'), 'server_tool_use name');
      if (name.includes('tool_search')) {
        return {
          type: 'server_tool_search',
          callId: optString(b, field(p, 'id'), 'server_tool_use id'),
          query: searchQuery(field(p, 'input')),
        };
      }
      // Another tool the provider runs (web search, web fetch, code execution): a provider call.
      return {
        type: 'provider_tool_call',
        callId: optString(b, field(p, 'id'), 'server_tool_use id'),
        kind: 'server_tool_use',
        name,
        server: '',
        arguments: argumentsText(field(p, 'input')),
        executedBy: 'provider',
      };
    }
    case 'mcp_tool_use':
      // A tool of an MCP server the provider connects to (the MCP connector): a provider call.
      return {
        type: 'provider_tool_call',
        callId: optString(b, field(p, 'id'), 'mcp_tool_use id'),
        kind: 'mcp_tool_use',
        name: optString(b, field(p, 'name'), 'mcp_tool_use name'),
        server: optString(b, field(p, 'server_name'), 'mcp_tool_use server_name'),
        arguments: argumentsText(field(p, 'input')),
        executedBy: 'provider',
      };
    case 'tool_search_tool_result':
      return {
        type: 'server_tool_search_result',
        callId: optString(b, field(p, 'tool_use_id'), 'tool_use_id'),
        tools: referencedToolNames(field(p, 'content')),
      };
    default:
      if (!BLOCK_TYPES.has(type)) b.unexplained(p, `unknown Anthropic content block type ${JSON.stringify(type)}`);
      return { type: 'other', description: type || 'block' };
  }
}

/** The blocks of an Anthropic `content` (a string is one text block). */
export function contentBlocks(b: TranscriptBuilder, node: Node | undefined): ContentBlock[] {
  if (!node || node.kind === 'null') return [];
  if (node.kind === 'string') return [{ type: 'text', text: toWellFormed(node.value) }];
  if (node.kind !== 'array')
    throw b.error(node, `message content must be a string or a list of blocks, found ${node.kind}`);
  return objects(b, node.items, 'a content block').map((p) => block(b, p));
}

/** Reads the top-level `system` of a request body as a first system message. */
export function readAnthropicSystem(b: TranscriptBuilder, system: Node): void {
  if (system.kind === 'null') return;
  const blocks = contentBlocks(b, system);
  b.push({ kind: 'blocks', role: 'system', blocks }, system);
}

/** The known keys of a message: a request message, or a response object in the list (typed "message"). */
const MESSAGE_KEYS = [
  'role',
  'content',
  'id',
  'type',
  'model',
  'stop_reason',
  'stop_sequence',
  'usage',
  'container',
  'context_management',
];

/** Reads Anthropic messages. */
export function readAnthropicMessages(b: TranscriptBuilder, items: readonly Node[]): void {
  for (const node of objects(b, items, 'a message')) {
    b.read();
    // A response object in the list (typed "message") carries metadata that is not conversation.
    checkKeys(b, node, MESSAGE_KEYS, 'an Anthropic message');
    const role = roleOf(b, node, field(node, 'role'));
    if (!(ROLES as readonly string[]).includes(role)) throw unknownRole(b, node, role, ROLES);
    b.push({ kind: 'blocks', role: role as BlockRole, blocks: contentBlocks(b, field(node, 'content')) }, node);
  }
}
