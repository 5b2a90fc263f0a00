/**
 * Transcript files: a JSON array, a JSONL file (one message or item per
 * line), or a logged request body, in one of four formats (detected from the
 * content; `format` forces one):
 *
 * - `eino`: Eino `schema.Message` / `schema.AgenticMessage` JSON;
 * - `openai`: Chat Completions messages, or a body `{model, messages, tools}`;
 * - `openai-responses`: Responses input items, or a body `{model, input, instructions?, tools}`;
 * - `anthropic`: Messages API messages, or a body `{system?, messages, tools}`.
 *
 * Detection counts the keys and part types only one format uses (Eino's
 * `tool_name`/`extra`/`content_blocks`; Responses' item `type`s and
 * `input_text`/`output_text` parts; Anthropic's `tool_use`/`tool_result`
 * blocks and top-level `system`; OpenAI's `image_url`/`refusal` parts and
 * `function` role). The format with the most evidence wins; with none, a tool
 * message without `tool_name` means `openai` (its name is resolved from the
 * call), a body with `input` means `openai-responses`, a body with
 * `messages` means `openai`, and a bare list means `eino` (plain
 * role/content messages read the same in every chat format).
 *
 * Tools carried by a request body are read like a catalog (a tool named
 * `tool_search` there is the middleware's own tool and is skipped).
 */
import { type ArrayNode, errorAt, field, kindName, looseField, type Node, type ObjectNode, type ParsedDocument } from './nodes.js';
import { parseFile } from './parse.js';
import { type Limits, resolveLimits } from './read.js';
import { mergeTools } from './catalog.js';
import { readToolList } from './tools.js';
import { readAnthropicMessages, readAnthropicSystem } from './transcript-anthropic.js';
import { TranscriptBuilder } from './transcript-common.js';
import { readEinoMessages } from './transcript-eino.js';
import { readOpenAIMessages } from './transcript-openai.js';
import { readResponsesItems } from './transcript-responses.js';
import type { CatalogTool, Transcript, TranscriptFormat } from './types.js';

/** Options of {@link loadTranscriptFile}. */
export interface TranscriptOptions {
  readonly format?: TranscriptFormat | 'auto';
  readonly limits?: Partial<Limits>;
}

/** Every transcript shape, as listed when none fits. */
export const TRANSCRIPT_SHAPES: ReadonlyArray<readonly [TranscriptFormat, string]> = [
  ['eino', 'eino ([{role, content, tool_calls, tool_call_id, tool_name, extra}] or [{role, content_blocks}])'],
  ['openai', 'openai (Chat Completions messages, or {model, messages, tools})'],
  ['openai-responses', 'openai-responses (Responses input items, or {model, input, tools})'],
  ['anthropic', 'anthropic (Messages API messages, or {system, messages, tools})'],
];

const ANTHROPIC_BLOCKS = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'tool_search_tool_result',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'tool_reference',
  'document',
  'search_result',
  'image',
]);
const OPENAI_PARTS = new Set(['image_url', 'input_audio', 'file', 'refusal']);
const RESPONSES_PARTS = new Set(['input_text', 'output_text', 'input_image', 'input_file', 'input_audio', 'summary_text']);
const EINO_KEYS = ['tool_name', 'extra', 'response_meta', 'multi_content', 'user_input_multi_content', 'assistant_gen_multi_content', 'content_blocks'];
const OPENAI_KEYS = ['refusal', 'audio', 'function_call', 'annotations'];

/** Where the messages are: a bare list, or the list (or text) of a request body. */
interface Located {
  readonly items: readonly Node[];
  /** The request body, when the root is one. */
  readonly body: ObjectNode | null;
  /** The body key the messages came from. */
  readonly key: 'messages' | 'input' | null;
}

function locateMessages(doc: ParsedDocument, format: TranscriptFormat): Located | null {
  const root = doc.root;
  if (root.kind === 'array') return { items: root.items, body: null, key: null };
  if (root.kind !== 'object') return null;
  const order = format === 'openai-responses' ? (['input', 'messages'] as const) : (['messages', 'input'] as const);
  const key = order.find((k) => root.members.has(k));
  if (key === undefined) return null;
  const list = field(root, key)!;
  if (key === 'input' && list.kind === 'string') {
    // `input` may be one user text.
    const item: ObjectNode = {
      kind: 'object',
      offset: list.offset,
      members: new Map([
        ['role', { key: 'role', keyOffset: list.offset, value: { kind: 'string', offset: list.offset, value: 'user' } }],
        ['content', { key: 'content', keyOffset: list.offset, value: list }],
      ]),
    };
    return { items: [item], body: root, key };
  }
  if (list.kind !== 'array') throw errorAt(doc, list, `"${key}" must be a list, found ${kindName(list)}`);
  return { items: list.items, body: root, key };
}

function noShapeFits(doc: ParsedDocument, found: string): never {
  const tried = TRANSCRIPT_SHAPES.map(([, label]) => label).join(', ');
  throw errorAt(doc, doc.root, `no known transcript shape fits (found ${found}); tried ${tried}`);
}

function describeRoot(root: Node): string {
  if (root.kind !== 'object') return kindName(root);
  return 'an object without "messages" or "input"';
}

/** Formats that an item's keys and part types point to. */
function evidence(item: Node): { strong: TranscriptFormat[]; weakOpenAI: boolean } {
  const strong = new Set<TranscriptFormat>();
  if (item.kind !== 'object') return { strong: [], weakOpenAI: false };
  const type = field(item, 'type');
  if (type?.kind === 'string') strong.add('openai-responses');
  for (const k of EINO_KEYS) if (looseField(item, k) !== undefined && (k !== 'extra' || item.members.has('extra'))) strong.add('eino');
  for (const k of OPENAI_KEYS) if (item.members.has(k)) strong.add('openai');
  if (item.members.has('call_id')) strong.add('openai-responses');
  const role = field(item, 'role');
  if (role?.kind === 'string' && role.value === 'function') strong.add('openai');
  const content = field(item, 'content');
  if (content?.kind === 'array') {
    for (const p of content.items) {
      const t = p.kind === 'object' ? field(p, 'type') : undefined;
      if (t?.kind !== 'string') continue;
      if (ANTHROPIC_BLOCKS.has(t.value)) strong.add('anthropic');
      else if (OPENAI_PARTS.has(t.value)) strong.add('openai');
      else if (RESPONSES_PARTS.has(t.value)) strong.add('openai-responses');
    }
  }
  const weakOpenAI = role?.kind === 'string' && role.value === 'tool' && !item.members.has('tool_name');
  return { strong: [...strong], weakOpenAI };
}

/** Tie-break order when two formats have as much evidence. */
const PREFERENCE: readonly TranscriptFormat[] = ['openai-responses', 'anthropic', 'eino', 'openai'];

function detectFormat(doc: ParsedDocument): TranscriptFormat {
  const root = doc.root;
  const counts = new Map<TranscriptFormat, number>();
  const add = (f: TranscriptFormat, n = 1): void => void counts.set(f, (counts.get(f) ?? 0) + n);
  let weakOpenAI = false;
  let items: readonly Node[];
  if (root.kind === 'array') items = root.items;
  else if (root.kind === 'object') {
    const messages = field(root, 'messages');
    const input = field(root, 'input');
    if (messages) {
      items = messages.kind === 'array' ? messages.items : [];
      if (root.members.has('system')) add('anthropic');
    } else if (input) {
      return 'openai-responses';
    } else return noShapeFits(doc, describeRoot(root));
  } else return noShapeFits(doc, describeRoot(root));
  for (const item of items) {
    if (item.kind !== 'object') continue;
    const e = evidence(item);
    for (const f of e.strong) add(f);
    weakOpenAI ||= e.weakOpenAI;
  }
  let best: TranscriptFormat | null = null;
  for (const f of PREFERENCE) {
    const n = counts.get(f) ?? 0;
    if (n > 0 && (best === null || n > (counts.get(best) ?? 0))) best = f;
  }
  if (best) return best;
  if (weakOpenAI || root.kind === 'object') return 'openai';
  return 'eino';
}

/** Reads one parsed transcript document. */
export function readTranscriptDocument(doc: ParsedDocument, options: TranscriptOptions = {}): Transcript {
  const limits = resolveLimits(options.limits);
  const forced = options.format && options.format !== 'auto' ? options.format : null;
  const format = forced ?? detectFormat(doc);
  const located = locateMessages(doc, format);
  if (!located) {
    if (!forced) noShapeFits(doc, describeRoot(doc.root));
    const want = format === 'openai-responses' ? 'a list of input items or a request body with "input"' : 'a list of messages or a request body with "messages"';
    throw errorAt(doc, doc.root, `not an ${format} transcript: expected ${want}, found ${describeRoot(doc.root)}`);
  }
  const b = new TranscriptBuilder(doc, limits.maxMessages);
  const body = located.body;
  if (body) {
    if (format === 'anthropic') {
      const system = field(body, 'system');
      if (system) readAnthropicSystem(b, system);
    } else if (format === 'openai-responses') {
      const instructions = field(body, 'instructions');
      if (instructions && instructions.kind !== 'null') {
        if (instructions.kind !== 'string') throw errorAt(doc, instructions, `"instructions" must be a string, found ${kindName(instructions)}`);
        b.push({ kind: 'blocks', role: 'system', blocks: [{ type: 'text', text: instructions.value }] }, instructions);
      }
    }
  }
  switch (format) {
    case 'eino':
      readEinoMessages(b, located.items);
      break;
    case 'openai':
      readOpenAIMessages(b, located.items);
      break;
    case 'openai-responses':
      readResponsesItems(b, located.items);
      break;
    case 'anthropic':
      readAnthropicMessages(b, located.items);
      break;
  }
  let tools: CatalogTool[] | null = null;
  const toolsNode = body ? field(body, 'tools') : undefined;
  if (toolsNode && toolsNode.kind !== 'null') {
    if (toolsNode.kind !== 'array') throw errorAt(doc, toolsNode, `"tools" must be a list, found ${kindName(toolsNode)}`);
    const read = readToolList(doc, toolsNode as ArrayNode, { shape: 'auto', skipToolSearch: true });
    tools = mergeTools([read.tools]);
    b.warnings.push(...read.warnings);
  }
  return { file: doc.file, format, messages: b.messages, locations: b.locations, tools, warnings: b.warnings };
}

/**
 * Loads a transcript file. Every problem is an `InputError` at
 * `file:line:column`; unknown roles are errors, tool results pointing to an
 * unknown call id are warnings (the load goes on).
 */
export function loadTranscriptFile(file: string, options: TranscriptOptions = {}): Transcript {
  const doc = parseFile(file, options.limits ? { limits: options.limits } : {});
  return readTranscriptDocument(doc, options);
}
