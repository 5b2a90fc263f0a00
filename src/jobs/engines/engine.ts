/**
 * `--engine`: which search runs — a built-in engine (the reference `eino`,
 * the ports `ai-sdk` and `mastra`) or a user's module — behind one
 * asynchronous interface every job uses, with each engine's parameters.
 */
import {
  createEngine,
  ENGINE_IDS,
  isEngineId,
  type EngineId,
  type EngineOutcome,
  type EngineParams,
  type EngineTool,
  type SearchEngine,
} from '../../core/engines/index.js';
import { UsageError, quote } from '../../io/errors.js';
import { CustomEngine, isModulePath } from './custom.js';

/** What `--engine` names. */
export type EngineSpec =
  | { readonly kind: 'builtin'; readonly id: EngineId }
  | { readonly kind: 'module'; readonly path: string };

/** The default: the reference. */
export const DEFAULT_ENGINE: EngineSpec = { kind: 'builtin', id: 'eino' };

/** Reads an `--engine` value: a built-in name, or a path to a module (it has a `/` or ends in .js, .mjs, .cjs). */
export function parseEngineSpec(value: string): EngineSpec {
  const v = value.trim();
  if (isEngineId(v)) return { kind: 'builtin', id: v };
  if (isModulePath(v)) return { kind: 'module', path: v };
  throw new UsageError(
    `unknown engine ${quote(v)}: the engines are ${ENGINE_IDS.join(', ')}, or a module path such as ./my-search.js`,
  );
}

/** How reports name an engine: its id, or the module path as given. */
export function engineName(spec: EngineSpec): string {
  return spec.kind === 'builtin' ? spec.id : spec.path;
}

/** An engine ready to search one catalog. */
export interface OpenEngine {
  readonly name: string;
  readonly spec: EngineSpec;
  /** The built-in engine (synchronous, with rankings and explanations); null for a module. */
  readonly builtin: SearchEngine | null;
  /** The limit of a search when none is given. */
  readonly limit: number;
  readonly summary: string;
  search(query: string, limit?: number): Promise<EngineOutcome>;
  close(): Promise<void>;
}

/** Options for a module engine. */
export interface OpenOptions {
  readonly timeoutMs?: number;
  readonly cwd?: string;
}

/** Builds the engine over the searchable tools (catalog order). A module is loaded in its worker. */
export async function openEngine(
  spec: EngineSpec,
  tools: readonly EngineTool[],
  params: EngineParams = {},
  options: OpenOptions = {},
): Promise<OpenEngine> {
  if (spec.kind === 'builtin') {
    const engine = createEngine(spec.id, tools, params);
    return {
      name: spec.id,
      spec,
      builtin: engine,
      limit: engine.limit,
      summary: engine.summary,
      search: async (query, limit) =>
        limit === undefined ? engine.search(query) : engine.searchWithLimit(query, limit),
      close: async () => {},
    };
  }
  const custom = await CustomEngine.start(spec.path, tools, options);
  const limit = params.maxResults ?? 5;
  return {
    name: spec.path,
    spec,
    builtin: null,
    limit,
    summary: `your search module ${spec.path} (search({ query, tools, maxResults }) → names)`,
    search: (query, l) => custom.search(query, l ?? limit),
    close: () => custom.close(),
  };
}
