/**
 * The Vercel AI SDK's own spans (its `experimental_telemetry` in v4–v6,
 * `LegacyOpenTelemetry` of @ai-sdk/otel in v7; packages/otel
 * src/legacy-open-telemetry.ts): one `ai.generateText.doGenerate` /
 * `ai.streamText.doStream` (or `…Object…`) span per model call, with
 *
 * - `ai.prompt.messages`: JSON text of the prompt the provider got — the
 *   SDK's language-model messages (system text, `text` / `tool-call` /
 *   `tool-result` parts; read as ModelMessages, ai-sdk.ts);
 * - `ai.prompt.tools`: a list of JSON texts, one tool each (`{type:
 *   "function", name, description, inputSchema}`; `parameters` before v5);
 * - `ai.response.text` and `ai.response.toolCalls` (JSON text of
 *   `[{toolCallId, toolName, input}]`; `args` before v5): the answer; a call
 *   with `providerExecuted: true` is the provider's own (reported at its model
 *   call, never checked against the tools offered). The SDK's legacy spans
 *   write a provider-executed call there without `providerExecuted`: the next
 *   call's `ai.prompt.messages` marks it, and otel.ts reads it so (in the
 *   last call's answer nothing marks it: it reads as a call of ours).
 *
 * The run's own span (`ai.generateText`, `ai.streamText`) sums up its model
 * calls, and an `ai.toolCall` span is a tool running: both are skipped by
 * rule. A model-call span without `ai.prompt.messages` (telemetry with
 * `recordInputs: false`) cannot be replayed and is not understood.
 */
import { toWellFormed } from '../../core/text.js';
import type { ContentBlock, ToolCall } from '../../core/types.js';
import { type ArrayNode, field, type Member, type Node, type ObjectNode } from '../../io/nodes.js';
import type { Limits } from '../../io/read.js';
import type { TranscriptBuilder } from '../transcript-common.js';
import { providerCallBlock, pushAssistantWith, readModelMessages } from './ai-sdk.js';
import { argsText } from './chat-build.js';
import { parseAttr, parseJsonText, type Span, str } from './otel-spans.js';
import { sentToolsOf } from './sent.js';
import type { SentTools } from '../types.js';

const MODEL_CALLS = new Set([
  'ai.generateText.doGenerate',
  'ai.streamText.doStream',
  'ai.generateObject.doGenerate',
  'ai.streamObject.doStream',
]);
const RUNS = new Set(['ai.generateText', 'ai.streamText', 'ai.generateObject', 'ai.streamObject']);

/** The span's AI SDK operation (`ai.operationId`, else its name), when it is one. */
function operation(s: Span): string | null {
  const id = str(s.attrs.get('ai.operationId')) ?? s.name;
  return id.startsWith('ai.') ? id : null;
}

/** What an AI SDK span is: a model call, the run around them, a tool running, or none of the SDK's. */
export function aiSdkSpanKind(s: Span): 'model' | 'run' | 'tool' | null {
  const op = operation(s);
  if (op === null) return null;
  if (MODEL_CALLS.has(op)) return 'model';
  if (RUNS.has(op)) return 'run';
  if (op === 'ai.toolCall') return 'tool';
  return null;
}

export function readAiSdkInput(t: TranscriptBuilder, s: Span, limits: Limits): void {
  const prompt = parseAttr(t, s, 'ai.prompt.messages', limits);
  if (prompt === null) {
    if (!s.attrs.has('ai.prompt.messages'))
      t.unexplained(
        s.node,
        `span ${JSON.stringify(s.name)}: an AI SDK model call without "ai.prompt.messages" (recorded with ` +
          'recordInputs: false?): its conversation is not in the trace',
      );
    return;
  }
  if (prompt.kind !== 'array') {
    t.unexplained(prompt, 'ai.prompt.messages must be a list of messages');
    return;
  }
  const before = t.itemsRead;
  readModelMessages(t, prompt.items);
  t.itemsRead = before;
}

export function readAiSdkOutput(o: TranscriptBuilder, s: Span, limits: Limits): void {
  const textNode = s.attrs.get('ai.response.text');
  const callsNode = s.attrs.get('ai.response.toolCalls');
  if (textNode === undefined && callsNode === undefined) return; // no answer recorded (an error, or recordOutputs off)
  const calls: Array<ToolCall & { at: Node }> = [];
  const provider: ContentBlock[] = [];
  const list = callsNode ? parseJsonText(o, callsNode, 'ai.response.toolCalls', limits) : null;
  if (list !== null && list.kind !== 'array') o.unexplained(list, 'ai.response.toolCalls must be a list');
  else if (list !== null)
    for (const c of list.items) {
      if (c.kind !== 'object') {
        o.unexplained(c, 'ai.response.toolCalls: a tool call must be an object');
        continue;
      }
      const executed = field(c, 'providerExecuted');
      if (executed?.kind === 'bool' && executed.value) {
        const id = str(field(c, 'toolCallId')) ?? '';
        provider.push(providerCallBlock('tool-call', id, str(field(c, 'toolName')) ?? '', field(c, 'input')));
        continue;
      }
      calls.push({
        id: str(field(c, 'toolCallId')) ?? '',
        name: str(field(c, 'toolName')) ?? '',
        arguments: argsText(field(c, 'input') ?? field(c, 'args')),
        at: c,
      });
    }
  const text = textNode?.kind === 'string' ? toWellFormed(textNode.value) : '';
  pushAssistantWith(o, text, provider, calls, textNode ?? callsNode!);
}

/**
 * The tools of `ai.prompt.tools`: the names sent, and the function tools as a list the catalog reader
 * reads (`inputSchema` read as `parameters`); provider tools (`provider-defined`, `provider`) are the
 * provider's and left out of both.
 */
export function aiSdkTools(
  b: TranscriptBuilder,
  s: Span,
  limits: Limits,
): { sent: SentTools | null; defs: ArrayNode | null } {
  const v = s.attrs.get('ai.prompt.tools');
  if (v === undefined) return { sent: null, defs: null };
  const texts = v.kind === 'array' ? v.items : [v];
  const tools: ObjectNode[] = [];
  for (const text of texts) {
    const t = parseJsonText(b, text, 'ai.prompt.tools', limits);
    if (t === null) continue;
    if (t.kind !== 'object') {
      b.unexplained(t, 'ai.prompt.tools: a tool must be an object');
      continue;
    }
    const type = str(field(t, 'type'));
    if (type === 'provider-defined' || type === 'provider') continue;
    const schema = field(t, 'inputSchema');
    if (schema === undefined || field(t, 'parameters') !== undefined) {
      tools.push(t);
      continue;
    }
    const members = new Map<string, Member>();
    for (const [k, m] of t.members)
      members.set(k === 'inputSchema' ? 'parameters' : k, { ...m, key: k === 'inputSchema' ? 'parameters' : k });
    tools.push({ kind: 'object', offset: t.offset, members });
  }
  const defs: ArrayNode = { kind: 'array', offset: v.offset, items: tools };
  return { sent: sentToolsOf(defs), defs };
}
