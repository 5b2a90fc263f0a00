/**
 * Vercel AI SDK (v5, v6) recordings, three shapes:
 *
 * - `ModelMessage[]` (what `generateText({messages})` takes): `{role, content}`
 *   with parts `text`, `reasoning`, `image`, `file`, `tool-call`
 *   `{toolCallId, toolName, input}` and, in `tool` messages, `tool-result`
 *   `{toolCallId, toolName, output: {type, value}}` (`text`, `json`,
 *   `error-text`, `error-json`, `content`, `execution-denied`);
 * - `UIMessage[]` (what `useChat` keeps): `{id, role, parts}` with parts
 *   `text`, `reasoning`, `step-start` (a new model step), `tool-<name>` and
 *   `dynamic-tool` `{toolCallId, state, input, output, errorText}`, sources,
 *   files and `data-*` parts;
 * - a `generateText` / `streamText` result: `response.messages` (the
 *   messages the calls produced, as `ModelMessage[]`), or `steps[].content`.
 *
 * The model reads a tool output as text: a string as it is, any other value
 * as its JSON text (as the SDK sends `json` outputs), so a search tool that
 * returns `{matches: [...]}` is read as the reference's result text.
 * Provider-executed tool calls (`providerExecuted: true`: the provider ran
 * the tool, e.g. its web search) are the provider's own calls, reported per
 * model call (`provider_tool_call` blocks), never checked against the tools
 * offered; their results are part of them. A provider tool search whose
 * result is `tool_reference` items is a server-side search. Reasoning, sources, files,
 * `step-start` markers and `data-*` parts carry
 * no tool use and are skipped by rule; an unknown part type is an error.
 *
 * Over 400 lines: three shapes of one SDK, read by one set of part readers.
 */
import { toWellFormed } from '../../core/text.js';
import type { ContentBlock, ToolCall } from '../../core/types.js';
import { field, kindName, type Node, type ObjectNode, type ParsedDocument, toJsonValue } from '../../io/nodes.js';
import { jsonInText } from '../../io/parse.js';
import { checkKeys, type TranscriptBuilder } from '../transcript-common.js';
import { argsText, outputText, pushAssistant, pushToolResult } from './chat-build.js';
import { sentToolsOf } from './sent.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type RecordingReader } from './types.js';
import { append } from '../../core/append.js';

const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);
const partType = (p: Node): string | null => (p.kind === 'object' ? str(field(p, 'type')) : null);

const MODEL_PART_SKIPPED = new Set([
  'reasoning',
  'reasoning-file',
  'image',
  'file',
  'custom',
  'tool-approval-request',
  'tool-approval-response',
]);
const UI_PART_SKIPPED = new Set([
  'reasoning',
  'reasoning-file',
  'step-start',
  'source-url',
  'source-document',
  'file',
  'custom',
]);
/** What a client's tool result reads when the call was denied and no reason is given (the SDK's own text). */
const DENIED = 'Tool call execution denied.';
/**
 * A provider-executed tool call (the provider ran the tool, e.g. its web search): a call of the
 * provider's own tools, reported at its model call, never checked against the tools offered.
 * `kind` is the part type it came as (`tool-call`, `tool-<name>`, `dynamic-tool`).
 */
export function providerCallBlock(kind: string, id: string, name: string, input: Node | undefined): ContentBlock {
  return {
    type: 'provider_tool_call',
    callId: id,
    kind,
    name,
    server: '',
    arguments: argsText(input),
    executedBy: 'provider',
  };
}
/** The rule UI tool parts still streaming their input are skipped by (the SDK sends no call for them). */
const INPUT_STREAMING = 'tool parts in state input-streaming (the SDK sends no tool call for them)';
const isProviderExecuted = (p: ObjectNode): boolean => {
  const exec = field(p, 'providerExecuted');
  return exec?.kind === 'bool' && exec.value;
};

type Shape =
  | { kind: 'model'; items: readonly Node[] }
  | { kind: 'ui'; items: readonly Node[] }
  | { kind: 'steps'; steps: readonly Node[]; root: ObjectNode };

function locate(doc: ParsedDocument): Shape | null {
  const root = doc.root;
  if (root.kind === 'array') {
    const objs = root.items.filter((n): n is ObjectNode => n.kind === 'object');
    // UI parts are typed; Gemini's contents ({role, parts}) have parts without a type.
    const uiParts = (o: ObjectNode): boolean => {
      const parts = field(o, 'parts');
      return parts?.kind === 'array' && field(o, 'role') !== undefined && parts.items.some((p) => partType(p) !== null);
    };
    if (objs.some(uiParts)) return { kind: 'ui', items: root.items };
    const aiParts = (o: ObjectNode): boolean => {
      const c = field(o, 'content');
      return c?.kind === 'array' && c.items.some((p) => ['tool-call', 'tool-result'].includes(partType(p) ?? ''));
    };
    if (objs.some(aiParts)) {
      return { kind: 'model', items: root.items };
    }
    return null;
  }
  if (root.kind !== 'object') return null;
  const response = field(root, 'response');
  const messages = response?.kind === 'object' ? field(response, 'messages') : undefined;
  if (messages?.kind === 'array') return { kind: 'model', items: messages.items };
  const steps = field(root, 'steps');
  if (steps?.kind === 'array' && steps.items.some((s) => s.kind === 'object' && field(s, 'content')?.kind === 'array'))
    return { kind: 'steps', steps: steps.items, root };
  return null;
}

function detect(doc: ParsedDocument): Evidence | null {
  const shape = locate(doc);
  if (!shape) return null;
  const what =
    shape.kind === 'ui'
      ? 'UIMessage[] (messages with "parts")'
      : shape.kind === 'steps'
        ? 'a generateText result with "steps"'
        : doc.root.kind === 'object'
          ? 'a generateText result with "response.messages"'
          : 'ModelMessage[] ("tool-call" / "tool-result" parts)';
  return { score: DISTINCTIVE + 1, detected_by: what };
}

/** What the AI SDK reader reads, for a near miss. */
const AI_SDK_EXPECTS =
  'UIMessage[] {id, role, parts: [{type, ...}]}, ModelMessage[] with "tool-call" / "tool-result" parts, ' +
  'or a generateText result with "response.messages" or "steps" [{content: [...]}]';

/**
 * The AI SDK's own signs in a document its detection refuses: messages with typed `parts` but no
 * `role`, content parts with the SDK's camelCase `toolCallId` / `toolName` under another type, or
 * a result's `steps` / `response.messages` in the wrong shape.
 */
function near(doc: ParsedDocument): NearMiss | null {
  const root = doc.root;
  if (locate(doc) !== null) return null;
  if (root.kind === 'array') {
    let roleless = 0;
    let camel = 0;
    for (const o of root.items) {
      if (o.kind !== 'object') continue;
      const parts = field(o, 'parts');
      if (parts?.kind === 'array' && field(o, 'role') === undefined && parts.items.some((p) => partType(p) !== null))
        roleless++;
      const content = field(o, 'content');
      if (
        content?.kind === 'array' &&
        content.items.some((p) => p.kind === 'object' && (p.members.has('toolCallId') || p.members.has('toolName')))
      )
        camel++;
    }
    if (roleless + camel === 0) return null;
    const said = [
      roleless > 0 ? `${roleless} ${roleless === 1 ? 'message' : 'messages'} with typed "parts" but no "role"` : '',
      camel > 0
        ? `${camel} ${camel === 1 ? 'message' : 'messages'} with "toolCallId" / "toolName" parts not typed ` +
          '"tool-call" / "tool-result"'
        : '',
    ].filter((x) => x !== '');
    return { score: DISTINCTIVE + roleless + camel, found: said.join(', '), expected: AI_SDK_EXPECTS };
  }
  if (root.kind !== 'object' || root.members.has('request')) return null;
  const steps = field(root, 'steps');
  const response = field(root, 'response');
  const messages = response?.kind === 'object' ? field(response, 'messages') : undefined;
  if (steps === undefined && messages === undefined) return null;
  return {
    score: DISTINCTIVE,
    found:
      messages !== undefined
        ? `a result whose "response.messages" is ${kindName(messages)}`
        : steps?.kind === 'array'
          ? 'a result whose "steps" have no "content" list'
          : `a result whose "steps" is ${kindName(steps)}`,
    expected: AI_SDK_EXPECTS,
  };
}

/** The text of a `tool-result` output `{type, value}` (v5/v6). */
function resultOutput(b: TranscriptBuilder, part: ObjectNode): string {
  const output = field(part, 'output');
  if (output === undefined) {
    // v4 wrote `result`; reading it as the output is what the model saw.
    const legacy = field(part, 'result');
    if (legacy !== undefined) return outputText(legacy);
    b.unexplained(part, 'an AI SDK tool-result part without "output"');
    return '';
  }
  if (output.kind !== 'object') return outputText(output);
  const type = str(field(output, 'type'));
  const value = field(output, 'value');
  switch (type) {
    case 'text':
    case 'error-text':
      return value?.kind === 'string' ? toWellFormed(value.value) : outputText(value);
    case 'json':
    case 'error-json':
      return outputText(value);
    case 'execution-denied':
      return str(field(output, 'reason')) ?? DENIED;
    case 'content': {
      let text = '';
      if (value?.kind === 'array')
        for (const p of value.items)
          if (partType(p) === 'text' && p.kind === 'object') text += str(field(p, 'text')) ?? '';
      return text;
    }
    default:
      b.unexplained(
        output,
        `unknown AI SDK tool output type ${JSON.stringify(type)} (expected text, ` +
          `json, error-text, error-json, content, execution-denied)`,
      );
      return '';
  }
}

/**
 * The query of a provider tool search call: its `query` or `pattern` (the input may be JSON text, read under the
 * document's limits: past them, or not JSON, the text is the query).
 */
function searchQuery(b: TranscriptBuilder, input: Node | undefined): string {
  let v: unknown = input ? toJsonValue(input) : null;
  if (typeof v === 'string') {
    const parsed = jsonInText(v, b.doc.limits);
    if (parsed === undefined) return toWellFormed(v);
    v = parsed;
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const q = o.query ?? o.pattern;
    if (typeof q === 'string') return toWellFormed(q);
  }
  return JSON.stringify(v ?? {});
}

/**
 * The tools a provider-executed tool-result references, when it is a tool
 * search result: `[{type: "tool_reference", toolName}]` (as the Anthropic
 * provider writes it), as a `json` output or bare; null for anything else.
 */
function toolReferences(output: Node | undefined): string[] | null {
  let list = output;
  if (output?.kind === 'object' && str(field(output, 'type')) === 'json') list = field(output, 'value');
  if (list?.kind !== 'array' || list.items.length === 0) return null;
  const names: string[] = [];
  for (const r of list.items) {
    const name = r.kind === 'object' && partType(r) === 'tool_reference' ? str(field(r, 'toolName')) : null;
    if (name === null) return null;
    names.push(toWellFormed(name));
  }
  return names;
}

/**
 * An assistant message: a chat message, or, with provider tool searches or provider-executed calls
 * in it, content blocks (text, the searches and provider calls in order, the calls).
 */
export function pushAssistantWith(
  b: TranscriptBuilder,
  text: string,
  server: readonly ContentBlock[],
  calls: ReadonlyArray<ToolCall & { at: Node }>,
  at: Node,
): void {
  if (server.length === 0) {
    pushAssistant(b, text, calls, at);
    return;
  }
  for (const c of calls) b.call(c.id, c.name, c.at);
  const blocks: ContentBlock[] = [
    ...(text === '' ? [] : [{ type: 'text' as const, text }]),
    ...server,
    ...calls.map((c) => ({ type: 'function_tool_call' as const, callId: c.id, name: c.name, arguments: c.arguments })),
  ];
  b.push({ kind: 'blocks', role: 'assistant', blocks }, at);
}

/**
 * One step of an assistant message being read part by part (UIMessage parts here, Mastra's stored parts): its
 * text, the provider's own calls, the calls of tools and their results. {@link AssistantStep.push} writes it as
 * one model call followed by its results (`step-start` parts begin the next step).
 */
export class AssistantStep {
  text = '';
  readonly provider: ContentBlock[] = [];
  readonly calls: Array<ToolCall & { at: Node }> = [];
  readonly results: Array<{ id: string; name: string; text: string; at: Node }> = [];

  /** `at`: where the step begins (its `step-start` part, or the message). */
  constructor(readonly at: Node) {}

  /** Writes the step: the index of its first message, or null when it holds nothing (no text, no call). */
  push(b: TranscriptBuilder): number | null {
    if (this.text === '' && this.calls.length === 0 && this.provider.length === 0) return null;
    const first = b.messages.length;
    pushAssistantWith(b, this.text, this.provider, this.calls, this.at);
    for (const r of this.results) pushToolResult(b, r.id, r.name, r.text, r.at);
    return first;
  }
}

/** The input of the tool-call part `id` among `parts`. */
function callInput(parts: readonly Node[], id: string): Node | undefined {
  for (const p of parts)
    if (p.kind === 'object' && partType(p) === 'tool-call' && str(field(p, 'toolCallId')) === id)
      return field(p, 'input');
  return undefined;
}

/** The keys of a ModelMessage and of a UIMessage. */
const MODEL_MESSAGE_KEYS = ['role', 'content', 'providerOptions', 'id'];
const UI_MESSAGE_KEYS = ['id', 'role', 'parts', 'metadata', 'createdAt'];

/** ModelMessage[] → chat messages (and the prompt of an `ai.prompt.messages` span attribute, otel-ai-sdk.ts). */
export function readModelMessages(b: TranscriptBuilder, items: readonly Node[]): void {
  // Ids of provider-executed calls: their results (in an assistant message) are the provider's too.
  const providerCalls = new Set<string>();
  for (const m of items) {
    if (m.kind !== 'object') {
      b.unexplained(m, `an AI SDK message must be an object, found ${m.kind}`);
      continue;
    }
    b.read();
    checkKeys(b, m, MODEL_MESSAGE_KEYS, 'an AI SDK ModelMessage');
    const first = b.messages.length;
    const role = str(field(m, 'role'));
    const content = field(m, 'content');
    const parts = content?.kind === 'array' ? content.items : [];
    let text = content?.kind === 'string' ? toWellFormed(content.value) : '';
    const calls: Array<ToolCall & { at: Node }> = [];
    const results: Array<{ id: string; name: string; text: string; at: Node }> = [];
    // Provider-executed calls of this message, in order: each a provider call, or a tool search once its
    // result (tool_reference items) arrives.
    const provider = new Map<string, ContentBlock[]>();
    for (const p of parts) {
      const type = partType(p);
      if (p.kind !== 'object' || type === null) {
        b.unexplained(p, 'an AI SDK content part without a "type"');
        continue;
      }
      if (type === 'text') text += str(field(p, 'text')) ?? '';
      else if (type === 'tool-call') {
        if (isProviderExecuted(p)) {
          const id = str(field(p, 'toolCallId')) ?? '';
          providerCalls.add(id);
          provider.set(id, [providerCallBlock(type, id, str(field(p, 'toolName')) ?? '', field(p, 'input'))]);
          continue;
        }
        calls.push({
          id: str(field(p, 'toolCallId')) ?? '',
          name: str(field(p, 'toolName')) ?? '',
          arguments: argsText(field(p, 'input') ?? field(p, 'args')),
          at: p,
        });
      } else if (type === 'tool-result') {
        const id = str(field(p, 'toolCallId')) ?? '';
        // In an assistant message a result is the provider's (it ran the tool); its call was skipped above.
        if (role === 'assistant' && providerCalls.has(id)) {
          const tools = toolReferences(field(p, 'output'));
          const call = provider.get(id)?.[0];
          if (tools && call?.type === 'provider_tool_call') {
            // The provider's own tool search (Anthropic tool_search_tool_regex / bm25): its references load tools.
            const query = searchQuery(b, callInput(parts, id));
            provider.set(id, [
              { type: 'server_tool_search', callId: id, query },
              { type: 'server_tool_search_result', callId: id, tools },
            ]);
          }
          // Any other result of a provider-executed call is part of that call (reported with it).
          continue;
        }
        results.push({ id, name: str(field(p, 'toolName')) ?? '', text: resultOutput(b, p), at: p });
      } else if (!MODEL_PART_SKIPPED.has(type))
        b.unexplained(p, `unknown AI SDK content part type ${JSON.stringify(type)}`);
    }
    switch (role) {
      case 'system':
      case 'user':
        b.push({ kind: 'chat', role, content: text }, m);
        break;
      case 'assistant':
        pushAssistantWith(b, text, [...provider.values()].flat(), calls, m);
        for (const r of results)
          b.unexplained(
            r.at,
            `an AI SDK tool-result in an assistant message whose call ${JSON.stringify(r.id)} ` +
              'is not a provider-executed tool-call of that message',
          );
        break;
      case 'tool':
        for (const r of results) pushToolResult(b, r.id, r.name, r.text, r.at);
        break;
      default:
        b.unexplained(
          m,
          `unknown AI SDK message role ${JSON.stringify(role)} (expected system, user, assistant, tool)`,
        );
    }
    b.stamp(first, mastraCreatedAt(m, parts));
  }
}

/** A time as the AI SDK and Mastra write it: ms since the epoch, or an ISO date string. */
function timeOf(node: Node | undefined): number | null {
  if (node?.kind === 'number') return Number(node.value);
  if (node?.kind === 'string') {
    const ms = Date.parse(node.value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** Mastra dates the messages it returns: `providerOptions.mastra.createdAt`, on the message or one of its parts. */
function mastraCreatedAt(m: Node, parts: readonly Node[]): number | null {
  for (const n of [m, ...parts]) {
    if (n.kind !== 'object') continue;
    const po = field(n, 'providerOptions');
    const mastra = po?.kind === 'object' ? field(po, 'mastra') : undefined;
    const t = mastra?.kind === 'object' ? timeOf(field(mastra, 'createdAt')) : null;
    if (t !== null) return t;
  }
  return null;
}

/** The states of a UI tool part (input-streaming ones are skipped before this check). */
const UI_STATES = [
  'input-available',
  'approval-requested',
  'approval-responded',
  'output-available',
  'output-error',
  'output-denied',
];

/** An approval-responded part whose approval was refused: the SDK answers it with an execution-denied result. */
function deniedApproval(p: ObjectNode): boolean {
  if (str(field(p, 'state')) !== 'approval-responded') return false;
  const approval = field(p, 'approval');
  const approved = approval?.kind === 'object' ? field(approval, 'approved') : undefined;
  return approved?.kind === 'bool' && !approved.value;
}

/** UIMessage[] → chat messages: each step of an assistant message is one model call, followed by its tool results. */
function readUiMessages(b: TranscriptBuilder, items: readonly Node[]): void {
  for (const m of items) {
    if (m.kind !== 'object') {
      b.unexplained(m, `an AI SDK UIMessage must be an object, found ${m.kind}`);
      continue;
    }
    b.read();
    checkKeys(b, m, UI_MESSAGE_KEYS, 'an AI SDK UIMessage');
    const first = b.messages.length;
    const createdAt = timeOf(field(m, 'createdAt'));
    const role = str(field(m, 'role'));
    const parts = field(m, 'parts');
    const list = parts?.kind === 'array' ? parts.items : [];
    if (role === 'system' || role === 'user') {
      let text = '';
      for (const p of list) {
        const type = partType(p);
        if (type === 'text' && p.kind === 'object') text += str(field(p, 'text')) ?? '';
        else if (type === null || !(UI_PART_SKIPPED.has(type) || type.startsWith('data-')))
          b.unexplained(p, `unknown AI SDK UI part type ${JSON.stringify(type)}`);
      }
      b.push({ kind: 'chat', role, content: text }, m);
      b.stamp(first, createdAt);
      continue;
    }
    if (role !== 'assistant') {
      b.unexplained(m, `unknown AI SDK UIMessage role ${JSON.stringify(role)} (expected system, user, assistant)`);
      continue;
    }
    let step = new AssistantStep(m);
    for (const p of list) {
      const type = partType(p);
      if (p.kind !== 'object' || type === null) {
        b.unexplained(p, 'an AI SDK UI part without a "type"');
        continue;
      }
      if (type === 'step-start') {
        step.push(b);
        step = new AssistantStep(p);
      } else if (type === 'text') step.text += str(field(p, 'text')) ?? '';
      else if (type === 'dynamic-tool' || type.startsWith('tool-')) {
        const name = type === 'dynamic-tool' ? (str(field(p, 'toolName')) ?? '') : type.slice('tool-'.length);
        const id = str(field(p, 'toolCallId')) ?? '';
        const state = str(field(p, 'state'));
        if (isProviderExecuted(p)) {
          const tools = state === 'output-available' ? toolReferences(field(p, 'output')) : null;
          if (tools) {
            // The provider's own tool search: its references load tools (model-native mode).
            const query = searchQuery(b, field(p, 'input'));
            step.provider.push(
              { type: 'server_tool_search', callId: id, query },
              { type: 'server_tool_search_result', callId: id, tools },
            );
          } else step.provider.push(providerCallBlock(type, id, name, field(p, 'input')));
          continue;
        }
        if (state === 'input-streaming') {
          b.skip(INPUT_STREAMING);
          continue;
        }
        if (state === null || !UI_STATES.includes(state)) {
          b.unexplained(
            p,
            `unknown AI SDK tool part state ${JSON.stringify(state)} (expected ${UI_STATES.join(', ')})`,
          );
          continue;
        }
        // An output-error part may keep the input that failed to parse in rawInput.
        const input = field(p, 'input') ?? (state === 'output-error' ? field(p, 'rawInput') : undefined);
        step.calls.push({ id, name, arguments: argsText(input), at: p });
        const results = step.results;
        if (state === 'output-available') results.push({ id, name, text: outputText(field(p, 'output')), at: p });
        else if (state === 'output-error') results.push({ id, name, text: str(field(p, 'errorText')) ?? '', at: p });
        else if (state === 'output-denied' || deniedApproval(p)) {
          const approval = field(p, 'approval');
          const reason = approval?.kind === 'object' ? str(field(approval, 'reason')) : null;
          results.push({ id, name, text: reason ?? DENIED, at: p });
        }
      } else if (!(UI_PART_SKIPPED.has(type) || type.startsWith('data-')))
        b.unexplained(p, `unknown AI SDK UI part type ${JSON.stringify(type)}`);
    }
    step.push(b);
    b.stamp(first, createdAt);
  }
}

/** A result's `steps`: each step's `content` is one model call's output, its tool results the client's answers. */
function readSteps(b: TranscriptBuilder, steps: readonly Node[]): void {
  for (const s of steps) {
    if (s.kind !== 'object') {
      b.unexplained(s, `an AI SDK step must be an object, found ${s.kind}`);
      continue;
    }
    b.read();
    const content = field(s, 'content');
    const parts = content?.kind === 'array' ? content.items : [];
    let text = '';
    const calls: Array<ToolCall & { at: Node }> = [];
    const results: Array<{ id: string; name: string; text: string; at: Node }> = [];
    const provider: ContentBlock[] = [];
    for (const p of parts) {
      const type = partType(p);
      if (p.kind !== 'object' || type === null) continue;
      if (type === 'text') text += str(field(p, 'text')) ?? '';
      else if (type === 'tool-call' && isProviderExecuted(p)) {
        const id = str(field(p, 'toolCallId')) ?? '';
        provider.push(providerCallBlock(type, id, str(field(p, 'toolName')) ?? '', field(p, 'input')));
      } else if ((type === 'tool-result' || type === 'tool-error') && isProviderExecuted(p)) {
        // The result of a provider-executed call: part of that call (reported with it).
      } else if (type === 'tool-call')
        calls.push({
          id: str(field(p, 'toolCallId')) ?? '',
          name: str(field(p, 'toolName')) ?? '',
          arguments: argsText(field(p, 'input')),
          at: p,
        });
      else if (type === 'tool-result' || type === 'tool-error') {
        const out = type === 'tool-error' ? field(p, 'error') : field(p, 'output');
        results.push({
          id: str(field(p, 'toolCallId')) ?? '',
          name: str(field(p, 'toolName')) ?? '',
          text: outputText(out),
          at: p,
        });
      } else if (!['reasoning', 'reasoning-file', 'source', 'file', 'custom', 'tool-approval-request'].includes(type))
        b.unexplained(p, `unknown AI SDK step content type ${JSON.stringify(type)}`);
    }
    const first = b.messages.length;
    pushAssistantWith(b, text, provider, calls, s);
    b.stamp(first, stepTime(s));
    for (const r of results) pushToolResult(b, r.id, r.name, r.text, r.at);
  }
}

/** When a step's model call answered: its `response.timestamp`. */
function stepTime(step: Node): number | null {
  const response = step.kind === 'object' ? field(step, 'response') : undefined;
  return response?.kind === 'object' ? timeOf(field(response, 'timestamp')) : null;
}

/**
 * A result read from `response.messages`: its `steps` still date the model calls (`response.timestamp`);
 * step k answered with the k-th assistant message.
 */
function stepTimes(b: TranscriptBuilder, root: ObjectNode): void {
  const steps = field(root, 'steps');
  if (steps?.kind !== 'array') return;
  let k = 0;
  b.messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const step = steps.items[k++];
    if (step === undefined || b.times.has(i)) return;
    const t = stepTime(step);
    if (t !== null) b.times.set(i, t);
  });
}

/**
 * The tools each step's model call was sent, from `steps[].request.body`
 * (the provider request body the SDK records; a body recorded as text, or
 * without `tools`, says nothing for its call). Step k is call k.
 */
function stepTools(b: TranscriptBuilder, root: ObjectNode): void {
  const steps = field(root, 'steps');
  if (steps?.kind !== 'array') return;
  const sent = steps.items.map((s) => {
    const request = s.kind === 'object' ? field(s, 'request') : undefined;
    const body = request?.kind === 'object' ? field(request, 'body') : undefined;
    const tools = body?.kind === 'object' ? field(body, 'tools') : undefined;
    return tools?.kind === 'array' ? sentToolsOf(tools) : null;
  });
  if (sent.some((x) => x !== null)) append(b.sentTools, sent);
}

function read(doc: ParsedDocument, b: TranscriptBuilder): void {
  const shape = locate(doc);
  if (!shape) {
    // Forced: a plain message list reads as ModelMessage[].
    if (doc.root.kind === 'array') {
      readModelMessages(b, doc.root.items);
      return;
    }
    throw b.error(
      doc.root,
      'not an ai-sdk recording: expected ModelMessage[], UIMessage[], or a ' +
        'generateText result with "response.messages" or "steps"',
    );
  }
  if (shape.kind === 'ui') readUiMessages(b, shape.items);
  else if (shape.kind === 'model') readModelMessages(b, shape.items);
  else readSteps(b, shape.steps);
  if (doc.root.kind === 'object' && shape.kind === 'model' && field(doc.root, 'steps') !== undefined)
    b.skip('steps of a result (the same calls as response.messages)');
  if (doc.root.kind === 'object') stepTools(b, doc.root);
  if (doc.root.kind === 'object' && shape.kind === 'model') stepTimes(b, doc.root);
}

export const aiSdkReader: RecordingReader = {
  format: 'ai-sdk',
  records: 'conversation',
  summary: 'Vercel AI SDK ModelMessage[], UIMessage[], generateText result',
  shape:
    'ai-sdk: Vercel AI SDK ModelMessage[] (tool-call / tool-result parts), ' +
    'UIMessage[] (parts), or a generateText result (response.messages, steps)',
  detect,
  near,
  read,
};
