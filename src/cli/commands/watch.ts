/**
 * `toolsearch watch`: a running agent's tool search as it happens. One
 * listener on 127.0.0.1 takes OTLP/HTTP trace exports (`/v1/traces`) and,
 * with `--proxy <base URL>`, forwards every other request to the provider,
 * reading each request/response pair as a model call. Sessions are
 * simulated again as calls arrive and shown in the stepper TUI, or printed
 * one JSON line per model call (`--jsonl`); `-o` records what was seen.
 * The server is in src/cli/watch/, the sessions in src/jobs/watch/.
 */
import { Command, Option } from 'commander';
import { UsageError } from '../../io/errors.js';
import { escapeText } from '../../io/escape.js';
import type { CliContext } from '../context.js';
import type { EngineParams } from '../../core/engines/index.js';
import type { WatchLine, WatchOptions } from '../../jobs/watch/live.js';
import { addCatalogOptions } from '../catalog-options.js';
import { addEngineOptions, type EngineFlags, engineParams } from '../engine-options.js';
import { collect, FORCE_OPTION, parsePositiveInt } from '../options.js';
import { simulateEngine } from '../simulate-engine.js';

/** How long calls in flight may take to finish once watch is asked to stop. */
const GRACE_MS = 30_000;

/** The next SIGINT or SIGTERM; `stop` removes its listeners (they also go when it comes). */
function nextSignal(): { readonly signal: Promise<NodeJS.Signals>; stop(): void } {
  let on: (s: NodeJS.Signals) => void = () => {};
  const stop = (): void => {
    process.off('SIGINT', on);
    process.off('SIGTERM', on);
  };
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    on = (s) => {
      stop();
      resolve(s);
    };
  });
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return { signal, stop };
}

interface WatchFlags extends EngineFlags {
  readonly proxy?: string;
  readonly host: string;
  readonly port: string;
  readonly jsonl?: boolean;
  readonly output?: string;
  readonly force?: boolean;
  readonly mode: 'default' | 'native';
  readonly searchTool?: string[];
  readonly catalog?: string[];
  readonly static?: string[];
  readonly upstreamTimeout?: number;
}

const EXAMPLES = `
Examples:
  # an AI SDK agent with telemetry on (experimental_telemetry: {isEnabled: true}) and the
  # OTLP exporter: its model calls appear as they happen, one JSON line each
  $ toolsearch watch --jsonl
  $ OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 node agent.js

  # an OpenAI client with only its base URL changed; the proxy forwards to the API
  $ toolsearch watch --proxy https://api.openai.com/v1 -c catalog.yaml --mode native
  $ OPENAI_BASE_URL=http://127.0.0.1:4318 node agent.js

  # Anthropic, recorded while watching; simulate replays the recording to the same report
  $ toolsearch watch --proxy https://api.anthropic.com --jsonl -o calls.jsonl > calls.lines
  $ toolsearch simulate calls.jsonl --jsonl-input sessions --jsonl

Listens on 127.0.0.1:4318 (--host, --port; --port 0 takes a free port, printed on
stderr). POST /v1/traces takes OTLP/HTTP exports, JSON or protobuf, gzip or not;
spans are grouped into sessions by trace id, then traces by continuity, and read
by the otel reader. With --proxy every other path is forwarded to <base URL> +
path (OpenAI Chat and Responses, Anthropic Messages, Gemini generateContent and
streamGenerateContent); answers, streamed or not, reach the client unchanged
chunk by chunk, then each request/response pair is read as a model call of a
call log (Gemini: of Gemini request/response pairs); calls are grouped into
sessions by continuity as call logs are (a request that extends an earlier
request and its answer continues that session).
--engine and its parameters, --mode, -c, --static and --search-tool mean what
they mean in simulate (without --engine, each session's engine is detected).
On a terminal the stepper shows the sessions and updates as calls arrive (> and <
switch sessions, the selected call stays selected); otherwise one line per model
call: --jsonl prints {schema_version, source, session, call, turn, violations, ...}.
Credentials never reach a file or the screen: Authorization, x-api-key, api-key,
cookies and any header, query parameter or OTLP attribute whose name holds key,
token, secret, auth, session, cookie, password or credential are dropped; request
and response bodies are kept. Requests larger than TOOLSEARCH_MAX_BYTES are refused
(413); a malformed export is answered with the OTLP error status (400) and counted.
Ctrl-C stops: calls in flight finish (30 s at most; a second Ctrl-C cuts them) and
-o is written complete.
-o writes one JSON line per session: a call log ([{request, response, http}, ...])
or an OTLP JSON document; simulate replays it (--jsonl-input sessions).
`;

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || /^127\./.test(host);
}

function parsePort(value: string): number {
  if (!/^[0-9]{1,5}$/.test(value) || Number(value) > 65535)
    throw new UsageError(`--port must be 0 to 65535, got ${JSON.stringify(value)}`);
  return Number(value);
}

function parseUpstream(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--proxy must be a base URL such as https://api.openai.com/v1, got ${escapeText(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--proxy must be an http or https URL, got ${escapeText(value)}`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    throw new UsageError('--proxy takes a base URL without query, fragment or credentials');
  return url;
}

export function watchCommand(ctx: CliContext): Command {
  const cmd = new Command('watch')
    .summary("watch a running agent's tool search live (OTLP receiver, provider proxy)")
    .description(
      'Receive OTLP traces and/or proxy provider API calls from a running agent, and show, call by call ' +
        'as they happen, which tools the model could see, what it searched and loaded, and where it called ' +
        'a tool before loading it.',
    )
    .option('--proxy <url>', 'forward every request but /v1/traces to this provider base URL and read the calls');
  addCatalogOptions(cmd, 'catalog file (optional when the calls carry their own tools)');
  cmd
    .addOption(new Option('--mode <mode>', 'middleware mode').choices(['default', 'native']).default('default'))
    .option(
      '--search-tool <name>',
      "the agent's search tool has this name (repeatable): its calls and results are read as tool_search",
      collect,
    );
  addEngineOptions(cmd, {
    maxResults: true,
    ttl: true,
    engineHelp:
      'whose loading rule to replay, as in simulate: eino, ai-sdk, mastra; detected per session from its ' +
      'search tool when not given',
  });
  cmd
    .option('--host <address>', 'address to listen on (another than 127.0.0.1 is warned about)', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0: a free one, printed on stderr)', '4318')
    .option('--jsonl', 'print one JSON line per model call instead of the TUI')
    .option('-o, --output <file>', 'record what was seen: one JSON line per session (call log or OTLP JSON)')
    .option(...FORCE_OPTION)
    .option(
      '--upstream-timeout <seconds>',
      'proxy: seconds the upstream may take to answer or stay silent while answering (default 300)',
      parsePositiveInt,
    )
    .addHelpText('after', EXAMPLES)
    .action(async (flags: WatchFlags) => runWatch(ctx, flags));
  return cmd;
}

/**
 * Each built-in engine's parameters from the flags, or why they do not fit it: a session's engine is
 * detected as it arrives (as simulate detects it), so all three are worked out before the server starts.
 */
function paramsByEngine(flags: WatchFlags): WatchOptions['engineParams'] {
  const out: Record<string, { params: EngineParams } | { error: string }> = {};
  for (const id of ['eino', 'ai-sdk', 'mastra'] as const) {
    try {
      out[id] = { params: engineParams(flags, { kind: 'builtin', id }) };
    } catch (err) {
      out[id] = { error: (err as Error).message };
    }
  }
  return out as WatchOptions['engineParams'];
}

async function runWatch(ctx: CliContext, flags: WatchFlags): Promise<void> {
  // --engine and its parameters are checked as simulate checks them, before anything listens.
  const engine = simulateEngine(flags);
  const port = parsePort(flags.port);
  const upstream = flags.proxy !== undefined ? parseUpstream(flags.proxy) : null;
  const output = flags.output !== undefined ? { option: '-o', path: flags.output, force: flags.force === true } : null;
  if (output?.path === '-') throw new UsageError('-o records to a file; --jsonl prints the calls on stdout');
  const { checkOutputs, checkReplaceable } = await import('../../io/output.js');
  if (output) {
    checkOutputs([output], []);
    checkReplaceable([output]);
  }
  const tui = flags.jsonl !== true && ctx.io.stdout.isTTY === true && (ctx.io.stdin as { isTTY?: boolean }).isTTY;
  const catalog =
    flags.catalog !== undefined && flags.catalog.length > 0
      ? await (await import('../inputs.js')).loadCatalog(ctx, { ...flags, static: undefined } as never)
      : null;
  const [{ LiveWatch }, { startWatchServer }, { resolveLimits }, { writeFileAtomic }] = await Promise.all([
    import('../../jobs/watch/live.js'),
    import('../watch/server.js'),
    import('../../io/read.js'),
    import('../../io/atomic.js'),
  ]);
  const limits = resolveLimits(ctx.limits);
  const options: WatchOptions = {
    catalog,
    mode: flags.mode,
    ...(engine !== undefined ? { engine } : {}),
    engineParams: paramsByEngine(flags),
    ...(flags.static !== undefined ? { staticNames: flags.static } : {}),
    ...(flags.searchTool !== undefined ? { searchTools: flags.searchTool } : {}),
    limits: ctx.limits,
  };
  if (!isLoopback(flags.host))
    ctx.warn(
      `listening on ${escapeText(flags.host)}, not 127.0.0.1: anyone who can reach it can send spans ` +
        'and, with --proxy, use the credentials their requests carry',
    );

  const { safeJson } = await import('../../io/json-out.js');
  const { threadSink, workerSink } = await import('../watch/sink.js');
  const onLine = (line: WatchLine): void => {
    if (tui) return;
    if (flags.jsonl) ctx.out(`${safeJson(line)}\n`);
    else ctx.lines([humanLine(line)]);
  };
  // The TUI draws the sessions, so they live on this thread; otherwise in a worker (see sink.ts).
  const watch = tui ? new LiveWatch(options) : null;
  const sink = watch ? threadSink(watch, onLine) : workerSink(options, onLine);

  // -o: rewritten (atomically) at most every 500 ms while calls arrive, and once more at the end.
  let written = 0;
  let fileWritten = false;
  let writing: Promise<void> | null = null;
  const flush = async (): Promise<void> => {
    if (!output || sink.version === written) return;
    const version = sink.version;
    const text = await sink.recording();
    // Nothing read yet (a failed call records no session): no file, rather than an empty one.
    if (text !== '' || fileWritten) {
      writeFileAtomic(output.path, text);
      fileWritten = true;
    }
    written = version;
  };
  const timer = output
    ? setInterval(() => {
        writing ??= flush().finally(() => {
          writing = null;
        });
      }, 500)
    : null;
  timer?.unref();

  const running = await startWatchServer({
    sink,
    host: flags.host,
    port,
    upstream,
    maxBytes: limits.maxBytes,
    upstreamTimeoutMs: (flags.upstreamTimeout ?? 300) * 1000,
    onRejected: (what) => {
      if (!tui) ctx.warn(what);
    },
  }).catch(async (err: unknown) => {
    await sink.close();
    throw new UsageError(`cannot listen on ${escapeText(flags.host)}:${port}: ${(err as Error).message}`);
  });
  const where = [
    `toolsearch watch: listening on ${running.url}`,
    `  OTLP traces: OTEL_EXPORTER_OTLP_ENDPOINT=${running.url} (POST /v1/traces, JSON or protobuf)`,
    ...(upstream
      ? [`  proxy: base URL ${running.url} (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, ...) -> ${upstream.href}`]
      : []),
    ...(output ? [`  recording to ${escapeText(output.path)}`] : []),
  ];
  let signal: NodeJS.Signals | null = null;
  if (tui) {
    const { runWatchTui } = await import('../../tui/watch/run.js');
    const ended = await runWatchTui({
      watch: watch!,
      header: where[0]!,
      hints: where.slice(1),
      catalog,
      ...(flags.static !== undefined ? { staticNames: flags.static } : {}),
      color: ctx.outStyle.enabled,
      io: ctx.io,
    });
    signal = ended.signal;
  } else {
    // The handlers are in place before the address is printed: a Ctrl-C right after it still ends cleanly.
    const stopped = nextSignal();
    ctx.err(`${where.join('\n')}\n  Ctrl-C stops\n`);
    signal = await stopped.signal;
  }
  // Calls in flight (a streamed answer can take minutes) finish before the end, for up to GRACE_MS; a second Ctrl-C
  // cuts them at once.
  const pending = running.inFlight();
  const again = nextSignal();
  if (pending > 0)
    ctx.err(
      `toolsearch watch: stopping; waiting for ${pending} call${pending === 1 ? '' : 's'} in flight ` +
        `(at most ${GRACE_MS / 1000} s; Ctrl-C again cuts ${pending === 1 ? 'it' : 'them'})\n`,
    );
  await running.close(
    GRACE_MS,
    again.signal.then(() => undefined),
  );
  again.stop();
  if (timer) clearInterval(timer);
  await writing;
  await flush();
  const { sessions, calls } = await sink.summary();
  await sink.close();
  const c = running.counts;
  // -o is written once something was read: a run whose every call was cut has nothing to record.
  const recorded = !output
    ? ''
    : fileWritten
      ? `; recorded to ${escapeText(output.path)}`
      : `; nothing to record (no call was read), ${escapeText(output.path)} not written`;
  ctx.err(
    `toolsearch watch: stopped; ${sessions} sessions, ${calls} model calls, ` +
      `${c.proxied} proxied requests (${c.failed} failed), ${c.exports} OTLP exports (${c.spans} spans), ` +
      `${c.rejected} rejected${recorded}\n`,
  );
  // Stopped by Ctrl-C or SIGTERM with everything written: a clean end (exit 0).
  void signal;
}

/** One call for a reader without --jsonl: session, call, what was visible, violations. */
function humanLine(line: WatchLine): string {
  const at = line.session !== null ? `${line.session} call ${line.call ?? '?'}` : `${line.provider ?? ''} call`;
  if (line.turn === null) return escapeText(`${at}: ${line.error ?? 'not read'}`);
  const t = line.turn;
  const parts = [`${at}: ${t.visible.length} visible`];
  if (t.deferred.length > 0) parts.push(`${t.deferred.length} deferred`);
  if (t.added.length > 0) parts.push(`loaded ${t.added.join(', ')}`);
  for (const s of t.searches) parts.push(`tool_search ${s.arguments}`);
  for (const c of t.tool_calls)
    if (c.name !== 'tool_search') parts.push(`${c.status === 'ok' ? '' : `${c.status}! `}${c.name}`);
  for (const v of line.violations) parts.push(`${v.severity}: ${v.kind}: ${v.message}`);
  if (line.warning !== undefined) parts.push(`warning: ${line.warning}`);
  return escapeText(parts.join('  '));
}
