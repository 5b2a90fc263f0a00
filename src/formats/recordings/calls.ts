/**
 * Recordings of model calls as a client or proxy sees them:
 *
 * - `response`: one response object — a Chat Completions `chat.completion`
 *   (its first choice's message), a Responses `response` (its `output`
 *   items), or an Anthropic `message`. It is one model call with no
 *   recorded input: what the model answered, checked against call 1.
 * - `call-log`: JSON Lines where each line is one model call as a proxy
 *   logs it, `{request: <request body>, response: <response object>}`, for
 *   OpenAI Chat, OpenAI Responses and Anthropic. Each request holds the
 *   conversation so far: it must continue the conversation of the earlier
 *   lines (their requests and responses); only what is new is appended,
 *   then the response. A Responses request with `previous_response_id`
 *   carries only the new items. Each request's `tools` are the tools sent
 *   with that call (compared with the reference: `sent-differs`); the last
 *   request's tools are the recording's own catalog. Keys other than
 *   `request` and `response` on a line (timestamps, ids, status) are the
 *   proxy's metadata and not read.
 */
import { field, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import { readAnthropicMessages, readAnthropicSystem } from '../transcript-anthropic.js';
import { TranscriptBuilder } from '../transcript-common.js';
import { readOpenAIMessages } from '../transcript-openai.js';
import { readResponsesItems } from '../transcript-responses.js';
import { readCarriedTools } from './chat.js';
import { sentToolsOf } from './sent.js';
import { DISTINCTIVE, type Evidence, type RecordingReader } from './types.js';

type Provider = 'openai' | 'openai-responses' | 'anthropic';

const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);

/** Which provider a response object is from, or null. */
function responseProvider(n: Node | undefined): Provider | null {
  if (n?.kind !== 'object') return null;
  const object = str(field(n, 'object'));
  if (object === 'chat.completion' && field(n, 'choices')?.kind === 'array') return 'openai';
  if (object === 'response' && field(n, 'output')?.kind === 'array') return 'openai-responses';
  if (
    str(field(n, 'type')) === 'message' &&
    str(field(n, 'role')) === 'assistant' &&
    field(n, 'content')?.kind === 'array'
  )
    return 'anthropic';
  return null;
}

const PROVIDER_NAMES: Readonly<Record<Provider, string>> = {
  openai: 'a chat.completion',
  'openai-responses': 'a Responses "response"',
  anthropic: 'an Anthropic "message"',
};

/** Reads a response object's output (the assistant's answer) into `b`. */
function readResponse(b: TranscriptBuilder, node: ObjectNode, provider: Provider): void {
  if (provider === 'openai') {
    const choices = field(node, 'choices') as { items: readonly Node[] };
    const first = choices.items[0];
    if (first?.kind !== 'object') {
      b.unexplained(node, 'a chat.completion without choices');
      return;
    }
    if (choices.items.length > 1)
      b.skip('choices after the first (n > 1: the conversation goes on with choice 0)', choices.items.length - 1);
    const msg = field(first, 'message');
    if (msg?.kind !== 'object') {
      b.unexplained(first, 'a chat.completion choice without "message"');
      return;
    }
    const before = b.itemsRead;
    readOpenAIMessages(b, [msg]);
    b.itemsRead = before;
  } else if (provider === 'openai-responses') {
    const before = b.itemsRead;
    readResponsesItems(b, (field(node, 'output') as { items: readonly Node[] }).items);
    b.itemsRead = before;
  } else {
    const before = b.itemsRead;
    readAnthropicMessages(b, [node]);
    b.itemsRead = before;
  }
}

function detectResponse(doc: ParsedDocument): Evidence | null {
  const p = responseProvider(doc.root);
  return p ? { score: DISTINCTIVE + 1, detected_by: `${PROVIDER_NAMES[p]} response object` } : null;
}

function readResponseObject(doc: ParsedDocument, b: TranscriptBuilder): void {
  const p = responseProvider(doc.root);
  if (!p)
    throw b.error(
      doc.root,
      'not a response recording: expected a chat.completion, a Responses response or an Anthropic message object',
    );
  b.read();
  readResponse(b, doc.root as ObjectNode, p);
  // A Responses response echoes the tools it was sent.
  const tools = field(doc.root as ObjectNode, 'tools');
  if (p === 'openai-responses' && tools?.kind === 'array' && tools.items.length > 0) {
    b.sentTools.push(sentToolsOf(tools));
    b.tools = readCarriedTools(b, tools);
  }
}

export const responseReader: RecordingReader = {
  format: 'response',
  summary: 'one chat.completion, Responses response or Anthropic message',
  shape: 'response: one response object (chat.completion, Responses response, Anthropic message)',
  detect: detectResponse,
  read: readResponseObject,
};

function requestProvider(req: ObjectNode, res: Node | undefined): Provider | null {
  const fromResponse = responseProvider(res);
  if (fromResponse) return fromResponse;
  if (field(req, 'input') !== undefined) return 'openai-responses';
  if (field(req, 'system') !== undefined || field(req, 'max_tokens') !== undefined) return 'anthropic';
  if (field(req, 'messages') !== undefined) return 'openai';
  return null;
}

/** Reads one request's conversation into a fresh builder (same document, so locations stay right). */
function readRequest(b: TranscriptBuilder, req: ObjectNode, provider: Provider): TranscriptBuilder {
  const t = new TranscriptBuilder(b.doc, b.maxMessages, true);
  if (provider === 'openai-responses') {
    const instructions = field(req, 'instructions');
    if (instructions?.kind === 'string')
      t.push({ kind: 'blocks', role: 'system', blocks: [{ type: 'text', text: instructions.value }] }, instructions);
    const input = field(req, 'input');
    if (input?.kind === 'string')
      t.push({ kind: 'blocks', role: 'user', blocks: [{ type: 'text', text: input.value }] }, input);
    else if (input?.kind === 'array') readResponsesItems(t, input.items);
    else t.unexplained(req, 'a Responses request without "input"');
  } else {
    if (provider === 'anthropic') {
      const system = field(req, 'system');
      if (system && system.kind !== 'null') readAnthropicSystem(t, system);
    }
    const messages = field(req, 'messages');
    if (messages?.kind !== 'array') t.unexplained(req, 'a request without "messages"');
    else if (provider === 'anthropic') readAnthropicMessages(t, messages.items);
    else readOpenAIMessages(t, messages.items);
  }
  return t;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Appends one model call: the request's messages must start with the
 * conversation so far (else the line is not understood); the new ones are
 * appended, then the response's.
 */
function readCall(b: TranscriptBuilder, line: ObjectNode, call: number): Node | null {
  const req = field(line, 'request');
  const res = field(line, 'response');
  if (req?.kind !== 'object') {
    b.unexplained(line, `call log line ${call}: "request" must be a request body object`);
    return null;
  }
  const provider = requestProvider(req, res);
  if (!provider) {
    b.unexplained(
      req,
      `call log line ${call}: a request that is neither OpenAI Chat ("messages"), ` +
        `Responses ("input") nor Anthropic ("system"/"max_tokens")`,
    );
    return null;
  }
  const t = readRequest(b, req, provider);
  const continued = field(req, 'previous_response_id');
  let from = 0;
  if (!(continued?.kind === 'string')) {
    const n = b.messages.length;
    const differs = b.messages.findIndex((m, i) => !same(m, t.messages[i]));
    if (differs >= 0 || t.messages.length < n) {
      const at = differs >= 0 && differs < t.offsets.length ? t.offsets[differs]! : req.offset;
      b.unexplained(
        at,
        `call log line ${call}: the request does not continue the conversation of the earlier ` +
          `lines (message ${differs >= 0 ? differs : t.messages.length} differs)`,
      );
      return null;
    }
    from = n;
  }
  b.read();
  b.adopt(t, from);
  const tools = field(req, 'tools');
  b.sentTools.push(tools?.kind === 'array' ? sentToolsOf(tools) : { visible: [], deferred: [] });
  const provider2 = responseProvider(res);
  if (provider2 && res?.kind === 'object') readResponse(b, res, provider2);
  else if (res !== undefined && res.kind !== 'null')
    b.unexplained(
      res,
      `call log line ${call}: "response" is not a chat.completion, Responses response or Anthropic message`,
    );
  return tools?.kind === 'array' ? tools : null;
}

function callLines(doc: ParsedDocument): readonly ObjectNode[] | null {
  const root = doc.root;
  const items = root.kind === 'array' ? root.items : root.kind === 'object' ? [root] : [];
  const lines = items.filter((n): n is ObjectNode => n.kind === 'object' && field(n, 'request')?.kind === 'object');
  return lines.length > 0 ? lines : null;
}

function detectCallLog(doc: ParsedDocument): Evidence | null {
  const lines = callLines(doc);
  if (!lines) return null;
  return {
    score: DISTINCTIVE + lines.length,
    detected_by:
      `${lines.length} ${lines.length === 1 ? 'line' : 'lines'} of ` +
      `{"request": ..., "response": ...} (a proxy's call log)`,
  };
}

function readCallLog(doc: ParsedDocument, b: TranscriptBuilder): void {
  const root = doc.root;
  const items = root.kind === 'array' ? root.items : [root];
  let call = 0;
  let lastTools: Node | null = null;
  for (const n of items) {
    call++;
    if (n.kind !== 'object' || field(n, 'request')?.kind !== 'object') {
      b.unexplained(n, `call log line ${call}: expected {"request": <request body>, "response": <response>}`);
      continue;
    }
    lastTools = readCall(b, n, call) ?? lastTools;
  }
  // The last request's tools are the recording's own catalog (as a request body's are).
  if (lastTools) b.tools = readCarriedTools(b, lastTools);
}

export const callLogReader: RecordingReader = {
  format: 'call-log',
  summary: 'JSONL of {request, response}, one model call per line',
  shape:
    'call-log: JSONL of model calls as a proxy logs them, {request: <request body>, ' +
    'response: <response object>} (OpenAI Chat, Responses, Anthropic)',
  detect: detectCallLog,
  read: readCallLog,
};
