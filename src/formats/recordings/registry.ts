/**
 * The one list of recording readers, detection over all of them, and what
 * every load checks afterwards, whatever the format:
 *
 * - every item is read, skipped by a documented rule, or not understood;
 *   anything not understood is an error at its position (with `lenient`, a
 *   counted warning);
 * - every tool result answers an earlier call (the pairing the builder
 *   records); a call with no result is replayed as the reference replays it
 *   (the simulation reports it: the `unanswered-call` warning);
 * - there is a model call to replay (an assistant message, a request body, or
 *   a conversation's state, whose next call is pending);
 * - calls and results of the search tool under another name (`--search-tool`,
 *   or a format default such as Claude Code's `ToolSearch`) are read as the
 *   middleware's `tool_search`.
 */
import { TOOL_SEARCH_NAME } from '../../core/toolsearch.js';
import type { ContentBlock, Message } from '../../core/types.js';
import { InputError } from '../../io/errors.js';
import { errorAt, type ParsedDocument } from '../../io/nodes.js';
import { type Limits, resolveLimits } from '../../io/read.js';
import { TranscriptBuilder } from '../transcript-common.js';
import type { Coverage, CoverageProblem, Transcript, TranscriptFormat } from '../types.js';
import { aiSdkReader } from './ai-sdk.js';
import { callLogReader, responseReader } from './calls.js';
import { chatReaders } from './chat-readers.js';
import { claudeCodeReader } from './claude-code.js';
import { clineReader } from './cline.js';
import { geminiReader } from './gemini.js';
import { harReader } from './har.js';
import { langchainReader } from './langchain.js';
import { mastraReader } from './mastra.js';
import { nockReader } from './nock.js';
import { openaiAgentsReader } from './openai-agents.js';
import { openaiAgentsStateReader } from './openai-agents-state.js';
import { otelReader } from './otel.js';
import { sseReader } from './sse.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type RecordingReader } from './types.js';
import { vcrReader } from './vcr.js';

/** Options of {@link readRecording}. */
export interface RecordingOptions {
  readonly format?: TranscriptFormat | 'auto';
  readonly limits?: Partial<Limits>;
  /** Turn items no rule explains and unpaired calls or results into counted warnings instead of errors. */
  readonly lenient?: boolean;
  /** Read subagent sidechains too (Claude Code), each its own conversation. */
  readonly sidechains?: boolean;
  /** Names of the agent's search tool, read as `tool_search` (replaces a format's default). */
  readonly searchTools?: readonly string[];
}

/** Every reader, in tie-break order. */
export const READERS: readonly RecordingReader[] = [
  claudeCodeReader,
  aiSdkReader,
  mastraReader,
  openaiAgentsReader,
  langchainReader,
  otelReader,
  responseReader,
  callLogReader,
  geminiReader,
  sseReader,
  clineReader,
  openaiAgentsStateReader,
  nockReader,
  vcrReader,
  harReader,
  ...chatReaders((doc) => detectRecording(doc)?.reader.format ?? null),
];

/**
 * Every format name, in tie-break order. Every list of formats comes from here: `simulate
 * --help` ({@link formatHelpLines}), `--format`'s choices and suites' `format:`
 * ({@link FORMAT_CHOICES}), the fuzzer, shell completion (from `--format`'s choices) and the
 * "no shape fits" error; README's table is checked against it (test/formats/format-lists.test.ts).
 * A reader added to {@link READERS} is in all of them.
 */
export const RECORDING_FORMATS: readonly TranscriptFormat[] = READERS.map((r) => r.format);

/** The values of `--format` and of a suite case's `format:`: `auto` (detected by shape), then every format. */
export const FORMAT_CHOICES: readonly (TranscriptFormat | 'auto')[] = ['auto', ...RECORDING_FORMATS];

/** The formats as `simulate --help` lists them: one line each, `format  summary`, names aligned. */
export function formatHelpLines(indent = '  '): string[] {
  const width = READERS.reduce((n, r) => Math.max(n, r.format.length), 0) + 2;
  return READERS.map((r) => `${indent}${r.format.padEnd(width)}${r.summary}`);
}

/** The reader with the strongest evidence for `doc`, or null when none fits. */
export function detectRecording(doc: ParsedDocument): { reader: RecordingReader; evidence: Evidence } | null {
  let best: { reader: RecordingReader; evidence: Evidence } | null = null;
  for (const reader of READERS) {
    const evidence = reader.detect(doc);
    if (evidence && (best === null || evidence.score > best.evidence.score)) best = { reader, evidence };
  }
  return best;
}

function describeRoot(doc: ParsedDocument): string {
  const root = doc.root;
  if (root.kind === 'array') return doc.syntax === 'jsonl' ? 'JSON lines' : 'a list';
  if (root.kind === 'object') {
    const keys = [...root.members.keys()].slice(0, 6).map((k) => JSON.stringify(k));
    return keys.length === 0
      ? 'an empty object'
      : `an object with ${keys.join(', ')}${root.members.size > 6 ? ', ...' : ''}`;
  }
  return root.kind === 'string'
    ? 'a string'
    : root.kind === 'null'
      ? 'null'
      : `a ${root.kind === 'bool' ? 'boolean' : root.kind}`;
}

/** The reader (other than `except`) whose signs a document it does not take has most of, or null. */
export function nearestReader(
  doc: ParsedDocument,
  except: RecordingReader | null = null,
): { reader: RecordingReader; near: NearMiss } | null {
  let best: { reader: RecordingReader; near: NearMiss } | null = null;
  for (const reader of READERS) {
    if (reader === except || !reader.near) continue;
    const near = reader.near(doc);
    if (near && (best === null || near.score > best.near.score)) best = { reader, near };
  }
  return best;
}

function noShapeFits(doc: ParsedDocument): never {
  const tried = READERS.map((r) => r.format).join(', ');
  const nearest = nearestReader(doc);
  const closest = nearest
    ? `; closest: ${nearest.reader.format} (${nearest.near.found}), which expects ${nearest.near.expected}`
    : '';
  throw errorAt(
    doc,
    doc.root,
    `no known recording shape fits (found ${describeRoot(doc)})${closest}; ` +
      `tried ${tried} (see simulate --help, or force one with --format)`,
  );
}

/**
 * The error for a document whose only readers go by signs other formats share, while another
 * family's own signs are there: it names that family and what it expects, not the failure of a
 * reader of another family.
 */
function nearMiss(doc: ParsedDocument, found: { reader: RecordingReader; evidence: Evidence }): void {
  if (found.evidence.score >= DISTINCTIVE) return;
  const nearest = nearestReader(doc, found.reader);
  if (!nearest || nearest.near.score < DISTINCTIVE) return;
  throw errorAt(
    doc,
    doc.root,
    `${nearest.near.found}: signs of ${nearest.reader.format}, which expects ${nearest.near.expected}; ` +
      `no format takes it (${found.reader.format} only by ${found.evidence.detected_by}: ` +
      `--format ${found.reader.format} reads it so)`,
  );
}

function renameSearchTool(messages: Message[], names: ReadonlySet<string>): void {
  const rename = (n: string): string => (names.has(n) ? TOOL_SEARCH_NAME : n);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.kind === 'chat') {
      const calls = m.toolCalls?.map((c) => (names.has(c.name) ? { ...c, name: TOOL_SEARCH_NAME } : c));
      const out = {
        ...m,
        ...(calls ? { toolCalls: calls } : {}),
        ...(m.toolName !== undefined ? { toolName: rename(m.toolName) } : {}),
      };
      messages[i] = out;
      continue;
    }
    const blocks = m.blocks.map((b): ContentBlock => {
      if ((b.type === 'function_tool_call' || b.type === 'function_tool_result') && names.has(b.name))
        return { ...b, name: TOOL_SEARCH_NAME };
      return b;
    });
    messages[i] = { ...m, blocks };
  }
}

function lenientHint(n: number): string {
  return n > 1
    ? ` (and ${n - 1} more; --lenient replays the rest and counts them)`
    : ' (--lenient replays the rest and counts it)';
}

/** Turns a builder into a transcript, applying the checks every format shares. */
function finish(
  doc: ParsedDocument,
  b: TranscriptBuilder,
  format: TranscriptFormat,
  detectedBy: string,
  options: RecordingOptions,
  conversation: string,
): Transcript {
  const lenient = options.lenient === true;
  if (!lenient) {
    if (b.unexplainedItems.length > 0) {
      throw errorAt(
        doc,
        b.firstUnexplained,
        `${b.unexplainedItems[0]!.message}${lenientHint(b.unexplainedItems.length)}`,
      );
    }
    if (b.orphanResults.length > 0) {
      throw errorAt(
        doc,
        b.firstOrphan!,
        `${b.orphanResults[0]!.message}: no earlier tool call has this ` + `id${lenientHint(b.orphanResults.length)}`,
      );
    }
  }
  const warnings = [...b.warnings];
  for (const p of b.unexplainedItems) warnings.push(`${p.location}: ${p.message} (not read: --lenient)`);
  for (const p of b.orphanResults) warnings.push(`${p.location}: ${p.message}`);

  if (b.requestTools && b.sentTools.length === 0) {
    // A request body is compared at the call it asks for, the last one (of earlier calls it says nothing).
    const calls = modelCallCount(b.messages);
    for (let i = 1; i < calls; i++) b.sentTools.push(null);
    b.sentTools.push(b.requestTools);
  }
  const names =
    options.searchTools && options.searchTools.length > 0 ? options.searchTools : (b.searchToolDefault?.names ?? null);
  let searchTool: Coverage['search_tool'] = null;
  if (names) {
    const source =
      options.searchTools && options.searchTools.length > 0 ? '--search-tool' : b.searchToolDefault!.source;
    searchTool = { names: [...names], source };
    const others = new Set(names.filter((n) => n !== TOOL_SEARCH_NAME));
    if (others.size > 0) {
      renameSearchTool(b.messages, others);
      for (let i = 0; i < b.sentTools.length; i++) {
        const s = b.sentTools[i];
        if (s)
          b.sentTools[i] = {
            visible: s.visible.map((n) => (others.has(n) ? TOOL_SEARCH_NAME : n)),
            deferred: s.deferred.map((n) => (others.has(n) ? TOOL_SEARCH_NAME : n)),
          };
      }
    }
  }
  const skipped = [...b.skipped].map(([rule, count]) => ({ rule, count }));
  let providerCalls = 0;
  for (const m of b.messages)
    if (m.kind === 'blocks') for (const bl of m.blocks) if (bl.type === 'provider_tool_call') providerCalls++;
  const skippedTotal = skipped.reduce((n, s) => n + s.count, 0);
  const unpaired: CoverageProblem[] = [...b.orphanResults];
  const coverage: Coverage = {
    format,
    detected_by: detectedBy,
    items: b.itemsRead + skippedTotal + b.unexplainedItems.length,
    read: b.itemsRead,
    skipped,
    unexplained: b.unexplainedItems,
    unpaired,
    search_tool: searchTool,
    conversation,
    ...(providerCalls > 0 ? { provider_calls: providerCalls } : {}),
    ...(b.session ? { sessions: b.session } : {}),
  };
  const sentTools = b.sentTools.length > 0 ? b.sentTools : undefined;
  const times = b.times.size > 0 ? b.messages.map((_, i) => b.times.get(i) ?? null) : undefined;
  return {
    file: doc.file,
    format,
    messages: b.messages,
    locations: b.locations,
    tools: b.tools,
    warnings,
    coverage,
    ...(b.isRequest ? { request: true } : {}),
    ...(sentTools ? { sentTools } : {}),
    ...(times ? { times } : {}),
  };
}

/** How many model calls a conversation has: one before each assistant message, one after a last other message. */
function modelCallCount(messages: readonly Message[]): number {
  const assistants = messages.filter((m) => m.role === 'assistant').length;
  const last = messages[messages.length - 1];
  return assistants + (last === undefined || last.role !== 'assistant' ? 1 : 0);
}

/**
 * The check before a replay: a log of model calls with none recorded (no assistant message, and
 * not a request body, which is itself one call) has nothing to replay and is an error, not an
 * empty success. A recording of a conversation's state (Eino messages and the other message
 * lists) always has one: with no assistant message yet it is the pending call, as in the
 * reference (`[system, user]`, or `[]`, the empty conversation).
 */
export function requireModelCall(t: Transcript): void {
  if (t.request === true || t.messages.some((m) => m.role === 'assistant')) return;
  if (READERS.find((r) => r.format === t.format)?.records === 'conversation') return;
  const c = t.coverage;
  const where =
    c && c.conversation !== 'main' ? ` (${c.sessions ? c.conversation : `sidechain ${c.conversation}`})` : '';
  const first = t.locations[0] ?? { file: t.file, line: 0, column: 0 };
  throw new InputError(
    `no model call${where}: the recording logs no model call (no assistant message) and ` +
      `is not a request body, so there is nothing to replay`,
    first,
  );
}

/** Reads one parsed recording: detection (or the forced format), the reader, then the shared checks. */
export function readRecording(doc: ParsedDocument, options: RecordingOptions = {}): Transcript {
  const limits = resolveLimits(options.limits);
  const forcedFormat = options.format && options.format !== 'auto' ? options.format : null;
  let reader: RecordingReader;
  let detectedBy: string;
  if (forcedFormat) {
    reader = READERS.find((r) => r.format === forcedFormat)!;
    detectedBy = `--format ${forcedFormat}`;
  } else {
    const found = detectRecording(doc);
    if (!found) noShapeFits(doc);
    nearMiss(doc, found);
    reader = found.reader;
    detectedBy = found.evidence.detected_by;
  }
  // Eino messages keep `extra`: only the reference's own marker counts there.
  // Provider logs drop it, so their reminder is recognised by its text.
  const b = new TranscriptBuilder(doc, limits.maxMessages, reader.format !== 'eino');
  reader.read(doc, b, { sidechains: options.sidechains === true, forced: forcedFormat !== null, limits });
  const main = finish(doc, b, reader.format, detectedBy, options, 'main');
  if (b.sidechains.length === 0) return main;
  const sidechains = b.sidechains.map((s) => finish(doc, s.builder, reader.format, detectedBy, options, s.id));
  return { ...main, sidechains };
}
