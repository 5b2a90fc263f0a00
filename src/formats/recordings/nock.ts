/**
 * nock recordings: what `nock.recorder.rec({output_objects: true})` gives
 * from `nock.recorder.play()` and what `nock.back` writes to its fixture
 * files — a JSON list of definitions `{scope, method, path, body, status,
 * response, rawHeaders, reqheaders?, responseIsBinary}` (nock 15
 * lib/recorder.js; nock 13 and 14 write the same keys). Bodies: a JSON
 * value as such; other text (a stream's server-sent events) as a string;
 * bytes that are not UTF-8 as a hex string (a response says so with
 * `responseIsBinary`); a response with a `Content-Encoding` as a list of hex
 * chunks (nock 13 one per data event), still encoded (nock 13, nock 14,
 * which compresses again what fetch decoded) or decoded under the header
 * (nock 15's fetch interception). `rawHeaders` is an object
 * (nock 14 and later) or the flat name/value list of older versions;
 * `headers` is the older name. The string form (`output_objects: false`)
 * is JavaScript source, not a recording, and is not read.
 *
 * Each definition is one HTTP exchange (http.ts): model calls are read as
 * a call log, other requests skipped by rule and counted.
 */
import { fromHex, looksGzipped, utf8 } from '../../io/decode.js';
import { field, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import { checkKeys, type TranscriptBuilder } from '../transcript-common.js';
import { headerMap, type HttpExchange, type RecordedBody, readHttpExchanges } from './http.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type ReadOptions, type RecordingReader } from './types.js';

/** The members of a nock definition (nock's `define()` reads these). */
const KEYS = [
  'scope',
  'method',
  'path',
  'body',
  'status',
  'response',
  'rawHeaders',
  'headers',
  'reqheaders',
  'badheaders',
  'responseIsBinary',
  'options',
];

const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);

const isDefinition = (n: Node): n is ObjectNode =>
  n.kind === 'object' &&
  str(field(n, 'scope')) !== null &&
  str(field(n, 'method')) !== null &&
  str(field(n, 'path')) !== null;

function definitions(doc: ParsedDocument): readonly Node[] | null {
  const root = doc.root;
  if (root.kind !== 'array') return null;
  return root.items.some(isDefinition) ? root.items : null;
}

function detect(doc: ParsedDocument): Evidence | null {
  const list = definitions(doc);
  if (!list) return null;
  const n = list.filter(isDefinition).length;
  return {
    score: DISTINCTIVE + n,
    detected_by:
      `${n} nock ${n === 1 ? 'definition' : 'definitions'} ` + `{"scope", "method", "path", ...} (nock's recorder)`,
  };
}

/** Headers: `rawHeaders` as an object or a flat list, or the older `headers` object (or `reqheaders`). */
function headersOf(raw: Node | undefined): Map<string, string> {
  const pairs: Array<[string, string]> = [];
  if (raw?.kind === 'array') {
    for (let i = 0; i + 1 < raw.items.length; i += 2) {
      const k = str(raw.items[i]);
      const v = str(raw.items[i + 1]);
      if (k !== null && v !== null) pairs.push([k, v]);
    }
  } else if (raw?.kind === 'object') {
    for (const m of raw.members.values()) {
      const v = m.value.kind === 'array' ? str(m.value.items[0]) : str(m.value);
      if (v !== null) pairs.push([m.key, v]);
    }
  }
  return headerMap(pairs);
}

/**
 * A request body: absent or "" is none; any JSON value but a string is itself; a string is text, or the
 * hex of bytes that are not UTF-8 (nock writes those so, with no flag for requests: a string of hex digits
 * whose bytes are not UTF-8 can only be that).
 */
function requestBody(n: Node | undefined): RecordedBody | null {
  if (n === undefined || n.kind === 'null') return null;
  if (n.kind !== 'string') return { kind: 'json', node: n };
  if (n.value === '') return null;
  if (n.value.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(n.value)) {
    const bytes = fromHex(n.value);
    if (bytes.ok && !utf8(bytes.value).ok) return { kind: 'bytes', at: n, bytes: bytes.value };
  }
  return { kind: 'text', node: n };
}

/**
 * The request's headers: `reqheaders` (recorded only with `enable_reqheaders_recording`); without
 * them, a body of bytes that start as gzip data is read as gzip (the client compressed it).
 */
function requestHeaders(def: ObjectNode, body: RecordedBody | null): Map<string, string> {
  const headers = headersOf(field(def, 'reqheaders'));
  if (body?.kind === 'bytes' && !headers.has('content-encoding') && looksGzipped(body.bytes))
    headers.set('content-encoding', 'gzip');
  return headers;
}

/** A response body: a JSON value, text, hex of binary (`responseIsBinary`), or hex chunks of encoded content. */
function responseBody(
  b: TranscriptBuilder,
  def: ObjectNode,
  headers: ReadonlyMap<string, string>,
  label: string,
): RecordedBody | null {
  const n = field(def, 'response');
  if (n === undefined || n.kind === 'null') return null;
  const binary = field(def, 'responseIsBinary');
  const chunks =
    n.kind === 'array' &&
    headers.has('content-encoding') &&
    n.items.length > 0 &&
    n.items.every((c) => c.kind === 'string' && /^[0-9a-fA-F]*$/.test(c.value));
  if (chunks || (n.kind === 'string' && binary?.kind === 'bool' && binary.value)) {
    const hex = n.kind === 'string' ? n.value : (n as { items: readonly Node[] }).items.map((c) => str(c)!).join('');
    const bytes = fromHex(hex);
    if (!bytes.ok) {
      b.unexplained(n, `${label}: the response: ${bytes.error}`);
      return null;
    }
    return { kind: 'bytes', at: n, bytes: bytes.value };
  }
  if (n.kind === 'string') return n.value === '' ? null : { kind: 'text', node: n };
  return { kind: 'json', node: n };
}

function read(doc: ParsedDocument, b: TranscriptBuilder, options: ReadOptions): void {
  const list = definitions(doc);
  if (!list)
    throw b.error(
      doc.root,
      'not a nock recording: expected a JSON list of nock definitions {"scope", "method", "path", "body", ' +
        '"status", "response"} (nock.recorder with output_objects: true, or a nock.back fixture)',
    );
  const exchanges: HttpExchange[] = [];
  list.forEach((n, i) => {
    const label = `nock definition ${i + 1}`;
    if (!isDefinition(n)) {
      b.unexplained(n, `${label}: expected {"scope", "method", "path", "body", "status", "response", ...}`);
      return;
    }
    checkKeys(b, n, KEYS, label);
    const headers = headersOf(field(n, 'rawHeaders') ?? field(n, 'headers'));
    const status = field(n, 'status');
    const scope = str(field(n, 'scope'))!.replace(/\/+$/, '');
    const request = requestBody(field(n, 'body'));
    exchanges.push({
      at: n,
      label,
      method: str(field(n, 'method')),
      url: scope + str(field(n, 'path')),
      status: status?.kind === 'number' ? status.value : null,
      request,
      response: responseBody(b, n, headers, label),
      requestHeaders: requestHeaders(n, request),
      responseHeaders: headers,
      encodedAsSent: true,
    });
  });
  readHttpExchanges(b, exchanges, options.limits);
}

/** Objects with two of nock's "scope", "method", "path" and a "status" or "rawHeaders": definitions missing a key. */
function nearKeys(items: readonly Node[]): NearMiss | null {
  const n = items.filter(
    (x) =>
      x.kind === 'object' &&
      ['scope', 'method', 'path'].filter((k) => x.members.has(k)).length >= 2 &&
      (x.members.has('status') || x.members.has('rawHeaders')),
  ).length;
  if (n === 0 || 2 * n < items.length) return null;
  return {
    score: DISTINCTIVE + n,
    found: `${n} ${n === 1 ? 'object' : 'objects'} with nock's keys but not all of "scope", "method", "path"`,
    expected: NOCK_EXPECTS,
  };
}

const NOCK_EXPECTS = 'nock definitions {"scope", "method", "path", "body", "status", "response"}';

/** A list of `{scope, method, ...}` objects without their `path`: nock's keys, not a definition. */
function near(doc: ParsedDocument): NearMiss | null {
  const root = doc.root;
  if (root.kind !== 'array') return null;
  const n = root.items.filter(
    (x) => x.kind === 'object' && str(field(x, 'scope')) !== null && str(field(x, 'method')) !== null,
  ).length;
  if (n === 0 || 2 * n < root.items.length) return nearKeys(root.items);
  return {
    score: DISTINCTIVE + n,
    found: `${n} ${n === 1 ? 'object' : 'objects'} with nock's "scope" and "method" but no "path" string`,
    expected: NOCK_EXPECTS,
  };
}

export const nockReader: RecordingReader = {
  format: 'nock',
  records: 'calls',
  summary: 'nock recorder JSON of HTTP calls to model APIs',
  shape:
    'nock: nock recordings, a JSON list of {scope, method, path, body, status, response} ' +
    '(nock.recorder output_objects, nock.back fixtures)',
  detect,
  near,
  read,
};
