/**
 * Inputs shared by commands: the catalog flags, loading catalogs (the format
 * loaders are imported lazily, so commands that fail early or only print help
 * never load YAML), and the tool index a search runs over.
 */
import { resolve as resolvePath } from 'node:path';
import { createMiddleware } from '../core/middleware.js';
import { ToolIndex } from '../core/index/tool-index.js';
import { InputError, UsageError } from '../io/errors.js';
import type { CliContext } from './context.js';
import type { Catalog, CatalogFormat, CatalogTool } from '../formats/types.js';
import { type SearchScope, suggestions } from '../jobs/search/report.js';

/** Flags of the catalog options (catalog-options.ts: `addCatalogOptions`). */
export interface CatalogFlags {
  readonly catalog?: string[];
  readonly catalogFormat?: CatalogFormat | 'auto';
  readonly prefix?: string;
  readonly mcpTimeout?: string;
  /** False with `--no-cache`. */
  readonly cache?: boolean;
  /** `--strict`: shape warnings of the catalog are errors. */
  readonly strict?: boolean;
  /** `--static <a,b>`: catalog tools to treat as static. */
  readonly static?: string[];
  /** `--server <key>`: servers of an MCP client config to use. */
  readonly server?: string[];
  readonly skipFailed?: boolean;
}

/** `--mcp-timeout <seconds>`: flags, description and default, for every command that reads mcp: catalogs. */
export const MCP_TIMEOUT_OPTION = [
  '--mcp-timeout <seconds>',
  'timeout per MCP server of mcp: catalogs and client configs (start, initialize and every page)',
  '30',
] as const;

/** The `--mcp-timeout` value in milliseconds; a usage error unless it is a positive number of seconds. */
export function mcpTimeoutMs(value: string | undefined): number {
  const timeout = Number(value ?? MCP_TIMEOUT_OPTION[2]);
  if (!Number.isFinite(timeout) || timeout <= 0)
    throw new UsageError(`--mcp-timeout must be a positive number of seconds, got ${value}`);
  return timeout * 1000;
}

/** Loads and merges the catalogs named by the flags; the loader's warnings go to `warn`. */
export async function loadCatalog(ctx: CliContext, flags: CatalogFlags): Promise<Catalog> {
  const files = flags.catalog ?? [];
  if (files.length === 0) throw new UsageError('a catalog is required: -c, --catalog <file>');
  if (flags.prefix !== undefined && !/^[^\s\p{Cc}]+$/u.test(flags.prefix)) {
    throw new UsageError(
      `--prefix must be a server name without spaces or control characters, got ${JSON.stringify(flags.prefix)}`,
    );
  }
  const timeoutMs = mcpTimeoutMs(flags.mcpTimeout);
  // The same file twice would only be reported as every tool "defined twice", at the same place.
  const seen = new Map<string, string>();
  for (const f of files) {
    const key = f.startsWith('mcp:') || f === '-' ? f : resolvePath(f);
    const first = seen.get(key);
    if (first !== undefined) {
      throw new UsageError(
        first === f ? `the catalog ${f} is given twice` : `the catalog ${f} is given twice (also as ${first})`,
      );
    }
    seen.set(key, f);
  }
  let catalog: Catalog;
  const { isLiveSpec } = await import('../formats/mcp/catalog-spec.js');
  if (files.some(isLiveSpec) || (flags.server ?? []).length > 0) {
    // Live MCP servers (mcp:, or the servers of a client config): the SDK is loaded only when a catalog names one.
    const { loadCatalogSpecs } = await import('../formats/mcp/catalog-spec.js');
    // Only here: asking stderr whether it is a terminal sets up process.stderr (and Node's stream modules).
    const progress = ctx.progress();
    catalog = await loadCatalogSpecs(files, {
      format: flags.catalogFormat ?? 'auto',
      limits: ctx.limits,
      timeoutMs,
      ...(flags.prefix !== undefined ? { prefix: flags.prefix } : {}),
      ...(flags.server !== undefined ? { servers: flags.server } : {}),
      ...(flags.skipFailed === true ? { skipFailed: true } : {}),
      onServers: (n: number) => progress.update(`starting ${n} MCP ${n === 1 ? 'server' : 'servers'}…`),
    });
    progress.done();
  } else {
    const { loadCatalogFilesCached } = await import('./catalog-cache.js');
    catalog = loadCatalogFilesCached(
      files,
      {
        format: flags.catalogFormat ?? 'auto',
        limits: ctx.limits,
        ...(flags.prefix !== undefined ? { prefix: flags.prefix } : {}),
      },
      flags.cache === false ? null : ctx.catalogCache,
    );
  }
  const shape = catalog.shapeWarnings ?? [];
  if (flags.strict === true && shape.length > 0) {
    // --strict: the first one is the error, at its location.
    const more = shape.length > 1 ? ` (and ${shape.length - 1} more)` : '';
    throw new InputError(`${shape[0]!.message}${more}`, shape[0]!.location);
  }
  for (const w of catalog.warnings ?? []) ctx.warn(w);
  return flags.static !== undefined ? withStatic(catalog, flags.static) : catalog;
}

/**
 * The catalog with the tools named by `--static` made static; a name that is not a tool is a usage error (with
 * did-you-mean).
 */
export function withStatic(catalog: Catalog, names: readonly string[]): Catalog {
  const all = new Set(catalog.tools.map((t) => t.name));
  for (const name of names) {
    if (all.has(name)) continue;
    const near = suggestions(all, name);
    throw new UsageError(
      `--static names a tool that is not in the ` +
        `catalog: ${JSON.stringify(name)}${near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : ''}`,
    );
  }
  const wanted = new Set(names);
  return {
    ...catalog,
    tools: catalog.tools.map((t) => (wanted.has(t.name) && !t.static ? { ...t, static: true } : t)),
  };
}

export type { SearchScope } from '../jobs/search/report.js';

/**
 * Splits a catalog and builds the index. The reference's construction rules
 * apply even with `--all`: no dynamic tools is "tools is required".
 */
export function searchScope(catalog: Catalog, all: boolean): SearchScope {
  const dynamic = catalog.tools.filter((t) => !t.static);
  const statics = catalog.tools.filter((t) => t.static);
  const mw = createMiddleware({ dynamicTools: dynamic });
  const index = all ? new ToolIndex(catalog.tools) : mw.index;
  const byName = new Map<string, CatalogTool>();
  for (const t of catalog.tools) byName.set(t.name, t);
  return { dynamic, static: statics, index, all, byName };
}
