/** Removing the HTML-only data from a simulation report (kept apart from the engine, so `--json` does not load it). */
import type { SimulationReport } from './report.js';

/** The report without what the `details` option added: the `--json` contract, whatever the options. */
export function withoutDetails<R extends SimulationReport>(report: R): R {
  if (report.details === undefined && report.turns.every((t) => t.searches.every((s) => s.explain === undefined)))
    return report;
  const { details: _details, ...rest } = report;
  return {
    ...rest,
    turns: report.turns.map((t) => ({ ...t, searches: t.searches.map(({ explain: _explain, ...s }) => s) })),
  } as unknown as R;
}
