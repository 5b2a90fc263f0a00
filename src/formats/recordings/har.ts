/**
 * HAR 1.2 files (HTTP Archive, W3C Web Performance "HAR 1.2" draft and
 * Jan Odvarko's specification): what browser devtools export, and what
 * Playwright (`recordHar`), mitmproxy and Proxyman write. `{log: {version,
 * creator, entries: [{startedDateTime, request: {method, url, headers,
 * postData: {mimeType, text}}, response: {status, headers, content:
 * {mimeType, text, encoding?}}, ...}]}}`. The content's text is kept
 * decoded (after `Content-Encoding`), as UTF-8 text or, with `encoding:
 * "base64"`, as base64 bytes. Entries are read in `startedDateTime` order
 * (the specification does not require the file to be sorted); keys the
 * specification does not have are an error, except custom fields, which
 * start with `_`.
 *
 * Each entry is one HTTP exchange (http.ts): model calls are read as a
 * call log, other requests (page loads, preflights, ...) skipped by rule
 * and counted.
 */
import { field, kindName, type Member, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import { checkKeys, type TranscriptBuilder } from '../transcript-common.js';
import { base64Body, headerMap, type HttpExchange, type RecordedBody, readHttpExchanges } from './http.js';
import { DISTINCTIVE, type Evidence, type NearMiss, type ReadOptions, type RecordingReader } from './types.js';

const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);

const ENTRY = [
  'pageref',
  'startedDateTime',
  'time',
  'request',
  'response',
  'cache',
  'timings',
  'serverIPAddress',
  'connection',
  'comment',
];
const REQUEST = [
  'method',
  'url',
  'httpVersion',
  'cookies',
  'headers',
  'queryString',
  'postData',
  'headersSize',
  'bodySize',
  'comment',
];
const RESPONSE = [
  'status',
  'statusText',
  'httpVersion',
  'cookies',
  'headers',
  'content',
  'redirectURL',
  'headersSize',
  'bodySize',
  'comment',
];
// `encoding` on postData is not in HAR 1.2; writers that keep a binary request body base64 add it.
const POST_DATA = ['mimeType', 'params', 'text', 'encoding', 'comment'];
const CONTENT = ['size', 'compression', 'mimeType', 'text', 'encoding', 'comment'];

function entries(doc: ParsedDocument): readonly Node[] | null {
  const root = doc.root;
  const log = root.kind === 'object' ? field(root, 'log') : undefined;
  const list = log?.kind === 'object' ? field(log, 'entries') : undefined;
  return list?.kind === 'array' ? list.items : null;
}

function detect(doc: ParsedDocument): Evidence | null {
  const list = entries(doc);
  if (!list) return null;
  const n = list.length;
  return {
    score: DISTINCTIVE + n,
    detected_by: `a HAR file: "log" with ${n} ${n === 1 ? 'entry' : 'entries'}`,
  };
}

/** Keys of the specification, custom `_` fields aside. */
function checkHarKeys(b: TranscriptBuilder, obj: ObjectNode, known: readonly string[], what: string): void {
  const members = new Map<string, Member>();
  for (const [k, m] of obj.members) if (!k.startsWith('_')) members.set(k, m);
  checkKeys(b, { kind: 'object', offset: obj.offset, members }, known, what);
}

/** Headers `[{name, value}]`. */
function headersOf(n: Node | undefined): Map<string, string> {
  const pairs: Array<[string, string]> = [];
  if (n?.kind === 'array')
    for (const h of n.items) {
      if (h.kind !== 'object') continue;
      const name = str(field(h, 'name'));
      const value = str(field(h, 'value'));
      if (name !== null && value !== null) pairs.push([name, value]);
    }
  return headerMap(pairs);
}

/** A `postData` or `content`: its text, base64 with `encoding: "base64"`; none without text or when empty. */
function bodyOf(
  b: TranscriptBuilder,
  n: Node | undefined,
  known: readonly string[],
  what: string,
): RecordedBody | null {
  if (n === undefined || n.kind === 'null') return null;
  if (n.kind !== 'object') {
    b.unexplained(n, `${what} must be an object, found ${n.kind}`);
    return null;
  }
  checkHarKeys(b, n, known, what);
  const text = field(n, 'text');
  if (text === undefined || text.kind === 'null') return null;
  if (text.kind !== 'string') {
    b.unexplained(text, `${what}'s "text" must be a string, found ${text.kind}`);
    return null;
  }
  if (text.value === '') return null;
  const encoding = str(field(n, 'encoding'));
  if (encoding === 'base64') return base64Body(b, text, what);
  if (encoding !== null) {
    b.unexplained(field(n, 'encoding')!, `${what}: unknown encoding ${JSON.stringify(encoding)} (HAR has "base64")`);
    return null;
  }
  return { kind: 'text', node: text };
}

/** Milliseconds of an entry's `startedDateTime`, or null. */
function startOf(entry: Node): number | null {
  const t = entry.kind === 'object' ? str(field(entry, 'startedDateTime')) : null;
  if (t === null) return null;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : ms;
}

function read(doc: ParsedDocument, b: TranscriptBuilder, options: ReadOptions): void {
  const list = entries(doc);
  if (!list) throw b.error(doc.root, 'not a HAR file: expected {"log": {"entries": [...]}} (HTTP Archive 1.2)');
  // In time order when every entry says when it started (a stable sort keeps ties in file order).
  const starts = list.map(startOf);
  const timed = starts.every((s) => s !== null);
  if (!timed && list.length > 1)
    b.warn(
      list[starts.indexOf(null)]!,
      'an entry without a readable "startedDateTime": entries are read in file order',
    );
  const order = list.map((_, i) => i);
  if (timed) order.sort((x, y) => starts[x]! - starts[y]!);
  const exchanges: HttpExchange[] = [];
  for (const i of order) {
    const n = list[i]!;
    const label = `HAR entry ${i + 1}`;
    const req = n.kind === 'object' ? field(n, 'request') : undefined;
    const res = n.kind === 'object' ? field(n, 'response') : undefined;
    if (n.kind !== 'object' || req?.kind !== 'object' || res?.kind !== 'object') {
      b.unexplained(n, `${label}: expected {"request": {...}, "response": {...}}`);
      continue;
    }
    checkHarKeys(b, n, ENTRY, label);
    checkHarKeys(b, req, REQUEST, `${label}'s request`);
    checkHarKeys(b, res, RESPONSE, `${label}'s response`);
    const status = field(res, 'status');
    exchanges.push({
      at: n,
      label,
      method: str(field(req, 'method')),
      url: str(field(req, 'url')),
      status: status?.kind === 'number' ? status.value : null,
      request: bodyOf(b, field(req, 'postData'), POST_DATA, `${label}'s postData`),
      response: bodyOf(b, field(res, 'content'), CONTENT, `${label}'s response content`),
      requestHeaders: headersOf(field(req, 'headers')),
      responseHeaders: headersOf(field(res, 'headers')),
      encodedAsSent: false,
    });
  }
  readHttpExchanges(b, exchanges, options.limits);
}

/** `{log: {...}}` whose `log` has no `entries` list (HAR's own keys, the wrong shape). */
function near(doc: ParsedDocument): NearMiss | null {
  const root = doc.root;
  const log = root.kind === 'object' ? field(root, 'log') : undefined;
  if (log?.kind !== 'object' || entries(doc)) return null;
  const has = ['version', 'creator', 'pages', 'entries'].filter((k) => log.members.has(k));
  if (has.length === 0) return null;
  const list = field(log, 'entries');
  return {
    score: DISTINCTIVE + has.length,
    found:
      list === undefined
        ? `a "log" with ${has.map((k) => JSON.stringify(k)).join(', ')} but no "entries"`
        : `a "log" whose "entries" is ${kindName(list)}`,
    expected: 'HAR 1.2\'s "log": {"entries": [{request, response}, ...]}',
  };
}

export const harReader: RecordingReader = {
  format: 'har',
  records: 'calls',
  summary: 'HAR 1.2 files (devtools, Playwright, mitmproxy): model API calls',
  shape:
    'har: HAR 1.2 files {log: {entries: [{request, response}]}} (browser devtools, Playwright, mitmproxy, Proxyman)',
  detect,
  near,
  read,
};
