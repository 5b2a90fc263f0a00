/**
 * Gemini `generateContent` recordings (the REST shapes of the Gemini API, as
 * `@google/genai` sends and receives them; its types `Content`, `Part`,
 * `FunctionCall`, `FunctionResponse`, `Tool`, `GenerateContentResponse`):
 *
 * - a request body `{contents, systemInstruction?, tools?, toolConfig?,
 *   generationConfig?, ...}`: the conversation so far, itself one model call
 *   (the one it asks for);
 * - a list of `Content`s `[{role, parts}]` (a chat's history);
 * - a response `{candidates: [{content}], usageMetadata, ...}` alone: one
 *   model call with no recorded input;
 * - a list (or JSON lines) of response chunks, as `streamGenerateContent`
 *   answers without `alt=sse`: each stream merged into one response
 *   ({@link mergeGeminiChunks}), one model call with no recorded input;
 * - request/response pairs `{request, response}` (JSON Lines or a list): one
 *   line per model call, grouped into sessions by continuity (calls.ts
 *   `groupCalls`, as every log of model calls is).
 *
 * A content of role `model` is an assistant message (one that follows a model
 * content without a call continues it: @google/genai's Chat keeps a streamed
 * answer as one content per chunk) (`text` → text,
 * `functionCall {id?, name, args}` → a call, `thought: true` text and other
 * parts → `other` blocks); any other content (role `user`, or none) is a user
 * message whose `functionResponse {id?, name, response}` parts are tool
 * results. A call without `id` is paired by name: a response without `id`
 * answers the earliest unanswered call of that name (the API pairs them so);
 * such a call is named `<name>#<n>` (its n-th call in the conversation). The
 * result text is `response.output` (a string as it is, else its JSON), else
 * `response.error`, else the whole `response` as JSON (the field's documented
 * reading). `systemInstruction` is a first system message. The tools are the
 * `functionDeclarations` of `tools` (`parametersJsonSchema`, else
 * `parameters`); provider tools (`googleSearch`, `codeExecution`, ...) are
 * skipped by rule. Keys may be camelCase or snake_case (the API takes both).
 * A key no rule reads is an error (`--lenient`: counted).
 */
import { append } from '../../core/append.js';
import { toWellFormed } from '../../core/text.js';
import type { ContentBlock, JsonValue, ToolResultPart } from '../../core/types.js';
import { field, kindName, locate, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import { toJsonValue } from '../../io/nodes.js';
import { nodesOf } from '../../io/embedded.js';
import { checkKeys, objects, optString, TranscriptBuilder } from '../transcript-common.js';
import type { CatalogTool, SentTools } from '../types.js';
import { readSessions, type SessionCall } from './calls.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type RecordingReader } from './types.js';

const SNAKE = new Map<string, string>();
/** A key in snake case (`usageMetadata` → `usage_metadata`); the keys are the reader's own words, remembered. */
function snake(k: string): string {
  let s = SNAKE.get(k);
  if (s === undefined) SNAKE.set(k, (s = k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return s;
}
/** Keys in both spellings. */
const both = (keys: readonly string[]): string[] => [...new Set(keys.flatMap((k) => [k, snake(k)]))];
/** A member in either spelling. */
function g(obj: ObjectNode, key: string): Node | undefined {
  return field(obj, key) ?? field(obj, snake(key));
}

const REQUEST_KEYS = both([
  'model',
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'safetySettings',
  'generationConfig',
  'cachedContent',
  'labels',
  'serviceTier',
  'continuationToken',
  'store',
]);
const CONTENT_KEYS = ['role', 'parts'];
/** `Part` of @google/genai. */
const PART_KEYS = both([
  'text',
  'thought',
  'thoughtSignature',
  'functionCall',
  'functionResponse',
  'inlineData',
  'fileData',
  'executableCode',
  'codeExecutionResult',
  'toolCall',
  'toolResponse',
  'videoMetadata',
  'mediaResolution',
  'mediaProcessing',
  'partMetadata',
  'audioTranscription',
  'speechMetadata',
]);
/** Part kinds that are neither text nor function calls and results: `other` blocks. */
const OTHER_PARTS = both([
  'inlineData',
  'fileData',
  'executableCode',
  'codeExecutionResult',
  'toolCall',
  'toolResponse',
  'audioTranscription',
]);
const CALL_KEYS = both(['id', 'name', 'args', 'partialArgs', 'willContinue']);
const FUNCTION_RESPONSE_KEYS = both(['id', 'name', 'response', 'parts', 'scheduling', 'willContinue']);
const RESPONSE_KEYS = both([
  'candidates',
  'promptFeedback',
  'usageMetadata',
  'modelVersion',
  'responseId',
  'createTime',
  'modelStatus',
]);
const CANDIDATE_KEYS = both([
  'content',
  'finishReason',
  'finishMessage',
  'index',
  'safetyRatings',
  'citationMetadata',
  'groundingMetadata',
  'urlContextMetadata',
  'avgLogprobs',
  'logprobsResult',
  'tokenCount',
]);
const TOOL_KEYS = both([
  'functionDeclarations',
  'retrieval',
  'googleMaps',
  'mcpServers',
  'codeExecution',
  'computerUse',
  'enterpriseWebSearch',
  'exaAiSearch',
  'googleSearch',
  'googleSearchRetrieval',
  'parallelAiSearch',
  'urlContext',
  'fileSearch',
]);
const DECLARATION_KEYS = both([
  'name',
  'description',
  'parameters',
  'parametersJsonSchema',
  'response',
  'responseJsonSchema',
  'behavior',
]);

const isObj = (n: Node | undefined): n is ObjectNode => n?.kind === 'object';
const isContent = (n: Node): boolean => isObj(n) && g(n, 'parts')?.kind === 'array';

/** Pairing of calls without ids: the unanswered calls by name, in order, and how many calls each name had. */
class Pairing {
  private readonly open = new Map<string, string[]>();
  private readonly counts = new Map<string, number>();
  /** The id of a call: its own, else `<name>#<n>`. */
  callId(name: string, id: string | null): string {
    const n = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, n);
    const out = id ?? `${name}#${n}`;
    const list = this.open.get(name) ?? [];
    list.push(out);
    this.open.set(name, list);
    return out;
  }
  /** The id a response answers: its own, else the earliest unanswered call of its name (else `<name>#?`). */
  answer(name: string, id: string | null): string {
    const list = this.open.get(name) ?? [];
    const at = id === null ? 0 : list.indexOf(id);
    if (at >= 0 && at < list.length) return list.splice(at, 1)[0]!;
    return id ?? `${name}#?`;
  }
}

function optId(b: TranscriptBuilder, node: ObjectNode): string | null {
  const id = g(node, 'id');
  return id === undefined || id.kind === 'null' ? null : optString(b, id, 'id');
}

function valueText(n: Node): string {
  return n.kind === 'string' ? toWellFormed(n.value) : JSON.stringify(toJsonValue(n));
}

/** The text a function response gives the model: `output`, else `error`, else the whole response. */
function responseText(b: TranscriptBuilder, fr: ObjectNode): ToolResultPart[] {
  const response = g(fr, 'response');
  const parts: ToolResultPart[] = [];
  if (response !== undefined && response.kind !== 'null') {
    if (response.kind !== 'object')
      throw b.error(response, `"response" must be an object, found ${kindName(response)}`);
    const out = field(response, 'output') ?? field(response, 'error');
    parts.push({ type: 'text', text: out !== undefined ? valueText(out) : valueText(response) });
  }
  const more = g(fr, 'parts');
  if (more?.kind === 'array')
    for (const _ of more.items) parts.push({ type: 'other', description: 'functionResponse part' });
  return parts;
}

/** The blocks of one content's parts. */
function partBlocks(b: TranscriptBuilder, parts: Node, model: boolean, pairing: Pairing): ContentBlock[] {
  if (parts.kind !== 'array') throw b.error(parts, `"parts" must be a list, found ${kindName(parts)}`);
  const blocks: ContentBlock[] = [];
  for (const p of objects(b, parts.items, 'a part')) {
    checkKeys(b, p, PART_KEYS, 'a Gemini part');
    const text = g(p, 'text');
    const call = g(p, 'functionCall');
    const response = g(p, 'functionResponse');
    const thought = g(p, 'thought');
    if (text !== undefined && text.kind !== 'null') {
      const t = optString(b, text, 'text');
      blocks.push(
        thought?.kind === 'bool' && thought.value
          ? { type: 'other', description: 'thought' }
          : { type: 'text', text: t },
      );
    } else if (isObj(call)) {
      if (!model) b.unexplained(p, "a functionCall part in a content that is not the model's");
      checkKeys(b, call, CALL_KEYS, 'a Gemini functionCall');
      const name = optString(b, g(call, 'name'), 'functionCall name');
      const callId = pairing.callId(name, optId(b, call));
      b.call(callId, name, p);
      const args = g(call, 'args');
      blocks.push({
        type: 'function_tool_call',
        callId,
        name,
        arguments: args && args.kind !== 'null' ? JSON.stringify(toJsonValue(args)) : '{}',
      });
    } else if (isObj(response)) {
      if (model) b.unexplained(p, 'a functionResponse part in a model content');
      checkKeys(b, response, FUNCTION_RESPONSE_KEYS, 'a Gemini functionResponse');
      const name = optString(b, g(response, 'name'), 'functionResponse name');
      const callId = pairing.answer(name, optId(b, response));
      b.resolveCall(p, callId);
      blocks.push({ type: 'function_tool_result', callId, name, content: responseText(b, response) });
    } else {
      const kind = [...p.members.keys()].find((k) => OTHER_PARTS.includes(k));
      if (kind === undefined && (thought === undefined || thought.kind === 'null'))
        b.unexplained(p, 'a Gemini part with no text, functionCall, functionResponse or data');
      blocks.push({ type: 'other', description: kind ?? 'thought' });
    }
  }
  return blocks;
}

/** A content's role (`user` when absent); an error for any other. */
function roleOf(b: TranscriptBuilder, c: ObjectNode): 'user' | 'model' {
  const role = optString(b, field(c, 'role'), 'role', 'user');
  if (role !== 'user' && role !== 'model')
    throw b.error(c, `unknown role ${JSON.stringify(role)} (expected user, model)`);
  return role;
}

/** The blocks of one content (its keys checked). */
function contentBlocks(b: TranscriptBuilder, c: ObjectNode, model: boolean, pairing: Pairing): ContentBlock[] {
  checkKeys(b, c, CONTENT_KEYS, 'a Gemini content');
  const parts = field(c, 'parts') ?? { kind: 'array', offset: c.offset, items: [] };
  return partBlocks(b, parts, model, pairing);
}

/** Adjacent text blocks joined into one (a streamed answer's text comes in pieces). */
function joinText(blocks: readonly ContentBlock[]): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const bl of blocks) {
    const last = out[out.length - 1];
    if (bl.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', text: last.text + bl.text };
    else out.push(bl);
  }
  return out;
}

const hasCall = (blocks: readonly ContentBlock[]): boolean => blocks.some((x) => x.type === 'function_tool_call');

/**
 * Reads a list of contents into `b`, each one message, except that a `model` content that follows a
 * `model` content without a function call continues that answer (one assistant message, its parts in
 * order): @google/genai's Chat keeps a streamed answer in its history as one content per chunk, and sends
 * them so; the API streams text in pieces and the function calls whole, after it. A model content after
 * one with a call is another model call (the call went unanswered), as the reference replays it.
 * In an answer, adjacent text parts are one text (the pieces of a stream, or the part they make).
 */
function readContents(b: TranscriptBuilder, items: readonly Node[], pairing: Pairing, count = true): void {
  const list = objects(b, items, 'a content');
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (count) b.read();
    const model = roleOf(b, c) === 'model';
    const blocks = contentBlocks(b, c, model, pairing);
    let last = blocks;
    while (model && !hasCall(last) && i + 1 < list.length && roleOf(b, list[i + 1]!) === 'model') {
      i++;
      if (count) b.read();
      last = contentBlocks(b, list[i]!, true, pairing);
      append(blocks, last);
    }
    b.push({ kind: 'blocks', role: model ? 'assistant' : 'user', blocks: model ? joinText(blocks) : blocks }, c);
  }
}

/** The function declarations of `tools` as catalog tools (`tool_search` skipped with a warning). */
function readTools(b: TranscriptBuilder, tools: Node): CatalogTool[] {
  if (tools.kind !== 'array') throw b.error(tools, `"tools" must be a list, found ${kindName(tools)}`);
  const out: CatalogTool[] = [];
  const seen = new Set<string>();
  for (const t of objects(b, tools.items, 'a tool')) {
    checkKeys(b, t, TOOL_KEYS, 'a Gemini tool');
    for (const m of t.members.values())
      if (m.key !== 'functionDeclarations' && m.key !== 'function_declarations' && TOOL_KEYS.includes(m.key))
        b.skip(`provider tools (${m.key}): run by Google, not tools of the catalog`);
    const decls = g(t, 'functionDeclarations');
    if (decls === undefined || decls.kind === 'null') continue;
    if (decls.kind !== 'array') throw b.error(decls, `"functionDeclarations" must be a list, found ${kindName(decls)}`);
    for (const d of objects(b, decls.items, 'a function declaration')) {
      checkKeys(b, d, DECLARATION_KEYS, 'a Gemini function declaration');
      const name = optString(b, g(d, 'name'), 'function declaration name');
      if (name === 'tool_search') {
        b.warn(d, "skipped tool_search (the middleware's own tool, not a catalog tool)");
        continue;
      }
      if (seen.has(name)) throw b.error(d, `duplicate tool name ${JSON.stringify(name)}`);
      seen.add(name);
      const schema = g(d, 'parametersJsonSchema') ?? g(d, 'parameters');
      const source = locate(b.doc, d);
      const description = optString(b, g(d, 'description'), 'function declaration description');
      out.push(
        schema && schema.kind !== 'null'
          ? { name, description, static: false, source, parameters: toJsonValue(schema) }
          : { name, description, static: false, source },
      );
    }
  }
  return out;
}

/** The names of the functions a request declares (all sent as visible: Gemini has no deferred loading). */
function sentOf(tools: Node): SentTools {
  const names: string[] = [];
  for (const t of tools.kind === 'array' ? tools.items : []) {
    const decls = isObj(t) ? g(t, 'functionDeclarations') : undefined;
    if (decls?.kind !== 'array') continue;
    for (const d of decls.items) {
      const n = isObj(d) ? g(d, 'name') : undefined;
      if (n?.kind === 'string') names.push(toWellFormed(n.value));
    }
  }
  return { visible: names, deferred: [] };
}

/** Reads a request body's conversation (system instruction, then contents) into `b`. */
function readRequestBody(b: TranscriptBuilder, body: ObjectNode, pairing: Pairing, count: boolean): void {
  checkKeys(b, body, REQUEST_KEYS, 'a Gemini request');
  const system = g(body, 'systemInstruction');
  if (system !== undefined && system.kind !== 'null') {
    if (count) b.read();
    const blocks =
      system.kind === 'string'
        ? [{ type: 'text' as const, text: toWellFormed(system.value) }]
        : isObj(system)
          ? partBlocks(b, g(system, 'parts') ?? { kind: 'array', offset: system.offset, items: [] }, false, pairing)
          : [];
    if (isObj(system)) checkKeys(b, system, CONTENT_KEYS, 'a Gemini systemInstruction');
    else if (system.kind !== 'string')
      throw b.error(system, `"systemInstruction" must be a content or a string, found ${kindName(system)}`);
    b.push({ kind: 'blocks', role: 'system', blocks }, system);
  }
  const contents = g(body, 'contents');
  if (contents?.kind !== 'array') {
    throw b.error(contents ?? body, `a Gemini request needs "contents", a list, found ${kindName(contents)}`);
  }
  readContents(b, contents.items, pairing, count);
}

/** Appends a response's first candidate (the model's answer); returns false when it has none. */
function readResponse(b: TranscriptBuilder, res: ObjectNode, pairing: Pairing): void {
  checkKeys(b, res, RESPONSE_KEYS, 'a Gemini response');
  const candidates = g(res, 'candidates');
  if (candidates?.kind !== 'array' || candidates.items.length === 0) {
    b.unexplained(res, 'a Gemini response without candidates (blocked or empty)');
    return;
  }
  if (candidates.items.length > 1)
    b.skip(
      'candidates after the first (candidateCount > 1: the conversation goes on with candidate 0)',
      candidates.items.length - 1,
    );
  const first = candidates.items[0]!;
  if (!isObj(first)) throw b.error(first, `a candidate must be an object, found ${kindName(first)}`);
  checkKeys(b, first, CANDIDATE_KEYS, 'a Gemini candidate');
  const content = g(first, 'content');
  if (!isObj(content)) {
    b.unexplained(first, 'a Gemini candidate without "content"');
    return;
  }
  readContents(b, [content], pairing, false);
}

type Obj = { [key: string]: JsonValue };
const isPlain = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a JSON value is a chunk of a Gemini stream (a GenerateContentResponse). */
export function isGeminiChunk(v: JsonValue): boolean {
  return (
    isPlain(v) &&
    v.type === undefined &&
    v.object === undefined &&
    (Array.isArray(v.candidates) || isPlain(v.usageMetadata) || isPlain(v.promptFeedback))
  );
}

/**
 * The one GenerateContentResponse a stream's chunks (`streamGenerateContent`, with `alt=sse` or as a
 * JSON list) make: each candidate (by its `index`, else its place) with the parts of every chunk's
 * content in order, the chunk's role, and the last chunk's other fields (`finishReason`, ratings); the
 * response's other fields (`usageMetadata`, `modelVersion`, `responseId`) from the last chunk that has
 * them. Read as one answer, this is what @google/genai's Chat keeps in its history (one content per
 * chunk, consecutive model contents read as one answer, adjacent text pieces as one text).
 */
export function mergeGeminiChunks(chunks: readonly Obj[]): Obj {
  const candidates: Obj[] = [];
  const out: Obj = { candidates };
  for (const chunk of chunks) {
    for (const [k, v] of Object.entries(chunk)) if (k !== 'candidates') out[k] = v;
    const list = Array.isArray(chunk.candidates) ? chunk.candidates : [];
    list.forEach((cand, place) => {
      if (!isPlain(cand)) return;
      const i = typeof cand.index === 'number' ? cand.index : place;
      const into = (candidates[i] ??= { content: { parts: [] } });
      for (const [k, v] of Object.entries(cand)) {
        if (k !== 'content') into[k] = v;
        else if (isPlain(v)) {
          const content = into.content as Obj;
          if (v.role !== undefined) content.role = v.role;
          if (Array.isArray(v.parts)) append(content.parts as JsonValue[], v.parts);
        }
      }
    });
  }
  // A candidate no chunk had (an index past the others) is left out rather than a hole.
  out.candidates = candidates.filter((c) => c !== undefined);
  return out;
}

/**
 * Reads the answers of a stream of Gemini calls (an SSE transcript's assembled responses) into `b`:
 * one model call each, with no recorded input; calls without ids are named by their order in the file.
 */
export function readGeminiResponses(b: TranscriptBuilder, responses: readonly ObjectNode[]): void {
  const pairing = new Pairing();
  for (const res of responses) {
    b.read();
    readResponse(b, res, pairing);
  }
}

type Shape = 'request' | 'contents' | 'response' | 'pairs' | 'chunks';

function shapeOf(doc: ParsedDocument): { shape: Shape; n: number; model?: boolean } | null {
  const root = doc.root;
  if (isObj(root)) {
    if (g(root, 'contents')?.kind === 'array') return { shape: 'request', n: 1 };
    if (g(root, 'candidates')?.kind === 'array') return { shape: 'response', n: 1 };
    const req = field(root, 'request');
    if (isObj(req) && g(req, 'contents')?.kind === 'array') return { shape: 'pairs', n: 1 };
    return null;
  }
  if (root.kind !== 'array' || root.items.length === 0) return null;
  const chunks = root.items.filter(isChunkNode).length;
  if (chunks === root.items.length) return { shape: 'chunks', n: chunks };
  const pairs = root.items.filter((n) => {
    const req = isObj(n) ? field(n, 'request') : undefined;
    return isObj(req) && g(req, 'contents')?.kind === 'array';
  }).length;
  if (pairs > 0) return { shape: 'pairs', n: pairs };
  const contents = root.items.filter(isBareContent);
  if (contents.length === 0) return null;
  const model = contents.some(
    (n) =>
      (n as ObjectNode).members.get('role')?.value.kind === 'string' &&
      ((n as ObjectNode).members.get('role')!.value as { value: string }).value === 'model',
  );
  return { shape: 'contents', n: contents.length, model };
}

/** A `Content` and nothing else: only `role` and `parts`, parts without a `type` (other formats' parts have one). */
function isBareContent(n: Node): boolean {
  if (!isObj(n) || !isContent(n)) return false;
  for (const k of n.members.keys()) if (k !== 'role' && k !== 'parts') return false;
  const parts = g(n, 'parts') as { items: readonly Node[] };
  return parts.items.every((p) => isObj(p) && !p.members.has('type'));
}

const WHY: Readonly<Record<Shape, string>> = {
  request: 'a generateContent request body with "contents"',
  contents: 'contents with "parts"',
  response: 'a GenerateContentResponse with "candidates"',
  pairs: '{"request", "response"} lines whose request has "contents"',
  chunks: 'GenerateContentResponse chunks (streamGenerateContent without alt=sse)',
};

function detect(doc: ParsedDocument): Evidence | null {
  const s = shapeOf(doc);
  if (!s) return null;
  // Pairs outrank the call log's {request, response} lines (which take other providers' bodies).
  // Role "model" is Gemini's alone; plain {role, parts} contents weigh as much as other chat formats' messages.
  const score =
    s.shape === 'pairs'
      ? 2 * DISTINCTIVE + s.n
      : s.shape === 'contents'
        ? (s.model ? DISTINCTIVE : 0) + s.n + 0.45
        : s.shape === 'chunks'
          ? DISTINCTIVE + s.n
          : DISTINCTIVE + 2;
  return {
    score,
    detected_by:
      s.shape === 'contents'
        ? `${s.n} ${WHY.contents}${s.model ? ' (role "model" is Gemini\'s)' : ''}`
        : s.shape === 'chunks'
          ? `${s.n} ${WHY.chunks}`
          : WHY[s.shape],
  };
}

/** One generateContent call of a log (a line of pairs, an HTTP recording's exchange). */
export interface GeminiCall {
  readonly request: ObjectNode;
  /** The GenerateContentResponse; undefined or null when the log does not hold it. */
  readonly response: Node | undefined;
  /** What messages call it: `line 3`, `HAR entry 5`. */
  readonly label: string;
  /** Where the call is (its line or entry). */
  readonly at: Node;
}

/**
 * Reads generateContent calls in the order they were made into `b`, grouped into sessions by
 * continuity as every log of model calls is (calls.ts `groupCalls`: a request that extends an earlier
 * call's request and response continues that call's session); in a session, a call appends what its
 * request adds, then its response; the last request's tools are the session's own catalog.
 */
export function readGeminiCalls(b: TranscriptBuilder, calls: readonly GeminiCall[]): void {
  readSessions(
    b,
    calls.map((c) => geminiSessionCall(b, c)),
  );
}

/** One generateContent call read for calls.ts `readSessions` (its request, then its response, on their own). */
export function geminiSessionCall(b: TranscriptBuilder, call: GeminiCall): SessionCall {
  const { request: req, response: res, label, at } = call;
  const t = new TranscriptBuilder(b.doc, b.maxMessages, true);
  const pairing = new Pairing();
  readRequestBody(t, req, pairing, false);
  // The response continues this request's pairing (its calls are named after the request's).
  const r = new TranscriptBuilder(b.doc, b.maxMessages, true);
  if (isObj(res)) readResponse(r, res, pairing);
  else if (res !== undefined && res.kind !== 'null')
    r.unexplained(res, `${label}: "response" must be a GenerateContentResponse object, found ${kindName(res)}`);
  const tools = g(req, 'tools');
  const listed = tools !== undefined && tools.kind !== 'null';
  return {
    at,
    requestBuilder: t,
    responseBuilder: r,
    request: t.messages,
    response: r.messages,
    sent: listed ? sentOf(tools) : { visible: [], deferred: [] },
    tools: listed ? tools : undefined,
    catalog: readTools,
  };
}

function readPairs(b: TranscriptBuilder, items: readonly Node[]): void {
  const calls: GeminiCall[] = [];
  let line = 0;
  for (const n of items) {
    line++;
    const req = isObj(n) ? field(n, 'request') : undefined;
    if (!isObj(n) || !isObj(req)) {
      b.unexplained(n, `line ${line}: expected {"request": <generateContent body>, "response": <response>}`);
      continue;
    }
    calls.push({ request: req, response: field(n, 'response'), label: `line ${line}`, at: n });
    for (const m of n.members.values())
      if (m.key !== 'request' && m.key !== 'response')
        b.skip("a call line's metadata (keys other than request and response)");
  }
  readGeminiCalls(b, calls);
}

function read(doc: ParsedDocument, b: TranscriptBuilder): void {
  const s = shapeOf(doc);
  const root = doc.root;
  if (!s)
    throw b.error(
      root,
      'not a gemini recording: expected a generateContent request body {contents, ...}, a list of contents ' +
        `[{role, parts}], a response {candidates}, a list of response chunks or {request, response} lines; ` +
        `found ${kindName(root)}`,
    );
  const pairing = new Pairing();
  if (s.shape === 'request') {
    b.isRequest = true;
    readRequestBody(b, root as ObjectNode, pairing, true);
    const tools = g(root as ObjectNode, 'tools');
    if (tools !== undefined && tools.kind !== 'null') {
      b.tools = readTools(b, tools);
      b.requestTools = sentOf(tools);
    }
  } else if (s.shape === 'contents') readContents(b, (root as { items: readonly Node[] }).items, pairing);
  else if (s.shape === 'chunks') readChunks(b, (root as { items: readonly Node[] }).items);
  else if (s.shape === 'response') {
    b.read();
    readResponse(b, root as ObjectNode, pairing);
  } else readPairs(b, root.kind === 'array' ? root.items : [root]);
}

/** A GenerateContentResponse chunk as nodes (see {@link isGeminiChunk}). */
function isChunkNode(n: Node): boolean {
  if (!isObj(n) || n.members.has('type') || n.members.has('object')) return false;
  return g(n, 'candidates')?.kind === 'array' || isObj(g(n, 'usageMetadata')) || isObj(g(n, 'promptFeedback'));
}

/**
 * A list of GenerateContentResponse chunks (what streamGenerateContent answers without `alt=sse`, or its
 * chunks one per line): one response per run of chunks up to the one whose first candidate has a
 * `finishReason` (or whose `responseId` changes), merged as {@link mergeGeminiChunks} says; each is one
 * model call with no recorded input.
 */
function readChunks(b: TranscriptBuilder, items: readonly Node[]): void {
  const streams: Array<{ at: Node; chunks: Obj[] }> = [];
  let open: { at: Node; chunks: Obj[] } | null = null;
  for (const n of items) {
    const v = toJsonValue(n) as Obj;
    if (open && v.responseId !== undefined && open.chunks[0]!.responseId !== v.responseId) {
      b.unexplained(open.at, "a stream of chunks that ends before its candidate's finishReason");
      open = null;
    }
    if (!open) {
      open = { at: n, chunks: [] };
      streams.push(open);
    }
    open.chunks.push(v);
    const first = Array.isArray(v.candidates) ? v.candidates[0] : undefined;
    if (isPlain(first) && first.finishReason !== undefined) open = null;
  }
  if (open) b.unexplained(open.at, "a stream of chunks that ends before its candidate's finishReason");
  readGeminiResponses(
    b,
    streams.map((st) => nodesOf(mergeGeminiChunks(st.chunks), st.at.offset) as ObjectNode),
  );
}

/**
 * Gemini's keys in the wrong shape: a request body whose `contents` is not a list, or a list where
 * GenerateContentResponse chunks are most but not all of the items.
 */
function near(doc: ParsedDocument): NearMiss | null {
  const root = doc.root;
  if (root.kind === 'array') {
    const n = root.items.filter(isChunkNode).length;
    if (n === 0 || 2 * n < root.items.length) return null;
    return {
      score: DISTINCTIVE + n,
      found: `${n} GenerateContentResponse ${n === 1 ? 'chunk' : 'chunks'} among ${root.items.length} values`,
      expected: 'a list (or JSON lines) of GenerateContentResponse chunks only (streamGenerateContent)',
    };
  }
  if (!isObj(root)) return null;
  const contents = g(root, 'contents');
  if (contents === undefined || contents.kind === 'array') return null;
  return {
    score: DISTINCTIVE,
    found: `a request body whose "contents" is ${kindName(contents)}`,
    expected: '"contents" to be a list of {role, parts}',
  };
}

export const geminiReader: RecordingReader = {
  format: 'gemini',
  records: 'conversation',
  summary: 'Gemini generateContent bodies, contents, responses, call lines',
  shape:
    'gemini: Gemini generateContent request bodies {contents, systemInstruction, tools}, ' +
    'contents [{role, parts}], responses {candidates} or their stream chunks, or {request, response} lines',
  detect,
  near,
  read,
};
