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
import { editDistance } from '../../io/edit-distance.js';
import { InputError, UsageError } from '../../io/errors.js';
import type { CatalogOptions } from '../catalog.js';
import type { ShapeWarning } from '../shape-warning.js';
import {
  type Catalog,
  type CatalogFormat,
  type CatalogFormatChoice,
  type CatalogTool,
  configAllowed,
} from '../types.js';
import { type ClientConfig, type ClientConfigServer, mightBeClientConfig } from './client-config.js';
import type { ListMcpToolsOptions, McpServerTarget, McpToolList } from './list-tools.js';
import { append } from '../../core/append.js';

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
  /** Keys of the MCP client config servers to use (default: all). */
  readonly servers?: readonly string[];
  /** A failing server is a warning and the others are used. */
  readonly skipFailed?: boolean;
  /** The environment variables in client configs expand from, and servers inherit (default: ours). */
  readonly env?: NodeJS.ProcessEnv;
  /** Told how many servers are being started (before any answers). */
  readonly onServers?: (count: number) => void;
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

/**
 * Whether a spec needs {@link loadCatalogSpecs} rather than the file loaders: a live server, or what may be an MCP
 * client config — only when `format` lets a file be one (`auto`, `mcp-config`): a forced data format reads the file
 * as that format only, and starts nothing.
 */
export function isLiveSpec(spec: string, format?: CatalogFormatChoice): boolean {
  return isMcpSpec(spec) || (configAllowed(format) && mightBeClientConfig(spec));
}

/** What one spec turned out to be. */
type Plan =
  | { readonly kind: 'file'; readonly catalog: Catalog }
  | { readonly kind: 'mcp'; readonly spec: string }
  | { readonly kind: 'config'; readonly config: ClientConfig; readonly servers: readonly ClientConfigServer[] };

/** The options of `listMcpTools` for a server of a client config. */
function targetOptions(server: ClientConfigServer, config: ClientConfig, env: NodeJS.ProcessEnv): ListMcpToolsOptions {
  const t = server.target;
  const source = `${config.file}: server ${JSON.stringify(server.key)}`;
  if (t.kind === 'stdio') {
    return {
      command: [t.program, ...t.args].join(' '),
      argv: [t.program, ...t.args],
      // The server inherits our environment, with the entry's variables on top (as the hosts do).
      env: { ...env, ...t.env },
      ...(t.cwd !== undefined ? { cwd: t.cwd } : {}),
      source,
    };
  }
  return { url: t.url, headers: t.headers, sse: t.kind === 'sse', source };
}

/**
 * Loads several catalog specs and merges them in order: catalog files, `mcp:`
 * servers, and MCP client configs (see client-config.ts), whose servers are
 * picked with `servers` (config keys; default all). Every server of every
 * spec starts at once, each under `timeoutMs`, and each has ended before this
 * returns. A failing server is an error naming it, unless `skipFailed`: then
 * it is a warning and the others are used.
 */
export async function loadCatalogSpecs(specs: readonly string[], options: CatalogSpecOptions = {}): Promise<Catalog> {
  return (await loadCatalogSpecsDetailed(specs, options)).catalog;
}

/** A server read by {@link loadCatalogSpecsDetailed}: what it reported, and the server part of its tools' names. */
export type ReadServer = McpToolList & { readonly usedName: string };

/** {@link loadCatalogSpecs}, with what every server that answered reported, in spec order. */
export async function loadCatalogSpecsDetailed(
  specs: readonly string[],
  options: CatalogSpecOptions = {},
): Promise<{ catalog: Catalog; servers: ReadServer[] }> {
  const { loadCatalogFiles, mergeTools } = await import('../catalog.js');
  const { timeoutMs, servers: picked, skipFailed, env: givenEnv, onServers, ...fileOptions } = options;
  const env = givenEnv ?? process.env;
  const format = fileOptions.format ?? 'auto';
  if (format === 'data') {
    // Plain data: nothing is started, whatever the catalogs say.
    const live = specs.find(isMcpSpec);
    if (live !== undefined)
      throw new UsageError(
        `--catalog-format data reads catalogs as plain data, and ${JSON.stringify(live)} starts a server: ` +
          'drop one of them',
      );
  }
  // A file is a client config (its servers start) only when the format lets it be: detected (auto) or forced.
  const maybeConfig = specs.map((spec) => !isMcpSpec(spec) && configAllowed(format) && mightBeClientConfig(spec));
  if (!specs.some(isMcpSpec) && !maybeConfig.some(Boolean)) {
    if (picked !== undefined && picked.length > 0)
      throw new UsageError('--server picks servers of an MCP client config, and no catalog given is one');
    return { catalog: loadCatalogFiles(specs, fileOptions), servers: [] };
  }

  const [{ listMcpTools }, { catalogToolsOf }, { parseFile }, { readClientConfig }] = await Promise.all([
    import('./list-tools.js'),
    import('./catalog.js'),
    import('../../io/parse.js'),
    import('./client-config.js'),
  ]);
  // Files and configs first (a bad file fails before any server starts).
  const plans: Plan[] = specs.map((spec, i) => {
    if (isMcpSpec(spec)) return { kind: 'mcp', spec };
    if (maybeConfig[i]) {
      const doc = parseFile(spec, fileOptions.limits ? { limits: fileOptions.limits } : {});
      const config = readClientConfig(doc, env);
      if (config) return { kind: 'config', config, servers: config.servers };
    }
    // A file that is no client config: under `mcp-config` the file loaders say so.
    return { kind: 'file', catalog: loadCatalogFiles([spec], fileOptions) };
  });
  const configs = plans.filter((p): p is Extract<Plan, { kind: 'config' }> => p.kind === 'config');
  if (picked !== undefined && picked.length > 0) {
    if (configs.length === 0)
      throw new UsageError('--server picks servers of an MCP client config, and no catalog given is one');
    const keys = configs.flatMap((p) => p.config.servers.map((s) => s.key));
    for (const want of picked) {
      if (keys.includes(want)) continue;
      const near = keys.filter((k) => k.toLowerCase() === want.toLowerCase() || closeEnough(k, want));
      throw new UsageError(
        `--server ${want}: no such server in ${configs.map((p) => p.config.file).join(', ')}${
          near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : ''
        }; its servers: ${keys.join(', ') || '(none)'}`,
      );
    }
    for (let i = 0; i < plans.length; i++) {
      const p = plans[i]!;
      if (p.kind === 'config') plans[i] = { ...p, servers: p.config.servers.filter((s) => picked.includes(s.key)) };
    }
  }

  const warnings: string[] = [];
  for (const p of configs) append(warnings, p.config.warnings);
  // One job per server, all started at once.
  const jobs: Array<Promise<McpToolList>> = [];
  const timeout = {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(fileOptions.limits?.maxDepth !== undefined ? { maxDepth: fileOptions.limits.maxDepth } : {}),
    ...(fileOptions.limits?.maxMcpMessageBytes !== undefined
      ? { maxMessageBytes: fileOptions.limits.maxMcpMessageBytes }
      : {}),
    ...(fileOptions.limits?.maxMcpPages !== undefined ? { maxPages: fileOptions.limits.maxMcpPages } : {}),
  };
  for (const p of plans) {
    if (p.kind === 'mcp') jobs.push(listMcpTools({ ...mcpTargetOf(p.spec), ...timeout }));
    if (p.kind === 'config')
      for (const server of p.servers) jobs.push(listMcpTools({ ...targetOptions(server, p.config, env), ...timeout }));
  }
  onServers?.(jobs.length);
  const settled = await Promise.allSettled(jobs);

  const lists: CatalogTool[][] = [];
  const sources: Array<{ file: string; format: CatalogFormat }> = [];
  const read: ReadServer[] = [];
  // A catalog file among the servers keeps its shape warnings (--strict makes them errors).
  const shapeWarnings: ShapeWarning[] = [];
  let next = 0;
  const failure = (reason: unknown, server?: ClientConfigServer): InputError => {
    if (!(reason instanceof InputError)) throw reason;
    return server ? server.fail(reason.message) : reason;
  };
  for (const p of plans) {
    if (p.kind === 'file') {
      lists.push([...p.catalog.tools]);
      append(sources, p.catalog.sources);
      append(warnings, p.catalog.warnings ?? []);
      append(shapeWarnings, p.catalog.shapeWarnings ?? []);
      continue;
    }
    const servers: Array<ClientConfigServer | undefined> = p.kind === 'mcp' ? [undefined] : [...p.servers];
    if (p.kind === 'config') sources.push({ file: p.config.file, format: 'mcp' });
    for (const server of servers) {
      const r = settled[next++]!;
      if (r.status === 'rejected') {
        const err = failure(r.reason, server);
        if (!skipFailed) throw err;
        warnings.push(`${err.headline} (skipped: --skip-failed)`);
        continue;
      }
      const list = r.value;
      append(warnings, list.warnings);
      if (server) {
        lists.push(catalogToolsOf(list, server.toolPrefix).map((t) => ({ ...t, source: server.location })));
        read.push({ ...list, usedName: server.toolPrefix });
        continue;
      }
      // --prefix is used as given, as the file loaders use it.
      const usedName = options.prefix ?? list.serverName;
      lists.push(catalogToolsOf(list, usedName));
      read.push({ ...list, usedName });
      sources.push({ file: list.source, format: 'mcp' });
    }
  }
  return { catalog: { tools: mergeTools(lists), sources, warnings, shapeWarnings }, servers: read };
}

/** Whether two keys differ by at most two edits (a typo). */
function closeEnough(a: string, b: string): boolean {
  return Math.abs(a.length - b.length) <= 2 && editDistance(a, b) <= 2;
}
