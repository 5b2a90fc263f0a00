/**
 * `simulate --tui`: simulates, then hands the report to the stepper. No
 * React here (the simulate command imports this lazily; React and Ink are
 * imported only once the terminal is known to be interactive).
 */
import type { Mode } from '../core/types.js';
import type { Catalog, Transcript } from '../formats/types.js';
import type { SimulationReport } from '../simulate/report.js';
import type { ToolFormat } from '../tokens/serialize.js';
import type { EncodingName } from '../tokens/tokenizer.js';
import type { TerminalIo } from './fullscreen.js';
import { assertInteractive, prepareTui } from './tty.js';

export interface SimulateTuiInput {
  readonly transcript: Transcript;
  /** Null: the tools the transcript carries. */
  readonly catalog: Catalog | null;
  readonly mode: Mode;
  readonly staticNames?: readonly string[];
  readonly replay: boolean;
  readonly color: boolean;
  /** Token accounting options; null to leave tokens out (`--no-tokens`). */
  readonly tokens?: { readonly encoding: EncodingName; readonly toolFormat: ToolFormat } | null;
  /** The CLI's streams; they must be the terminal's. */
  readonly io: { readonly stdin: unknown; readonly stdout: unknown; readonly stderr: unknown };
}

/** Runs the stepper over the simulation of `input`; `m` and `r` re-simulate the same inputs. */
export async function runSimulateTui(input: SimulateTuiInput): Promise<void> {
  assertInteractive(input.io, 'simulate --tui', 'simulate --json');
  const { simulate, simulationTools } = await import('../simulate/engine.js');
  const base = {
    transcript: input.transcript,
    catalog: input.catalog,
    ...(input.staticNames !== undefined ? { staticNames: input.staticNames } : {}),
  };
  // Bad inputs fail here, before the screen changes.
  const tools = simulationTools(base);
  // Token accounting for both modes up front (the tokenizer loads asynchronously),
  // so `m` and `r` re-simulate instantly with the call view's token column.
  let addTokens = (r: SimulationReport): SimulationReport => r;
  if (input.tokens) {
    const { tokenAccountingForReport, withTokens } = await import('../tokens/report.js');
    const byMode = new Map<Mode, Awaited<ReturnType<typeof tokenAccountingForReport>>>();
    for (const mode of ['default', 'native'] as const) {
      const r = simulate({ ...base, mode, replay: false });
      const other = simulate({ ...base, mode: mode === 'default' ? 'native' : 'default', replay: false });
      byMode.set(mode, await tokenAccountingForReport(r, tools, { ...input.tokens, otherMode: other }));
    }
    addTokens = (r) => withTokens(r, byMode.get(r.mode)!);
  }
  const report = addTokens(simulate({ ...base, mode: input.mode, replay: input.replay }));
  await prepareTui();
  const { runStepper } = await import('./stepper/run.js');
  await runStepper({
    report,
    transcript: input.transcript,
    tools: { staticTools: tools.staticTools, dynamicTools: tools.dynamicTools },
    resimulate: (mode, replay) => addTokens(simulate({ ...base, mode, replay })),
    color: input.color,
    io: input.io as TerminalIo,
  });
}
