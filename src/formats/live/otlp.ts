/**
 * OTLP/HTTP trace exports as `watch` receives them: the protobuf encoding
 * (`application/x-protobuf`, opentelemetry-proto's
 * ExportTraceServiceRequest) decoded to the OTLP JSON encoding the otel
 * reader (src/formats/recordings/otel.ts) reads — ids as hex, 64-bit
 * integers as numbers (decimal strings past 2^53), times as decimal strings, bytes as base64 — and an export split into
 * one OTLP JSON document per trace (a session).
 */

type Json = Record<string, unknown>;

/** A protobuf message field: its JSON name and how its value is written. */
type FieldKind =
  | 'string'
  | 'hex'
  | 'base64'
  | 'uint'
  | 'int64'
  | 'bool'
  | 'fixed64'
  | 'fixed32'
  | 'double'
  | { readonly message: string };
interface FieldDef {
  readonly name: string;
  readonly kind: FieldKind;
  readonly repeated?: boolean;
}

const M = (message: string): { message: string } => ({ message });

/** The messages of opentelemetry/proto/collector/trace/v1 and what they use. */
const SCHEMA: Readonly<Record<string, Readonly<Record<number, FieldDef>>>> = {
  ExportTraceServiceRequest: { 1: { name: 'resourceSpans', kind: M('ResourceSpans'), repeated: true } },
  ResourceSpans: {
    1: { name: 'resource', kind: M('Resource') },
    2: { name: 'scopeSpans', kind: M('ScopeSpans'), repeated: true },
    3: { name: 'schemaUrl', kind: 'string' },
  },
  Resource: {
    1: { name: 'attributes', kind: M('KeyValue'), repeated: true },
    2: { name: 'droppedAttributesCount', kind: 'uint' },
  },
  ScopeSpans: {
    1: { name: 'scope', kind: M('InstrumentationScope') },
    2: { name: 'spans', kind: M('Span'), repeated: true },
    3: { name: 'schemaUrl', kind: 'string' },
  },
  InstrumentationScope: {
    1: { name: 'name', kind: 'string' },
    2: { name: 'version', kind: 'string' },
    3: { name: 'attributes', kind: M('KeyValue'), repeated: true },
    4: { name: 'droppedAttributesCount', kind: 'uint' },
  },
  Span: {
    1: { name: 'traceId', kind: 'hex' },
    2: { name: 'spanId', kind: 'hex' },
    3: { name: 'traceState', kind: 'string' },
    4: { name: 'parentSpanId', kind: 'hex' },
    5: { name: 'name', kind: 'string' },
    6: { name: 'kind', kind: 'uint' },
    7: { name: 'startTimeUnixNano', kind: 'fixed64' },
    8: { name: 'endTimeUnixNano', kind: 'fixed64' },
    9: { name: 'attributes', kind: M('KeyValue'), repeated: true },
    10: { name: 'droppedAttributesCount', kind: 'uint' },
    11: { name: 'events', kind: M('Event'), repeated: true },
    12: { name: 'droppedEventsCount', kind: 'uint' },
    13: { name: 'links', kind: M('Link'), repeated: true },
    14: { name: 'droppedLinksCount', kind: 'uint' },
    15: { name: 'status', kind: M('Status') },
    16: { name: 'flags', kind: 'fixed32' },
  },
  Event: {
    1: { name: 'timeUnixNano', kind: 'fixed64' },
    2: { name: 'name', kind: 'string' },
    3: { name: 'attributes', kind: M('KeyValue'), repeated: true },
    4: { name: 'droppedAttributesCount', kind: 'uint' },
  },
  Link: {
    1: { name: 'traceId', kind: 'hex' },
    2: { name: 'spanId', kind: 'hex' },
    3: { name: 'traceState', kind: 'string' },
    4: { name: 'attributes', kind: M('KeyValue'), repeated: true },
    5: { name: 'droppedAttributesCount', kind: 'uint' },
    6: { name: 'flags', kind: 'fixed32' },
  },
  Status: { 2: { name: 'message', kind: 'string' }, 3: { name: 'code', kind: 'uint' } },
  KeyValue: { 1: { name: 'key', kind: 'string' }, 2: { name: 'value', kind: M('AnyValue') } },
  AnyValue: {
    1: { name: 'stringValue', kind: 'string' },
    2: { name: 'boolValue', kind: 'bool' },
    3: { name: 'intValue', kind: 'int64' },
    4: { name: 'doubleValue', kind: 'double' },
    5: { name: 'arrayValue', kind: M('ArrayValue') },
    6: { name: 'kvlistValue', kind: M('KeyValueList') },
    7: { name: 'bytesValue', kind: 'base64' },
  },
  ArrayValue: { 1: { name: 'values', kind: M('AnyValue'), repeated: true } },
  KeyValueList: { 1: { name: 'values', kind: M('KeyValue'), repeated: true } },
};

/** A protobuf export that cannot be decoded. */
export class ProtobufError extends Error {}

const MAX_NESTING = 64;

class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError(`truncated varint at byte ${this.pos}`);
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
    throw new ProtobufError(`varint longer than 10 bytes at byte ${this.pos}`);
  }

  bytes(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.end) throw new ProtobufError(`field runs past the end at byte ${this.pos}`);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function hex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

function base64(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s);
}

function decodeMessage(type: string, r: Reader, depth: number): Json {
  if (depth > MAX_NESTING) throw new ProtobufError(`nesting deeper than ${MAX_NESTING} levels`);
  const schema = SCHEMA[type]!;
  const out: Json = {};
  while (r.pos < r.end) {
    const tag = r.varint();
    const fieldNo = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    const def = schema[fieldNo];
    let value: unknown;
    switch (wire) {
      case 0: {
        const v = r.varint();
        if (!def) continue;
        if (def.kind === 'bool') value = v !== 0n;
        else if (def.kind === 'int64') {
          // A number when exact (as the JavaScript JSON exporter writes it), else the decimal string of the mapping.
          const i = BigInt.asIntN(64, v);
          value =
            i >= BigInt(Number.MIN_SAFE_INTEGER) && i <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(i) : i.toString();
        } else if (def.kind === 'uint') value = Number(BigInt.asUintN(32, v));
        else throw new ProtobufError(`${type}.${def.name}: unexpected varint`);
        break;
      }
      case 1: {
        const b = r.bytes(8);
        if (!def) continue;
        const view = new DataView(b.buffer, b.byteOffset, 8);
        if (def.kind === 'fixed64') value = view.getBigUint64(0, true).toString();
        else if (def.kind === 'double') value = view.getFloat64(0, true);
        else throw new ProtobufError(`${type}.${def.name}: unexpected 64-bit value`);
        break;
      }
      case 5: {
        const b = r.bytes(4);
        if (!def) continue;
        if (def.kind !== 'fixed32') throw new ProtobufError(`${type}.${def.name}: unexpected 32-bit value`);
        value = new DataView(b.buffer, b.byteOffset, 4).getUint32(0, true);
        break;
      }
      case 2: {
        const n = Number(r.varint());
        const b = r.bytes(n);
        if (!def) continue;
        const k = def.kind;
        if (typeof k === 'object') value = decodeMessage(k.message, new Reader(b, 0, b.length), depth + 1);
        else if (k === 'string') {
          try {
            value = decoder.decode(b);
          } catch {
            throw new ProtobufError(`${type}.${def.name}: not UTF-8`);
          }
        } else if (k === 'hex') value = hex(b);
        else if (k === 'base64') value = base64(b);
        else throw new ProtobufError(`${type}.${def.name}: unexpected length-delimited value`);
        break;
      }
      default:
        throw new ProtobufError(`unsupported wire type ${wire} (field ${fieldNo} of ${type}) at byte ${r.pos}`);
    }
    if (def!.repeated) ((out[def!.name] ??= []) as unknown[]).push(value);
    else out[def!.name] = value;
  }
  return out;
}

/** An ExportTraceServiceRequest in protobuf, as OTLP JSON. Throws {@link ProtobufError}. */
export function decodeTraceExport(bytes: Uint8Array): Json {
  return decodeMessage('ExportTraceServiceRequest', new Reader(bytes, 0, bytes.length), 0);
}

const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One span of an export with the resource and scope it came under. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly resource: unknown;
  readonly scope: unknown;
  readonly span: Json;
}

/**
 * The spans of an OTLP JSON export, or an error message when it is not one
 * (the receiver answers that with 400 and counts it).
 */
export function exportSpans(value: unknown): ReceivedSpan[] | string {
  if (!isObj(value)) return 'an OTLP export must be a JSON object ({"resourceSpans": [...]})';
  const rs = value.resourceSpans;
  if (rs === undefined) return [];
  if (!Array.isArray(rs)) return '"resourceSpans" must be a list';
  const out: ReceivedSpan[] = [];
  for (const [i, r] of rs.entries()) {
    if (!isObj(r)) return `resourceSpans[${i}] must be an object`;
    const ss = r.scopeSpans ?? r.instrumentationLibrarySpans ?? [];
    if (!Array.isArray(ss)) return `resourceSpans[${i}].scopeSpans must be a list`;
    for (const [j, s] of ss.entries()) {
      if (!isObj(s)) return `resourceSpans[${i}].scopeSpans[${j}] must be an object`;
      const spans = s.spans ?? [];
      if (!Array.isArray(spans)) return `resourceSpans[${i}].scopeSpans[${j}].spans must be a list`;
      for (const [k, span] of spans.entries()) {
        const where = `resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`;
        if (!isObj(span)) return `${where} must be an object`;
        if (typeof span.traceId !== 'string' || span.traceId === '') return `${where} has no "traceId"`;
        out.push({ traceId: span.traceId, resource: r.resource ?? {}, scope: s.scope ?? {}, span });
      }
    }
  }
  return out;
}

/** The spans of one trace as an OTLP JSON document (one resourceSpans entry per span, in arrival order). */
export function traceDocument(spans: readonly ReceivedSpan[]): Json {
  return {
    resourceSpans: spans.map((s) => ({ resource: s.resource, scopeSpans: [{ scope: s.scope, spans: [s.span] }] })),
  };
}
