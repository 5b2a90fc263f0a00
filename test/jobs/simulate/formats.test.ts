/**
 * fixtures/transcripts/: every conversation that exists in all five
 * transcript formats (Eino JSON and JSONL, OpenAI Chat, OpenAI Responses,
 * Anthropic Messages) gives the same simulation, turn by turn, in both modes.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Mode } from '../../../src/core/types.js';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import type { Catalog } from '../../../src/formats/types.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';
import type { SimulationReport } from '../../../src/jobs/simulate/report.js';
import type { Transcript } from '../../../src/formats/types.js';
import { RECORDING_VARIANTS, TRANSCRIPT_VARIANTS } from '../../fixtures/variants.js';

const dir = fileURLToPath(new URL('../../../fixtures/transcripts/', import.meta.url));
const demo = loadCatalogFiles([fileURLToPath(new URL('../../../fixtures/catalogs/demo.yaml', import.meta.url))]);

/** What must agree across formats: everything but the file name, the format and the assistant's prose. */
function comparable(r: SimulationReport): unknown {
  return {
    messages: r.transcript.messages,
    catalog: { dynamic: r.catalog.dynamic, static: r.catalog.static },
    turns: r.turns.map((t) => ({ ...t, assistant_text: undefined })),
    violations: r.violations,
    summary: r.summary,
  };
}

function run(file: string, catalog: Catalog | null, mode: Mode): SimulationReport {
  return simulate({ transcript: loadTranscriptFile(`${dir}${file}`), catalog, mode, replay: true });
}

/**
 * The outcomes fixtures/transcripts/README.md promises (default mode, demo.yaml): violations, and what forward
 * selection adds at each call.
 */
const OUTCOMES: Record<string, { violations: Array<[string, string, number]>; added: (added: string[][]) => void }> = {
  'keyword-search-then-call': {
    violations: [],
    added: (a) =>
      expect(a).toEqual([
        [],
        [
          'mcp__slack__send_message',
          'mcp__slack__get_channel_history',
          'mcp__slack__schedule_message',
          'mcp__slack__search_messages',
          'mcp__slack__list_channels',
        ],
        [],
        [],
      ]),
  },
  'deferred-tool-called-too-early': {
    violations: [['not-loaded', 'mcp__google_calendar__list_events', 2]],
    added: (a) => {
      expect(a.map((x) => x.length)).toEqual([0, 0, 0, 5, 0]);
      expect(a[3]).toContain('mcp__google_calendar__list_events');
    },
  },
  'select-search': {
    violations: [],
    added: (a) => expect(a).toEqual([[], ['mcp__github__list_issues', 'mcp__github__create_issue'], [], []]),
  },
  'redundant-select': {
    violations: [['redundant-select', 'mcp__google_calendar__create_event', 4]],
    added: (a) => {
      expect(a.map((x) => x.length)).toEqual([0, 5, 0, 0, 0, 0]);
      expect(a[1]).toContain('mcp__google_calendar__create_event');
    },
  },
  'required-keyword-search': {
    violations: [],
    added: (a) => {
      expect(a.map((x) => x.length)).toEqual([0, 5, 0, 0]);
      expect(a[1]![0]).toBe('mcp__slack__reply_to_thread');
      expect(a[1]!.every((n) => n.startsWith('mcp__slack__'))).toBe(true);
    },
  },
  'accumulate-two-searches': {
    violations: [],
    added: (a) => {
      expect(a.map((x) => x.length)).toEqual([0, 5, 0, 5, 0]);
      expect(a[1]!.every((n) => n.startsWith('mcp__google_calendar__'))).toBe(true);
      expect(a[3]!.every((n) => n.startsWith('mcp__notion__'))).toBe(true);
    },
  },
};

/**
 * A request body sends its tools with its last call: the whole catalog, dynamic tools deferred (model-native
 * style). Model-native mode agrees with that; default mode flags exactly one sent-differs there, taken out here.
 */
function withoutRequestFinding(r: SimulationReport, mode: Mode): SimulationReport {
  const sent = r.violations.filter((v) => v.kind === 'sent-differs');
  expect(sent.map((v) => v.call)).toEqual(mode === 'default' ? [r.turns.length] : []);
  return {
    ...r,
    violations: r.violations.filter((v) => v.kind !== 'sent-differs'),
    summary: { ...r.summary, warnings: r.summary.warnings - sent.length },
  };
}

describe('the same conversation in all five transcript formats', () => {
  const scenarios = Object.keys(OUTCOMES);

  it('every conversation told in more than one format is told in all five', () => {
    const told = new Set(
      fs
        .readdirSync(dir)
        .filter((f) => /\.(openai|openai-responses|anthropic)\.json$/.test(f) && !f.startsWith('native-'))
        .map((f) => f.replace(/\.(openai|openai-responses|anthropic)\.json$/, '')),
    );
    expect([...told].sort()).toEqual([...scenarios].sort());
    for (const s of scenarios)
      for (const [ext] of TRANSCRIPT_VARIANTS) expect(fs.existsSync(`${dir}${s}.${ext}`), `${s}.${ext}`).toBe(true);
  });

  for (const scenario of scenarios) {
    for (const mode of ['default', 'native'] as const) {
      it(`${scenario}: identical turns in every format (${mode} mode)`, () => {
        const reports = TRANSCRIPT_VARIANTS.map(([ext, format], i) => {
          const r = run(`${scenario}.${ext}`, demo, mode);
          expect(r.transcript.format, ext).toBe(format);
          return i >= 2 ? withoutRequestFinding(r, mode) : r;
        });
        const first = comparable(reports[0]!);
        for (const r of reports.slice(1)) expect(comparable(r), r.transcript.file).toEqual(first);
        // Request bodies carry the demo catalog themselves: the same simulation without -c.
        for (const [ext] of TRANSCRIPT_VARIANTS.slice(2))
          expect(comparable(withoutRequestFinding(run(`${scenario}.${ext}`, null, mode), mode)), ext).toEqual(first);
      });
    }

    for (const mode of ['default', 'native'] as const) {
      it(`${scenario}: identical turns in every recording format (${mode} mode)`, () => {
        const eino = loadTranscriptFile(`${dir}${scenario}.json`);
        const withSystem = comparable(simulate({ transcript: eino, catalog: demo, mode, replay: true }));
        // Claude Code logs no system prompt: its baseline is the Eino conversation without it.
        const keep = eino.messages.map((m) => m.role !== 'system');
        const noSystem: Transcript = {
          ...eino,
          messages: eino.messages.filter((_, i) => keep[i]),
          locations: eino.locations.filter((_, i) => keep[i]),
        };
        const withoutSystem = comparable(simulate({ transcript: noSystem, catalog: demo, mode, replay: true }));
        for (const [ext, format, how] of RECORDING_VARIANTS) {
          const r = run(`${scenario}.${ext}`, demo, mode);
          expect(r.transcript.format, ext).toBe(format);
          expect(r.coverage?.unexplained, ext).toEqual([]);
          expect(r.coverage?.unpaired, ext).toEqual([]);
          const want = how.noSystem ? withoutSystem : withSystem;
          if (how.sentTools && mode === 'native') {
            // The calls sent what the reference offers in default mode: model-native mode differs at every call.
            const sent = r.violations.filter((v) => v.kind === 'sent-differs');
            expect(
              sent.map((v) => v.call),
              ext,
            ).toEqual(r.turns.map((t) => t.call));
            const rest = {
              ...r,
              violations: r.violations.filter((v) => v.kind !== 'sent-differs'),
              summary: { ...r.summary, warnings: r.summary.warnings - sent.length },
            };
            expect(comparable(rest), ext).toEqual(want);
          } else expect(comparable(r), ext).toEqual(want);
        }
      });
    }

    it(`${scenario}: the promised outcome`, () => {
      const r = run(`${scenario}.json`, demo, 'default');
      const o = OUTCOMES[scenario]!;
      expect(r.violations.map((v) => [v.kind, v.tool, v.call])).toEqual(o.violations);
      o.added(r.turns.map((t) => [...t.added]));
      expect(r.replay?.differences).toBe(0);
    });
  }
});
