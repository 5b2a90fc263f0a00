/**
 * Building chat messages for readers of formats that are chat-shaped
 * (AI SDK, LangChain, OpenTelemetry): an assistant turn with text and tool
 * calls, and one tool message per tool result, named from its call.
 */
import { toWellFormed } from '../../core/text.js';
import type { ChatMessage, ToolCall } from '../../core/types.js';
import { type Node, toJsonValue } from '../../io/nodes.js';
import type { TranscriptBuilder } from '../transcript-common.js';

/** Arguments as JSON text: a string as it is, another value as its compact JSON (as Anthropic `input` is read). */
export function argsText(node: Node | undefined): string {
  if (!node || node.kind === 'null') return '{}';
  if (node.kind === 'string') return toWellFormed(node.value);
  return JSON.stringify(toJsonValue(node));
}

/** A tool output as the text the model reads: a string as it is, another value as its JSON text. */
export function outputText(node: Node | undefined): string {
  if (!node || node.kind === 'null') return '';
  if (node.kind === 'string') return toWellFormed(node.value);
  return JSON.stringify(toJsonValue(node));
}

/** Appends an assistant message; its calls are announced for pairing. */
export function pushAssistant(
  b: TranscriptBuilder,
  text: string,
  calls: ReadonlyArray<ToolCall & { at: Node }>,
  at: Node,
): void {
  for (const c of calls) b.call(c.id, c.name, c.at);
  const msg: ChatMessage =
    calls.length > 0
      ? {
          kind: 'chat',
          role: 'assistant',
          content: text,
          toolCalls: calls.map(({ id, name, arguments: a }) => ({ id, name, arguments: a })),
        }
      : { kind: 'chat', role: 'assistant', content: text };
  b.push(msg, at);
}

/** Appends a tool message answering `callId`; its name comes from the call (else `name`). */
export function pushToolResult(
  b: TranscriptBuilder,
  callId: string,
  name: string | null,
  content: string,
  at: Node,
): void {
  const resolved = b.resolveCall(at, callId) ?? name;
  const msg: ChatMessage = {
    kind: 'chat',
    role: 'tool',
    content,
    toolCallId: callId,
    ...(resolved !== null && resolved !== '' ? { toolName: resolved } : {}),
  };
  b.push(msg, at);
}
