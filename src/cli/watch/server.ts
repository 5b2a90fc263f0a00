/**
 * The `watch` server: one HTTP listener holding the OTLP/HTTP trace
 * receiver (`POST /v1/traces`, JSON or protobuf, gzip or not) and, with an
 * upstream base URL, the forwarding proxy for every other path. The proxy
 * passes each answer to the client chunk by chunk as it comes (headers and
 * bytes unchanged) and only then reads the call; what it keeps has its
 * credentials dropped (src/formats/live/redact.ts).
 *
 * Bounds: a request body larger than TOOLSEARCH_MAX_BYTES is refused (413),
 * also after gzip is undone; an answer larger than that is passed through
 * but not recorded (its line says so); an upstream that does not answer
 * within the timeout is cut (504) and reported for that call.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { type Exchange, type LiveProvider, providerOfPath } from '../../formats/live/calls.js';
import { decodeTraceExport, exportSpans, ProtobufError } from '../../formats/live/otlp.js';
import { redactHeaders, redactOtlp, redactPathQuery } from '../../formats/live/redact.js';
import type { CallMeta } from '../../jobs/watch/live.js';
import type { WatchSink } from './sink.js';

export interface WatchServerOptions {
  /** Where calls and spans go (read and simulated there, lines printed from there). */
  readonly sink: WatchSink;
  readonly host: string;
  readonly port: number;
  /** Upstream base URL of the proxy; null: the OTLP receiver only. */
  readonly upstream: URL | null;
  /** Largest request body (and recorded answer) in bytes: TOOLSEARCH_MAX_BYTES. */
  readonly maxBytes: number;
  /** Milliseconds the upstream may take to start answering, and may stay silent while answering. */
  readonly upstreamTimeoutMs: number;
  /** A rejected OTLP export or request, for a warning. */
  readonly onRejected: (what: string) => void;
}

/** What the server counted, for the closing summary. */
export interface WatchCounts {
  exports: number;
  spans: number;
  rejected: number;
  proxied: number;
  failed: number;
}

export interface RunningWatch {
  readonly url: string;
  readonly counts: WatchCounts;
  /** Requests being answered now (a streamed answer counts until its last byte). */
  readonly inFlight: () => number;
  /** Stops listening, lets calls in flight finish (at most `graceMs`, or until `cut` settles), then cuts the rest. */
  close(graceMs: number, cut?: Promise<void>): Promise<void>;
}

class TooLarge extends Error {}

/** The request body, refused past `max` bytes. */
function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > max) {
      reject(new TooLarge());
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > max) {
        over = true;
        reject(new TooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

/** Undoes a content encoding, refusing more than `max` bytes of output. */
function decode(body: Buffer, encoding: string | undefined, max: number): Buffer {
  const e = (encoding ?? 'identity').trim().toLowerCase();
  const opts = { maxOutputLength: Math.max(1, max) };
  try {
    if (e === 'gzip' || e === 'x-gzip') return gunzipSync(body, opts);
    if (e === 'deflate') return inflateSync(body, opts);
    if (e === 'br') return brotliDecompressSync(body, opts);
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw new TooLarge();
    throw new ProtobufError(`the body is not valid ${e}: ${(err as Error).message}`);
  }
  if (e === 'identity' || e === '') return body;
  throw new ProtobufError(`unsupported content-encoding ${JSON.stringify(e)}`);
}

/** google.rpc.Status as protobuf: code (1), message (2). */
function statusProto(code: number, message: string): Buffer {
  const msg = Buffer.from(message, 'utf8');
  const len: number[] = [];
  let n = msg.length;
  do {
    len.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return Buffer.concat([Buffer.from([0x08, code, 0x12, ...len]), msg]);
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
]);

function describeNetError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code ? `${e.code} (${e.message ?? ''})` : String(e.message ?? err);
}

export function startWatchServer(options: WatchServerOptions): Promise<RunningWatch> {
  const counts: WatchCounts = { exports: 0, spans: 0, rejected: 0, proxied: 0, failed: 0 };
  const inFlight = new Set<Promise<void>>();
  const sockets = new Set<Socket>();
  const { sink, maxBytes } = options;

  function track(p: Promise<void>): void {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }

  async function otlp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const proto = type === 'application/x-protobuf' || type === 'application/protobuf';
    const reject = (status: number, code: number, message: string): void => {
      counts.rejected++;
      options.onRejected(`OTLP export rejected (${status}): ${message}`);
      if (proto) res.writeHead(status, { 'content-type': 'application/x-protobuf' }).end(statusProto(code, message));
      else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code, message }));
    };
    if (req.method !== 'POST') {
      reject(405, 12, `${req.method} ${req.url}: OTLP exports are POSTed`);
      return;
    }
    if (!proto && type !== 'application/json') {
      reject(415, 3, `unsupported content-type ${JSON.stringify(type)} (application/json or application/x-protobuf)`);
      return;
    }
    let value: unknown;
    try {
      const body = decode(await readBody(req, maxBytes), req.headers['content-encoding'], maxBytes);
      if (proto) value = decodeTraceExport(body);
      else {
        try {
          value = JSON.parse(body.toString('utf8'));
        } catch (err) {
          throw new ProtobufError(`not JSON: ${(err as Error).message}`);
        }
      }
    } catch (err) {
      if (err instanceof TooLarge) reject(413, 8, `the export is larger than TOOLSEARCH_MAX_BYTES (${maxBytes} bytes)`);
      else if (err instanceof ProtobufError) reject(400, 3, err.message);
      else reject(400, 3, describeNetError(err));
      return;
    }
    const spans = exportSpans(redactOtlp(value));
    if (typeof spans === 'string') {
      reject(400, 3, spans);
      return;
    }
    counts.exports++;
    counts.spans += spans.length;
    if (proto) res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    sink.spans(spans);
  }

  async function proxy(req: IncomingMessage, res: ServerResponse, upstream: URL): Promise<void> {
    const started = performance.now();
    const path = req.url ?? '/';
    const q = path.indexOf('?');
    const pathOnly = q < 0 ? path : path.slice(0, q);
    const provider: LiveProvider | null = req.method === 'POST' ? providerOfPath(pathOnly) : null;
    let body: Buffer;
    try {
      body = await readBody(req, maxBytes);
    } catch (err) {
      const message =
        err instanceof TooLarge
          ? `the request is larger than TOOLSEARCH_MAX_BYTES (${maxBytes} bytes)`
          : describeNetError(err);
      counts.rejected++;
      options.onRejected(`request ${req.method} ${pathOnly} refused: ${message}`);
      res.writeHead(err instanceof TooLarge ? 413 : 400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `toolsearch watch: ${message}` } }));
      return;
    }
    const exchange = (response: string | null, streamed: boolean): Exchange => ({
      request: body.toString('utf8'),
      response,
      streamed,
    });
    const base = upstream.pathname.replace(/\/+$/, '');
    const target = new URL(upstream.origin);
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    }
    headers.host = target.host;
    headers['content-length'] = String(body.length);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    counts.proxied++;
    const meta = (status: number, streamed: boolean): CallMeta => ({
      method: req.method ?? 'GET',
      path: redactPathQuery(path),
      status,
      streamed,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      request_headers: redactHeaders(req.headers).kept,
    });
    let clientGone = false;
    const fail = (status: number, message: string): void => {
      counts.failed++;
      if (!res.headersSent) {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `toolsearch watch: ${message}` } }));
      } else res.destroy();
      if (provider) sink.call(provider, exchange(null, false), meta(status, false), message);
      else options.onRejected(`${req.method} ${pathOnly}: ${message}`);
    };
    await new Promise<void>((resolve) => {
      let done = false;
      const finish = (): void => {
        if (!done) {
          done = true;
          resolve();
        }
      };
      const up = send(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          method: req.method,
          path: base + path,
          headers,
          timeout: options.upstreamTimeoutMs,
        },
        (ures) => {
          const status = ures.statusCode ?? 502;
          const out: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(ures.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
          res.writeHead(status, ures.statusMessage, out);
          const type = String(ures.headers['content-type'] ?? '');
          const streamed = type.includes('text/event-stream');
          const kept: Buffer[] = [];
          let size = 0;
          ures.on('data', (c: Buffer) => {
            res.write(c);
            size += c.length;
            if (size <= maxBytes) kept.push(c);
          });
          ures.on('end', () => {
            res.end();
            if (provider) {
              const m = meta(status, streamed);
              if (size > maxBytes)
                sink.call(
                  provider,
                  exchange(null, streamed),
                  m,
                  `the answer is larger than TOOLSEARCH_MAX_BYTES (${maxBytes} bytes): not read`,
                );
              else if (status >= 400)
                sink.call(provider, exchange(null, streamed), m, `the upstream answered ${status}`);
              else readCall(provider, body, Buffer.concat(kept), ures.headers['content-encoding'], streamed, m);
            }
            finish();
          });
          ures.on('close', () => {
            if (done) return;
            fail(
              clientGone ? 499 : 502,
              clientGone
                ? 'the client closed the connection before the answer ended'
                : 'the upstream closed the connection before the answer ended',
            );
            finish();
          });
          ures.on('error', (err) => {
            if (done) return;
            fail(502, clientGone ? (err as Error).message : `the upstream connection broke: ${describeNetError(err)}`);
            finish();
          });
        },
      );
      up.on('timeout', () => {
        up.destroy(new Error(`no answer within ${options.upstreamTimeoutMs} ms`));
      });
      up.on('error', (err) => {
        if (done) return;
        if (clientGone) {
          fail(499, err.message);
          finish();
          return;
        }
        const timedOut = /no answer within/.test(err.message);
        fail(timedOut ? 504 : 502, `upstream ${target.origin}: ${timedOut ? err.message : describeNetError(err)}`);
        finish();
      });
      // The client went away before the answer was out: stop asking the upstream.
      res.on('close', () => {
        if (res.writableFinished || done) return;
        clientGone = true;
        up.destroy(new Error('the client closed the connection before the answer ended'));
      });
      up.end(body);
    });
  }

  /** Hands an answered call to the sink with its answer decoded (read there, off the forwarding path). */
  function readCall(
    provider: LiveProvider,
    reqBody: Buffer,
    resBody: Buffer,
    encoding: string | string[] | undefined,
    streamed: boolean,
    meta: CallMeta,
  ): void {
    const request = reqBody.toString('utf8');
    let text: string;
    try {
      text = decode(resBody, Array.isArray(encoding) ? encoding.join(',') : encoding, maxBytes).toString('utf8');
    } catch (err) {
      const why = err instanceof TooLarge ? 'larger than TOOLSEARCH_MAX_BYTES once decoded' : (err as Error).message;
      sink.call(provider, { request, response: null, streamed }, meta, `the answer could not be decoded: ${why}`);
      return;
    }
    sink.call(provider, { request, response: text, streamed }, meta);
  }

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    let p: Promise<void>;
    if (path === '/v1/traces') p = otlp(req, res);
    else if (options.upstream) p = proxy(req, res, options.upstream);
    else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `no such path: ${path} (OTLP traces go to /v1/traces; --proxy forwards)` }));
      return;
    }
    track(
      p.catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500).end();
        options.onRejected(`internal error: ${describeNetError(err)}`);
      }),
    );
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (_err, socket) => {
    counts.rejected++;
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const a = server.address() as AddressInfo;
      const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({
        url: `http://${host}:${a.port}`,
        counts,
        inFlight: () => inFlight.size,
        async close(graceMs: number, cut?: Promise<void>): Promise<void> {
          const closed = new Promise<void>((r) => server.close(() => r()));
          server.closeIdleConnections();
          const grace = new Promise<void>((r) => setTimeout(r, graceMs).unref());
          await Promise.race([Promise.all([...inFlight]).then(() => undefined), grace, ...(cut ? [cut] : [])]);
          for (const s of sockets) s.destroy();
          await closed;
          // The calls just cut report themselves (a failed call each) once their sockets have closed: wait for
          // that, briefly, so that they are in the output before the summary.
          const settled = Promise.allSettled([...inFlight]).then(() => undefined);
          await Promise.race([settled, new Promise<void>((r) => setTimeout(r, 2000).unref())]);
        },
      });
    });
  });
}
