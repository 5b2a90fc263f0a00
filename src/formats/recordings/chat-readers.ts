/**
 * The four chat formats as recording readers. They share one detection
 * (chat.ts counts the keys and part types only one of them uses), so each
 * reader's evidence is its own count; a bare fallback (plain role/content
 * messages, a body with `messages` or `input`) scores below one.
 */
import {
  ANTHROPIC_BLOCKS,
  chatDetection,
  type ChatFormat,
  OPENAI_PARTS,
  readChatDocument,
  RESPONSES_PARTS,
} from './chat.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type RecordingReader } from './types.js';
import { quote } from '../../io/errors.js';
import { field, type Node, type ParsedDocument } from '../../io/nodes.js';
import type { TranscriptFormat } from '../types.js';

/** Tie-break when two chat formats have as much evidence (as before the registry). */
const PREFERENCE: Readonly<Record<ChatFormat, number>> = {
  'openai-responses': 0.4,
  anthropic: 0.3,
  eino: 0.2,
  openai: 0.1,
};

function chatEvidence(doc: ParsedDocument, format: ChatFormat): Evidence | null {
  const d = chatDetection(doc);
  if (!d) return null;
  const n = d.counts.get(format) ?? 0;
  if (n > 0)
    return {
      score: n + PREFERENCE[format],
      detected_by:
        d.best === format ? d.why : `${n} ${n === 1 ? 'message has' : 'messages have'} keys or part types of ${format}`,
    };
  if (d.best === format) return { score: 0.5, detected_by: d.why };
  return null;
}

/** Request body keys that point to one chat format (with no `messages` / `input`, no chat format takes the body). */
const BODY_KEYS: Readonly<Record<ChatFormat, readonly string[]>> = {
  anthropic: ['system', 'max_tokens', 'anthropic_version', 'stop_sequences', 'anthropic_beta'],
  openai: ['max_completion_tokens', 'response_format', 'functions', 'function_call', 'frequency_penalty', 'logprobs'],
  'openai-responses': ['instructions', 'previous_response_id', 'max_output_tokens', 'conversation', 'truncation'],
  eino: [],
};

/** Where a body expects its messages. */
const BODY_LIST: Readonly<Record<ChatFormat, string>> = {
  anthropic: '{model, system, max_tokens, messages: [{role, content}], tools}',
  openai: '{model, messages: [{role, content, tool_calls}], tools}',
  'openai-responses': '{model, instructions, input: [items], tools}',
  eino: '[{role, content, tool_calls, tool_call_id, tool_name, extra}] (a list, not one message)',
};

const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);

/**
 * Content blocks shaped as Anthropic's tool blocks (`tool_use_id`; or `id`, `name` and `input`)
 * under a type no chat format has: a misspelled `tool_use` / `tool_result`.
 */
function anthropicLike(items: readonly Node[]): { n: number; types: string[] } {
  let n = 0;
  const types = new Set<string>();
  for (const m of items) {
    const content = m.kind === 'object' && field(m, 'role') !== undefined ? field(m, 'content') : undefined;
    if (content?.kind !== 'array') continue;
    for (const bl of content.items) {
      if (bl.kind !== 'object') continue;
      const type = str(field(bl, 'type'));
      if (type === null || ANTHROPIC_BLOCKS.has(type) || OPENAI_PARTS.has(type) || RESPONSES_PARTS.has(type)) continue;
      const shaped =
        bl.members.has('tool_use_id') || (bl.members.has('id') && bl.members.has('name') && bl.members.has('input'));
      if (!shaped) continue;
      n++;
      types.add(type);
    }
  }
  return { n, types: [...types] };
}

/**
 * What a chat reader makes of a document it does not take: a request body with its keys but no
 * `messages` / `input` (a weak sign: the four share most keys), one message object where a list
 * goes (Eino), or (Anthropic) content blocks shaped as its tool blocks under an unknown type.
 */
function chatNear(doc: ParsedDocument, format: ChatFormat): NearMiss | null {
  if (chatEvidence(doc, format) !== null) return null;
  const root = doc.root;
  if (format === 'anthropic') {
    const messages = root.kind === 'object' ? field(root, 'messages') : undefined;
    const items = root.kind === 'array' ? root.items : messages?.kind === 'array' ? messages.items : [];
    const like = anthropicLike(items);
    const typed =
      like.types
        .slice(0, 3)
        .map((t) => quote(t))
        .join(', ') + (like.types.length > 3 ? ', ...' : '');
    if (like.n > 0)
      return {
        score: DISTINCTIVE + like.n,
        found:
          `${like.n} content ${like.n === 1 ? 'block' : 'blocks'} shaped as Anthropic tool blocks ("tool_use_id", ` +
          `or "id", "name", "input") typed ${typed}`,
        expected: `blocks typed text, ${[...ANTHROPIC_BLOCKS].slice(0, 3).join(', ')}, ... (Messages API)`,
      };
  }
  if (root.kind !== 'object' || root.members.has('messages') || root.members.has('input')) return null;
  if (format === 'eino') {
    if (field(root, 'role') === undefined) return null;
    return { score: 1, found: 'one message object ({role, ...})', expected: BODY_LIST.eino };
  }
  const keys = BODY_KEYS[format].filter((k) => root.members.has(k));
  if (keys.length === 0) return null;
  const list = format === 'openai-responses' ? 'input' : 'messages';
  return {
    score: keys.length,
    found: `a request body with ${keys.map((k) => JSON.stringify(k)).join(', ')} but no "${list}"`,
    expected: BODY_LIST[format],
  };
}

function chatReader(
  format: ChatFormat,
  summary: string,
  shape: string,
  detectAny: (doc: ParsedDocument) => TranscriptFormat | null,
): RecordingReader {
  return {
    format,
    records: 'conversation',
    summary,
    shape,
    detect: (doc) => chatEvidence(doc, format),
    near: (doc) => chatNear(doc, format),
    read: (doc, b, options) => readChatDocument(doc, b, format, options.forced, () => detectAny(doc)),
  };
}

/**
 * The four chat readers; `detectAny` names the format a document fits (for the hint of a forced format that does not).
 */
export function chatReaders(detectAny: (doc: ParsedDocument) => TranscriptFormat | null): RecordingReader[] {
  return [
    chatReader(
      'eino',
      'Eino schema.Message or AgenticMessage lists (the reference)',
      'eino: Eino schema.Message [{role, content, tool_calls, tool_call_id, ' +
        'tool_name, extra}] or AgenticMessage [{role, content_blocks}]',
      detectAny,
    ),
    chatReader(
      'openai',
      'OpenAI Chat Completions messages, or a request body',
      'openai: Chat Completions messages, or a request body {model, messages, tools}',
      detectAny,
    ),
    chatReader(
      'openai-responses',
      'OpenAI Responses input items, or a request body',
      'openai-responses: Responses input items, or a request body {model, input, tools}',
      detectAny,
    ),
    chatReader(
      'anthropic',
      'Anthropic Messages API messages, or a request body',
      'anthropic: Messages API messages, or a request body {system, messages, tools}',
      detectAny,
    ),
  ];
}
