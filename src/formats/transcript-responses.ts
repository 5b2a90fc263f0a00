/**
 * OpenAI Responses input items → content-block messages.
 *
 * - `{type: "message", role, content}` (or `{role, content}`): `system` and
 *   `developer` are system messages; text parts (`input_text`,
 *   `output_text`) become text blocks.
 * - Consecutive assistant-side items (assistant messages, `function_call`,
 *   `reasoning`, `tool_search_call`, server-side `tool_search_output`, other
 *   provider tool calls) are the output of ONE model response and become ONE
 *   assistant message, in order.
 * - `function_call_output` becomes its own `user` message with one
 *   `function_tool_result` block, its name resolved from the call id.
 * - `tool_search_call` → `server_tool_search` block; `tool_search_output` →
 *   `server_tool_search_result` block (the names of the tools it loaded). A
 *   `tool_search_output` with `execution: "client"` was sent by the client
 *   between two model responses, so it becomes a `user` message of its own
 *   (merging it would join two model calls into one).
 * - Other item types ending in `_output` or `_response` are client input (a
 *   `user` message with an `other` block); any other type is model output.
 */
import { toWellFormed } from '../core/text.js';
import type { BlockMessage, ContentBlock, ToolResultPart } from '../core/types.js';
import { field, type Node, type ObjectNode } from '../io/nodes.js';
import { jsonInText } from '../io/parse.js';
import type { Limits } from '../io/read.js';
import {
  argumentsText,
  checkKeys,
  isTextPartType,
  objects,
  optString,
  roleOf,
  type TranscriptBuilder,
  unknownRole,
} from './transcript-common.js';
import { append } from '../core/append.js';

const ROLES = ['system', 'developer', 'user', 'assistant'] as const;
/** Input item types of the Responses API that are neither messages nor function calls: read as `other` blocks. */
const OTHER_ITEM_TYPES = new Set([
  'reasoning',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'web_search_call',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'item_reference',
  'compaction',
]);
const MESSAGE_KEYS = ['type', 'id', 'role', 'content', 'status', 'phase'];
const CALL_KEYS = ['type', 'id', 'call_id', 'name', 'arguments', 'input', 'status', 'namespace'];
const OUTPUT_KEYS = ['type', 'id', 'call_id', 'output', 'status'];
const PART_TYPES = new Set([
  'input_text',
  'output_text',
  'text',
  'input_image',
  'input_file',
  'input_audio',
  'refusal',
  'summary_text',
  'reasoning_text',
  'audio',
  'image',
]);

/**
 * Keys of the text parts read (openai/openai-node src/resources/responses:
 * `ResponseInputText`, `ResponseOutputText`; the Agents SDK adds
 * `providerData`): `annotations` and `logprobs` do not change the text.
 * Any other key is an error (`--lenient`: counted).
 */
const TEXT_PART_KEYS = ['type', 'text', 'annotations', 'logprobs', 'providerData'];
/** Keys of hosted tool search items (`ResponseToolSearchCall`, `ResponseToolSearchOutputItem`). */
const SEARCH_KEYS = ['type', 'id', 'call_id', 'callId', 'execution', 'arguments', 'status', 'tools', 'providerData'];

function contentBlocks(b: TranscriptBuilder, node: Node | undefined): ContentBlock[] {
  if (!node || node.kind === 'null') return [];
  if (node.kind === 'string') return [{ type: 'text', text: toWellFormed(node.value) }];
  if (node.kind !== 'array')
    throw b.error(node, `message content must be a string or a list of parts, found ${node.kind}`);
  return objects(b, node.items, 'a content part').map((p): ContentBlock => {
    const type = optString(b, field(p, 'type'), 'part type');
    if (isTextPartType(type)) {
      checkKeys(b, p, TEXT_PART_KEYS, `a Responses ${type} part`);
      return { type: 'text', text: optString(b, field(p, 'text'), 'text') };
    }
    if (!PART_TYPES.has(type)) b.unexplained(p, `unknown Responses content part type ${JSON.stringify(type)}`);
    return { type: 'other', description: type || 'part' };
  });
}

function outputParts(b: TranscriptBuilder, node: Node | undefined): ToolResultPart[] {
  if (!node || node.kind === 'null') return [];
  if (node.kind === 'string') return [{ type: 'text', text: toWellFormed(node.value) }];
  if (node.kind === 'object') {
    // The Agents JS SDK's legacy output `{type: "text", text}`.
    const t = field(node, 'type');
    if (t?.kind === 'string' && t.value === 'text')
      return [{ type: 'text', text: optString(b, field(node, 'text'), 'text') }];
  }
  if (node.kind === 'array') {
    return objects(b, node.items, 'an output part').map((p): ToolResultPart => {
      const type = optString(b, field(p, 'type'), 'part type');
      if (isTextPartType(type)) return { type: 'text', text: optString(b, field(p, 'text'), 'text') };
      return { type: 'other', description: type || 'part' };
    });
  }
  return [{ type: 'text', text: argumentsText(node) }];
}

/**
 * The call id of an item: `call_id` (the Agents JS SDK: `callId`), else `id` (server-side tool search items have a null
 * `call_id`).
 */
function callIdOf(b: TranscriptBuilder, item: ObjectNode): string {
  const c = field(item, 'call_id') ?? field(item, 'callId');
  if (c && c.kind === 'string') return toWellFormed(c.value);
  return optString(b, field(item, 'id'), 'item id');
}

function searchQuery(node: Node | undefined, limits: Partial<Limits> | undefined): string {
  if (!node || node.kind === 'null') return '';
  if (node.kind === 'object') {
    const q = field(node, 'query');
    if (q?.kind === 'string') return toWellFormed(q.value);
  }
  if (node.kind === 'string') {
    // Arguments may arrive as JSON text.
    const m = /^\s*\{[\s\S]*\}\s*$/.test(node.value) ? safeQuery(node.value, limits) : null;
    return m ?? toWellFormed(node.value);
  }
  return argumentsText(node);
}

/** The `query` of JSON text, read under the document's limits (not JSON, or nested deeper: the text is the query). */
function safeQuery(text: string, limits: Partial<Limits> | undefined): string | null {
  const v = jsonInText(text, limits);
  if (v !== null && typeof v === 'object' && Object.hasOwn(v, 'query')) {
    const q = (v as { query: unknown }).query;
    if (typeof q === 'string') return toWellFormed(q);
  }
  return null;
}

/** Names of the tools in a `tool_search_output` (functions by name; namespaces contribute their functions). */
function loadedTools(b: TranscriptBuilder, node: Node | undefined): string[] {
  const out: string[] = [];
  if (!node || node.kind !== 'array') return out;
  for (const t of node.items) {
    if (t.kind !== 'object') continue;
    const type = field(t, 'type');
    if (type?.kind === 'string' && type.value === 'namespace') {
      append(out, loadedTools(b, field(t, 'tools')));
      continue;
    }
    const name = field(t, 'name');
    if (name?.kind === 'string') out.push(toWellFormed(name.value));
  }
  return out;
}

/**
 * The OpenAI Agents JS SDK's history items: the Responses items in camelCase
 * (`callId`), `function_call_result` for `function_call_output`, and
 * `hosted_tool_call`, `providerData` on every item.
 */
const AGENTS_JS_EXTRA_KEYS = ['providerData', 'callId', 'caller', 'name', 'namespace'];
const AGENTS_JS = {
  resultType: 'function_call_result',
  otherTypes: ['hosted_tool_call', 'computer_call_result', 'program', 'program_output'],
};

/** The known keys of message, call and output items, without and with the Agents JS SDK's (lists made once). */
const RESPONSES_ITEM_KEYS = { message: MESSAGE_KEYS, call: CALL_KEYS, output: OUTPUT_KEYS };
const AGENTS_JS_ITEM_KEYS = {
  message: [...MESSAGE_KEYS, ...AGENTS_JS_EXTRA_KEYS],
  call: [...CALL_KEYS, ...AGENTS_JS_EXTRA_KEYS],
  output: [...OUTPUT_KEYS, ...AGENTS_JS_EXTRA_KEYS],
};

/** Reads Responses input items (`agentsJs`: the Agents JS SDK's history items). */
export function readResponsesItems(b: TranscriptBuilder, items: readonly Node[], agentsJs = false): void {
  const dialect = agentsJs ? AGENTS_JS : null;
  const keys = agentsJs ? AGENTS_JS_ITEM_KEYS : RESPONSES_ITEM_KEYS;
  let open: { blocks: ContentBlock[]; at: Node } | null = null;
  const flush = (): void => {
    if (!open) return;
    const msg: BlockMessage = { kind: 'blocks', role: 'assistant', blocks: open.blocks };
    b.push(msg, open.at);
    open = null;
  };
  const assistant = (at: Node): ContentBlock[] => {
    if (!open) open = { blocks: [], at };
    return open.blocks;
  };
  const input = (at: Node, blocks: ContentBlock[]): void => {
    flush();
    b.push({ kind: 'blocks', role: 'user', blocks }, at);
  };

  for (const item of objects(b, items, 'an input item')) {
    b.read();
    const typeNode = field(item, 'type');
    const type = typeNode ? optString(b, typeNode, 'item type') : 'message';
    const what = dialect ? 'an Agents SDK' : 'a Responses';
    switch (type === dialect?.resultType ? 'function_call_output' : type) {
      case 'message': {
        checkKeys(b, item, keys.message, `${what} message`);
        const role = roleOf(b, item, field(item, 'role'));
        if (!(ROLES as readonly string[]).includes(role)) throw unknownRole(b, item, role, ROLES);
        const blocks = contentBlocks(b, field(item, 'content'));
        if (role === 'assistant') {
          append(assistant(item), blocks);
        } else {
          flush();
          b.push({ kind: 'blocks', role: role === 'user' ? 'user' : 'system', blocks }, item);
        }
        break;
      }
      case 'function_call':
      case 'custom_tool_call': {
        checkKeys(b, item, keys.call, `${what} ${type} item`);
        const callId = callIdOf(b, item);
        const name = optString(b, field(item, 'name'), 'function name');
        b.call(callId, name, item);
        assistant(item).push({
          type: 'function_tool_call',
          callId,
          name,
          arguments: argumentsText(field(item, type === 'function_call' ? 'arguments' : 'input')),
        });
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        checkKeys(b, item, keys.output, `${what} ${type} item`);
        const callId = callIdOf(b, item);
        const name = b.resolveCall(item, callId) ?? '';
        input(item, [{ type: 'function_tool_result', callId, name, content: outputParts(b, field(item, 'output')) }]);
        break;
      }
      case 'tool_search_call':
        checkKeys(b, item, SEARCH_KEYS, `${what} ${type} item`);
        assistant(item).push({
          type: 'server_tool_search',
          callId: callIdOf(b, item),
          query: searchQuery(field(item, 'arguments'), b.doc.limits),
        });
        break;
      case 'tool_search_output': {
        checkKeys(b, item, SEARCH_KEYS, `${what} ${type} item`);
        const block: ContentBlock = {
          type: 'server_tool_search_result',
          callId: callIdOf(b, item),
          tools: loadedTools(b, field(item, 'tools')),
        };
        const execution = field(item, 'execution');
        if (execution?.kind === 'string' && execution.value === 'client') input(item, [block]);
        else assistant(item).push(block);
        break;
      }
      default:
        if (!OTHER_ITEM_TYPES.has(type) && !dialect?.otherTypes.includes(type))
          b.unexplained(item, `unknown ${dialect ? 'Agents SDK' : 'Responses'} item type ${JSON.stringify(type)}`);
        if (/_(output|response|result)$/.test(type)) input(item, [{ type: 'other', description: type }]);
        else assistant(item).push({ type: 'other', description: type });
    }
  }
  flush();
}
