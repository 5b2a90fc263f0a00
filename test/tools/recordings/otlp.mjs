/**
 * OpenTelemetry for the recording fixtures: a tracer provider (sdk-trace-base's BasicTracerProvider)
 * whose spans an InMemorySpanExporter keeps, with counting trace and span ids, and the spans written as
 * OTLP JSON by the OTLP transformer's JsonTraceSerializer (the bytes the OTLP/HTTP JSON exporter sends).
 * Times are pinned: each span starts and ends on its own millisecond, in the order the program started
 * and ended the spans (seen by a span processor, so the same at every run; the clock's own times tie
 * and swap between runs), from 2026-01-01T00:00:00Z; attributes that measure time (`pinned`) get a
 * fixed value.
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

/** Numbers each span's start and end in the order the program makes them. */
class Sequence {
  next = 0;
  marks = new Map();
  onStart(span) {
    this.marks.set(`${span.spanContext().spanId}:start`, this.next++);
  }
  onEnd(span) {
    this.marks.set(`${span.spanContext().spanId}:end`, this.next++);
  }
  forceFlush() {
    return Promise.resolve();
  }
  shutdown() {
    return Promise.resolve();
  }
}

export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const sequence = new Sequence();
  const provider = new BasicTracerProvider({
    idGenerator: new CountingIds(),
    spanProcessors: [sequence, new SimpleSpanProcessor(exporter)],
  });
  exporter.sequence = sequence;
  return { provider, exporter };
}

const BASE_MS = Date.parse('2026-01-01T00:00:00.000Z');

/** The finished spans as OTLP JSON text, times pinned (see above); `pinned(key)` names timing attributes. */
export function otlpJson(exporter, pinned = () => false) {
  const spans = exporter.getFinishedSpans();
  const { marks } = exporter.sequence;
  const time = (s, end) => {
    const ms = BASE_MS + marks.get(`${s.spanContext().spanId}:${end ? 'end' : 'start'}`);
    return [Math.floor(ms / 1000), (ms % 1000) * 1e6];
  };
  // One resource for all (the serializer groups spans by it): the default names the service after the
  // Node binary that ran the script; here it is the agent's name.
  const first = spans[0]?.resource;
  const resource = first ? { attributes: { ...first.attributes, 'service.name': 'atlas' } } : null;
  const out = spans.map((s) => {
    const pin = (attrs) => Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, pinned(k) ? 1 : v]));
    const attributes = pin(s.attributes);
    return Object.create(s, {
      startTime: { value: time(s, false) },
      endTime: { value: time(s, true) },
      duration: { value: [0, 1e6] },
      resource: { value: resource },
      attributes: { value: attributes },
      events: {
        value: s.events.map((e) => ({ ...e, time: time(s, false), attributes: pin(e.attributes ?? {}) })),
      },
    });
  });
  return new TextDecoder().decode(JsonTraceSerializer.serializeRequest(out));
}
