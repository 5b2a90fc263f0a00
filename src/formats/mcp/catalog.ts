/**
 * Catalogs from live MCP servers: each server's tools become catalog tools
 * named `mcp__<server>__<tool>`, with the server's description and
 * `inputSchema` as parameters. Several servers merge in the order given.
 */
import { InputError } from '../../io/errors.js';
import type { CatalogTool } from '../types.js';
import { listMcpTools, type ListMcpToolsOptions, type McpServerTarget, type McpToolList } from './list-tools.js';
import { mcpToolName, normalizeServerName } from './names.js';

/** A server of a catalog: where it is, and optionally the name to use instead of the one it reports. */
export type McpCatalogServer = McpServerTarget & {
  /** Server name for tool names (normalized like a reported one); default: the server's `serverInfo.name`. */
  readonly name?: string;
};

export interface McpCatalogOptions {
  /** Time allowed per server, in milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Deepest `inputSchema` nesting accepted (default: the loaders' `maxDepth`). */
  readonly maxDepth?: number;
  /** Largest MCP message in bytes (default: the loaders' `maxMcpMessageBytes`). */
  readonly maxMessageBytes?: number;
  /** Most pages of tools/list (default: the loaders' `maxMcpPages`). */
  readonly maxPages?: number;
}

/** A merged catalog with what each server reported. */
export interface McpCatalogResult {
  readonly tools: CatalogTool[];
  readonly servers: ReadonlyArray<McpToolList & { readonly usedName: string }>;
  readonly warnings: readonly string[];
}

/** Turns one server's tool list into catalog tools (all dynamic), named with `serverName`. */
export function catalogToolsOf(list: McpToolList, serverName: string = list.serverName): CatalogTool[] {
  return list.tools.map((t) => ({
    name: mcpToolName(serverName, t.name),
    description: t.description,
    parameters: t.inputSchema,
    static: false,
    source: { file: list.source, line: 0, column: 0 },
  }));
}

/**
 * Reads every server (in parallel; each process ends before this returns)
 * and merges their tools in the order the servers are given. Fails with an
 * `InputError` when a server fails (the first failing server in the given
 * order is reported) or when two tools end up with the same name (two
 * servers reporting the same name: give one a `name`).
 */
export async function mcpCatalogDetailed(
  servers: readonly McpCatalogServer[],
  options: McpCatalogOptions = {},
): Promise<McpCatalogResult> {
  if (servers.length === 0) throw new InputError('no MCP server given');
  const settled = await Promise.allSettled(
    servers.map((s) => {
      const o: ListMcpToolsOptions = {
        ...(s.url !== undefined ? { url: s.url } : { command: s.command! }),
        timeoutMs: options.timeoutMs,
        env: options.env,
        cwd: options.cwd,
        headers: options.headers,
        maxDepth: options.maxDepth,
        maxMessageBytes: options.maxMessageBytes,
        maxPages: options.maxPages,
      };
      return listMcpTools(o);
    }),
  );
  const lists: Array<McpToolList & { usedName: string }> = [];
  for (let i = 0; i < settled.length; i++) {
    const r = settled[i]!;
    if (r.status === 'rejected') throw r.reason;
    const given = servers[i]!.name;
    lists.push({ ...r.value, usedName: given !== undefined ? normalizeServerName(given) : r.value.serverName });
  }
  return { tools: mergeServerTools(lists), servers: lists, warnings: lists.flatMap((l) => l.warnings) };
}

/**
 * Merges the tools of several servers in order. Two tools with the same name
 * are an `InputError`: two servers with the same name (give one a `name`), or
 * two tools of one server that normalize to the same name.
 */
export function mergeServerTools(lists: ReadonlyArray<McpToolList & { readonly usedName: string }>): CatalogTool[] {
  const tools: CatalogTool[] = [];
  const owner = new Map<string, number>();
  for (const [i, list] of lists.entries()) {
    for (const [j, t] of catalogToolsOf(list, list.usedName).entries()) {
      const prev = owner.get(t.name);
      if (prev !== undefined) {
        const original = list.tools[j]!.name;
        const hint =
          prev === i
            ? `two of its tools normalize to the same name (${JSON.stringify(original)})`
            : `it is also a tool of ${lists[prev]!.source}; give the servers different names (--name)`;
        throw new InputError(`duplicate tool name ${t.name}: ${hint}`, { file: list.source, line: 0, column: 0 });
      }
      owner.set(t.name, i);
      tools.push(t);
    }
  }
  return tools;
}

/** The merged catalog tools of several MCP servers (see {@link mcpCatalogDetailed}). */
export async function mcpCatalog(
  servers: readonly McpCatalogServer[],
  options: McpCatalogOptions = {},
): Promise<CatalogTool[]> {
  return (await mcpCatalogDetailed(servers, options)).tools;
}
