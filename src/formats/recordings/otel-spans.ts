/**
 * The spans of OTLP JSON traces (`{resourceSpans: [{scopeSpans: [{spans:
 * [...]}]}]}`, as the OTLP/HTTP JSON exporter and collectors' file
 * exporter write them), with their attributes unwrapped, and the JSON text
 * some attributes hold, parsed with its nodes placed in the file. Shared by
 * the OTel reader (otel.ts) and its dialects (GenAI semantic conventions,
 * the AI SDK's spans, OpenInference's).
 */
import { parseEmbedded } from '../../io/embedded.js';
import { field, type Node, type ObjectNode, type ParsedDocument } from '../../io/nodes.js';
import type { Limits } from '../../io/read.js';
import type { TranscriptBuilder } from '../transcript-common.js';

export const str = (n: Node | undefined): string | null => (n?.kind === 'string' ? n.value : null);

export interface Span {
  readonly node: ObjectNode;
  readonly name: string;
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

/** Every span of the document (in file order), or null when it holds no `resourceSpans`. */
export function spansOf(doc: ParsedDocument): Span[] | null {
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
          out.push({ node: s, name: str(field(s, 'name')) ?? 'unnamed', start, attrs });
        }
      }
    }
  }
  return found ? out : null;
}

/**
 * The JSON text of an attribute (or of a string inside one), parsed, its nodes placed on the characters
 * of the attribute's string in the file; null (after recording why) when it is not JSON text.
 */
export function parseJsonText(b: TranscriptBuilder, v: Node, key: string, limits: Limits): Node | null {
  if (v.kind !== 'string') {
    b.unexplained(v, `${key} must be JSON text (a string attribute), found ${v.kind}`);
    return null;
  }
  const parsed = parseEmbedded(b.doc, v.value, v, v, limits);
  if ('error' in parsed) {
    b.unexplained(v, `${key} is not JSON: ${parsed.error}`);
    return null;
  }
  return parsed.root;
}

/** {@link parseJsonText} of the attribute `key`, or null when the span has none. */
export function parseAttr(b: TranscriptBuilder, s: Span, key: string, limits: Limits): Node | null {
  const v = s.attrs.get(key);
  return v === undefined ? null : parseJsonText(b, v, key, limits);
}
