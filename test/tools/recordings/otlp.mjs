/**
 * OpenTelemetry for the recording fixtures: a tracer provider (sdk-trace-base's BasicTracerProvider)
 * whose spans an InMemorySpanExporter keeps, with counting trace and span ids, and the spans written as
 * OTLP JSON by the OTLP transformer's JsonTraceSerializer (the bytes the OTLP/HTTP JSON exporter sends).
 * Times are pinned: each span starts and ends on its own millisecond, in the order the spans started
 * and ended (the order is what a reader uses), from 2026-01-01T00:00:00Z; attributes that measure time
 * (`pinned`) get a fixed value.
 */
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Ids that count up (trace ids 32 hex digits, span ids 16). */
class CountingIds {
  trace = 0;
  span = 0;
  generateTraceId() {
    return (++this.trace).toString(16).padStart(32, '0');
  }
  generateSpanId() {
    return (++this.span).toString(16).padStart(16, '0');
  }
}

/** The spans' resource names the service, not the Node binary that ran the script (the default). */
process.env.OTEL_SERVICE_NAME ??= 'atlas';

export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    idGenerator: new CountingIds(),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return { provider, exporter };
}

const BASE_MS = Date.parse('2026-01-01T00:00:00.000Z');

/** The finished spans as OTLP JSON text, times pinned (see above); `pinned(key)` names timing attributes. */
export function otlpJson(exporter, pinned = () => false) {
  const spans = exporter.getFinishedSpans();
  // Every start and end, in time order (ties: starts before ends, then file order), one millisecond apart.
  const marks = [];
  spans.forEach((s, i) => {
    marks.push({ t: s.startTime, i, end: false });
    marks.push({ t: s.endTime, i, end: true });
  });
  const ns = ([sec, nano]) => BigInt(sec) * 1_000_000_000n + BigInt(nano);
  marks.sort((a, b) => (ns(a.t) < ns(b.t) ? -1 : ns(a.t) > ns(b.t) ? 1 : a.end === b.end ? a.i - b.i : a.end ? 1 : -1));
  const at = new Map();
  marks.forEach((m, k) => at.set(`${m.i}:${m.end}`, [Math.floor((BASE_MS + k) / 1000), ((BASE_MS + k) % 1000) * 1e6]));
  const out = spans.map((s, i) => {
    const pin = (attrs) => Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, pinned(k) ? 1 : v]));
    const attributes = pin(s.attributes);
    return Object.create(s, {
      startTime: { value: at.get(`${i}:false`) },
      endTime: { value: at.get(`${i}:true`) },
      duration: { value: [0, 1e6] },
      attributes: { value: attributes },
      events: {
        value: s.events.map((e) => ({ ...e, time: at.get(`${i}:false`), attributes: pin(e.attributes ?? {}) })),
      },
    });
  });
  return new TextDecoder().decode(JsonTraceSerializer.serializeRequest(out));
}
