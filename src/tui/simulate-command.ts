/**
 * `simulate --tui`: simulates, then hands the report to the stepper. No
 * React here (the simulate command imports this lazily; React and Ink are
 * imported only once the terminal is known to be interactive).
 */
import type { EngineId, EngineParams } from '../core/engines/index.js';
import type { Mode } from '../core/types.js';
import type { Catalog, Transcript } from '../formats/types.js';
import type { ToolFormat } from '../jobs/tokens/serialize.js';
import type { EncodingName } from '../jobs/tokens/tokenizer.js';
import type { TerminalIo } from './fullscreen.js';
import { assertInteractive, prepareTui } from './tty.js';

export interface SimulateTuiInput {
  readonly transcript: Transcript;
  /** Null: the tools the transcript carries. */
  readonly catalog: Catalog | null;
  readonly mode: Mode;
  readonly staticNames?: readonly string[];
  /** `--engine` (built-in); the recording decides when not given. */
  readonly engine?: EngineId;
  readonly engineParams?: EngineParams;
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
  const { simulationTools } = await import('../jobs/simulate/engine.js');
  const { simulator } = await import('../jobs/simulate/with-tokens.js');
  const { chooseEngine } = await import('../jobs/simulate/engines.js');
  const chosen = chooseEngine(input.engine, input.transcript);
  const base = {
    transcript: input.transcript,
    catalog: input.catalog,
    ...(input.staticNames !== undefined ? { staticNames: input.staticNames } : {}),
    engine: chosen.engine,
    ...(input.engineParams !== undefined ? { engineParams: input.engineParams } : {}),
    engineChoice: { by: chosen.by, evidence: chosen.evidence },
  };
  // Bad inputs fail here, before the screen changes.
  const tools = simulationTools(base);
  // The first report (and its token counts, the tokenizer loads asynchronously)
  // before the screen changes; `m` and `r` re-simulate through the same simulator.
  const resimulate = simulator(base, input.tokens ?? null);
  const report = await resimulate(input.mode, input.replay);
  await prepareTui();
  const { runStepper } = await import('./stepper/run.js');
  await runStepper({
    report,
    transcript: input.transcript,
    tools: { staticTools: tools.staticTools, dynamicTools: tools.dynamicTools },
    resimulate,
    color: input.color,
    io: input.io as TerminalIo,
  });
}
