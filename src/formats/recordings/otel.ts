/**
 * OpenTelemetry GenAI traces in OTLP JSON (`{resourceSpans: [{scopeSpans:
 * [{spans: [...]}]}]}`, as the OTLP/HTTP JSON exporter and collectors'
 * file exporter write them). One chat span (`gen_ai.operation.name` "chat",
 * or any span with GenAI messages) is one model call, in start-time order.
 *
 * Messages, per the GenAI semantic conventions (gen-ai-input-messages.json,
 * gen-ai-output-messages.json): `gen_ai.input.messages` and
 * `gen_ai.output.messages` are JSON text of `[{role, parts, name?,
 * finish_reason?}]` with parts `text` `{content}`, `tool_call` `{id, name,
 * arguments}`, `tool_call_response` `{id, response}`, `reasoning`, `blob`,
 * `file`, `uri` and server tool parts; `gen_ai.system_instructions` holds
 * the system parts; `gen_ai.tool.definitions` the tools sent with the call.
 * Each span's input must continue the conversation of the spans before it
 * (only what is new is appended, then its output).
 *
 * The older flat attributes OpenLLMetry writes are read too:
 * `gen_ai.prompt.N.{role, content, tool_call_id}`,
 * `gen_ai.prompt.N.tool_calls.I.{id, name, arguments}`,
 * `gen_ai.completion.N.{role, content, tool_calls.I.*}` and
 * `llm.request.functions.I.name` for the tools sent.
 *
 * Spans that carry no GenAI messages (agent, tool execution, HTTP spans)
 * are skipped and counted. A message text attribute that is not JSON is an
 * error at its attribute.
 */
import { InputError } from '../../io/errors.js';
import { toWellFormed } from '../../core/text.js';
import type { ToolCall } from '../../core/types.js';
import { field, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import { parseText } from '../../io/parse.js';
import { TranscriptBuilder } from '../transcript-common.js';
import { argsText, outputText, pushAssistant, pushToolResult } from './chat-build.js';
import { sentToolsOf } from './sent.js';
import { DISTINCTIVE, type Evidence, type RecordingReader } from './types.js';
import type { SentTools } from '../types.js';

const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);

interface Span {
  readonly node: ObjectNode;
  readonly start: bigint;
  /** Attribute values by key, with the value node (`{stringValue: ...}` unwrapped). */
  readonly attrs: Map<string, Node>;
}

/** An OTLP AnyValue's inner value: `{stringValue}`, `{intValue}`, `{arrayValue: {values}}`, ... */
function anyValue(n: Node | undefined): Node | undefined {
  if (n?.kind !== 'object') return n;
  for (const k of ['stringValue', 'intValue', 'doubleValue', 'boolValue', 'bytesValue']) {
    const v = field(n, k);
    if (v !== undefined) return v;
  }
  const arr = field(n, 'arrayValue');
  if (arr?.kind === 'object') {
    const values = field(arr, 'values');
    if (values?.kind === 'array')
      return { kind: 'array', offset: values.offset, items: values.items.map((v) => anyValue(v) ?? v) };
    return { kind: 'array', offset: arr.offset, items: [] };
  }
  return n;
}

function spansOf(doc: ParsedDocument): Span[] | null {
  const roots: Node[] = doc.root.kind === 'array' ? [...doc.root.items] : [doc.root];
  const out: Span[] = [];
  let found = false;
  for (const r of roots) {
    const rs = r.kind === 'object' ? field(r, 'resourceSpans') : undefined;
    if (rs?.kind !== 'array') continue;
    found = true;
    for (const res of rs.items) {
      const ss =
        res.kind === 'object' ? (field(res, 'scopeSpans') ?? field(res, 'instrumentationLibrarySpans')) : undefined;
      if (ss?.kind !== 'array') continue;
      for (const scope of ss.items) {
        const spans = scope.kind === 'object' ? field(scope, 'spans') : undefined;
        if (spans?.kind !== 'array') continue;
        for (const s of spans.items) {
          if (s.kind !== 'object') continue;
          const attrs = new Map<string, Node>();
          const list = field(s, 'attributes');
          if (list?.kind === 'array') {
            for (const a of list.items) {
              const key = a.kind === 'object' ? str(field(a, 'key')) : null;
              if (key !== null && a.kind === 'object') {
                const v = anyValue(field(a, 'value'));
                if (v) attrs.set(key, v);
              }
            }
          }
          const t = anyValue(field(s, 'startTimeUnixNano'));
          let start = 0n;
          try {
            start = t?.kind === 'string' ? BigInt(t.value) : t?.kind === 'number' ? BigInt(Math.trunc(t.value)) : 0n;
          } catch {
            start = 0n;
          }
          out.push({ node: s, start, attrs });
        }
      }
    }
  }
  return found ? out : null;
}

const isModelSpan = (s: Span): boolean =>
  s.attrs.has('gen_ai.input.messages') ||
  s.attrs.has('gen_ai.output.messages') ||
  [...s.attrs.keys()].some((k) => k.startsWith('gen_ai.prompt.') || k.startsWith('gen_ai.completion.'));

function detect(doc: ParsedDocument): Evidence | null {
  const spans = spansOf(doc);
  if (!spans) return null;
  const n = spans.filter(isModelSpan).length;
  return {
    score: DISTINCTIVE + n,
    detected_by: `OTLP JSON traces (resourceSpans) with ${n} GenAI model ${n === 1 ? 'span' : 'spans'}`,
  };
}

/** The JSON text of a message attribute, parsed as its own document (errors point into the attribute). */
function parseAttr(b: TranscriptBuilder, s: Span, key: string): Node | null {
  const v = s.attrs.get(key);
  if (v === undefined) return null;
  if (v.kind !== 'string') {
    b.unexplained(v, `${key} must be JSON text (a string attribute), found ${v.kind}`);
    return null;
  }
  const at = b.where(v);
  try {
    return parseText(`${at} (${key})`, v.value, { syntax: 'json' }).root;
  } catch (err) {
    if (err instanceof InputError) {
      b.unexplained(v, `${key} is not JSON: ${err.message}`);
      return null;
    }
    throw err;
  }
}

/**
 * Reads semantic-convention messages `[{role, parts}]` into `t`. Parts sit inside the attribute's own text, so problems
 * are located at the attribute.
 */
function readMessages(t: TranscriptBuilder, list: Node, at: Node, key: string): void {
  if (list.kind !== 'array') {
    t.unexplained(at, `${key} must be a list of messages`);
    return;
  }
  for (const m of list.items) {
    if (m.kind !== 'object') {
      t.unexplained(at, `${key}: a message must be an object`);
      continue;
    }
    const role = str(field(m, 'role'));
    const partsNode = field(m, 'parts');
    const parts = partsNode?.kind === 'array' ? partsNode.items : [];
    let text = '';
    const calls: Array<ToolCall & { at: Node }> = [];
    const results: Array<{ id: string; text: string }> = [];
    for (const p of parts) {
      const type = p.kind === 'object' ? str(field(p, 'type')) : null;
      if (p.kind !== 'object' || type === null) {
        t.unexplained(at, `${key}: a part without a "type"`);
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
            at,
          });
          break;
        case 'tool_call_response':
          results.push({ id: str(field(p, 'id')) ?? '', text: outputText(field(p, 'response') ?? field(p, 'result')) });
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
          t.unexplained(at, `${key}: unknown GenAI message part type ${JSON.stringify(type)}`);
      }
    }
    switch (role) {
      case 'system':
      case 'user':
        t.push({ kind: 'chat', role, content: text }, at);
        break;
      case 'assistant':
        pushAssistant(t, text, calls, at);
        break;
      case 'tool':
        for (const r of results) pushToolResult(t, r.id, null, r.text, at);
        break;
      default:
        t.unexplained(
          at,
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

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function read(doc: ParsedDocument, b: TranscriptBuilder): void {
  const spans = spansOf(doc);
  if (!spans) throw b.error(doc.root, 'not an otel recording: expected OTLP JSON traces ({"resourceSpans": [...]})');
  // Start-time order; spans with the same start keep file order (the sort is stable).
  const ordered = [...spans].sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : 0));
  let call = 0;
  for (const s of ordered) {
    if (!isModelSpan(s)) {
      b.skip('spans without GenAI messages (agent, tool execution, HTTP spans: not model calls)');
      continue;
    }
    call++;
    const t = new TranscriptBuilder(doc, b.maxMessages, true);
    const flat = !s.attrs.has('gen_ai.input.messages') && !s.attrs.has('gen_ai.output.messages');
    const system = parseAttr(t, s, 'gen_ai.system_instructions');
    if (system?.kind === 'array') {
      let text = '';
      for (const p of system.items)
        if (p.kind === 'object' && str(field(p, 'type')) === 'text') text += str(field(p, 'content')) ?? '';
      t.push({ kind: 'chat', role: 'system', content: text }, s.attrs.get('gen_ai.system_instructions')!);
    }
    if (flat) readFlat(t, s, 'gen_ai.prompt');
    else {
      const input = parseAttr(t, s, 'gen_ai.input.messages');
      if (input) readMessages(t, input, s.attrs.get('gen_ai.input.messages')!, 'gen_ai.input.messages');
    }
    const n = b.messages.length;
    const differs = b.messages.findIndex((m, i) => !same(m, t.messages[i]));
    if (differs >= 0) {
      b.unexplained(
        s.node,
        `span ${call} (${str(field(s.node, 'name')) ?? 'unnamed'}): its input does not continue ` +
          `the conversation of the spans before it (message ${differs} differs)`,
      );
      continue;
    }
    b.read();
    b.adopt(t, n);
    const defs = parseAttr(b, s, 'gen_ai.tool.definitions');
    b.sentTools.push(defs?.kind === 'array' ? sentToolsOf(defs) : flatTools(s));
    if (flat) {
      const o = new TranscriptBuilder(doc, b.maxMessages, true);
      readFlat(o, s, 'gen_ai.completion');
      b.adopt(o, 0);
    } else {
      const output = parseAttr(b, s, 'gen_ai.output.messages');
      if (output) {
        const o = new TranscriptBuilder(doc, b.maxMessages, true);
        // Output messages answer calls of the input: resolve their results against the conversation.
        readMessages(o, output, s.attrs.get('gen_ai.output.messages')!, 'gen_ai.output.messages');
        b.adopt(o, 0);
      }
    }
  }
}

export const otelReader: RecordingReader = {
  format: 'otel',
  records: 'calls',
  summary: 'OTLP JSON traces with GenAI spans (gen_ai.input/output.messages)',
  shape:
    'otel: OTLP JSON traces (resourceSpans) with GenAI spans: gen_ai.input.messages / gen_ai.output.messages / ' +
    'gen_ai.tool.definitions, or OpenLLMetry gen_ai.prompt.N.* / gen_ai.completion.N.*',
  detect,
  read,
};
