/**
 * Reads the tool list of a live MCP server: start it (stdio) or connect to it
 * (Streamable HTTP), initialize, call `tools/list` until no cursor is left,
 * and end the connection (and the process) whatever happens.
 *
 * The MCP SDK is loaded on first use (dynamic import), so importing this
 * module costs nothing until a server is contacted.
 *
 * Over 400 lines: one exchange over two transports, with the explanation of
 * each way it can fail (exit, timeout, not MCP, bad page) kept beside the
 * step that detects it.
 */
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { JsonValue } from '../../core/types.js';
import { InputError, quote } from '../../io/errors.js';
import { raiseLimit, resolveLimits } from '../../io/read.js';
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
  /**
   * With `command`: the program and its arguments as given (a client config's `command` and `args`), not split from
   * `command`.
   */
  readonly argv?: readonly string[];
  /** With `url`: the server speaks the older HTTP+SSE transport (a client config's `"type": "sse"`). */
  readonly sse?: boolean;
  /** Where the tools came from, in messages and as their source (default `mcp:<command line or url>`). */
  readonly source?: string;
  /** Time allowed for the whole exchange, in milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** Extra HTTP headers (Streamable HTTP only), e.g. `Authorization`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Environment of a stdio server (default: ours). */
  readonly env?: NodeJS.ProcessEnv;
  /** Working directory of a stdio server (default: ours). */
  readonly cwd?: string;
  /**
   * Deepest nesting of a tool's `inputSchema`, counted as in a catalog file
   * (`tools` → list → tool → `parameters`), so what `import` writes can be
   * read again (default: the loaders' `maxDepth`, 1000 levels).
   */
  readonly maxDepth?: number;
  /**
   * Largest MCP message (a stdio line, an HTTP answer or event), in bytes
   * (default: the loaders' `maxMcpMessageBytes`, 10 MiB).
   */
  readonly maxMessageBytes?: number;
  /** Most pages of tools/list (default: the loaders' `maxMcpPages`, 10,000). */
  readonly maxPages?: number;
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

/** Levels above a tool's `parameters` in a catalog file: the top mapping, the `tools` list, the tool. */
const CATALOG_LEVELS_ABOVE_PARAMETERS = 3;

/** Whether a JSON value nests deeper than `max` levels of arrays and objects (iterative: no stack to overflow). */
function deeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as object)) {
      if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
    }
  }
  return false;
}

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
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

class Timeout extends Error {}

/** Longest piece of server-provided text quoted in a message. */
const QUOTE_MAX = 120;
/** Longest error text of the SDK (or of the server, through it) kept in a message. */
const TEXT_MAX = 300;
/** How long a failure waits for the rest of the server's stderr (see `settleStderr`). */
const STDERR_SETTLE_MS = 200;

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/** The first non-blank line of a text, trimmed and cut. */
function firstLine(text: string, max = QUOTE_MAX): string {
  const line = text.split(/\r\n|\r|\n/).find((l) => l.trim() !== '') ?? '';
  return cut(line.trim(), max);
}

/** An error text on one line: its first line, cut, with `…` when anything was left off. */
function oneLine(text: string): string {
  const line = firstLine(text, TEXT_MAX);
  return line !== text.trim() && !line.endsWith('…') ? `${line} …` : line;
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return oneLine(String(err));
  const cause = (err as { cause?: unknown }).cause;
  const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : '';
  const message = oneLine(err.message);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** A validation issue, as zod reports it (the SDK validates results with zod). */
interface Issue {
  readonly path?: readonly PropertyKey[];
  readonly message?: string;
}

/** The issues of a zod error (the SDK's validation of a result), or null for any other error. */
function issuesOf(err: unknown): readonly Issue[] | null {
  if (!(err instanceof Error)) return null;
  const issues = (err as { issues?: unknown }).issues;
  return Array.isArray(issues) && issues.length > 0 ? (issues as Issue[]) : null;
}

/** `tools[0].name`: a path in JavaScript notation. */
function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const k of path) {
    if (typeof k === 'number') out += `[${k}]`;
    else if (typeof k === 'string' && /^[A-Za-z_$][\w$]*$/.test(k)) out += out === '' ? k : `.${k}`;
    else out += `[${JSON.stringify(String(k))}]`;
  }
  return out;
}

function someOf(items: readonly string[], max = 3): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/** `lacks a, b and has a bad c (expected string, received number)`: what is wrong with a result, on one line. */
function issueSummary(issues: readonly Issue[]): string {
  const missing: string[] = [];
  const bad: string[] = [];
  for (const issue of issues) {
    const path = pathText(issue.path ?? []);
    const why = cut(firstLine(String(issue.message ?? 'invalid')).replace(/^Invalid input: /, ''), 80);
    if (path !== '' && /received undefined$/.test(why)) missing.push(path);
    else bad.push(path === '' ? `shape (${why})` : `${path} (${why})`);
  }
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`lacks ${someOf(missing)}`);
  if (bad.length > 0) parts.push(`has a bad ${someOf(bad)}`);
  return parts.join(' and ');
}

/** What a phase's error means: a result that does not match the MCP schema is summarized on one line. */
function phaseError(err: unknown, phase: string): string | null {
  const issues = issuesOf(err);
  if (issues === null) return null;
  const summary = issueSummary(issues);
  return phase === 'initialize'
    ? `not an MCP server: the initialize result ${summary}`
    : `${phase} returned an invalid result: it ${summary}`;
}

/** Whether a decoded body is a JSON-RPC message or batch. */
function isJsonRpc(value: unknown): boolean {
  const one = (v: unknown): boolean =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && (v as { jsonrpc?: unknown }).jsonrpc === '2.0';
  return Array.isArray(value) ? value.length > 0 && value.every(one) : one(value);
}

/** Reads (a copy of) a response body, giving up after `ms` (an endless stream); '' when it cannot be read whole. */
async function bodyText(res: Response, ms = 2000): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      res.clone().text(),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(''), ms);
      }),
    ]);
  } catch {
    return '';
  } finally {
    clearTimeout(timer);
  }
}

/** Statuses whose response has no body (a Response with one cannot be built). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The response with its body bounded as a stdio line is: a plain answer
 * (JSON, an error page) up to `maxBytes` in all, an event stream
 * up to that much per event (between blank lines). Past it the body errors
 * (which cancels the download) and `onTooLarge` is called, so a server
 * sending 8 GB of spaces costs 10 MiB, not 8 GB.
 */
function boundedBody(res: Response, maxBytes: number, onTooLarge: () => void): Response {
  if (res.body === null || NULL_BODY.has(res.status)) return res;
  const sse = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase() === 'text/event-stream';
  let size = 0;
  let lineLength = 0;
  const bound = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      // The most an event reached within this chunk: one that ends in the same chunk counts too.
      let most = 0;
      if (!sse) most = size += chunk.length;
      else {
        for (let i = 0; i < chunk.length; i++) {
          const b = chunk[i]!;
          size++;
          if (size > most) most = size;
          if (b === 0x0a) {
            // A blank line ends an event: the next one starts from nothing.
            if (lineLength === 0) size = 0;
            lineLength = 0;
          } else if (b !== 0x0d) lineLength++;
        }
      }
      if (most > maxBytes) {
        onTooLarge();
        controller.error(new Error(`answer over ${maxBytes} bytes`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
  return new Response(res.body.pipeThrough(bound), {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

function quoted(line: string): string {
  return line === '' ? '' : `: ${JSON.stringify(line)}`;
}

/**
 * What went wrong with an HTTP answer to one of our POSTs, or null when it
 * looks like MCP: an HTTP error status (`HTTP 404 Not Found from <url>:
 * "<first line of the body>"`), or a success that is not JSON-RPC (a web
 * page, a JSON document of something else).
 */
async function httpTrouble(
  url: string,
  init: RequestInit | undefined,
  res: Response,
): Promise<{ text: string; notMcp: boolean } | null> {
  if (res.status >= 400) {
    const reason = res.statusText.trim() || STATUS_CODES[res.status] || '';
    return {
      text: `HTTP ${res.status}${reason ? ` ${reason}` : ''} from ${url}${quoted(firstLine(await bodyText(res)))}`,
      notMcp: false,
    };
  }
  if (res.status !== 200) return null;
  // Only an answer to a request has a body that matters (a notification is answered 202, or the body is dropped).
  let isRequest = false;
  try {
    const sent = JSON.parse(typeof init?.body === 'string' ? init.body : '') as unknown;
    isRequest = (Array.isArray(sent) ? sent : [sent]).some(
      (m) => m !== null && typeof m === 'object' && 'method' in m && 'id' in m,
    );
  } catch {
    // not ours to judge
  }
  if (!isRequest) return null;
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') return null;
  if (type !== 'application/json') {
    const line = firstLine(await bodyText(res));
    return {
      text:
        `not an MCP server: HTTP 200 from ${url} ` +
        `is ${type === '' ? 'untyped' : type}, not JSON or an event stream${quoted(line)}`,
      notMcp: true,
    };
  }
  const text = await bodyText(res);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { text: `not an MCP server: HTTP 200 from ${url} is not JSON${quoted(firstLine(text))}`, notMcp: true };
  }
  return isJsonRpc(value)
    ? null
    : {
        text: `not an MCP server: HTTP 200 from ${url} is JSON but not JSON-RPC${quoted(firstLine(text))}`,
        notMcp: true,
      };
}

/**
 * The request with a signal of its own that follows the transport's one.
 * The SDK passes the same AbortSignal to every fetch of a session; Node's
 * fetch (undici) adds an `abort` listener to it per request and removes it
 * only when the request is garbage-collected, so 1,500 pages of `tools/list`
 * gave a MaxListenersExceededWarning per page. A dependent signal
 * (`AbortSignal.any`, which the source holds weakly, with no listener) takes
 * those listeners instead and goes away with its request; aborting the
 * transport's signal still aborts every request and body read.
 */
function withOwnSignal(init: RequestInit | undefined): RequestInit | undefined {
  const signal = init?.signal;
  if (!signal) return init;
  const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  // Node < 20.3 has no AbortSignal.any: the SDK's signal as it is (the warnings come back there).
  return any === undefined ? init : { ...init, signal: any.call(AbortSignal, [signal]) };
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
    case 'echo':
      return 'not an MCP server: it echoed our request back';
    case 'too-large':
      return (
        `the server wrote a line on stdout larger than ${sizeText(f.maxBytes)}, the most one MCP message may take ` +
        `(${raiseLimit('maxMcpMessageBytes')})`
      );
  }
}

/** `10 MiB` for whole mebibytes, else `N bytes`. */
function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * Lists the tools of an MCP server, following `nextCursor` until the last
 * page. Every failure is a {@link McpServerError} whose message is one line
 * (plus the tail of the server's stderr): the command does not exist, the
 * server exits early, writes something other than JSON-RPC on stdout or
 * echoes our requests (`cat`), answers with a result that is not MCP (the
 * fields it lacks or has wrong), answers HTTP with an error status (`HTTP
 * 404 Not Found from <url>: "<first line of the body>"`) or with something
 * other than JSON-RPC, does not answer within the timeout, or answers with
 * an error. The server process (and its process group) always ends before
 * this returns.
 */
export async function listMcpTools(options: ListMcpToolsOptions): Promise<McpToolList> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  const maxDepth = options.maxDepth ?? resolveLimits().maxDepth;
  const maxMessageBytes = options.maxMessageBytes ?? resolveLimits().maxMcpMessageBytes;
  const maxPages = options.maxPages ?? resolveLimits().maxMcpPages;
  if (!(timeoutMs > 0)) throw new InputError(`the timeout must be positive, got ${timeoutMs} ms`);
  const isHttp = options.url !== undefined;
  const target = isHttp ? options.url! : options.command!;
  const source = options.source ?? `mcp:${target}`;
  if (target === undefined) throw new InputError('an MCP server needs a command line or a URL');

  const [{ Client }, { JSONRPCMessageSchema, ListToolsResultSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);

  let stdio: ChildProcessTransport | null = null;
  let httpProblem: { text: string; notMcp: boolean } | null = null;
  /** The phase whose HTTP answer went over the bound, if one did. */
  let tooLarge: string | null = null;
  // Settles the listing as soon as an answer goes over the bound (the SDK may wait for more of a stream that errored).
  let overBound: () => void = () => undefined;
  const overBoundFailure = new Promise<never>((_, reject) => {
    overBound = () => reject(new Error('an answer over the bound'));
  });
  overBoundFailure.catch(() => undefined);
  let transport: import('@modelcontextprotocol/sdk/shared/transport.js').Transport;
  let httpTransport: import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport | null =
    null;
  if (isHttp) {
    let url: URL;
    if (target.trim() === '') throw new McpServerError('the URL is empty', source);
    try {
      url = new URL(target);
    } catch {
      throw new McpServerError(`not a URL: ${target}`, source);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new McpServerError(`an MCP URL must be http: or https:, got ${url.protocol}`, source);
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    // Every answer to a POST is looked at on the way, so a failure can say
    // what the server answered, on one line, rather than the SDK's message
    // (which quotes the whole body: a web page).
    const recordingFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
      const res = boundedBody(await fetch(input, withOwnSignal(init)), maxMessageBytes, () => {
        tooLarge ??= phase;
        overBound();
      });
      if (init?.method === 'POST' && httpProblem === null) httpProblem = await httpTrouble(String(input), init, res);
      return res;
    };
    if (options.sse === true) {
      // The HTTP+SSE transport of protocol version 2024-11-05 (a client config's "type": "sse").
      const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
      transport = new SSEClientTransport(url, {
        fetch: recordingFetch,
        ...(options.headers ? { requestInit: { headers: { ...options.headers } } } : {}),
      });
    } else {
      httpTransport = new StreamableHTTPClientTransport(url, {
        fetch: recordingFetch,
        ...(options.headers ? { requestInit: { headers: { ...options.headers } } } : {}),
      });
      transport = httpTransport;
    }
  } else {
    let argv: string[];
    try {
      argv = options.argv !== undefined ? [...options.argv] : splitCommandLine(target);
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
      maxLineBytes: maxMessageBytes,
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
      if (pages > maxPages) {
        throw new McpServerError(
          `tools/list still returned a cursor after ${maxPages} pages (${raiseLimit('maxMcpPages')})`,
          source,
        );
      }
      phase = pages === 1 ? 'tools/list' : `tools/list (page ${pages})`;
      const result = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ListToolsResultSchema,
        { timeout: timeoutMs },
      );
      for (const t of result.tools) {
        if (deeperThan(t.inputSchema, maxDepth - CATALOG_LEVELS_ABOVE_PARAMETERS)) {
          throw new McpServerError(
            `server ${quote(info?.name ?? '')}, tool ${quote(t.name)}: its inputSchema is nested deeper than ` +
              `${maxDepth} levels (counted as parameters in a catalog file; ${raiseLimit('maxDepth')})`,
            source,
          );
        }
        tools.push({
          name: t.name,
          description: t.description ?? '',
          inputSchema: t.inputSchema as JsonValue,
          ...(t.title !== undefined ? { title: t.title } : {}),
        });
      }
      const next = result.nextCursor;
      if (next !== undefined && seen.has(next))
        throw new McpServerError(`tools/list returned the cursor ${JSON.stringify(next)} twice`, source);
      if (next !== undefined) seen.add(next);
      cursor = next;
    } while (cursor !== undefined);
    const server = {
      name: info?.name ?? '',
      version: info?.version ?? '',
      ...(info?.title !== undefined ? { title: info.title } : {}),
    };
    const warnings: string[] = [];
    if (stdio && stdio.ignoredLines > 0)
      warnings.push(
        `${source}: the server wrote ${stdio.ignoredLines} line(s) on stdout that were not JSON-RPC (ignored)`,
      );
    return { source, server, serverName: normalizeServerName(server.name), tools, pages, warnings };
  };

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), timeoutMs);
  });
  try {
    return await Promise.race([work(), timeout, overBoundFailure, ...(stdio ? [stdio.failure] : [])]);
  } catch (err) {
    if (err instanceof McpServerError) throw err;
    // A failure of the process explains whatever the client saw ("Connection closed").
    const failure = stdio?.failureReason ?? (err instanceof ChildFailureError ? err.failure : null);
    // What the server writes on stderr as it fails may come just after what made it fail.
    if (stdio) await stdio.settleStderr(STDERR_SETTLE_MS);
    const stderr = stdio?.stderr ?? '';
    if (failure) throw new McpServerError(describeFailure(failure, phase), source, stderr);
    if (tooLarge !== null) {
      throw new McpServerError(
        `the answer to ${tooLarge as string} is larger than ${sizeText(maxMessageBytes)}, ` +
          `the most one MCP message may take (${raiseLimit('maxMcpMessageBytes')})`,
        source,
      );
    }
    if (err instanceof Timeout)
      throw new McpServerError(`no answer to ${phase} within ${seconds(timeoutMs)}`, source, stderr);
    // What an HTTP server answered explains what the SDK made of it.
    const problem = httpProblem as { text: string; notMcp: boolean } | null;
    if (problem)
      throw new McpServerError(
        problem.notMcp || phase === 'initialize' ? problem.text : `${phase} failed: ${problem.text}`,
        source,
      );
    const invalid = phaseError(err, phase);
    if (invalid !== null) throw new McpServerError(invalid, source, stderr);
    const text = errorText(err);
    if (isHttp && phase === 'initialize') {
      throw new McpServerError(`cannot initialize an MCP session at ${target}: ${text}`, source);
    }
    throw new McpServerError(`${phase} failed: ${text}`, source, stderr);
  } finally {
    clearTimeout(timer);
    if (httpTransport?.sessionId !== undefined) {
      // Politely end the session; a server that does not answer does not hold us up.
      await Promise.race([
        httpTransport.terminateSession().catch(() => undefined),
        new Promise((r) => setTimeout(r, 1000).unref()),
      ]);
    }
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
  }
}
