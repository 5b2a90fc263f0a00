/**
 * Bulk replay: a stream of sessions in, one outcome per session out in input
 * order, and the aggregate of them all. With more than one job the sessions
 * go to worker threads (each its own `SessionReplayer` and part of the
 * aggregate, merged at the end: the aggregate does not depend on which
 * worker had which session). A file of sessions goes as chunks of its lines,
 * which the workers decode, so this thread does little more than read. At
 * most a fixed window of items (a session, or about 64 kB of lines) is in
 * flight, so memory is bounded by the largest sessions, not by the input.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SessionItem, SessionSource } from '../../formats/sessions.js';
import { type Aggregate, AggregateBuilder } from './aggregate.js';
import { type BulkSetup, type SessionOutcome, SessionReplayer } from './bulk-session.js';
import type { ToWorker } from './bulk-worker.js';

/** One session's outcome, delivered in input order. */
export interface DeliveredSession extends SessionOutcome {
  readonly source: SessionSource;
}

export interface BulkOptions {
  /** Threads replaying, this one included; 1 replays in this thread alone. */
  readonly jobs: number;
  /** Items (a session, or a chunk of lines of a file of sessions) in flight per job (default 8, at least 4). */
  readonly window?: number;
  /** The worker script (default: the compiled `bulk-worker.js` beside this module). */
  readonly workerUrl?: URL;
}

/**
 * The compiled worker: beside this module in the tsc build (dist/jobs/simulate/); from the CLI
 * bundle (dist/bundle/), dist/jobs/simulate/; run from the sources (tests), the compiled one in dist/.
 */
export function defaultWorkerUrl(): URL {
  const here = new URL('./bulk-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  // The bundle (dist/bundle/) runs it from dist/jobs/simulate/; the sources (tests) from the repository's dist/.
  const fromBundle = new URL('../jobs/simulate/bulk-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(fromBundle))) return fromBundle;
  return new URL('../../../dist/jobs/simulate/bulk-worker.js', import.meta.url);
}

type FromWorker =
  | { readonly type: 'results'; readonly seq: number; readonly items: DeliveredSession[] }
  | { readonly type: 'aggregate'; readonly aggregate: Aggregate };

/** Items in flight per worker before this thread replays one itself. */
const FED = 3;

/** Replays every session; `deliver` sees each outcome in input order. Returns the aggregate. */
export async function replaySessions(
  inputs: AsyncIterable<SessionItem>,
  setup: BulkSetup,
  options: BulkOptions,
  deliver: (session: DeliveredSession) => void,
): Promise<Aggregate> {
  if (options.jobs <= 1) {
    const replayer = new SessionReplayer(setup);
    for await (const item of inputs) for (const d of await replayer.replayItem(item)) deliver(d);
    return replayer.aggregate();
  }
  return replayInWorkers(inputs, setup, options, deliver);
}

async function replayInWorkers(
  inputs: AsyncIterable<SessionItem>,
  setup: BulkSetup,
  options: BulkOptions,
  deliver: (session: DeliveredSession) => void,
): Promise<Aggregate> {
  const url = options.workerUrl ?? defaultWorkerUrl();
  // Items in flight (sent, replayed here and not yet delivered, or waiting for an earlier one) for all jobs.
  const window = options.jobs * Math.max(options.window ?? 8, FED + 1);
  // This thread is one of the `jobs`: it replays an item itself whenever every worker has enough
  // queued, so `--jobs N` keeps N threads replaying instead of N workers and a dispatcher.
  const local = new SessionReplayer(setup);
  const done = new Map<number, DeliveredSession[]>();
  const parts: Aggregate[] = [];
  let next = 0; // the next item to deliver
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const flush = (): void => {
    while (done.has(next)) {
      const sessions = done.get(next)!;
      done.delete(next);
      next++;
      for (const d of sessions) deliver(d);
    }
  };
  const workers: Array<{ readonly worker: Worker; inFlight: number }> = [];
  const spawn = (): void => {
    const w = { worker: new Worker(url, { workerData: { setup } }), inFlight: 0 };
    workers.push(w);
    w.worker.on('message', (m: FromWorker) => {
      if (m.type === 'aggregate') parts.push(m.aggregate);
      else {
        w.inFlight--;
        done.set(m.seq, m.items);
        try {
          flush();
        } catch (err) {
          failure ??= err as Error;
        }
      }
      notify();
    });
    w.worker.on('error', (err) => {
      failure ??= err;
      notify();
    });
    w.worker.on('exit', (code) => {
      if (code !== 0) failure ??= new Error(`a replay worker stopped (exit code ${code})`);
      notify();
    });
  };
  const waitFor = async (ready: () => boolean): Promise<void> => {
    while (!ready()) {
      if (failure) throw failure;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    if (failure) throw failure;
  };
  try {
    let seq = 0;
    for await (const item of inputs) {
      if (seq - next >= window) await waitFor(() => seq - next < window);
      // The workers start once there is more than a few items of input: a handful of sessions is replayed
      // here sooner than a worker thread starts.
      if (workers.length === 0 && seq >= FED) for (let k = 1; k < options.jobs; k++) spawn();
      const w = workers.length === 0 ? null : workers.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
      if (w && w.inFlight < FED && item.kind !== 'unreadable') {
        w.inFlight++;
        // A chunk's bytes move to the worker, not copied, when their buffer is theirs alone.
        const own =
          item.kind === 'lines' &&
          item.bytes.byteOffset === 0 &&
          item.bytes.byteLength === item.bytes.buffer.byteLength;
        const transfer = own ? [item.bytes.buffer as ArrayBuffer] : [];
        w.worker.postMessage({ type: 'item', seq, item } satisfies ToWorker, transfer);
      } else {
        done.set(seq, await local.replayItem(item));
        flush();
      }
      seq++;
    }
    await waitFor(() => next === seq);
    for (const w of workers) w.worker.postMessage({ type: 'end' } satisfies ToWorker);
    await waitFor(() => parts.length === workers.length);
  } finally {
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }
  const total = new AggregateBuilder();
  total.merge(local.aggregate());
  for (const p of parts) total.merge(p);
  return total.value();
}
