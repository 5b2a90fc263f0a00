/**
 * `watch`'s OTLP/HTTP receiver. On every Node: exports POSTed as the OTLP
 * JSON encoding (plain and gzip) of a GenAI trace, sent in two parts, read
 * live as the otel reader reads the whole file; two traces are two sessions;
 * credential attributes never reach a file or the screen. On Node >= 22 (the
 * OpenTelemetry 0.301 exporters need it): the real exporters, JSON and
 * protobuf (gzip), sending the same spans, and an AI SDK agent with
 * telemetry on.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SimulationReport, TurnReport } from '../../../src/jobs/simulate/report.js';
import type { WatchLine } from '../../../src/jobs/watch/live.js';
import { DEMO, run } from '../helpers.js';
import { startWatch, type Watching } from './helpers.js';

const NODE = Number(process.versions.node.split('.')[0]);
const EXPORTERS_OK = NODE >= 22;
if (!EXPORTERS_OK)
  console.log(
    `watch OTLP: the real-exporter tests are skipped on Node ${NODE} ` +
      '(@opentelemetry/exporter-trace-otlp-* 0.301 need Node >= 22.15)',
  );

const FIXTURE = 'fixtures/transcripts/keyword-search-then-call.otel.json';
const SECRET = 'Bearer SECRET-otlp-token';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}
interface Export {
  resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ scope: unknown; spans: OtlpSpan[] }> }>;
}

const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Export;
const fixtureSpans = fixture.resourceSpans[0]!.scopeSpans[0]!.spans;

function exportOf(spans: OtlpSpan[]): Export {
  return {
    resourceSpans: [
      {
        resource: fixture.resourceSpans[0]!.resource,
        scopeSpans: [{ scope: fixture.resourceSpans[0]!.scopeSpans[0]!.scope, spans }],
      },
    ],
  };
}

let dir: string;
let watching: Watching | null = null;
let expected: SimulationReport;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watch-otlp-'));
  const r = await run(['simulate', FIXTURE, '-c', DEMO, '--json', '--no-tokens']);
  expect(r.code).toBe(0);
  expected = JSON.parse(r.stdout) as SimulationReport;
});
afterEach(async () => {
  if (watching && watching.child.exitCode === null) await watching.stop();
  watching = null;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function replayTurns(file: string): Promise<TurnReport[][]> {
  const r = await run(['simulate', file, '--jsonl-input', 'sessions', '--jsonl', '--no-tokens', '-c', DEMO]);
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { report: SimulationReport }).report.turns as TurnReport[]);
}

describe('watch: OTLP JSON exports', () => {
  it('reads a trace sent in two exports live as simulate reads the file; two traces, two sessions', async () => {
    const out = join(dir, 'json.jsonl');
    watching = await startWatch(['--jsonl', '-c', DEMO, '-o', out]);
    const withSecret = fixtureSpans.map((s, i) =>
      i === 1
        ? {
            ...s,
            attributes: [...s.attributes, { key: 'http.request.header.authorization', value: { stringValue: SECRET } }],
          }
        : s,
    );
    const post = (body: Buffer | string, gzip = false): Promise<Response> =>
      fetch(`${watching!.url}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
        body: typeof body === 'string' ? body : new Uint8Array(body),
      });
    // The agent span and the first two model calls, then the rest (gzip).
    expect((await post(JSON.stringify(exportOf(withSecret.slice(0, 3))))).status).toBe(200);
    const firstTwo = await watching.waitLines(2);
    expect(firstTwo.map((l) => l.call)).toEqual([1, 2]);
    const res = await post(gzipSync(JSON.stringify(exportOf(withSecret.slice(3)))), true);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{}');
    const lines = await watching.waitLines(4);
    expect(lines.map((l) => [l.source, l.session, l.trace_id, l.call])).toEqual(
      [1, 2, 3, 4].map((c) => ['otlp', 's1', fixtureSpans[0]!.traceId, c]),
    );
    // The turns are the file's turns (calls 1 and 2 were read before their search results came).
    expect(lines.slice(2).map((l) => l.turn)).toEqual(expected.turns.slice(2));
    expect(lines.flatMap((l) => l.violations)).toEqual(expected.violations);
    // A second trace: a second session.
    const other = fixtureSpans.map((s) => ({ ...s, traceId: '0123456789abcdef0123456789abcdef' }));
    expect((await post(JSON.stringify(exportOf(other)))).status).toBe(200);
    const all = await watching.waitLines(8);
    expect(all.slice(4).map((l) => [l.session, l.call])).toEqual([
      ['s2', 1],
      ['s2', 2],
      ['s2', 3],
      ['s2', 4],
    ]);
    expect(all.slice(4).map((l) => l.turn)).toEqual(expected.turns);
    // Those lines whole: the session, its trace, the call, its turn and the violations found at it.
    expect(all.slice(4)).toEqual(
      expected.turns.map((turn) => ({
        schema_version: 1,
        source: 'otlp',
        session: 's2',
        trace_id: '0123456789abcdef0123456789abcdef',
        call: turn.call,
        engine: 'eino',
        turn,
        violations: expected.violations.filter((v) => v.call === turn.call),
      })),
    );
    const stopped = await watching.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toMatch(
      /2 sessions, 8 model calls, 0 proxied requests \(0 failed\), 3 OTLP exports \(10 spans\), 0 rejected/,
    );
    const recorded = readFileSync(out, 'utf8');
    expect(recorded).not.toContain('SECRET');
    expect(stopped.stdout).not.toContain('SECRET');
    expect(recorded).not.toContain('http.request.header.authorization');
    expect(await replayTurns(out)).toEqual([expected.turns, expected.turns]);
  });
});

describe('watch: OTLP sessions by trace, then continuity', () => {
  it('a trace whose conversation continues a session joins it; -o replays as one session', async () => {
    const out = join(dir, 'continued.jsonl');
    watching = await startWatch(['--jsonl', '-c', DEMO, '-o', out]);
    const post = (spans: OtlpSpan[]): Promise<Response> =>
      fetch(`${watching!.url}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(exportOf(spans)),
      });
    // The agent run and its first two model calls in one trace, the last two model calls in another.
    const later = fixtureSpans.slice(3).map((s) => ({ ...s, traceId: 'fedcba9876543210fedcba9876543210' }));
    expect((await post(fixtureSpans.slice(0, 3))).status).toBe(200);
    await watching.waitLines(2);
    expect((await post(later)).status).toBe(200);
    const lines = await watching.waitLines(4);
    expect(lines.map((l) => [l.session, l.trace_id, l.call])).toEqual(
      [1, 2, 3, 4].map((c) => ['s1', fixtureSpans[0]!.traceId, c]),
    );
    expect(lines.slice(2).map((l) => l.turn)).toEqual(expected.turns.slice(2));
    const stopped = await watching.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toMatch(/1 sessions, 4 model calls, .* 2 OTLP exports \(5 spans\)/);
    expect(await replayTurns(out)).toEqual([expected.turns]);
  });
});

/** Sends the fixture's spans through a real OTLP exporter, with their names, kinds, times and attributes. */
async function exportWithRealExporter(
  url: string,
  kind: 'json' | 'proto',
  compression: 'gzip' | 'none',
): Promise<void> {
  const api = await import('@opentelemetry/api');
  const { TracerProvider, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace');
  const { OTLPTraceExporter } =
    kind === 'json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  const exporter = new OTLPTraceExporter({ url: `${url}/v1/traces`, compression: compression as never });
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: exporter })] });
  const tracer = provider.getTracer('opentelemetry.instrumentation.genai', '0.47.0');
  const time = (ns: string): [number, number] => [
    Number(BigInt(ns) / 1_000_000_000n),
    Number(BigInt(ns) % 1_000_000_000n),
  ];
  const value = (v: Record<string, unknown>): string | number | boolean =>
    (v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue))) as string;
  const [root, ...children] = fixtureSpans;
  const parent = tracer.startSpan(root!.name, {
    kind: root!.kind - 1,
    startTime: time(root!.startTimeUnixNano),
    attributes: Object.fromEntries(root!.attributes.map((a) => [a.key, value(a.value)])),
  });
  const ctx = api.trace.setSpan(api.context.active(), parent);
  for (const s of children) {
    const span = tracer.startSpan(
      s.name,
      {
        kind: s.kind - 1,
        startTime: time(s.startTimeUnixNano),
        attributes: Object.fromEntries(s.attributes.map((a) => [a.key, value(a.value)])),
      },
      ctx,
    );
    span.end(time(s.endTimeUnixNano));
    // One export at a time: SimpleSpanProcessor sends each span as it ends, and two requests in flight may arrive in
    // either order (a tool span before its model call reads, for that moment, as a session with no model call).
    await provider.forceFlush();
  }
  parent.end(time(root!.endTimeUnixNano));
  await provider.forceFlush();
  await provider.shutdown();
}

describe.skipIf(!EXPORTERS_OK)('watch: the real OTLP exporters (Node >= 22)', () => {
  for (const [kind, compression] of [
    ['json', 'none'],
    ['proto', 'none'],
    ['proto', 'gzip'],
  ] as const) {
    const name = `exporter-trace-otlp-${kind === 'json' ? 'http' : 'proto'}`;
    it(`reads what ${name} sends (compression ${compression})`, async () => {
      const out = join(dir, `real-${kind}-${compression}.jsonl`);
      watching = await startWatch(['--jsonl', '-c', DEMO, '-o', out]);
      await exportWithRealExporter(watching.url, kind, compression);
      const lines = await watching.waitLines(4);
      expect(lines.map((l) => [l.session, l.call])).toEqual([1, 2, 3, 4].map((c) => ['s1', c]));
      expect(lines.at(-1)!.turn).toEqual(expected.turns.at(-1));
      const stopped = await watching.stop();
      expect(stopped.stderr).toMatch(/5 spans\), 0 rejected/);
      expect(await replayTurns(out)).toEqual([expected.turns]);
    });
  }

  it('receives an AI SDK agent with telemetry on, the same over JSON and protobuf', async () => {
    const { generateText, stepCountIs, tool } = await import('ai');
    const { MockLanguageModelV3 } = await import('ai/test');
    const { z } = await import('zod');
    const { TracerProvider, SimpleSpanProcessor, InMemorySpanExporter } = await import('@opentelemetry/sdk-trace');
    // What NodeSDK registers: the AI SDK's spans find their parent through the active context.
    const api = await import('@opentelemetry/api');
    const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
    api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const usage = {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 5, text: 5, reasoning: 0 },
    };
    const call = (id: string, toolName: string, input: unknown) => ({
      type: 'tool-call' as const,
      toolCallId: id,
      toolName,
      input: JSON.stringify(input),
    });
    const recordings: string[] = [];
    for (const kind of ['json', 'proto'] as const) {
      const out = join(dir, `ai-${kind}.jsonl`);
      watching = await startWatch(['--jsonl', '-o', out]);
      const { OTLPTraceExporter } =
        kind === 'json'
          ? await import('@opentelemetry/exporter-trace-otlp-http')
          : await import('@opentelemetry/exporter-trace-otlp-proto');
      const memory = new InMemorySpanExporter();
      const provider = new TracerProvider({
        spanProcessors: [
          new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${watching.url}/v1/traces` }) }),
          new SimpleSpanProcessor({ exporter: memory }),
        ],
      });
      const model = new MockLanguageModelV3({
        doGenerate: [
          {
            content: [call('c1', 'tool_search', { query: 'weather' })],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          },
          {
            content: [call('c2', 'get_weather', { city: 'Paris' })],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          },
          {
            content: [{ type: 'text', text: 'Sunny.' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          },
        ],
      });
      const result = await generateText({
        model,
        prompt: 'Weather in Paris?',
        tools: {
          tool_search: tool({
            description: 'search tools',
            inputSchema: z.object({ query: z.string() }),
            execute: async () => '{"matches":["get_weather"]}',
          }),
          get_weather: tool({
            description: 'weather',
            inputSchema: z.object({ city: z.string() }),
            execute: async () => 'sunny',
          }),
        },
        stopWhen: stepCountIs(5),
        experimental_telemetry: { isEnabled: true, tracer: provider.getTracer('ai') },
      });
      expect(result.text).toBe('Sunny.');
      await provider.forceFlush();
      const sent = memory.getFinishedSpans().length;
      expect(sent).toBeGreaterThanOrEqual(4);
      await provider.shutdown();
      const stopped = await watching.stop();
      expect(stopped.code).toBe(0);
      // Every span the SDK finished reached watch, in one session (one trace).
      expect(stopped.stderr).toMatch(new RegExp(`1 sessions, \\d+ model calls, .* \\(${sent} spans\\), 0 rejected`));
      // The agent's three model calls, live, in one session; -o replays to the same turns and violations.
      const lines = stopped.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as WatchLine);
      expect(lines.map((l) => [l.source, l.session, l.call, l.turn?.tool_calls.map((c) => c.name)])).toEqual([
        ['otlp', 's1', 1, ['tool_search']],
        ['otlp', 's1', 2, ['get_weather']],
        ['otlp', 's1', 3, []],
      ]);
      const replayed = await run(['simulate', out, '--jsonl-input', 'sessions', '--jsonl', '--no-tokens']);
      expect(replayed.code).toBe(0);
      const report = (JSON.parse(replayed.stdout) as { report: SimulationReport }).report;
      // A search's result reaches watch with the next call's span: compare each turn without it.
      const settled = (t: TurnReport): unknown => ({
        ...t,
        searches: t.searches.map(({ recorded, recorded_text, differs, ...rest }) => rest),
      });
      expect(report.turns.map(settled)).toEqual(lines.map((l) => settled(l.turn!)));
      expect(report.violations).toEqual(lines.flatMap((l) => l.violations));
      recordings.push(readFileSync(out, 'utf8'));
    }
    // A second run of the same agent goes on from the first's messages: a trace of its own, the same session.
    const out = join(dir, 'ai-two-runs.jsonl');
    watching = await startWatch(['--jsonl', '-o', out]);
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    const provider = new TracerProvider({
      spanProcessors: [
        new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${watching.url}/v1/traces` }) }),
      ],
    });
    const answers = (text: string) =>
      new MockLanguageModelV3({
        doGenerate: [
          {
            content: [call(`s-${text}`, 'tool_search', { query: text })],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          },
          { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
        ],
      });
    const tools = {
      tool_search: tool({
        description: 'search tools',
        inputSchema: z.object({ query: z.string() }),
        execute: async () => '{"matches":[]}',
      }),
      get_weather: tool({
        description: 'weather',
        inputSchema: z.object({ city: z.string() }),
        execute: async () => '',
      }),
    };
    const telemetry = { isEnabled: true, tracer: provider.getTracer('ai') };
    const user = { role: 'user' as const, content: 'Weather in Paris?' };
    const run1 = await generateText({
      model: answers('Sunny.'),
      messages: [user],
      tools,
      stopWhen: stepCountIs(5),
      experimental_telemetry: telemetry,
    });
    const next = [user, ...run1.response.messages, { role: 'user' as const, content: 'And in Rome?' }];
    await generateText({
      model: answers('Rainy.'),
      messages: next,
      tools,
      stopWhen: stepCountIs(5),
      experimental_telemetry: telemetry,
    });
    await provider.forceFlush();
    await provider.shutdown();
    const lines = await watching.waitLines(4);
    expect(new Set(lines.map((l) => l.trace_id)).size).toBe(1);
    expect(lines.map((l) => [l.session, l.call, l.turn?.tool_calls.map((c) => c.name)])).toEqual([
      ['s1', 1, ['tool_search']],
      ['s1', 2, []],
      ['s1', 3, ['tool_search']],
      ['s1', 4, []],
    ]);
    const stopped = await watching.stop();
    expect(stopped.stderr).toMatch(/1 sessions, 4 model calls/);
    const recorded = readFileSync(out, 'utf8').trim().split('\n');
    expect(recorded).toHaveLength(1);
    // Two traces (each run is a root span of its own) in the one session.
    const traces = (JSON.parse(recorded[0]!) as Export).resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((sc) => sc.spans.map((sp) => sp.traceId)),
    );
    expect(new Set(traces).size).toBe(2);
    // The protobuf export decodes to what the JSON export says (ids and times aside).
    const shape = (text: string): unknown =>
      (JSON.parse(text) as Export).resourceSpans
        .flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))
        .map((s) => ({
          name: s.name,
          kind: s.kind,
          attributes: s.attributes
            .filter((a) => !/msToFinish|msToFirstChunk|timestamp|avgOutputTokensPerSecond|response\.id/.test(a.key))
            .sort((a, b) => (a.key < b.key ? -1 : 1)),
        }))
        .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    expect(shape(recordings[1]!)).toEqual(shape(recordings[0]!));
  });
});
