/**
 * fixtures/recordings/: recordings made by the software that writes them (issue 28, point 6; the scripts
 * are test/tools/recordings/*.mjs). Each tells a conversation of fixtures/transcripts/ as that software
 * saw it, so it must replay, call by call, as the Eino original does: the same tools visible, deferred
 * and added, the same calls and searches, the same violations (a `sent-differs` aside: the recordings
 * send what their agent sent). What each skips is counted by its rule.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { AGENT_SPANS, NO_MESSAGES, TOOL_SPANS } from '../../../src/formats/recordings/otel.js';
import { FAILED, NOT_POST, OTHER_POST } from '../../../src/formats/recordings/http.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import type { Transcript } from '../../../src/formats/types.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const demo = loadCatalogFiles([`${root}fixtures/catalogs/demo.yaml`]);

/** A report's values without call ids (a recording may name its calls as its provider does). */
const withoutIds = <T>(v: T): T =>
  JSON.parse(JSON.stringify(v, (k, x) => (k === 'id' || k === 'call_id' ? undefined : x)));

/** What must agree with the Eino original, call by call (call ids aside). */
function calls(t: Transcript): unknown {
  const r = simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });
  return withoutIds({
    turns: r.turns.map((x) => ({
      call: x.call,
      visible: x.visible,
      deferred: x.deferred,
      added: x.added,
      tool_calls: x.tool_calls,
      searches: x.searches,
      server_searches: x.server_searches,
    })),
    violations: r.violations.filter((v) => v.kind !== 'sent-differs'),
  });
}

const eino = (scenario: string): unknown => calls(loadTranscriptFile(`${root}fixtures/transcripts/${scenario}.json`));

/** [fixture under fixtures/recordings/, scenario it tells, format detected, skipped by rule]. */
const FIXTURES: ReadonlyArray<readonly [string, string, string, ReadonlyArray<readonly [string, number]>]> = [
  ['ai-sdk/keyword-search-then-call.model-messages.json', 'keyword-search-then-call', 'ai-sdk', []],
  ['ai-sdk/deferred-tool-called-too-early.ui-messages.json', 'deferred-tool-called-too-early', 'ai-sdk', []],
  [
    'ai-sdk/keyword-search-then-call.legacy.otlp.json',
    'keyword-search-then-call',
    'otel',
    [
      [AGENT_SPANS, 1],
      [TOOL_SPANS, 3],
    ],
  ],
  [
    'ai-sdk/deferred-tool-called-too-early.stream.legacy.otlp.json',
    'deferred-tool-called-too-early',
    'otel',
    [
      [AGENT_SPANS, 1],
      [TOOL_SPANS, 3],
    ],
  ],
  [
    'ai-sdk/keyword-search-then-call.otlp.json',
    'keyword-search-then-call',
    'otel',
    [
      [AGENT_SPANS, 1],
      [NO_MESSAGES, 4],
      [TOOL_SPANS, 3],
    ],
  ],
  ['openinference/select-search.chat.otlp.json', 'select-search', 'otel', []],
  ['openinference/select-search.responses.otlp.json', 'select-search', 'otel', []],
  ['nock/anthropic.nock.json', 'accumulate-two-searches', 'nock', [[OTHER_POST, 1]]],
  [
    'nock/openai-responses-stream.nock.json',
    'deferred-tool-called-too-early',
    'nock',
    [['events of streamed responses: progress events the final response carries', 5]],
  ],
  ['vcr/anthropic-stream.yaml', 'redundant-select', 'vcr', [['events of streamed responses: pings (keep-alive)', 2]]],
  ...['keyword-search-then-call', 'select-search'].flatMap((s) =>
    ['messages.json', 'stored.json', 'state.json', 'stream.jsonl'].map(
      (kind) => [`langchain/${s}.${kind}`, s, 'langchain', []] as const,
    ),
  ),
];

describe('recordings made by the libraries replay as their Eino originals', () => {
  for (const [file, scenario, format, skipped] of FIXTURES) {
    it(`${file}: ${format}, the calls of ${scenario}`, () => {
      const t = loadTranscriptFile(`${root}fixtures/recordings/${file}`);
      expect(t.format).toBe(format);
      expect(t.coverage?.unexplained).toEqual([]);
      expect(t.coverage?.unpaired).toEqual([]);
      expect(t.coverage?.skipped.map((s) => [s.rule, s.count])).toEqual(skipped);
      expect(calls(t)).toEqual(eino(scenario));
    });
  }

  /** [fixture, the scenarios of its sessions in order, skipped by rule (the first session's coverage)]. */
  const INTERLEAVED: ReadonlyArray<readonly [string, readonly string[], ReadonlyArray<readonly [string, number]>]> = [
    [
      'nock/openai-chat.nock.json',
      ['keyword-search-then-call', 'select-search'],
      [
        [NOT_POST, 1],
        [FAILED, 1],
      ],
    ],
    ['vcr/openai-responses.yaml', ['keyword-search-then-call', 'required-keyword-search'], [[NOT_POST, 1]]],
    [
      'har/browser-chat.har',
      ['deferred-tool-called-too-early', 'accumulate-two-searches'],
      [
        [NOT_POST, 1],
        ['events of streamed responses: [DONE] markers', 5],
        [FAILED, 1],
      ],
    ],
  ];
  for (const [file, scenarios, skipped] of INTERLEAVED) {
    it(`${file}: two conversations interleaved call by call come apart into ${scenarios.join(' and ')}`, () => {
      const t = loadTranscriptFile(`${root}fixtures/recordings/${file}`);
      const sessions = [t, ...(t.sidechains ?? [])];
      const where = sessions.map((x) => [
        x.coverage?.conversation,
        x.coverage?.sessions?.index,
        x.coverage?.sessions?.count,
      ]);
      expect(where).toEqual([
        ['main', 1, 2],
        ['session 2', 2, 2],
      ]);
      expect(t.coverage?.skipped.map((x) => [x.rule, x.count])).toEqual(skipped);
      sessions.forEach((x, i) => {
        expect(x.coverage?.unexplained, file).toEqual([]);
        expect(x.coverage?.sessions?.calls.length).toBe((eino(scenarios[i]!) as { turns: unknown[] }).turns.length);
        expect(calls(x), `${file} session ${i + 1}`).toEqual(eino(scenarios[i]!));
      });
    });
  }

  it("spans carry their tools: the last call's definitions are the recording's catalog (no -c needed)", () => {
    for (const file of [
      'ai-sdk/keyword-search-then-call.legacy.otlp.json',
      'ai-sdk/keyword-search-then-call.otlp.json',
      'openinference/select-search.chat.otlp.json',
    ]) {
      const t = loadTranscriptFile(`${root}fixtures/recordings/${file}`);
      expect(t.tools?.map((x) => x.name).slice(0, 5), file).toEqual([
        'get_current_time',
        'ask_user',
        'read_todo_list',
        'write_todo_list',
        'think',
      ]);
      expect(t.sentTools?.[0]?.visible, file).toContain('tool_search');
    }
  });

  /** [fixture, format, the part type the SDK wrote the call as, skipped by rule]. */
  const WEB_SEARCH: ReadonlyArray<readonly [string, string, string, ReadonlyArray<readonly [string, number]>]> = [
    ['ai-sdk/keyword-search-then-call.web-search.model-messages.json', 'ai-sdk', 'tool-call', []],
    ['ai-sdk/keyword-search-then-call.web-search.ui-messages.json', 'ai-sdk', 'dynamic-tool', []],
    [
      'ai-sdk/keyword-search-then-call.web-search.legacy.otlp.json',
      'otel',
      'tool-call',
      [
        [AGENT_SPANS, 1],
        [TOOL_SPANS, 3],
      ],
    ],
  ];
  for (const [file, format, kind, skipped] of WEB_SEARCH) {
    it(`${file}: the provider-executed web search is listed at call 1, counted, never one of our calls`, () => {
      const t = loadTranscriptFile(`${root}fixtures/recordings/${file}`);
      expect(t.format).toBe(format);
      expect(t.coverage?.unexplained).toEqual([]);
      expect(t.coverage?.skipped.map((x) => [x.rule, x.count])).toEqual(skipped);
      expect(t.coverage?.provider_calls).toBe(1);
      expect(calls(t)).toEqual(eino('keyword-search-then-call'));
      const r = simulate({ transcript: t, catalog: demo, mode: 'default', replay: false });
      expect(r.turns.map((x) => x.provider_calls)).toEqual([
        [
          {
            id: 'ws_1',
            type: kind,
            name: 'web_search',
            server: null,
            arguments: '{"query":"slack api send message"}',
            executed_by: 'provider',
          },
        ],
        [],
        [],
        [],
      ]);
      expect(r.summary.provider_calls).toBe(1);
    });
  }
});
