/**
 * VCR cassettes, as test suites keep their HTTP traffic:
 *
 * - VCR.py and pytest-recording (which records with VCR.py): YAML (or
 *   VCR.py's JSON serializer) `{interactions: [{request: {body, headers,
 *   method, uri}, response: {body: {string}, headers, status: {code,
 *   message}}}], version: 1}` (vcr/serializers/compat.py, vcr/request.py,
 *   vcr/stubs). A body is text, or bytes that are not UTF-8 as `!!binary`
 *   base64 (PyYAML's dump of `bytes`): a response whose `Content-Encoding`
 *   is gzip is kept so, compressed, unless the cassette was recorded with
 *   `decode_compressed_response`. Headers are lists of values by name.
 * - Ruby's VCR: `{http_interactions: [{request: {method, uri, body:
 *   {encoding, string}, headers}, response: {status: {code, message},
 *   headers, body: {encoding, string | base64_string}, http_version},
 *   recorded_at}], recorded_with}`.
 *
 * Each interaction is one HTTP exchange (http.ts): model calls are read
 * as a call log, other requests skipped by rule and counted.
 */
import { field, type Node, type ObjectNode, type ParsedDocument, type StringNode } from '../../io/nodes.js';
import { checkKeys, type TranscriptBuilder } from '../transcript-common.js';
import { base64Body, headerMap, type HttpExchange, type RecordedBody, readHttpExchanges } from './http.js';
import { DISTINCTIVE, type Evidence, type ReadOptions, type RecordingReader } from './types.js';

const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);

/** The list of interactions, and which VCR wrote it. */
function cassette(doc: ParsedDocument): { list: readonly Node[]; ruby: boolean } | null {
  const root = doc.root;
  if (root.kind !== 'object') return null;
  const py = field(root, 'interactions');
  if (py?.kind === 'array') return { list: py.items, ruby: false };
  const rb = field(root, 'http_interactions');
  if (rb?.kind === 'array') return { list: rb.items, ruby: true };
  return null;
}

const isInteraction = (n: Node): n is ObjectNode =>
  n.kind === 'object' && field(n, 'request')?.kind === 'object' && field(n, 'response')?.kind === 'object';

function detect(doc: ParsedDocument): Evidence | null {
  const c = cassette(doc);
  if (!c) return null;
  const n = c.list.filter(isInteraction).length;
  const key = c.ruby ? 'http_interactions' : 'interactions';
  return {
    score: DISTINCTIVE + n,
    detected_by: `a VCR cassette: "${key}" with ${n} ${n === 1 ? 'interaction' : 'interactions'} {request, response}`,
  };
}

/** Headers `{Name: [values]}` (or a single value). */
function headersOf(n: Node | undefined): Map<string, string> {
  const pairs: Array<[string, string]> = [];
  if (n?.kind === 'object')
    for (const m of n.members.values()) {
      const v = m.value.kind === 'array' ? str(m.value.items[0]) : str(m.value);
      if (v !== null) pairs.push([m.key, v]);
    }
  return headerMap(pairs);
}

/**
 * A body: a string (text, or base64 when tagged `!!binary`), null or "" for none, or Ruby's and VCR.py's
 * `{string}` / `{encoding, base64_string}` object.
 */
function bodyOf(b: TranscriptBuilder, n: Node | undefined, what: string): RecordedBody | null {
  if (n === undefined || n.kind === 'null') return null;
  if (n.kind === 'object') {
    checkKeys(b, n, ['string', 'base64_string', 'encoding'], what);
    const base64 = field(n, 'base64_string');
    if (base64?.kind === 'string') return base64Body(b, base64, what);
    return bodyOf(b, field(n, 'string'), what);
  }
  if (n.kind !== 'string') {
    b.unexplained(n, `${what} must be text, found ${n.kind}`);
    return null;
  }
  if (n.binary) return base64Body(b, n as StringNode, what);
  return n.value === '' ? null : { kind: 'text', node: n };
}

const PY_REQUEST = ['body', 'headers', 'method', 'uri'];
const PY_RESPONSE = ['body', 'headers', 'status', 'url'];
const RB_REQUEST = ['method', 'uri', 'body', 'headers'];
const RB_RESPONSE = ['status', 'headers', 'body', 'http_version', 'adapter_metadata'];

function read(doc: ParsedDocument, b: TranscriptBuilder, options: ReadOptions): void {
  const c = cassette(doc);
  if (!c)
    throw b.error(
      doc.root,
      'not a VCR cassette: expected {"interactions": [{"request": ..., "response": ...}]} (VCR.py, ' +
        'pytest-recording) or {"http_interactions": [...]} (Ruby VCR)',
    );
  const exchanges: HttpExchange[] = [];
  c.list.forEach((n, i) => {
    const label = `interaction ${i + 1}`;
    if (!isInteraction(n)) {
      b.unexplained(n, `${label}: expected {"request": {...}, "response": {...}}`);
      return;
    }
    checkKeys(b, n, c.ruby ? ['request', 'response', 'recorded_at'] : ['request', 'response'], label);
    const req = field(n, 'request') as ObjectNode;
    const res = field(n, 'response') as ObjectNode;
    checkKeys(b, req, c.ruby ? RB_REQUEST : PY_REQUEST, `${label}'s request`);
    checkKeys(b, res, c.ruby ? RB_RESPONSE : PY_RESPONSE, `${label}'s response`);
    const statusNode = field(res, 'status');
    const code = statusNode?.kind === 'object' ? field(statusNode, 'code') : statusNode;
    exchanges.push({
      at: n,
      label,
      method: str(field(req, 'method')),
      url: str(field(req, 'uri')),
      status: code?.kind === 'number' ? code.value : null,
      request: bodyOf(b, field(req, 'body'), `${label}: the request body`),
      response: bodyOf(b, field(res, 'body'), `${label}: the response body`),
      requestHeaders: headersOf(field(req, 'headers')),
      responseHeaders: headersOf(field(res, 'headers')),
      encodedAsSent: true,
    });
  });
  readHttpExchanges(b, exchanges, options.limits);
}

export const vcrReader: RecordingReader = {
  format: 'vcr',
  records: 'calls',
  summary: 'VCR / pytest-recording cassettes (YAML) of model API calls',
  shape:
    'vcr: VCR cassettes (VCR.py / pytest-recording YAML {interactions: [{request, response}]}, ' +
    'bodies as text or !!binary; Ruby VCR http_interactions)',
  detect,
  read,
};
