/**
 * OpenInference's spans (Arize Phoenix's semantic conventions, written by
 * its instrumentations: @arizeai/openinference-instrumentation-openai,
 * -langchain, …; spec/semantic_conventions.md): a span of kind `LLM`
 * (`openinference.span.kind`) is one model call, its messages flattened
 * into attributes —
 *
 * - `llm.input_messages.N.message.role` / `.content`, or `.contents.J.
 *   message_content.type` / `.text` for a list of parts;
 *   `.tool_calls.K.tool_call.id` / `.function.name` / `.function.arguments`
 *   on an assistant message; `.tool_call_id` on a tool message;
 * - `llm.output_messages.N.message.*`: the answer, the same way;
 * - `llm.tools.N.tool.json_schema`: JSON text of each tool sent.
 *
 * The Responses API's items are written one message each (a function call
 * is an assistant message with one tool call, a reasoning item one with a
 * `reasoning` content), so consecutive assistant messages are one model
 * answer and are read as one. The provider's own tools appear as calls
 * named `web_search_call` / `file_search_call` (with a tool message of the
 * file search's results): the provider's own calls, reported at their model
 * call (`provider_tool_call` blocks; the results are part of them).
 *
 * Spans of the other kinds are skipped by rule: AGENT and CHAIN sum up the
 * model calls recorded in their own spans, TOOL is a tool running; the
 * rest (RETRIEVER, EMBEDDING, RERANKER, GUARDRAIL, EVALUATOR) carry no
 * conversation.
 */
import { toWellFormed } from '../../core/text.js';
import type { ContentBlock, ToolCall } from '../../core/types.js';
import type { ArrayNode, Node, ObjectNode } from '../../io/nodes.js';
import type { Limits } from '../../io/read.js';
import type { TranscriptBuilder } from '../transcript-common.js';
import { providerCallBlock, pushAssistantWith } from './ai-sdk.js';
import { pushToolResult } from './chat-build.js';
import { parseJsonText, type Span, str } from './otel-spans.js';
import { sentToolsOf } from './sent.js';
import type { SentTools } from '../types.js';

/** The span's OpenInference kind (upper case), when it says one. */
export function openInferenceKind(s: Span): string | null {
  const k = str(s.attrs.get('openinference.span.kind'));
  return k === null ? null : k.toUpperCase();
}

/** Whether an LLM span holds messages. */
export const hasOpenInferenceMessages = (s: Span): boolean =>
  [...s.attrs.keys()].some((k) => k.startsWith('llm.input_messages.') || k.startsWith('llm.output_messages.'));

/** The indexes N of `<prefix>.N.…` keys, in order. */
function indexes(s: Span, prefix: string): number[] {
  const seen = new Set<number>();
  const re = new RegExp(`^${prefix.replaceAll('.', '\\.')}\\.(\\d+)\\.`);
  for (const k of s.attrs.keys()) {
    const m = re.exec(k);
    if (m) seen.add(Number(m[1]));
  }
  return [...seen].sort((a, b) => a - b);
}

/** Content types read as text, and those that carry no tool use. */
const TEXT_TYPES = new Set(['text', 'input_text', 'output_text', 'refusal']);
const NO_TOOL_USE = new Set(['image', 'input_image', 'input_file', 'reasoning']);
/** Tool calls the Responses instrumentation writes for the provider's own tools. */
const PROVIDER_CALLS = new Set(['web_search_call', 'file_search_call']);

/** The messages under `prefix` (`llm.input_messages`, `llm.output_messages`) into `t`. */
function readMessages(t: TranscriptBuilder, s: Span, prefix: string): void {
  // One model answer: consecutive assistant messages, joined.
  let answer: { text: string; calls: Array<ToolCall & { at: Node }>; provider: ContentBlock[]; at: Node } | null = null;
  const flush = (): void => {
    if (answer) pushAssistantWith(t, answer.text, answer.provider, answer.calls, answer.at);
    answer = null;
  };
  const providerCalls = new Set<string>();
  for (const n of indexes(s, prefix)) {
    const p = `${prefix}.${n}.message`;
    const roleNode = s.attrs.get(`${p}.role`);
    const at = roleNode ?? s.node;
    const role = str(roleNode);
    let text = str(s.attrs.get(`${p}.content`)) ?? '';
    for (const j of indexes(s, `${p}.contents`)) {
      const c = `${p}.contents.${j}.message_content`;
      const type = str(s.attrs.get(`${c}.type`));
      if (type === null || TEXT_TYPES.has(type)) text += str(s.attrs.get(`${c}.text`)) ?? '';
      else if (!NO_TOOL_USE.has(type))
        t.unexplained(
          s.attrs.get(`${c}.type`)!,
          `${c}.type: unknown OpenInference content type ${JSON.stringify(type)}`,
        );
    }
    text = toWellFormed(text);
    if (role !== 'assistant') flush();
    switch (role === 'developer' ? 'system' : role) {
      case 'system':
      case 'user':
        t.push({ kind: 'chat', role: role === 'user' ? 'user' : 'system', content: text }, at);
        break;
      case 'assistant': {
        answer ??= { text: '', calls: [], provider: [], at };
        answer.text += text;
        for (const k of indexes(s, `${p}.tool_calls`)) {
          const c = `${p}.tool_calls.${k}.tool_call`;
          const id = str(s.attrs.get(`${c}.id`)) ?? '';
          const name = str(s.attrs.get(`${c}.function.name`)) ?? '';
          if (PROVIDER_CALLS.has(name)) {
            providerCalls.add(id);
            const args = s.attrs.get(`${c}.function.arguments`);
            answer.provider.push(providerCallBlock(name, id, '', args));
            continue;
          }
          answer.calls.push({
            id,
            name,
            arguments: toWellFormed(str(s.attrs.get(`${c}.function.arguments`)) ?? '{}'),
            at: s.attrs.get(`${c}.function.name`) ?? at,
          });
        }
        break;
      }
      case 'tool': {
        const id = str(s.attrs.get(`${p}.tool_call_id`)) ?? '';
        // The results of a provider call (a file search's): part of that call.
        if (!providerCalls.has(id)) pushToolResult(t, id, str(s.attrs.get(`${p}.name`)), text, at);
        break;
      }
      default:
        t.unexplained(at, `${p}.role: unknown role ${JSON.stringify(role)} (expected system, user, assistant, tool)`);
    }
  }
  flush();
}

export const readOpenInferenceInput = (t: TranscriptBuilder, s: Span): void => readMessages(t, s, 'llm.input_messages');

export const readOpenInferenceOutput = (o: TranscriptBuilder, s: Span): void =>
  readMessages(o, s, 'llm.output_messages');

/** The tools of `llm.tools.N.tool.json_schema`: the names sent, and the definitions as a list. */
export function openInferenceTools(
  b: TranscriptBuilder,
  s: Span,
  limits: Limits,
): { sent: SentTools | null; defs: ArrayNode | null } {
  const list = indexes(s, 'llm.tools');
  if (list.length === 0) return { sent: null, defs: null };
  const tools: ObjectNode[] = [];
  for (const n of list) {
    const key = `llm.tools.${n}.tool.json_schema`;
    const v = s.attrs.get(key);
    if (v === undefined) continue;
    const t = parseJsonText(b, v, key, limits);
    if (t === null) continue;
    if (t.kind !== 'object') b.unexplained(t, `${key} must be a tool object`);
    else tools.push(t);
  }
  const first = s.attrs.get(`llm.tools.${list[0]}.tool.json_schema`) ?? s.node;
  const defs: ArrayNode = { kind: 'array', offset: first.offset, items: tools };
  return { sent: sentToolsOf(defs), defs };
}
