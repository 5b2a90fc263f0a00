/**
 * The protobuf decoding of OTLP trace exports against a plain encoder
 * written from opentelemetry-proto's field numbers (an obviously-correct
 * model: it only concatenates tags and values), on random spans; and the
 * export checks' messages. (The real exporters are compared end to end in
 * test/cli/watch/otlp.test.ts on Node >= 22.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTraceExport, exportSpans, ProtobufError } from '../../../src/formats/live/otlp.js';

const varint = (n: bigint): number[] => {
  const out: number[] = [];
  let v = BigInt.asUintN(64, n);
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? b | 0x80 : b);
  } while (v > 0n);
  return out;
};
const tag = (field: number, wire: number): number[] => varint(BigInt((field << 3) | wire));
const bytes = (field: number, b: number[]): number[] => [...tag(field, 2), ...varint(BigInt(b.length)), ...b];
const str = (field: number, s: string): number[] => bytes(field, [...Buffer.from(s, 'utf8')]);
const fixed64 = (field: number, n: bigint): number[] => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n);
  return [...tag(field, 1), ...b];
};
const double = (field: number, n: number): number[] => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(n);
  return [...tag(field, 1), ...b];
};
const hex = (h: string): number[] => [...Buffer.from(h, 'hex')];

type Value = { s: string } | { i: bigint } | { d: number } | { b: boolean } | { a: Value[] };
interface Attr {
  key: string;
  value: Value;
}
interface SpanModel {
  traceId: string;
  spanId: string;
  name: string;
  kind: number;
  start: bigint;
  attrs: Attr[];
}

function encodeValue(v: Value): number[] {
  if ('s' in v) return str(1, v.s);
  if ('b' in v) return [...tag(2, 0), v.b ? 1 : 0];
  if ('i' in v) return [...tag(3, 0), ...varint(v.i)];
  if ('d' in v) return double(4, v.d);
  return bytes(
    5,
    v.a.flatMap((x) => bytes(1, encodeValue(x))),
  );
}
const encodeAttr = (a: Attr): number[] => [...str(1, a.key), ...bytes(2, encodeValue(a.value))];
function encodeSpan(s: SpanModel): number[] {
  return [
    ...bytes(1, hex(s.traceId)),
    ...bytes(2, hex(s.spanId)),
    ...str(5, s.name),
    ...(s.kind !== 0 ? [...tag(6, 0), ...varint(BigInt(s.kind))] : []),
    ...fixed64(7, s.start),
    ...s.attrs.flatMap((a) => bytes(9, encodeAttr(a))),
  ];
}
function encodeExport(spans: SpanModel[]): Uint8Array {
  const scope = [...bytes(1, str(1, 'scope')), ...spans.flatMap((s) => bytes(2, encodeSpan(s)))];
  return Uint8Array.from(bytes(1, bytes(2, scope)));
}

function jsonValue(v: Value): unknown {
  if ('s' in v) return { stringValue: v.s };
  if ('b' in v) return { boolValue: v.b };
  if ('i' in v)
    return {
      intValue:
        v.i >= BigInt(Number.MIN_SAFE_INTEGER) && v.i <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v.i) : v.i.toString(),
    };
  if ('d' in v) return { doubleValue: v.d };
  return { arrayValue: v.a.length > 0 ? { values: v.a.map(jsonValue) } : {} };
}
function jsonExport(spans: SpanModel[]): unknown {
  return {
    resourceSpans: [
      {
        scopeSpans: [
          {
            scope: { name: 'scope' },
            ...(spans.length > 0
              ? {
                  spans: spans.map((s) => ({
                    traceId: s.traceId,
                    spanId: s.spanId,
                    name: s.name,
                    ...(s.kind !== 0 ? { kind: s.kind } : {}),
                    startTimeUnixNano: s.start.toString(),
                    ...(s.attrs.length > 0
                      ? { attributes: s.attrs.map((a) => ({ key: a.key, value: jsonValue(a.value) })) }
                      : {}),
                  })),
                }
              : {}),
          },
        ],
      },
    ],
  };
}

const value: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((t) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'grapheme' }).map((s) => ({ s })),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((i) => ({ i })),
    fc
      .double({ noNaN: true })
      .filter((d) => !Object.is(d, -0))
      .map((d) => ({ d })),
    fc.boolean().map((b) => ({ b })),
    fc.array(t('v'), { maxLength: 3 }).map((a) => ({ a })),
  ),
})).v;

const span: fc.Arbitrary<SpanModel> = fc.record({
  traceId: fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => Buffer.from(b).toString('hex')),
  spanId: fc.uint8Array({ minLength: 8, maxLength: 8 }).map((b) => Buffer.from(b).toString('hex')),
  name: fc.string(),
  kind: fc.integer({ min: 0, max: 5 }),
  start: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  attrs: fc.array(fc.record({ key: fc.string(), value }), { maxLength: 5 }),
});

describe('decodeTraceExport', () => {
  it('decodes what the plain encoder writes to the OTLP JSON encoding', () => {
    fc.assert(
      fc.property(fc.array(span, { maxLength: 4 }), (spans) => {
        expect(decodeTraceExport(encodeExport(spans))).toEqual(jsonExport(spans));
      }),
      { numRuns: 300 },
    );
  });

  it('skips unknown fields, refuses truncated or impossible input', () => {
    // An unknown field (99, varint) before a known one.
    expect(decodeTraceExport(Uint8Array.from([...tag(99, 0), 5, ...bytes(1, [])]))).toEqual({ resourceSpans: [{}] });
    expect(() => decodeTraceExport(Uint8Array.from([0x0a, 0x05, 1]))).toThrow(ProtobufError);
    expect(() => decodeTraceExport(Uint8Array.from([0x0a]))).toThrow('truncated varint at byte 1');
    expect(() => decodeTraceExport(Uint8Array.from([0x0b]))).toThrow('unsupported wire type 3');
    expect(() => decodeTraceExport(Uint8Array.from([0x08, 0x01]))).toThrow(
      'ExportTraceServiceRequest.resourceSpans: unexpected varint',
    );
    // Nesting past the bound (arrays of arrays).
    let deep = encodeValue({ s: 'x' });
    for (let i = 0; i < 40; i++) deep = bytes(5, bytes(1, deep));
    const attr = [...str(1, 'k'), ...bytes(2, deep)];
    const doc = Uint8Array.from(bytes(1, bytes(2, bytes(2, bytes(9, attr)))));
    expect(() => decodeTraceExport(doc)).toThrow('nesting deeper than 64 levels');
  });
});

describe('exportSpans', () => {
  it.each([
    [[], 'an OTLP export must be a JSON object ({"resourceSpans": [...]})'],
    [{ resourceSpans: {} }, '"resourceSpans" must be a list'],
    [{ resourceSpans: [1] }, 'resourceSpans[0] must be an object'],
    [{ resourceSpans: [{ scopeSpans: 1 }] }, 'resourceSpans[0].scopeSpans must be a list'],
    [
      { resourceSpans: [{ scopeSpans: [{ spans: [{}] }] }] },
      'resourceSpans[0].scopeSpans[0].spans[0] has no "traceId"',
    ],
  ])('%j: %s', (value, message) => {
    expect(exportSpans(value)).toBe(message);
  });

  it('keeps each span with its resource and scope; an export without spans is empty', () => {
    expect(exportSpans({})).toEqual([]);
    expect(
      exportSpans({
        resourceSpans: [
          { resource: { r: 1 }, scopeSpans: [{ scope: { s: 1 }, spans: [{ traceId: 'a' }, { traceId: 'b' }] }] },
        ],
      }),
    ).toEqual([
      { traceId: 'a', resource: { r: 1 }, scope: { s: 1 }, span: { traceId: 'a' } },
      { traceId: 'b', resource: { r: 1 }, scope: { s: 1 }, span: { traceId: 'b' } },
    ]);
  });
});
