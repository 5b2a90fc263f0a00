/**
 * The four chat formats (Eino, OpenAI Chat, OpenAI Responses, Anthropic
 * Messages): a JSON array, a JSONL file (one message or item per line), or a
 * logged request body. They share detection, because their messages look
 * alike:
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
 * A forced `format` must fit: content that only other formats have and that
 * the forced reader would drop or misread (a top-level `system` outside
 * Anthropic, `tool_use` blocks outside Anthropic, typed Responses items,
 * Eino `extra` or `content_blocks`, chat `tool_calls` in Anthropic or
 * Responses, ...) is an error at its position naming the format that fits.
 *
 * Tools carried by a request body are read like a catalog (a tool named
 * `tool_search` there is the middleware's own tool and is skipped).
 *
 * Over 400 lines: four look-alike formats can only be told apart by weighing them in one place.
 */
import { quote, type InputError } from '../../io/errors.js';
import { mergeTools } from '../catalog.js';
import {
  type ArrayNode,
  errorAt,
  field,
  kindName,
  looseField,
  type Node,
  type ObjectNode,
  type ParsedDocument,
} from '../../io/nodes.js';
import { readToolList } from '../tools.js';
import { readAnthropicMessages, readAnthropicSystem } from '../transcript-anthropic.js';
import type { TranscriptBuilder } from '../transcript-common.js';
import { readEinoMessages } from '../transcript-eino.js';
import { readOpenAIMessages } from '../transcript-openai.js';
import { readResponsesItems } from '../transcript-responses.js';
import type { CatalogTool, TranscriptFormat } from '../types.js';
import { sentToolsOf } from './sent.js';
import { append } from '../../core/append.js';

/** The four chat formats. */
export type ChatFormat = 'eino' | 'openai' | 'openai-responses' | 'anthropic';

/** Every chat transcript shape, as listed when none fits. */
export const CHAT_SHAPES: ReadonlyArray<readonly [ChatFormat, string]> = [
  ['eino', 'eino ([{role, content, tool_calls, tool_call_id, tool_name, extra}] or [{role, content_blocks}])'],
  ['openai', 'openai (Chat Completions messages, or {model, messages, tools})'],
  ['openai-responses', 'openai-responses (Responses input items, or {model, input, tools})'],
  ['anthropic', 'anthropic (Messages API messages, or {system, messages, tools})'],
];

export const ANTHROPIC_BLOCKS: ReadonlySet<string> = new Set([
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
export const OPENAI_PARTS: ReadonlySet<string> = new Set(['image_url', 'input_audio', 'file', 'refusal']);
export const RESPONSES_PARTS: ReadonlySet<string> = new Set([
  'input_text',
  'output_text',
  'input_image',
  'input_file',
  'input_audio',
  'summary_text',
]);
const EINO_KEYS = [
  'tool_name',
  'extra',
  'response_meta',
  'multi_content',
  'user_input_multi_content',
  'assistant_gen_multi_content',
  'content_blocks',
];
const OPENAI_KEYS = ['refusal', 'audio', 'function_call', 'annotations'];

/** Where the messages are: a bare list, or the list (or text) of a request body. */
interface Located {
  readonly items: readonly Node[];
  /** The request body, when the root is one. */
  readonly body: ObjectNode | null;
  /** The body key the messages came from. */
  readonly key: 'messages' | 'input' | null;
}

function locateMessages(doc: ParsedDocument, format: ChatFormat): Located | null {
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
        [
          'role',
          { key: 'role', keyOffset: list.offset, value: { kind: 'string', offset: list.offset, value: 'user' } },
        ],
        ['content', { key: 'content', keyOffset: list.offset, value: list }],
      ]),
    };
    return { items: [item], body: root, key };
  }
  if (list.kind !== 'array') throw errorAt(doc, list, `${quote(key)} must be a list, found ${kindName(list)}`);
  return { items: list.items, body: root, key };
}

export function noShapeFitsChat(doc: ParsedDocument, found: string): never {
  const tried = CHAT_SHAPES.map(([, label]) => label).join(', ');
  throw errorAt(doc, doc.root, `no known transcript shape fits (found ${found}); tried ${tried}`);
}

export function describeRoot(root: Node): string {
  if (root.kind !== 'object') return kindName(root);
  return 'an object without "messages" or "input"';
}

/** Formats that an item's keys and part types point to. */
function evidence(item: Node): { strong: ChatFormat[]; weakOpenAI: boolean } {
  const strong = new Set<ChatFormat>();
  if (item.kind !== 'object') return { strong: [], weakOpenAI: false };
  const type = field(item, 'type');
  if (type?.kind === 'string') strong.add('openai-responses');
  for (const k of EINO_KEYS)
    if (looseField(item, k) !== undefined && (k !== 'extra' || item.members.has('extra'))) strong.add('eino');
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
const PREFERENCE: readonly ChatFormat[] = ['openai-responses', 'anthropic', 'eino', 'openai'];

/** What the chat-format evidence found: counts per format, and the fallback when none. */
interface ChatDetection {
  readonly counts: ReadonlyMap<ChatFormat, number>;
  readonly best: ChatFormat | null;
  readonly why: string;
}

const detections = new WeakMap<ParsedDocument, ChatDetection | null>();

/** Chat-format detection for `doc` (computed once per document), or null when no chat shape fits. */
export function chatDetection(doc: ParsedDocument): ChatDetection | null {
  if (!detections.has(doc)) detections.set(doc, computeDetection(doc));
  return detections.get(doc)!;
}

function computeDetection(doc: ParsedDocument): ChatDetection | null {
  try {
    const seen: Seen = { counts: new Map(), why: '' };
    const f = detectFormat(doc, seen);
    return { counts: seen.counts, best: f, why: seen.why };
  } catch {
    return null;
  }
}

/** What {@link detectFormat} found on its way: the evidence per format, and why the format it returns. */
interface Seen {
  readonly counts: Map<ChatFormat, number>;
  why: string;
}

function detectFormat(doc: ParsedDocument, seen: Seen): ChatFormat {
  const root = doc.root;
  const counts = seen.counts;
  const add = (f: ChatFormat, n = 1): void => void counts.set(f, (counts.get(f) ?? 0) + n);
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
      seen.why = 'a request body with "input"';
      return 'openai-responses';
    } else return noShapeFitsChat(doc, describeRoot(root));
  } else return noShapeFitsChat(doc, describeRoot(root));
  for (const item of items) {
    if (item.kind !== 'object') continue;
    const e = evidence(item);
    for (const f of e.strong) add(f);
    weakOpenAI ||= e.weakOpenAI;
  }
  let best: ChatFormat | null = null;
  for (const f of PREFERENCE) {
    const n = counts.get(f) ?? 0;
    if (n > 0 && (best === null || n > (counts.get(best) ?? 0))) best = f;
  }
  if (best) {
    seen.why =
      `${counts.get(best)} ${counts.get(best) === 1 ? 'message has' : 'messages have'} keys or part types ` +
      `only ${FORMAT_NAMES[best]} uses`;
    return best;
  }
  if (weakOpenAI) {
    seen.why = 'a tool message without "tool_name" (its name comes from the call)';
    return 'openai';
  }
  if (root.kind === 'object') {
    seen.why = 'a request body with "messages"';
    return 'openai';
  }
  seen.why =
    items.length === 0
      ? 'an empty list (the reference reads it as an empty conversation)'
      : 'a list of plain role/content messages';
  return 'eino';
}

/** Display names of the formats, for messages. */
const FORMAT_NAMES: Readonly<Record<ChatFormat, string>> = {
  eino: 'Eino',
  openai: 'OpenAI Chat',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic Messages',
};

/** Formats whose content parts / blocks have this `type` (types not listed are not judged). */
function partOwners(type: string): readonly ChatFormat[] | null {
  if (ANTHROPIC_BLOCKS.has(type)) return ['anthropic'];
  if (type === 'input_audio') return ['openai', 'openai-responses'];
  if (RESPONSES_PARTS.has(type)) return ['openai-responses'];
  if (type === 'image_url') return ['openai', 'eino'];
  if (OPENAI_PARTS.has(type)) return ['openai'];
  return null;
}

/** Something in the file that the forced format would not read. */
interface Misfit {
  readonly at: number;
  readonly what: string;
  readonly owners: readonly ChatFormat[];
}

/**
 * With a forced format: the first thing (in document order) that belongs to
 * other formats only and that the forced reader would drop or misread, or
 * null. Keys and part types are judged, not values: a plain `{role,
 * content}` message reads the same in every format.
 */
function firstMisfit(doc: ParsedDocument, located: Located, format: ChatFormat): Misfit | null {
  const found: Misfit[] = [];
  const check = (at: number, what: string, owners: readonly ChatFormat[]): void => {
    if (!owners.includes(format)) found.push({ at, what, owners });
  };
  const keyAt = (obj: ObjectNode, key: string): number => obj.members.get(key)?.keyOffset ?? obj.offset;
  const present = (obj: ObjectNode, key: string): boolean => {
    const v = field(obj, key);
    return v !== undefined && v.kind !== 'null';
  };
  const body = located.body;
  if (body) {
    if (present(body, 'system')) check(keyAt(body, 'system'), 'a top-level "system"', ['anthropic']);
    if (present(body, 'instructions'))
      check(keyAt(body, 'instructions'), 'a top-level "instructions"', ['openai-responses']);
    if (located.key === 'input') check(keyAt(body, 'input'), 'a top-level "input"', ['openai-responses']);
    else if (located.key === 'messages')
      check(keyAt(body, 'messages'), 'a top-level "messages"', ['openai', 'anthropic', 'eino']);
  }
  const bodyMisfits = found.length;
  for (const item of located.items) {
    // Items are in document order and each misfit lies inside its item: the
    // first item with one holds the earliest.
    if (found.length > bodyMisfits) break;
    if (item.kind !== 'object') continue;
    const type = field(item, 'type');
    if (type?.kind === 'string') {
      // Anthropic response objects are typed "message" too (role and content read the same).
      const owners: readonly ChatFormat[] =
        type.value === 'message' ? ['openai-responses', 'anthropic'] : ['openai-responses'];
      check(keyAt(item, 'type'), `an item typed ${JSON.stringify(type.value)}`, owners);
    }
    if (item.members.has('call_id')) check(keyAt(item, 'call_id'), '"call_id"', ['openai-responses']);
    const blocks = looseField(item, 'content_blocks');
    if (blocks !== undefined) {
      const key = [...item.members.values()].find((m) => m.value === blocks)!;
      check(key.keyOffset, `"${key.key}"`, ['eino']);
    }
    if (present(item, 'extra')) check(keyAt(item, 'extra'), '"extra"', ['eino']);
    if (present(item, 'tool_calls')) check(keyAt(item, 'tool_calls'), '"tool_calls"', ['openai', 'eino']);
    if (present(item, 'tool_call_id')) check(keyAt(item, 'tool_call_id'), '"tool_call_id"', ['openai', 'eino']);
    const role = looseField(item, 'role');
    if (role?.kind === 'string' && role.value === 'tool')
      check(item.offset, 'a message with role "tool"', ['openai', 'eino']);
    if (role?.kind === 'string' && role.value === 'function')
      check(item.offset, 'a message with role "function"', ['openai']);
    const content = field(item, 'content');
    if (content?.kind !== 'array') continue;
    for (const part of content.items) {
      const t = part.kind === 'object' ? field(part, 'type') : undefined;
      if (t?.kind !== 'string') continue;
      const owners = partOwners(t.value);
      if (owners) check(part.offset, `a content part typed ${JSON.stringify(t.value)}`, owners);
    }
  }
  if (found.length === 0) return null;
  return found.reduce((a, b) => (b.at < a.at ? b : a));
}

/** The error for a forced format that does not fit, naming what was found and which format fits. */
function misfitError(
  doc: ParsedDocument,
  format: ChatFormat,
  m: Misfit,
  detected: TranscriptFormat | null,
): InputError {
  const names = m.owners.map((f) => FORMAT_NAMES[f]);
  const owners = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}` : names.join('');
  const hint =
    detected !== null && detected !== format ? `; the file fits ${detected} (--format ${detected}, or auto)` : '';
  return errorAt(
    doc,
    m.at,
    `not an ${format} transcript: found ${m.what} (${owners}), which ${format} transcripts do not have${hint}`,
  );
}

/** Reads one parsed transcript document. */
export function readChatDocument(
  doc: ParsedDocument,
  b: TranscriptBuilder,
  format: ChatFormat,
  forced: boolean,
  detectAny: () => TranscriptFormat | null,
): void {
  const located = locateMessages(doc, format);
  if (!located) {
    const want =
      format === 'openai-responses'
        ? 'a list of input items or a request body with "input"'
        : 'a list of messages or a request body with "messages"';
    throw errorAt(doc, doc.root, `not an ${format} transcript: expected ${want}, found ${describeRoot(doc.root)}`);
  }
  if (forced) {
    // A forced format must not silently drop what another format carries
    // (a top-level system, tool_use blocks, Eino extra, ...).
    const misfit = firstMisfit(doc, located, format);
    if (misfit) throw misfitError(doc, format, misfit, detectAny());
  }
  const body = located.body;
  if (body) {
    // A request body is itself one model call (the one it asks for).
    b.isRequest = true;
    if (format === 'anthropic') {
      const system = field(body, 'system');
      if (system && system.kind !== 'null') {
        b.read();
        readAnthropicSystem(b, system);
      }
    } else if (format === 'openai-responses') {
      const instructions = field(body, 'instructions');
      if (instructions && instructions.kind !== 'null') {
        if (instructions.kind !== 'string')
          throw errorAt(doc, instructions, `"instructions" must be a string, found ${kindName(instructions)}`);
        b.read();
        b.push({ kind: 'blocks', role: 'system', blocks: [{ type: 'text', text: instructions.value }] }, instructions);
      }
    }
  }
  readChatItems(b, format, located.items);
  const toolsNode = body ? field(body, 'tools') : undefined;
  if (toolsNode && toolsNode.kind !== 'null') {
    b.tools = readCarriedTools(b, toolsNode);
    // The tools of a request body are those sent with the call it asks for: its last model call.
    if (toolsNode.kind === 'array') b.requestTools = sentToolsOf(toolsNode);
  }
}

/** Reads a list of messages (or Responses items) in one of the four chat formats. */
export function readChatItems(b: TranscriptBuilder, format: ChatFormat, items: readonly Node[]): void {
  switch (format) {
    case 'eino':
      readEinoMessages(b, items);
      break;
    case 'openai':
      readOpenAIMessages(b, items);
      break;
    case 'openai-responses':
      readResponsesItems(b, items);
      break;
    case 'anthropic':
      readAnthropicMessages(b, items);
      break;
  }
}

/** A request body's `tools`, read like a catalog (`tool_search` itself skipped with a warning). */
export function readCarriedTools(b: TranscriptBuilder, toolsNode: Node): CatalogTool[] {
  if (toolsNode.kind !== 'array')
    throw errorAt(b.doc, toolsNode, `"tools" must be a list, found ${kindName(toolsNode)}`);
  const read = readToolList(b.doc, toolsNode as ArrayNode, { shape: 'auto', skipToolSearch: true });
  append(b.warnings, read.warnings);
  return mergeTools([read.tools]);
}
