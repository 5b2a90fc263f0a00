/**
 * A simulation with token and prompt-cache accounting: the report, the same
 * conversation simulated in the other mode (so the cache summary can weigh
 * default mode against model-native mode), and the token counts attached.
 * One path for the CLI, the TUI and bulk replay; the token modules (and the
 * tokenizer) are loaded only when tokens are asked for.
 */
import type { Mode } from '../../core/types.js';
import type { ToolFormat } from '../tokens/serialize.js';
import type { EncodingName } from '../tokens/tokenizer.js';
import { simulate, simulationTools, type SimulateOptions } from './engine.js';
import type { SimulationReport } from './report.js';

/** How to count tokens; null leaves them out (`--no-tokens`). */
export interface TokenCounting {
  readonly encoding: EncodingName;
  readonly toolFormat: ToolFormat;
}

/** Simulates `options`, with token accounting unless `tokens` is null. */
export async function simulateWithTokens(
  options: SimulateOptions,
  tokens: TokenCounting | null,
): Promise<SimulationReport> {
  return simulator(options, tokens)(options.mode, options.replay);
}

/**
 * Re-simulates the same inputs in either mode, with or without replay (the
 * TUI's `m` and `r`). Token counts do not depend on `replay`, so they are
 * computed once per mode and reused.
 */
export function simulator(
  base: Omit<SimulateOptions, 'mode' | 'replay'>,
  tokens: TokenCounting | null,
): (mode: Mode, replay: boolean) => Promise<SimulationReport> {
  const counted = new Map<Mode, Promise<import('../tokens/report.js').ReportTokens>>();
  const countFor = async (
    mode: Mode,
    report: SimulationReport,
  ): Promise<import('../tokens/report.js').ReportTokens> => {
    const { tokenAccountingForReport } = await import('../tokens/report.js');
    if (base.engine === 'ai-sdk' || base.engine === 'mastra') {
      // Another engine has no modes; its own search tools are counted with the tools.
      const { engineMetaTools } = await import('./engine-tools.js');
      const tools = simulationTools(base);
      return tokenAccountingForReport(
        report,
        { ...tools, extraTools: engineMetaTools(report, base.engineParams) },
        tokens!,
      );
    }
    const other = simulate({ ...base, mode: mode === 'default' ? 'native' : 'default', replay: false, details: false });
    return tokenAccountingForReport(report, simulationTools(base), { ...tokens!, otherMode: other });
  };
  return async (mode, replay) => {
    const report = simulate({ ...base, mode, replay });
    if (tokens === null) return report;
    let pending = counted.get(mode);
    if (!pending) {
      pending = countFor(mode, report);
      counted.set(mode, pending);
    }
    const { withTokens } = await import('../tokens/report.js');
    return withTokens(report, await pending);
  };
}
