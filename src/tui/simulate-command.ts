/**
 * `simulate --tui`: simulates, then hands the report to the stepper. No
 * React here (the simulate command imports this lazily; React and Ink are
 * imported only once the terminal is known to be interactive).
 */
import type { Mode } from '../core/types.js';
import type { Catalog, Transcript } from '../formats/types.js';
import type { TerminalIo } from './fullscreen.js';
import { assertInteractive, preferProductionReact } from './tty.js';

export interface SimulateTuiInput {
  readonly transcript: Transcript;
  /** Null: the tools the transcript carries. */
  readonly catalog: Catalog | null;
  readonly mode: Mode;
  readonly staticNames?: readonly string[];
  readonly replay: boolean;
  readonly color: boolean;
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
  const report = simulate({ ...base, mode: input.mode, replay: input.replay });
  const tools = simulationTools(base);
  preferProductionReact();
  const { runStepper } = await import('./stepper/run.js');
  await runStepper({
    report,
    transcript: input.transcript,
    tools: { staticTools: tools.staticTools, dynamicTools: tools.dynamicTools },
    resimulate: (mode, replay) => simulate({ ...base, mode, replay }),
    color: input.color,
    io: input.io as TerminalIo,
  });
}
