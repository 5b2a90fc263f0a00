/**
 * The inputs of a simulation and its tools: the catalog given (or the tools a
 * logged request body carries), split into static and dynamic tools, and,
 * for bulk replay, split and indexed once for every session.
 */
import { createMiddleware, type Middleware } from '../../core/middleware.js';
import type { EngineId, EngineParams } from '../../core/engines/index.js';
import type { Mode } from '../../core/types.js';
import { InputError, quote } from '../../io/errors.js';
import type { Catalog, CatalogTool, Transcript } from '../../formats/types.js';

/** Inputs of a simulation. */
export interface SimulateOptions {
  readonly transcript: Transcript;
  /** The catalog; null to use the tools the transcript carries (a logged request body). */
  readonly catalog: Catalog | null;
  readonly mode: Mode;
  /** Names of catalog tools to treat as static in addition to those the catalog marks static. */
  readonly staticNames?: readonly string[];
  /** Also re-run the searches with the recorded results replaced by fresh ones and report visibility changes. */
  readonly replay: boolean;
  /**
   * Also attach what the HTML report shows beyond `--json`: `details` (tool
   * lists, the visibility timeline, the replayed visibility) and each
   * search's decoded query and per-keyword explanation (`explain`).
   */
  readonly details?: boolean;
  /**
   * The catalog's tools and middleware built once for many sessions (bulk
   * replay); used when `catalog` is the catalog it was prepared for.
   */
  readonly prepared?: PreparedTools;
  /** The engine whose loading rule runs: the reference (`eino`, the default), `ai-sdk` or `mastra`. */
  readonly engine?: EngineId;
  /** That engine's parameters (maxResults, Mastra's topK, minScore, autoLoad, ttl). */
  readonly engineParams?: EngineParams;
  /** How the engine was chosen (`--engine`, or detected), for the report; the default otherwise. */
  readonly engineChoice?: { readonly by: 'flag' | 'recording' | 'default'; readonly evidence: string | null };
}

/** A catalog split and indexed once, for every session simulated against it. */
export interface PreparedTools {
  readonly catalog: Catalog;
  readonly staticNames: readonly string[];
  readonly tools: SimulationTools;
  /** The middleware of a mode (built on first use; it holds no per-run state). */
  readonly middleware: (mode: Mode) => Middleware;
}

/** Splits and indexes a catalog once (fails as `simulationTools` does, e.g. on an unknown --static name). */
export function prepareTools(catalog: Catalog, staticNames: readonly string[] = []): PreparedTools {
  const tools = splitTools(catalog.tools, catalog.sources.map((s) => s.file).join(', '), staticNames);
  const built = new Map<Mode, Middleware>();
  return {
    catalog,
    staticNames,
    tools,
    middleware: (mode) => {
      let mw = built.get(mode);
      if (!mw) {
        mw = createMiddleware({ dynamicTools: tools.dynamicTools, mode });
        built.set(mode, mw);
      }
      return mw;
    },
  };
}

export function preparedFor(options: Pick<SimulateOptions, 'catalog' | 'prepared'>): PreparedTools | null {
  return options.prepared && options.catalog !== null && options.prepared.catalog === options.catalog
    ? options.prepared
    : null;
}

/** The tools of a simulation, split as the middleware needs them. */
export interface SimulationTools {
  readonly staticTools: readonly CatalogTool[];
  readonly dynamicTools: readonly CatalogTool[];
  readonly source: string;
}

/** Chooses the catalog (given, or carried by the transcript) and splits static from dynamic tools. */
export function simulationTools(
  options: Pick<SimulateOptions, 'transcript' | 'catalog' | 'staticNames' | 'prepared'>,
): SimulationTools {
  const { transcript, catalog } = options;
  const prepared = preparedFor(options);
  if (prepared) {
    const carried = transcript.tools?.length ?? 0;
    if (carried === 0) return prepared.tools;
    return { ...prepared.tools, source: `${prepared.tools.source}${carriedNote(carried)}` };
  }
  let tools: readonly CatalogTool[];
  let source: string;
  if (catalog) {
    tools = catalog.tools;
    source = catalog.sources.map((s) => s.file).join(', ');
    // Say which set is used when there were two to choose from.
    const carried = transcript.tools?.length ?? 0;
    if (carried > 0) source += carriedNote(carried);
  } else if (transcript.tools) {
    tools = transcript.tools;
    source = `${transcript.file} (tools carried by the transcript)`;
    const split = splitTools(tools, source, options.staticNames ?? []);
    // The reference's own error ("tools is required") has no position: say which file carried what.
    if (split.dynamicTools.length === 0)
      throw new InputError(
        `tools is required: the recording carries no dynamic tool (${
          tools.length === 0
            ? "no catalog tool at all: the provider's own tools, such as MCP servers and web search, are not"
            : `its ${tools.length === 1 ? 'one catalog tool is' : `${tools.length} catalog tools are all`} static`
        }): pass -c/--catalog`,
        { file: transcript.file, line: 0, column: 0 },
      );
    return split;
  } else {
    throw new InputError(
      'no catalog: pass -c/--catalog, or a transcript that carries its own tools (a logged request body with "tools")',
      { file: transcript.file, line: 0, column: 0 },
    );
  }
  return splitTools(tools, source, options.staticNames ?? []);
}

function carriedNote(carried: number): string {
  return ` (given with -c, not the ${carried} ${carried === 1 ? 'tool' : 'tools'} the transcript carries)`;
}

function splitTools(tools: readonly CatalogTool[], source: string, staticNames: readonly string[]): SimulationTools {
  const extraStatic = new Set(staticNames);
  const names = new Set(tools.map((t) => t.name));
  for (const name of extraStatic) {
    if (!names.has(name)) throw new InputError(`--static names a tool that is not in the catalog: ${quote(name)}`);
  }
  return {
    staticTools: tools.filter((t) => t.static || extraStatic.has(t.name)),
    dynamicTools: tools.filter((t) => !t.static && !extraStatic.has(t.name)),
    source,
  };
}
