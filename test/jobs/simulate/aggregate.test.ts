import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import {
  type Aggregate,
  AggregateBuilder,
  addFailure,
  addReport,
  aggregateViews,
  emptyAggregate,
  mergeAggregates,
  type SessionFailure,
} from '../../../src/jobs/simulate/aggregate.js';
import { simulate, simulationTools } from '../../../src/jobs/simulate/engine.js';
import type { SimulationReport } from '../../../src/jobs/simulate/report.js';
import { simulateWithTokens } from '../../../src/jobs/simulate/with-tokens.js';

const demo = loadCatalogFiles([fileURLToPath(new URL('../../../fixtures/catalogs/demo.yaml', import.meta.url))]);
const dir = fileURLToPath(new URL('../../../fixtures/transcripts/', import.meta.url));
const dynamic = simulationTools({
  transcript: loadTranscriptFile(`${dir}select-search.json`),
  catalog: demo,
}).dynamicTools.map((t) => t.name);

const FILES = [
  'keyword-search-then-call.json',
  'deferred-tool-called-too-early.json',
  'redundant-select.json',
  'unknown-tool.json',
  'malformed-search-result.json',
  'native-server-search.anthropic.json',
  'accumulate-two-searches.openai-responses.json',
];

type Item = { readonly report: SimulationReport } | { readonly failure: SessionFailure };

/** Every fixture in both modes, with tokens, plus two failures: the material of the properties. */
const items: Item[] = [];
for (const file of FILES) {
  for (const mode of ['default', 'native'] as const) {
    const options = { transcript: loadTranscriptFile(`${dir}${file}`), catalog: demo, mode, replay: true };
    items.push({ report: await simulateWithTokens(options, { encoding: 'o200k_base', toolFormat: 'openai' }) });
  }
}
items.push({ failure: { source: { file: 'b.jsonl', line: 10 }, error: 'b.jsonl:10:1: invalid JSON' } });
items.push({ failure: { source: { file: 'b.jsonl', line: 9 }, error: 'b.jsonl:9:1: invalid JSON' } });
items.push({ failure: { source: { file: 'a.json', line: null }, error: 'a.json: no such file' } });

const addItem = (a: Aggregate, item: Item): Aggregate =>
  'report' in item ? addReport(a, item.report, dynamic) : addFailure(a, item.failure);
const oneRun = (list: readonly Item[]): Aggregate => list.reduce(addItem, emptyAggregate());

describe('the aggregate of sessions', () => {
  it('counts a hand-checked pair of sessions exactly', () => {
    const early = simulate({
      transcript: loadTranscriptFile(`${dir}deferred-tool-called-too-early.json`),
      catalog: demo,
      mode: 'default',
      replay: false,
    });
    const unknown = simulate({
      transcript: loadTranscriptFile(`${dir}unknown-tool.json`),
      catalog: demo,
      mode: 'default',
      replay: false,
    });
    const a = addReport(addReport(emptyAggregate(), early, dynamic), unknown, dynamic);
    expect(a.sessions).toEqual({ replayed: 2, failed: 0, with_errors: 2, with_warnings: 0 });
    expect(a.modes).toEqual({ default: 2, native: 0 });
    expect(a.model_calls).toBe(early.summary.calls + unknown.summary.calls);
    expect(a.searches.client).toBe(early.summary.searches + unknown.summary.searches);
    expect(a.violations).toEqual({ 'not-loaded': 1, unknown: 1 });
    expect(aggregateViews(a).notLoadedByTool).toEqual([{ tool: 'mcp__google_calendar__list_events', count: 1 }]);
    const listEvents = a.tools.find((t) => t.name === 'mcp__google_calendar__list_events')!;
    expect(listEvents).toEqual({
      name: 'mcp__google_calendar__list_events',
      found_sessions: 1,
      loaded_sessions: 1,
      called_sessions: 1,
      loaded_not_called_sessions: 0,
      calls: 2,
      not_loaded: 1,
    });
    // Every dynamic tool is listed, found or not; the never-found ones are the rest.
    expect(a.tools.map((t) => t.name)).toEqual([...dynamic].sort());
    expect(aggregateViews(a).neverFound.length).toBe(a.tools.filter((t) => t.found_sessions === 0).length);
    expect(a.tokens.sessions).toBe(0);
    expect(a.failures).toEqual([]);
  });

  it('zero-result queries: the decoded, trimmed query, most frequent first', () => {
    const t = loadTranscriptFile(`${dir}keyword-search-then-call.json`);
    const search = (id: string, args: string) =>
      [
        { kind: 'chat', role: 'assistant', content: '', toolCalls: [{ id, name: 'tool_search', arguments: args }] },
        { kind: 'chat', role: 'tool', content: '{"matches":null}', toolCallId: id, toolName: 'tool_search' },
      ] as const;
    const messages = [
      ...t.messages.slice(0, 2),
      ...search('a', '{"query":"  zebra  "}'),
      ...search('b', '{"Query":"zebra"}'),
      ...search('c', '{"query":"okapi"}'),
    ];
    const report = simulate({
      transcript: { ...t, messages, locations: [] },
      catalog: demo,
      mode: 'default',
      replay: false,
    });
    const a = addReport(emptyAggregate(), report, dynamic);
    expect(a.zero_result_queries).toEqual([
      { query: 'zebra', count: 2 },
      { query: 'okapi', count: 1 },
    ]);
    expect(a.searches.zero_result).toBe(3);
  });

  it('failures are kept sorted by file, then line', () => {
    const a = oneRun(items.filter((i) => 'failure' in i));
    expect(a.failures.map((f) => f.error)).toEqual([
      'a.json: no such file',
      'b.jsonl:9:1: invalid JSON',
      'b.jsonl:10:1: invalid JSON',
    ]);
    expect(a.sessions.failed).toBe(3);
  });

  it('the builder gives what the pure fold gives', () => {
    const b = new AggregateBuilder();
    for (const i of items)
      if ('report' in i) b.add(i.report, dynamic);
      else b.addFailure(i.failure);
    expect(b.value()).toEqual(oneRun(items));
  });

  it('survives JSON: a part written and read back merges the same', () => {
    const a = oneRun(items.slice(0, 5));
    const back = JSON.parse(JSON.stringify(a)) as Aggregate;
    expect(mergeAggregates(back, oneRun(items.slice(5)))).toEqual(oneRun(items));
  });

  // Properties: sessions are assigned to parts at random, in any order.
  const itemIndexes = fc.array(fc.nat({ max: items.length - 1 }), { maxLength: 12 });
  const agg = itemIndexes.map((xs) => oneRun(xs.map((i) => items[i]!)));

  it('merge is commutative and associative, with the empty aggregate as identity', () => {
    fc.assert(
      fc.property(agg, agg, agg, (a, b, c) => {
        expect(mergeAggregates(a, b)).toEqual(mergeAggregates(b, a));
        expect(mergeAggregates(mergeAggregates(a, b), c)).toEqual(mergeAggregates(a, mergeAggregates(b, c)));
        expect(mergeAggregates(a, emptyAggregate())).toEqual(a);
      }),
      { numRuns: 60 },
    );
  });

  it('any split of a run, merged in any order, equals the one run', () => {
    fc.assert(
      fc.property(itemIndexes, fc.array(fc.nat({ max: 3 }), { maxLength: 12 }), (xs, parts) => {
        const list = xs.map((i) => items[i]!);
        const split: Item[][] = [[], [], [], []];
        list.forEach((item, k) => split[parts[k] ?? 0]!.push(item));
        const merged = split.map(oneRun).reverse().reduce(mergeAggregates, emptyAggregate());
        expect(merged).toEqual(oneRun(list));
        // Session order inside a run does not matter either.
        expect(oneRun([...list].reverse())).toEqual(oneRun(list));
      }),
      { numRuns: 60 },
    );
  });
});
