/**
 * What the tests of issue 28's recording families share: the demo catalog,
 * the fixtures folders, and a replay compared with the Eino original of the
 * same scenario (turns, violations, summary; not the assistant's prose).
 */
import { fileURLToPath } from 'node:url';
import { loadCatalogFiles } from '../../../src/formats/catalog.js';
import { loadTranscriptFile } from '../../../src/formats/transcript.js';
import type { Transcript } from '../../../src/formats/types.js';
import type { Mode } from '../../../src/core/types.js';
import { simulate } from '../../../src/jobs/simulate/engine.js';
import type { SimulationReport } from '../../../src/jobs/simulate/report.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const RECORDINGS = `${ROOT}fixtures/recordings/`;
export const TRANSCRIPTS = `${ROOT}fixtures/transcripts/`;
export const demo = loadCatalogFiles([`${ROOT}fixtures/catalogs/demo.yaml`]);

/** The Node 22 that .ci/run installs, for generators whose library needs Node >= 22. */
export const NODE22 = '/root/.cache/toolsearch-ci/node-22.23.5/bin/node';
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

export function replay(t: Transcript, mode: Mode = 'default'): SimulationReport {
  return simulate({ transcript: t, catalog: demo, mode, replay: false });
}

/**
 * Turns, violations and summary: what must agree with the Eino original.
 * `ids: false` for recordings whose calls have no ids of their own (Gemini
 * without `id`, Cline's XML tool calls): the ids are left out.
 */
export function comparable(r: SimulationReport, options: { ids?: boolean } = {}): unknown {
  const ids = options.ids !== false;
  return {
    turns: r.turns.map((t) => ({
      ...t,
      assistant_text: undefined,
      tool_calls: ids ? t.tool_calls : t.tool_calls.map((c) => ({ ...c, id: undefined })),
      searches: ids ? t.searches : t.searches.map((x) => ({ ...x, call_id: undefined })),
    })),
    violations: r.violations,
    summary: r.summary,
  };
}

/** The Eino original of a scenario, replayed. */
export function eino(scenario: string, mode: Mode = 'default'): SimulationReport {
  return replay(loadTranscriptFile(`${TRANSCRIPTS}${scenario}.json`), mode);
}
