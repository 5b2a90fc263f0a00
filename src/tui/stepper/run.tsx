/**
 * Entry of `toolsearch simulate --tui`, imported lazily by the simulate
 * command: the only way React and Ink get loaded for it.
 */
import { reminderText } from '../../core/middleware.js';
import type { Mode, ToolInfo } from '../../core/types.js';
import type { Transcript } from '../../formats/types.js';
import type { SimulationReport } from '../../jobs/simulate/report.js';
import { reraise, runFullScreen, type TerminalIo } from '../fullscreen.js';
import type { StepperInputs, ToolMeta } from './model.js';
import { Stepper } from './Stepper.js';

export interface StepperOptions {
  /** The report of the first simulation (the same object `simulate --json` prints). */
  readonly report: SimulationReport;
  readonly transcript: Transcript;
  /** The tools the simulation ran with, split as the middleware sees them. */
  readonly tools: { readonly staticTools: readonly ToolInfo[]; readonly dynamicTools: readonly ToolInfo[] };
  /** Simulates the same transcript and catalog again (`m` switches the mode, `r` toggles replay). */
  readonly resimulate: (mode: Mode, replay: boolean) => SimulationReport | Promise<SimulationReport>;
  readonly color: boolean;
  readonly io: TerminalIo;
}

/** The stepper's fixed inputs, from the transcript and the tools. */
export function stepperInputs(transcript: Transcript, tools: StepperOptions['tools']): StepperInputs {
  const map = new Map<string, ToolMeta>();
  const add = (t: ToolInfo, isStatic: boolean): void => {
    map.set(t.name, {
      name: t.name,
      description: t.description,
      ...(t.parameters !== undefined ? { parameters: t.parameters } : {}),
      static: isStatic,
    });
  };
  for (const t of tools.dynamicTools) add(t, false);
  for (const t of tools.staticTools) add(t, true);
  return {
    messages: transcript.messages,
    tools: map,
    reminderText: reminderText(tools.dynamicTools.map((t) => t.name)),
  };
}

/** Runs the stepper until the user quits (or a signal ends it: the process then dies of that signal). */
export async function runStepper(options: StepperOptions): Promise<void> {
  const inputs = stepperInputs(options.transcript, options.tools);
  const { signal } = await runFullScreen(
    <Stepper
      report={options.report}
      inputs={inputs}
      resimulate={options.resimulate}
      theme={{ color: options.color }}
    />,
    options.io,
  );
  reraise(signal);
}
