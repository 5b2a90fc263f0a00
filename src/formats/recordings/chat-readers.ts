/**
 * The four chat formats as recording readers. They share one detection
 * (chat.ts counts the keys and part types only one of them uses), so each
 * reader's evidence is its own count; a bare fallback (plain role/content
 * messages, a body with `messages` or `input`) scores below one.
 */
import { chatDetection, type ChatFormat, readChatDocument } from './chat.js';
import type { Evidence, RecordingReader } from './types.js';
import type { ParsedDocument } from '../../io/nodes.js';
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
