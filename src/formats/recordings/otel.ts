/**
 * OpenTelemetry traces in OTLP JSON (`{resourceSpans: [{scopeSpans:
 * [{spans: [...]}]}]}`, as the OTLP/HTTP JSON exporter and collectors'
 * file exporter write them; otel-spans.ts). One model-call span is one
 * model call, in start-time order. An export may hold several runs and
 * conversations, interleaved: the model calls are grouped into sessions by
 * continuity, as call logs are (a call whose input extends an earlier
 * call's input and output continues that call's session), a session of the
 * call's own trace (`traceId`) first ({@link sessionsOf}). In a session each span appends what its input adds, then
 * its output; each session is replayed on its own and, when there are
 * several, `coverage.sessions` says which spans each has and how they were
 * grouped. Three ways of writing a model call are read:
 *
 * - the GenAI semantic conventions (gen-ai-input-messages.json,
 *   gen-ai-output-messages.json): a `chat` / `text_completion` /
 *   `generate_content` span (`gen_ai.operation.name`; without one, any span
 *   with GenAI messages) whose `gen_ai.input.messages` and
 *   `gen_ai.output.messages` are JSON text of `[{role, parts, name?,
 *   finish_reason?}]` with parts `text` `{content}`, `tool_call` `{id, name,
 *   arguments}`, `tool_call_response` `{id, response}`, `reasoning`,
 *   `blob`, `file`, `uri` and server tool parts; `gen_ai.system_instructions`
 *   holds the system parts; `gen_ai.tool.definitions` the tools sent. The
 *   older flat attributes OpenLLMetry writes are read too:
 *   `gen_ai.prompt.N.{role, content, tool_call_id}`,
 *   `gen_ai.prompt.N.tool_calls.I.{id, name, arguments}`,
 *   `gen_ai.completion.N.{role, content, tool_calls.I.*}` and
 *   `llm.request.functions.I.name` for the tools sent;
 * - the Vercel AI SDK's own spans (otel-ai-sdk.ts);
 * - OpenInference's spans (otel-openinference.ts).
 *
 * The tools a session's last model call was sent (`gen_ai.tool.definitions`,
 * `ai.prompt.tools`, `llm.tools`) are its own catalog, as a
 * request body's are. Spans that are no model call are skipped by rule and
 * counted: agent and run spans (they sum up the model calls recorded in
 * their own spans), tool spans (a tool running), and spans without GenAI
 * messages (HTTP, database, ...). A message text attribute that is not JSON
 * is an error at its attribute; a problem inside one is located in it.
 */
import { toWellFormed } from '../../core/text.js';
import type { ContentBlock, Message, ToolCall } from '../../core/types.js';
import { type ArrayNode, field, kindName, type Node, type ParsedDocument } from '../../io/nodes.js';
import type { Limits } from '../../io/read.js';
import { TranscriptBuilder } from '../transcript-common.js';
import type { SentTools } from '../types.js';
import { readCarriedTools } from './chat.js';
import { argsText, outputText, pushAssistant, pushToolResult } from './chat-build.js';
import { aiSdkSpanKind, aiSdkTools, readAiSdkInput, readAiSdkOutput } from './otel-ai-sdk.js';
import {
  hasOpenInferenceMessages,
  openInferenceKind,
  openInferenceTools,
  readOpenInferenceInput,
  readOpenInferenceOutput,
} from './otel-openinference.js';
import { parseAttr, type Span, spansOf, str } from './otel-spans.js';
import { sentToolsOf } from './sent.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type ReadOptions, type RecordingReader } from './types.js';

export const NO_MESSAGES = 'spans without GenAI messages (HTTP, database and other spans: not model calls)';
export const AGENT_SPANS =
  "agent and run spans (GenAI invoke_agent, OpenInference AGENT / CHAIN, the AI SDK's ai.generateText / " +
  'ai.streamText): they sum up model calls that have spans of their own';
export const TOOL_SPANS =
  "tool spans (GenAI execute_tool, OpenInference TOOL, the AI SDK's ai.toolCall): a tool running, not a model call";

/** How a model-call span is read. */
interface Dialect {
  readonly name: string;
  input(t: TranscriptBuilder, s: Span, limits: Limits): void;
  output(o: TranscriptBuilder, s: Span, limits: Limits): void;
  tools(b: TranscriptBuilder, s: Span, limits: Limits): { sent: SentTools | null; defs: ArrayNode | null };
}

const GENAI_MODEL_OPS = new Set(['chat', 'text_completion', 'generate_content']);
const GENAI_AGENT_OPS = new Set(['invoke_agent', 'create_agent']);

const hasGenAiMessages = (s: Span): boolean =>
  s.attrs.has('gen_ai.input.messages') ||
  s.attrs.has('gen_ai.output.messages') ||
  [...s.attrs.keys()].some((k) => k.startsWith('gen_ai.prompt.') || k.startsWith('gen_ai.completion.'));

/** What a span is: a model call and how to read it, or the rule it is skipped by. */
function classify(s: Span): { readonly dialect: Dialect } | { readonly skip: string } {
  const sdk = aiSdkSpanKind(s);
  if (sdk === 'model') return { dialect: AI_SDK };
  if (sdk === 'run') return { skip: AGENT_SPANS };
  if (sdk === 'tool') return { skip: TOOL_SPANS };
  const oi = openInferenceKind(s);
  if (oi === 'LLM' && hasOpenInferenceMessages(s)) return { dialect: OPENINFERENCE };
  if (oi === 'AGENT' || oi === 'CHAIN') return { skip: AGENT_SPANS };
  if (oi === 'TOOL') return { skip: TOOL_SPANS };
  const op = str(s.attrs.get('gen_ai.operation.name'));
  if (op !== null && GENAI_AGENT_OPS.has(op)) return { skip: AGENT_SPANS };
  if (op === 'execute_tool') return { skip: TOOL_SPANS };
  if ((op === null || GENAI_MODEL_OPS.has(op)) && hasGenAiMessages(s)) return { dialect: GENAI };
  return { skip: NO_MESSAGES };
}

function detect(doc: ParsedDocument): Evidence | null {
  const spans = spansOf(doc);
  if (!spans) return null;
  const n = spans.filter((s) => 'dialect' in classify(s)).length;
  return {
    score: DISTINCTIVE + n,
    detected_by: `OTLP JSON traces (resourceSpans) with ${n} model-call ${n === 1 ? 'span' : 'spans'}`,
  };
}

/** OTLP's envelope with the wrong shape: `resourceSpans` that is no list, or a bare `scopeSpans` entry. */
function near(doc: ParsedDocument): NearMiss | null {
  const root = doc.root;
  if (root.kind !== 'object' || spansOf(doc) !== null) return null;
  const key = ['resourceSpans', 'scopeSpans', 'instrumentationLibrarySpans'].find((k) => root.members.has(k));
  if (key === undefined) return null;
  return {
    score: DISTINCTIVE,
    found: `an object with "${key}" (${kindName(field(root, key))})`,
    expected: 'OTLP JSON traces: {"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}',
  };
}

/** Reads semantic-convention messages `[{role, parts}]` into `t` (their nodes are placed in the attribute's text). */
function readMessages(t: TranscriptBuilder, list: Node, key: string): void {
  if (list.kind !== 'array') {
    t.unexplained(list, `${key} must be a list of messages`);
    return;
  }
  for (const m of list.items) {
    if (m.kind !== 'object') {
      t.unexplained(m, `${key}: a message must be an object`);
      continue;
    }
    const role = str(field(m, 'role'));
    const partsNode = field(m, 'parts');
    const parts = partsNode?.kind === 'array' ? partsNode.items : [];
    let text = '';
    const calls: Array<ToolCall & { at: Node }> = [];
    const results: Array<{ id: string; text: string; at: Node }> = [];
    for (const p of parts) {
      const type = p.kind === 'object' ? str(field(p, 'type')) : null;
      if (p.kind !== 'object' || type === null) {
        t.unexplained(p, `${key}: a part without a "type"`);
        continue;
      }
      switch (type) {
        case 'text':
          text += str(field(p, 'content')) ?? '';
          break;
        case 'tool_call':
          calls.push({
            id: str(field(p, 'id')) ?? '',
            name: str(field(p, 'name')) ?? '',
            arguments: argsText(field(p, 'arguments')),
            at: p,
          });
          break;
        case 'tool_call_response':
          results.push({
            id: str(field(p, 'id')) ?? '',
            text: outputText(field(p, 'response') ?? field(p, 'result')),
            at: p,
          });
          break;
        case 'reasoning':
        case 'blob':
        case 'file':
        case 'uri':
        case 'server_tool_call':
        case 'server_tool_call_response':
        // Compacted conversation state (CompactionPart of the newer schema): no tool use in it.
        case 'compaction':
          break;
        default:
          t.unexplained(p, `${key}: unknown GenAI message part type ${JSON.stringify(type)}`);
      }
    }
    switch (role) {
      case 'system':
      case 'user':
        t.push({ kind: 'chat', role, content: toWellFormed(text) }, m);
        break;
      case 'assistant':
        pushAssistant(t, toWellFormed(text), calls, m);
        break;
      case 'tool':
        for (const r of results) pushToolResult(t, r.id, null, r.text, r.at);
        break;
      default:
        t.unexplained(
          m,
          `${key}: unknown GenAI message role ${JSON.stringify(role)} (expected system, user, assistant, tool)`,
        );
    }
  }
}

/** The flat OpenLLMetry attributes `<prefix>.N.*` as messages. */
function readFlat(t: TranscriptBuilder, s: Span, prefix: string): void {
  for (let n = 0; ; n++) {
    const p = `${prefix}.${n}`;
    const roleNode = s.attrs.get(`${p}.role`);
    if (roleNode === undefined) break;
    const role = str(roleNode);
    const text = str(s.attrs.get(`${p}.content`)) ?? '';
    if (role === 'assistant') {
      const calls: Array<ToolCall & { at: Node }> = [];
      for (let i = 0; s.attrs.has(`${p}.tool_calls.${i}.name`); i++) {
        calls.push({
          id: str(s.attrs.get(`${p}.tool_calls.${i}.id`)) ?? '',
          name: str(s.attrs.get(`${p}.tool_calls.${i}.name`)) ?? '',
          arguments: argsText(s.attrs.get(`${p}.tool_calls.${i}.arguments`)),
          at: roleNode,
        });
      }
      pushAssistant(t, text, calls, roleNode);
    } else if (role === 'tool') pushToolResult(t, str(s.attrs.get(`${p}.tool_call_id`)) ?? '', null, text, roleNode);
    else if (role === 'system' || role === 'user')
      t.push({ kind: 'chat', role, content: toWellFormed(text) }, roleNode);
    else t.unexplained(roleNode, `${p}.role: unknown role ${JSON.stringify(role)}`);
  }
}

function flatTools(s: Span): SentTools | null {
  if (!s.attrs.has('llm.request.functions.0.name')) return null;
  const visible: string[] = [];
  for (let i = 0; s.attrs.has(`llm.request.functions.${i}.name`); i++)
    visible.push(str(s.attrs.get(`llm.request.functions.${i}.name`)) ?? '');
  return { visible, deferred: [] };
}

/** The GenAI semantic conventions, and OpenLLMetry's flat attributes. */
const GENAI: Dialect = {
  name: 'GenAI',
  input(t, s, limits) {
    const system = parseAttr(t, s, 'gen_ai.system_instructions', limits);
    if (system?.kind === 'array') {
      let text = '';
      for (const p of system.items)
        if (p.kind === 'object' && str(field(p, 'type')) === 'text') text += str(field(p, 'content')) ?? '';
      t.push({ kind: 'chat', role: 'system', content: toWellFormed(text) }, s.attrs.get('gen_ai.system_instructions')!);
    }
    if (isFlat(s)) readFlat(t, s, 'gen_ai.prompt');
    else {
      const input = parseAttr(t, s, 'gen_ai.input.messages', limits);
      if (input) readMessages(t, input, 'gen_ai.input.messages');
    }
  },
  output(o, s, limits) {
    if (isFlat(s)) readFlat(o, s, 'gen_ai.completion');
    else {
      const output = parseAttr(o, s, 'gen_ai.output.messages', limits);
      if (output) readMessages(o, output, 'gen_ai.output.messages');
    }
  },
  tools(b, s, limits) {
    const defs = parseAttr(b, s, 'gen_ai.tool.definitions', limits);
    if (defs?.kind === 'array') return { sent: sentToolsOf(defs), defs };
    if (defs !== null) b.unexplained(defs, 'gen_ai.tool.definitions must be a list of tools');
    return { sent: flatTools(s), defs: null };
  },
};

const isFlat = (s: Span): boolean => !s.attrs.has('gen_ai.input.messages') && !s.attrs.has('gen_ai.output.messages');

const AI_SDK: Dialect = {
  name: 'AI SDK',
  input: readAiSdkInput,
  output: readAiSdkOutput,
  tools: aiSdkTools,
};

const OPENINFERENCE: Dialect = {
  name: 'OpenInference',
  input: readOpenInferenceInput,
  output: readOpenInferenceOutput,
  tools: openInferenceTools,
};

/**
 * A message as the continuity check compares it: an assistant message's calls of the provider's own
 * tools left out (a span's input may omit what the provider ran for an earlier answer, as
 * OpenInference's Responses instrumentation does), and one left with only text and calls compared as
 * the chat message it then is.
 */
function continuityKey(m: Message): unknown {
  if (m.kind !== 'blocks' || m.role !== 'assistant' || !m.blocks.some((x) => x.type === 'provider_tool_call')) return m;
  const blocks = m.blocks.filter((x) => x.type !== 'provider_tool_call');
  if (!blocks.every((x) => x.type === 'text' || x.type === 'function_tool_call')) return { ...m, blocks };
  let content = '';
  const toolCalls: ToolCall[] = [];
  for (const x of blocks)
    if (x.type === 'text') content += x.text;
    else if (x.type === 'function_tool_call') toolCalls.push({ id: x.callId, name: x.name, arguments: x.arguments });
  return toolCalls.length > 0
    ? { kind: 'chat', role: 'assistant', content, toolCalls }
    : { kind: 'chat', role: 'assistant', content };
}

/**
 * Rewrites, in an answer, the calls whose ids are provider calls (`ids`) as the provider's own calls:
 * the AI SDK's `ai.response.toolCalls` lists a provider-executed call (its web search) as any other
 * (it keeps no `providerExecuted`), while the prompt of the next model call marks it.
 */
function asProviderCalls(messages: Message[], ids: ReadonlySet<string>): void {
  messages.forEach((m, i) => {
    if (m.kind !== 'chat' || m.role !== 'assistant' || !m.toolCalls?.some((c) => ids.has(c.id))) return;
    const blocks: ContentBlock[] = m.content === '' ? [] : [{ type: 'text', text: m.content }];
    for (const c of m.toolCalls.filter((x) => ids.has(x.id)))
      blocks.push({
        type: 'provider_tool_call',
        callId: c.id,
        kind: 'tool-call',
        name: c.name,
        server: '',
        arguments: c.arguments,
        executedBy: 'provider',
      });
    for (const c of m.toolCalls.filter((x) => !ids.has(x.id)))
      blocks.push({ type: 'function_tool_call', callId: c.id, name: c.name, arguments: c.arguments });
    messages[i] = { kind: 'blocks', role: 'assistant', blocks };
  });
}

/** One model-call span, read: its input and output messages in builders of their own, the tools it was sent. */
interface ReadSpan {
  readonly span: Span;
  readonly trace: string;
  readonly input: TranscriptBuilder;
  readonly output: TranscriptBuilder;
  readonly sent: SentTools | null;
  readonly defs: ArrayNode | null;
}

/**
 * How the model calls of a trace export are grouped (`coverage.sessions.rule`): by continuity, as
 * call logs are, a session of the call's own trace first ({@link sessionsOf}).
 */
export const OTEL_GROUPING_RULE =
  "grouped by continuity (a model call whose input extends an earlier call's input and output continues " +
  "that call's session), a session of the call's own trace id first";

/** Whether rank `a` is above rank `b` (compared in order, the first difference deciding). */
function above(a: readonly number[], b: readonly number[]): boolean {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k]! > b[k]!;
  return false;
}

/** Whether `prefix` (continuity keys) is the start of `messages`. */
function startsWith(messages: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= messages.length && prefix.every((m, i) => messages[i] === m);
}

/**
 * The model-call spans (in start order) grouped into sessions, as `groupCalls` (calls.ts) groups a
 * call log's calls, the trace id deciding first: a call whose input starts with a session's state
 * (its last call's input, then output) continues that session; of several, one whose last call is
 * of the same trace wins, then the one whose state is longer, then the one continued latest. Any
 * other call starts a session. So the calls of one run (a trace) stay together where they continue
 * each other, a conversation whose calls are traces of their own (one trace per client call, as
 * OpenInference's client instrumentation writes them) is one session, and interleaved
 * conversations come apart. The provider's own calls are left out of the comparison
 * ({@link continuityKey}). Sessions are in the order of their first calls.
 */
function sessionsOf(calls: readonly ReadSpan[]): number[][] {
  const keys = (b: TranscriptBuilder): string[] => b.messages.map((m) => JSON.stringify(continuityKey(m)));
  const input = calls.map((c) => keys(c.input));
  const state = calls.map((c, i) => [...input[i]!, ...keys(c.output)]);
  const sessions: Array<{ calls: number[]; last: number }> = [];
  calls.forEach((c, i) => {
    let best: (typeof sessions)[number] | null = null;
    let bestRank: readonly number[] = [];
    for (const s of sessions) {
      const prefix = state[s.last]!;
      if (!startsWith(input[i]!, prefix)) continue;
      const rank = [calls[s.last]!.trace === c.trace ? 1 : 0, prefix.length, s.last];
      if (best === null || above(rank, bestRank)) {
        best = s;
        bestRank = rank;
      }
    }
    if (best) {
      best.calls.push(i);
      best.last = i;
    } else sessions.push({ calls: [i], last: i });
  });
  return sessions.map((s) => s.calls);
}

function read(doc: ParsedDocument, b: TranscriptBuilder, options: ReadOptions): void {
  const spans = spansOf(doc);
  if (!spans) throw b.error(doc.root, 'not an otel recording: expected OTLP JSON traces ({"resourceSpans": [...]})');
  const { limits } = options;
  // Start-time order; spans with the same start keep file order (the sort is stable).
  const ordered = [...spans].sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : 0));
  const calls: ReadSpan[] = [];
  for (const s of ordered) {
    const kind = classify(s);
    if ('skip' in kind) {
      b.skip(kind.skip);
      continue;
    }
    const { dialect } = kind;
    const input = new TranscriptBuilder(doc, b.maxMessages, true);
    dialect.input(input, s, limits);
    const tools = dialect.tools(input, s, limits);
    // Output messages answer calls of the input: their results resolve against the conversation.
    const output = new TranscriptBuilder(doc, b.maxMessages, true);
    dialect.output(output, s, limits);
    const trace = field(s.node, 'traceId');
    calls.push({ span: s, trace: str(trace) ?? '', input, output, sent: tools.sent, defs: tools.defs });
  }
  if (calls.length === 0) {
    const skipped = [...b.skipped].map(([rule, n]) => `${rule}: ${n}`).join('; ');
    throw b.error(
      doc.root,
      `OTLP traces with ${ordered.length} ${ordered.length === 1 ? 'span' : 'spans'}, none a model call ` +
        `(${skipped === '' ? 'no spans' : skipped}): expected GenAI chat spans (gen_ai.input.messages / ` +
        "gen_ai.output.messages), the AI SDK's ai.generateText.doGenerate / ai.streamText.doStream spans, " +
        'or OpenInference LLM spans',
    );
  }
  // A call the SDK's ai.response.toolCalls lists without saying the provider ran it: a later span's prompt says so.
  const providerIds = new Set<string>();
  for (const c of calls)
    for (const m of c.input.messages)
      if (m.kind === 'blocks') for (const x of m.blocks) if (x.type === 'provider_tool_call') providerIds.add(x.callId);
  if (providerIds.size > 0) for (const c of calls) asProviderCalls(c.output.messages, providerIds);
  const sessions = sessionsOf(calls);
  sessions.forEach((members, k) => {
    const sb = k === 0 ? b : new TranscriptBuilder(doc, b.maxMessages, true);
    if (k > 0) b.sidechains.push({ id: `session ${k + 1}`, builder: sb });
    let lastDefs: ArrayNode | null = null;
    for (const i of members) {
      const c = calls[i]!;
      sb.read();
      // The grouping checked that the input starts with the session so far (the provider's calls aside).
      sb.adopt(c.input, sb.messages.length);
      sb.sentTools.push(c.sent);
      if (c.defs) lastDefs = c.defs;
      for (const [rule, count] of c.output.skipped) sb.skip(rule, count);
      sb.adopt(c.output, 0);
    }
    // The tools of the session's last model call are its own catalog (as a request body's are).
    if (lastDefs && lastDefs.items.length > 0) sb.tools = readCarriedTools(sb, lastDefs);
    if (sessions.length > 1)
      sb.session = {
        index: k + 1,
        count: sessions.length,
        calls: members.map((i) => b.where(calls[i]!.span.node)),
        rule: OTEL_GROUPING_RULE,
      };
  });
}

export const otelReader: RecordingReader = {
  format: 'otel',
  records: 'calls',
  summary: 'OTLP JSON traces with GenAI spans (gen_ai.input/output.messages)',
  shape:
    'otel: OTLP JSON traces (resourceSpans): GenAI spans (gen_ai.input.messages / gen_ai.output.messages / ' +
    "gen_ai.tool.definitions, OpenLLMetry gen_ai.prompt.N.*), the AI SDK's ai.generateText.doGenerate / " +
    'ai.streamText.doStream spans, OpenInference LLM spans (llm.input_messages.N.*)',
  detect,
  near,
  read,
};
