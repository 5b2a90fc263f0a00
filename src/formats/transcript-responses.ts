/**
 * OpenAI Responses input items → content-block messages (the item types of the `openai` package's
 * `resources/responses` types: `ResponseInputItem`, `ResponseOutputItem`).
 *
 * - `{type: "message", role, content}` (or `{role, content}`): `system` and
 *   `developer` are system messages; text parts (`input_text`,
 *   `output_text`) become text blocks.
 * - Consecutive assistant-side items (assistant messages, `function_call`,
 *   `reasoning`, `tool_search_call`, server-side `tool_search_output`, hosted
 *   tool calls) are the output of ONE model response and become ONE
 *   assistant message, in order.
 * - `function_call` / `custom_tool_call` are calls of the catalog's tools. A
 *   function inside a `namespace` tool is called with `namespace` beside its
 *   `name`, and named `<namespace>.<name>` (as the OpenAI Agents SDK names it;
 *   a deferred top-level function comes back with its own name as namespace,
 *   and keeps its name), the same name the tools list gives it (tools.ts).
 * - `function_call_output` becomes its own `user` message with one
 *   `function_tool_result` block, its name resolved from the call id.
 * - `tool_search_call` → `server_tool_search` block; `tool_search_output` →
 *   `server_tool_search_result` block (the names of the tools it loaded).
 *   With `execution: "client"` the model asked the client to search: the
 *   call is a client search (pending until its output arrives), and the
 *   `tool_search_output` the client sends is a `user` message of its own
 *   (merging it would join two model calls into one).
 * - Hosted tool calls (`mcp_call`, `mcp_list_tools`, `mcp_approval_request`,
 *   `web_search_call`, `file_search_call`, `code_interpreter_call`,
 *   `image_generation_call`, `program`; the Agents SDK's `hosted_tool_call`)
 *   and the built-in tools the client runs (`computer_call`,
 *   `local_shell_call`, `shell_call`, `apply_patch_call`) become
 *   `provider_tool_call` blocks: reported per model call, never checked
 *   against the tools offered. Their other keys (outputs, results, statuses)
 *   do not change the replay and are not read.
 * - `additional_tools` (tools the developer adds mid-conversation) and
 *   `configuration_update` (reasoning or text settings for the responses
 *   after it) are system messages of their own; the replay's tools come
 *   from the catalog.
 * - Other item types ending in `_output` or `_response` are client input (a
 *   `user` message with an `other` block); `reasoning`, `compaction`,
 *   `item_reference`, `program_output` are model-side `other` blocks.
 */
import { toWellFormed } from '../core/text.js';
import type { BlockMessage, ContentBlock, ToolResultPart } from '../core/types.js';
import { field, type Node, type ObjectNode } from '../io/nodes.js';
import { jsonInText } from '../io/parse.js';
import type { Limits } from '../io/read.js';
import { qualifiedToolName } from './tools.js';
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
  'computer_call_output',
  'local_shell_call_output',
  'shell_call_output',
  'apply_patch_call_output',
  'mcp_approval_response',
  'item_reference',
  'compaction',
  'compaction_trigger',
]);
/** Items of the model's response that are neither messages nor calls (not split off as client input). */
const MODEL_SIDE_TYPES = new Set(['program_output']);
/**
 * Calls of the provider's own tools, and who runs them (`shell_call`: the provider when its
 * environment is a hosted container). The Agents JS SDK's `hosted_tool_call` is one too.
 */
const PROVIDER_CALLS: Readonly<Record<string, 'provider' | 'client'>> = {
  mcp_call: 'provider',
  mcp_list_tools: 'provider',
  mcp_approval_request: 'provider',
  web_search_call: 'provider',
  file_search_call: 'provider',
  code_interpreter_call: 'provider',
  image_generation_call: 'provider',
  program: 'provider',
  computer_call: 'client',
  local_shell_call: 'client',
  shell_call: 'client',
  apply_patch_call: 'client',
};
const MESSAGE_KEYS = ['type', 'id', 'role', 'content', 'status', 'phase'];
const CALL_KEYS = [
  'type',
  'id',
  'call_id',
  'name',
  'arguments',
  'input',
  'status',
  'namespace',
  'caller',
  'created_by',
];
const OUTPUT_KEYS = ['type', 'id', 'call_id', 'output', 'status', 'caller', 'created_by'];
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
const SEARCH_KEYS = [
  'type',
  'id',
  'call_id',
  'callId',
  'execution',
  'arguments',
  'status',
  'tools',
  'created_by',
  'providerData',
];

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

/**
 * Names of the tools in a `tool_search_output`: functions by name; a namespace's functions as
 * `<namespace>.<function>` ({@link qualifiedToolName}); the Agents JS SDK's `tool_reference`s.
 */
function loadedTools(b: TranscriptBuilder, node: Node | undefined, namespace = ''): string[] {
  const out: string[] = [];
  if (!node || node.kind !== 'array') return out;
  for (const t of node.items) {
    if (t.kind !== 'object') continue;
    const type = field(t, 'type');
    const name = field(t, 'name');
    if (type?.kind === 'string' && type.value === 'namespace') {
      append(out, loadedTools(b, field(t, 'tools'), name?.kind === 'string' ? toWellFormed(name.value) : ''));
      continue;
    }
    if (type?.kind === 'string' && type.value === 'tool_reference') {
      // The Agents JS SDK keeps a loaded tool as a reference: {type: "tool_reference", functionName, namespace?}.
      const fn = field(t, 'functionName');
      const ns = field(t, 'namespace');
      if (fn?.kind === 'string')
        out.push(qualifiedToolName(ns?.kind === 'string' ? toWellFormed(ns.value) : namespace, toWellFormed(fn.value)));
      continue;
    }
    if (name?.kind === 'string') out.push(qualifiedToolName(namespace, toWellFormed(name.value)));
  }
  return out;
}

/** A JSON value as compact text (absent or null: empty). */
function jsonText(node: Node | undefined): string {
  return !node || node.kind === 'null' ? '' : argumentsText(node);
}

/** What a hosted or built-in tool call was asked to do, as text. */
function providerArguments(type: string, item: ObjectNode): string {
  switch (type) {
    case 'mcp_call':
    case 'mcp_approval_request':
    case 'hosted_tool_call':
      return jsonText(field(item, 'arguments'));
    case 'web_search_call':
    case 'local_shell_call':
    case 'shell_call':
      return jsonText(field(item, 'action'));
    case 'computer_call':
      return jsonText(field(item, 'action') ?? field(item, 'actions'));
    case 'file_search_call': {
      const queries = field(item, 'queries');
      return queries ? `{"queries":${argumentsText(queries) || '[]'}}` : '';
    }
    case 'apply_patch_call':
      return jsonText(field(item, 'operation'));
    case 'code_interpreter_call':
    case 'program':
      return jsonText(field(item, 'code'));
    default:
      return '';
  }
}

/** A `provider_tool_call` block for a hosted or built-in tool call item. */
function providerCall(b: TranscriptBuilder, type: string, item: ObjectNode): ContentBlock {
  const str = (key: string): string => {
    const v = field(item, key);
    return v?.kind === 'string' ? toWellFormed(v.value) : '';
  };
  let executedBy = PROVIDER_CALLS[type] ?? 'provider';
  if (type === 'shell_call') {
    const env = field(item, 'environment');
    const envType = env?.kind === 'object' ? field(env, 'type') : undefined;
    if (envType?.kind === 'string' && envType.value === 'container_reference') executedBy = 'provider';
  }
  return {
    type: 'provider_tool_call',
    callId: callIdOf(b, item),
    kind: type,
    name: str('name'),
    server: str('server_label'),
    arguments: providerArguments(type, item),
    executedBy,
  };
}

/**
 * The OpenAI Agents JS SDK's history items: the Responses items in camelCase
 * (`callId`), `function_call_result` for `function_call_output`, and
 * `hosted_tool_call`, `providerData` on every item.
 */
const AGENTS_JS_EXTRA_KEYS = ['providerData', 'callId', 'caller', 'name', 'namespace'];
const AGENTS_JS = {
  resultType: 'function_call_result',
  otherTypes: ['computer_call_result'],
};

/** The known keys of message, call and output items, without and with the Agents JS SDK's (lists made once). */
const RESPONSES_ITEM_KEYS = { message: MESSAGE_KEYS, call: CALL_KEYS, output: OUTPUT_KEYS };
const AGENTS_JS_ITEM_KEYS = {
  message: [...MESSAGE_KEYS, ...AGENTS_JS_EXTRA_KEYS],
  call: [...CALL_KEYS, ...AGENTS_JS_EXTRA_KEYS],
  output: [...OUTPUT_KEYS, ...AGENTS_JS_EXTRA_KEYS],
};

/** `execution` of a tool search item: `client`, or `server` (the default when absent). */
function executionOf(b: TranscriptBuilder, item: ObjectNode): 'server' | 'client' {
  const e = optString(b, field(item, 'execution'), '"execution"', 'server');
  if (e !== 'server' && e !== 'client')
    b.unexplained(
      field(item, 'execution')!,
      `unknown tool search execution ${JSON.stringify(e)} (expected server, client)`,
    );
  return e === 'client' ? 'client' : 'server';
}

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
        const name = qualifiedToolName(
          optString(b, field(item, 'namespace'), 'namespace'),
          optString(b, field(item, 'name'), 'function name'),
        );
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
      case 'tool_search_call': {
        checkKeys(b, item, SEARCH_KEYS, `${what} ${type} item`);
        const client = executionOf(b, item) === 'client';
        assistant(item).push({
          type: 'server_tool_search',
          callId: callIdOf(b, item),
          query: searchQuery(field(item, 'arguments'), b.doc.limits),
          ...(client ? { execution: 'client' as const } : {}),
        });
        break;
      }
      case 'tool_search_output': {
        checkKeys(b, item, SEARCH_KEYS, `${what} ${type} item`);
        const block: ContentBlock = {
          type: 'server_tool_search_result',
          callId: callIdOf(b, item),
          tools: loadedTools(b, field(item, 'tools')),
        };
        if (executionOf(b, item) === 'client') input(item, [block]);
        else assistant(item).push(block);
        break;
      }
      case 'additional_tools':
      case 'configuration_update':
        // Tools or settings the developer adds for the rest of the conversation: a message of its own.
        flush();
        b.push({ kind: 'blocks', role: 'system', blocks: [{ type: 'other', description: type }] }, item);
        break;
      default:
        if (type in PROVIDER_CALLS || (dialect !== null && type === 'hosted_tool_call')) {
          assistant(item).push(providerCall(b, type, item));
          break;
        }
        if (!OTHER_ITEM_TYPES.has(type) && !MODEL_SIDE_TYPES.has(type) && !dialect?.otherTypes.includes(type))
          b.unexplained(item, `unknown ${dialect ? 'Agents SDK' : 'Responses'} item type ${JSON.stringify(type)}`);
        if (/_(output|response|result)$/.test(type) && !MODEL_SIDE_TYPES.has(type))
          input(item, [{ type: 'other', description: type }]);
        else assistant(item).push({ type: 'other', description: type });
    }
  }
  flush();
}
