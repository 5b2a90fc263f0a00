/**
 * Catalog specs: what `-c/--catalog` accepts anywhere a catalog is read.
 *
 * - `mcp:<command line>`: start that MCP server over stdio and read its tools
 *   (`--catalog 'mcp:npx -y @modelcontextprotocol/server-everything'`);
 * - `mcp:http://…` or `mcp:https://…`: a Streamable HTTP MCP endpoint;
 * - anything else: a catalog file, read by the format loaders.
 *
 * One pair of quotes around everything after `mcp:` is dropped, as a shell
 * would drop it: `-c 'mcp:"node server.js stdio"'` (the form the help shows,
 * kept whole by the outer single quotes) names `node server.js stdio`.
 *
 * (A file whose name starts with `mcp:` can be given as `./mcp:…`.)
 *
 * Specs merge in the order given; a name defined twice is an error naming
 * both places. Without any `mcp:` spec this is exactly `loadCatalogFiles`.
 * The MCP client is only loaded when an `mcp:` spec is present.
 */
import type { CatalogOptions } from '../formats/catalog.js';
import { resolveLimits } from '../formats/read.js';
import type { Catalog, CatalogFormat, CatalogTool } from '../formats/types.js';
import type { McpServerTarget } from './list-tools.js';

/** The prefix that marks a live MCP server in a catalog spec. */
export const MCP_SPEC_PREFIX = 'mcp:';

/**
 * Options of {@link loadCatalogSpecs}: those of `loadCatalogFiles` (`format`
 * is ignored for `mcp:` specs; `prefix`, used as given, also names the
 * server of `mcp:` specs), plus the time allowed per MCP server.
 */
export interface CatalogSpecOptions extends CatalogOptions {
  /** Time allowed per MCP server, in milliseconds (default 30 000). */
  readonly timeoutMs?: number;
}

/** Whether a spec names a live MCP server. */
export function isMcpSpec(spec: string): boolean {
  return spec.startsWith(MCP_SPEC_PREFIX);
}

/**
 * `text` without one pair of matching quotes around all of it, read as a
 * shell reads them: `'…'` literally, `"…"` with `\"`, `\\`, `\$` and `` \` ``
 * unescaped. Unchanged when the quote that opens it closes before the end
 * (`"a" "b"`), or when it does not start with a quote.
 */
function unquoteWhole(text: string): string {
  const q = text[0];
  if ((q !== '"' && q !== "'") || text.length < 2 || text[text.length - 1] !== q) return text;
  if (q === "'") return text.indexOf("'", 1) === text.length - 1 ? text.slice(1, -1) : text;
  let out = '';
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') return i === text.length - 1 ? out : text;
    if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) {
      out += text[++i];
      continue;
    }
    out += c;
  }
  return text;
}

/**
 * The server an `mcp:` spec names (a URL when it starts with http:// or
 * https://, else a command line), without one pair of quotes around it all.
 */
export function mcpTargetOf(spec: string): McpServerTarget {
  const rest = unquoteWhole(spec.slice(MCP_SPEC_PREFIX.length).trim()).trim();
  return /^https?:\/\//i.test(rest) ? { url: rest } : { command: rest };
}

/** Loads one catalog spec (see the module comment). */
export async function loadCatalogSpec(spec: string, options: CatalogSpecOptions = {}): Promise<Catalog> {
  return loadCatalogSpecs([spec], options);
}

/** Loads several catalog specs and merges them in order. */
export async function loadCatalogSpecs(specs: readonly string[], options: CatalogSpecOptions = {}): Promise<Catalog> {
  const { loadCatalogFiles, mergeTools } = await import('../formats/catalog.js');
  const { timeoutMs: _timeout, ...fileOptions } = options;
  if (!specs.some(isMcpSpec)) return loadCatalogFiles(specs, fileOptions);

  const { listMcpTools } = await import('./list-tools.js');
  const { catalogToolsOf } = await import('./catalog.js');
  // Files first (a bad file fails before any server starts), then the
  // servers in parallel; every server is awaited (its process ended) before
  // an error is thrown.
  const files = specs.map((spec) => (isMcpSpec(spec) ? null : loadCatalogFiles([spec], fileOptions)));
  const settled = await Promise.allSettled(
    specs.map((spec) =>
      isMcpSpec(spec)
        ? listMcpTools({
            ...mcpTargetOf(spec),
            maxDepth: resolveLimits(options.limits).maxDepth,
            ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
          })
        : Promise.resolve(null),
    ),
  );
  const lists: CatalogTool[][] = [];
  const sources: Array<{ file: string; format: CatalogFormat }> = [];
  const warnings: string[] = [];
  for (let i = 0; i < specs.length; i++) {
    const r = settled[i]!;
    if (r.status === 'rejected') throw r.reason;
    const file = files[i];
    if (file) {
      lists.push([...file.tools]);
      sources.push(...file.sources);
      warnings.push(...(file.warnings ?? []));
      continue;
    }
    const list = r.value!;
    // --prefix is used as given, as the file loaders use it.
    const name = options.prefix ?? list.serverName;
    lists.push(catalogToolsOf(list, name));
    sources.push({ file: list.source, format: 'mcp' });
    warnings.push(...list.warnings);
  }
  return { tools: mergeTools(lists), sources, warnings };
}
