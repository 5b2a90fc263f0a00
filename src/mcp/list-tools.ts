/**
 * Reads the tool list of a live MCP server: start it (stdio) or connect to it
 * (Streamable HTTP), initialize, call `tools/list` until no cursor is left,
 * and end the connection (and the process) whatever happens.
 *
 * The MCP SDK is loaded on first use (dynamic import), so importing this
 * module costs nothing until a server is contacted.
 */
import { readFileSync } from 'node:fs';
import type { JsonValue } from '../core/types.js';
import { InputError } from '../errors.js';
import { CommandLineError, splitCommandLine } from './command-line.js';
import { normalizeServerName } from './names.js';
import { ChildFailureError, ChildProcessTransport, type ChildFailure } from './stdio-transport.js';

/** Default time allowed for the whole exchange (start, initialize, every page). */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;

/** A server to read: a command line run over stdio, or the URL of a Streamable HTTP endpoint. */
export type McpServerTarget =
  | { readonly command: string; readonly url?: undefined }
  | { readonly url: string; readonly command?: undefined };

export type ListMcpToolsOptions = McpServerTarget & {
  /** Time allowed for the whole exchange, in milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** Extra HTTP headers (Streamable HTTP only), e.g. `Authorization`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Environment of a stdio server (default: ours). */
  readonly env?: NodeJS.ProcessEnv;
  /** Working directory of a stdio server (default: ours). */
  readonly cwd?: string;
};

/** A tool as the server lists it. */
export interface McpTool {
  readonly name: string;
  /** The tool's description; empty when the server gives none. */
  readonly description: string;
  /** The tool's `inputSchema`, as sent. */
  readonly inputSchema: JsonValue;
  readonly title?: string;
}

/** What a server reported. */
export interface McpToolList {
  /** `mcp:<command line>` or `mcp:<url>`: where the tools came from (used as the tools' source file). */
  readonly source: string;
  /** `serverInfo` from the initialize result, as reported. */
  readonly server: { readonly name: string; readonly version: string; readonly title?: string };
  /** The server name normalized for tool names (see `names.ts`). */
  readonly serverName: string;
  /** The tools, in the order the server listed them, all pages concatenated. */
  readonly tools: readonly McpTool[];
  /** Number of `tools/list` pages read. */
  readonly pages: number;
  /** Non-fatal oddities (stdout lines that were not JSON-RPC, …). */
  readonly warnings: readonly string[];
}

/**
 * The failure of a server: an `InputError` (exit 2 in the CLI) whose message
 * ends with the last lines of the server's stderr, also kept whole in `stderr`.
 */
export class McpServerError extends InputError {
  constructor(
    message: string,
    source: string,
    /** The tail of what the server wrote on stderr (empty for HTTP servers). */
    readonly stderr: string = '',
  ) {
    super(message + stderrSummary(stderr), { file: source, line: 0, column: 0 });
  }
}

/** Pages read at most: a server that keeps returning cursors is broken. */
const MAX_PAGES = 10_000;

function stderrLines(stderr: string, max: number): string[] {
  return stderr
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(-max);
}

function stderrSummary(stderr: string): string {
  const lines = stderrLines(stderr, 3).map((l) => (l.length > 300 ? `${l.slice(0, 299)}…` : l));
  return lines.length === 0 ? '' : `; the server's stderr ended with: ${lines.join(' | ')}`;
}

function clientVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

class Timeout extends Error {}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : '';
  return code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
}

function describeFailure(f: ChildFailure, phase: string): string {
  switch (f.kind) {
    case 'not-found':
      return `command not found: ${f.program}`;
    case 'spawn':
      return `cannot start ${f.program}: ${f.message}`;
    case 'exit': {
      const how = f.signal !== null ? `was killed by ${f.signal}` : `exited with code ${f.code ?? '?'}`;
      return `the server ${how} before answering ${phase}`;
    }
    case 'not-mcp': {
      const line = f.line.length > 200 ? `${f.line.slice(0, 199)}…` : f.line;
      return `not an MCP server: it wrote something other than JSON-RPC on stdout: ${JSON.stringify(line)}`;
    }
  }
}

/**
 * Lists the tools of an MCP server, following `nextCursor` until the last
 * page. Every failure is a {@link McpServerError}: the command does not
 * exist, the server exits early or writes something other than JSON-RPC on
 * stdout, it does not answer within the timeout, or it answers with an error.
 * The server process (and its process group) always ends before this returns.
 */
export async function listMcpTools(options: ListMcpToolsOptions): Promise<McpToolList> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new InputError(`the timeout must be positive, got ${timeoutMs} ms`);
  const isHttp = options.url !== undefined;
  const target = isHttp ? options.url! : options.command!;
  const source = `mcp:${target}`;
  if (target === undefined) throw new InputError('an MCP server needs a command line or a URL');

  const [{ Client }, { JSONRPCMessageSchema, ListToolsResultSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);

  let stdio: ChildProcessTransport | null = null;
  let transport: import('@modelcontextprotocol/sdk/shared/transport.js').Transport;
  let httpTransport: import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport | null = null;
  if (isHttp) {
    let url: URL;
    if (target.trim() === '') throw new McpServerError('the URL is empty', source);
    try {
      url = new URL(target);
    } catch {
      throw new McpServerError(`not a URL: ${target}`, source);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new McpServerError(`an MCP URL must be http: or https:, got ${url.protocol}`, source);
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    httpTransport = new StreamableHTTPClientTransport(url, options.headers ? { requestInit: { headers: { ...options.headers } } } : undefined);
    transport = httpTransport;
  } else {
    let argv: string[];
    try {
      argv = splitCommandLine(target);
    } catch (err) {
      if (err instanceof CommandLineError) throw new McpServerError(err.message, source);
      throw err;
    }
    if (argv.length === 0) throw new McpServerError('the command line is empty', source);
    stdio = new ChildProcessTransport({
      program: argv[0]!,
      args: argv.slice(1),
      env: options.env,
      cwd: options.cwd,
      validate: (v) => JSONRPCMessageSchema.parse(v),
    });
    transport = stdio;
  }

  const client = new Client({ name: 'toolsearch', version: clientVersion() }, { capabilities: {} });
  // Errors the client reports on the side (a stray line, a late response) are not fatal here.
  client.onerror = () => undefined;

  let phase = isHttp ? 'initialize' : 'start';
  const work = async (): Promise<McpToolList> => {
    phase = 'initialize';
    await client.connect(transport, { timeout: timeoutMs });
    const info = client.getServerVersion();
    const tools: McpTool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      pages++;
      if (pages > MAX_PAGES) throw new McpServerError(`tools/list still returned a cursor after ${MAX_PAGES} pages`, source);
      phase = pages === 1 ? 'tools/list' : `tools/list (page ${pages})`;
      const result = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ListToolsResultSchema,
        { timeout: timeoutMs },
      );
      for (const t of result.tools) {
        tools.push({
          name: t.name,
          description: t.description ?? '',
          inputSchema: t.inputSchema as JsonValue,
          ...(t.title !== undefined ? { title: t.title } : {}),
        });
      }
      const next = result.nextCursor;
      if (next !== undefined && seen.has(next)) throw new McpServerError(`tools/list returned the cursor ${JSON.stringify(next)} twice`, source);
      if (next !== undefined) seen.add(next);
      cursor = next;
    } while (cursor !== undefined);
    const server = { name: info?.name ?? '', version: info?.version ?? '', ...(info?.title !== undefined ? { title: info.title } : {}) };
    const warnings: string[] = [];
    if (stdio && stdio.ignoredLines > 0) warnings.push(`${source}: the server wrote ${stdio.ignoredLines} line(s) on stdout that were not JSON-RPC (ignored)`);
    return { source, server, serverName: normalizeServerName(server.name), tools, pages, warnings };
  };

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), timeoutMs);
  });
  try {
    return await Promise.race([work(), timeout, ...(stdio ? [stdio.failure] : [])]);
  } catch (err) {
    const stderr = stdio?.stderr ?? '';
    if (err instanceof McpServerError) throw err;
    // A failure of the process explains whatever the client saw ("Connection closed").
    const failure = stdio?.failureReason ?? (err instanceof ChildFailureError ? err.failure : null);
    if (failure) throw new McpServerError(describeFailure(failure, phase), source, stderr);
    if (err instanceof Timeout) throw new McpServerError(`no answer to ${phase} within ${seconds(timeoutMs)}`, source, stderr);
    const text = errorText(err);
    if (isHttp && phase === 'initialize') {
      throw new McpServerError(`cannot initialize an MCP session at ${target}: ${text}`, source);
    }
    throw new McpServerError(`${phase} failed: ${text}`, source, stderr);
  } finally {
    clearTimeout(timer);
    if (httpTransport?.sessionId !== undefined) {
      // Politely end the session; a server that does not answer does not hold us up.
      await Promise.race([httpTransport.terminateSession().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
    }
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
  }
}
