/**
 * Where the server hands what it saw: the live sessions, simulated again as
 * calls arrive. With `--jsonl` (or the plain lines) they live in a worker
 * thread (sim-worker.ts), so that re-reading and simulating a long session
 * never holds up the calls the proxy is forwarding; the TUI keeps them on
 * its own thread (it draws them), reading each arrival once the answer has
 * gone out. Either way calls are read in the order their answers ended.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Exchange, type LiveProvider, readExchange } from '../../formats/live/calls.js';
import type { ReceivedSpan } from '../../formats/live/otlp.js';
import type { CallMeta, LiveWatch, WatchLine, WatchOptions } from '../../jobs/watch/live.js';

export interface WatchSink {
  /** A call the proxy forwarded (its bodies as text; read where the sessions are), or why it failed. */
  call(provider: LiveProvider, exchange: Exchange, meta: CallMeta, error?: string): void;
  spans(spans: readonly ReceivedSpan[]): void;
  /** Bumped at every arrival (`-o` is rewritten when it moved). */
  readonly version: number;
  /** Every session as one JSON line (`-o`), once what arrived before is read. */
  recording(): Promise<string>;
  summary(): Promise<{ sessions: number; calls: number }>;
  close(): Promise<void>;
}

export type ToSimWorker =
  | {
      readonly type: 'call';
      readonly provider: LiveProvider;
      readonly exchange: Exchange;
      readonly meta: CallMeta;
      readonly error?: string;
    }
  | { readonly type: 'spans'; readonly spans: readonly ReceivedSpan[] }
  | { readonly type: 'recording' | 'summary'; readonly id: number };

export type FromSimWorker =
  | { readonly type: 'lines'; readonly lines: readonly WatchLine[] }
  | { readonly type: 'recording'; readonly id: number; readonly text: string }
  | { readonly type: 'summary'; readonly id: number; readonly sessions: number; readonly calls: number };

/** Reads an exchange and adds the call to the sessions. */
export function addExchange(
  watch: LiveWatch,
  provider: LiveProvider,
  exchange: Exchange,
  meta: CallMeta,
  error?: string,
): readonly WatchLine[] {
  const read = readExchange(provider, exchange);
  return watch.addCall(provider, read.request, read.response, meta, error ?? read.error);
}

function count(watch: LiveWatch): { sessions: number; calls: number } {
  return {
    sessions: watch.sessions.length,
    calls: watch.sessions.reduce((n, s) => n + (s.report?.turns.length ?? 0), 0),
  };
}

/** The sessions on this thread, each arrival read on the next turn of the event loop. */
export function threadSink(watch: LiveWatch, onLine: (line: WatchLine) => void): WatchSink {
  let version = 0;
  let queue: Array<() => readonly WatchLine[]> = [];
  let scheduled = false;
  const drain = (): void => {
    scheduled = false;
    const q = queue;
    queue = [];
    for (const work of q) for (const l of work()) onLine(l);
  };
  const later = (work: () => readonly WatchLine[]): void => {
    version++;
    queue.push(work);
    if (!scheduled) {
      scheduled = true;
      setImmediate(drain);
    }
  };
  return {
    call: (provider, exchange, meta, error) => later(() => addExchange(watch, provider, exchange, meta, error)),
    spans: (spans) => later(() => watch.addSpans(spans)),
    get version() {
      return version;
    },
    async recording() {
      drain();
      return watch.recording();
    },
    async summary() {
      drain();
      return count(watch);
    },
    async close() {
      drain();
    },
  };
}

/** The compiled worker: beside this module (dist/cli/watch/), from the bundle, or from the sources (tests). */
function workerUrl(): URL {
  const here = new URL('./sim-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const fromBundle = new URL('../cli/watch/sim-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(fromBundle))) return fromBundle;
  return new URL('../../../dist/cli/watch/sim-worker.js', import.meta.url);
}

/** The sessions in a worker thread; lines come back in arrival order. */
export function workerSink(options: WatchOptions, onLine: (line: WatchLine) => void): WatchSink {
  const worker = new Worker(workerUrl(), { workerData: { options } });
  let version = 0;
  let nextId = 0;
  const waiting = new Map<number, (m: FromSimWorker) => void>();
  let failed: Error | null = null;
  worker.on('message', (m: FromSimWorker) => {
    if (m.type === 'lines') for (const l of m.lines) onLine(l);
    else waiting.get(m.id)?.(m);
  });
  worker.on('error', (err) => {
    failed = err;
    for (const w of waiting.values()) w({ type: 'summary', id: -1, sessions: 0, calls: 0 });
  });
  const ask = <T extends FromSimWorker>(type: 'recording' | 'summary'): Promise<T> => {
    if (failed) return Promise.reject(failed);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, (m) => {
        waiting.delete(id);
        if (failed) reject(failed);
        else resolve(m as T);
      });
      worker.postMessage({ type, id } satisfies ToSimWorker);
    });
  };
  const post = (m: ToSimWorker): void => {
    version++;
    worker.postMessage(m);
  };
  return {
    call: (provider, exchange, meta, error) =>
      post({ type: 'call', provider, exchange, meta, ...(error !== undefined ? { error } : {}) }),
    spans: (spans) => post({ type: 'spans', spans }),
    get version() {
      return version;
    },
    recording: async () => (await ask<FromSimWorker & { type: 'recording' }>('recording')).text,
    summary: async () => {
      const s = await ask<FromSimWorker & { type: 'summary' }>('summary');
      return { sessions: s.sessions, calls: s.calls };
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
