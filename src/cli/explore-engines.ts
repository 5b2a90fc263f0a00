/**
 * The engines `explore` shows beside the reference (key `e`): the AI SDK 7's and Mastra's, and the module
 * `--engine` names; each built (a module started in its worker) the first time it is shown.
 */
import { createEngine, type EngineTool } from '../core/engines/index.js';
import { UsageError } from '../io/errors.js';
import { engineName, openEngine, type OpenEngine } from '../jobs/engines/engine.js';
import type { BaselineRanker } from '../tui/explore/Explore.js';
import { engineParams, type EngineFlags } from './engine-options.js';

export function exploreEngines(
  flags: EngineFlags,
  tools: readonly EngineTool[],
): {
  readonly names: readonly string[];
  readonly initial: string | undefined;
  readonly load: (name: string) => Promise<BaselineRanker>;
  readonly close: () => Promise<void>;
} {
  const spec = flags.engine;
  if (spec?.kind === 'builtin' && spec.id === 'eino')
    throw new UsageError(
      '--engine eino: the reference is what explore ranks; name ai-sdk, mastra or a module to compare',
    );
  // Each engine's parameters as given (checked against the engine named, or Mastra's for --top-k/--min-score).
  const mastraParams = engineParams(
    {
      ...(flags.topK !== undefined ? { topK: flags.topK } : {}),
      ...(flags.minScore !== undefined ? { minScore: flags.minScore } : {}),
    },
    { kind: 'builtin', id: 'mastra' },
  );
  // `-n` is explore's own max_results (every side ranks to it), not an engine parameter.
  if (spec !== undefined) engineParams({ ...flags, maxResults: undefined }, spec);
  const module = spec?.kind === 'module' ? spec : null;
  const names = ['ai-sdk', 'mastra', ...(module ? [engineName(module)] : [])];
  const opened: OpenEngine[] = [];
  return {
    names,
    initial: spec === undefined ? undefined : engineName(spec),
    async load(name) {
      if (name === 'ai-sdk' || name === 'mastra') {
        const engine = createEngine(name, tools, name === 'mastra' ? mastraParams : {});
        return (query, limit) => {
          const out = engine.searchWithLimit(query, limit);
          return out.ok ? out.matches : [];
        };
      }
      const engine = await openEngine(
        module!,
        tools,
        {},
        {
          ...(flags.engineTimeout !== undefined ? { timeoutMs: flags.engineTimeout } : {}),
          cwd: process.cwd(),
        },
      );
      opened.push(engine);
      return async (query, limit) => {
        const out = await engine.search(query, limit);
        return out.ok ? out.matches : [];
      };
    },
    close: async () => {
      for (const e of opened) await e.close();
    },
  };
}
