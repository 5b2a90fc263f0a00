/**
 * Bulk replay: a stream of sessions in, one outcome per session out in input
 * order, and the aggregate of them all. With more than one job the sessions
 * go to worker threads (each its own `SessionReplayer` and part of the
 * aggregate, merged at the end: the aggregate does not depend on which
 * worker had which session). At most a fixed window of sessions is in flight,
 * so memory is bounded by the largest sessions, not by the input.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SessionInput, SessionSource } from '../formats/sessions.js';
import { type Aggregate, AggregateBuilder } from './aggregate.js';
import { type BulkSetup, type SessionOutcome, SessionReplayer } from './bulk-session.js';
import type { ToWorker } from './bulk-worker.js';

/** One session's outcome, delivered in input order. */
export interface DeliveredSession extends SessionOutcome {
  readonly source: SessionSource;
}

export interface BulkOptions {
  /** Worker threads; 1 replays in this thread. */
  readonly jobs: number;
  /** Sessions in flight per worker (default 32; at least one batch). */
  readonly window?: number;
  /** The worker script (default: the compiled `bulk-worker.js` beside this module). */
  readonly workerUrl?: URL;
}

/**
 * The compiled worker. In the CLI bundle `import.meta.url` is the bundle's
 * (dist/bundle/), in the tsc build this module's (dist/simulate/): both are
 * one level below dist/. Run from the sources (tests), the worker is the
 * compiled one in dist/.
 */
export function defaultWorkerUrl(): URL {
  const here = new URL('../simulate/bulk-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return new URL('../../dist/simulate/bulk-worker.js', import.meta.url);
}

type FromWorker =
  | { readonly type: 'results'; readonly items: ReadonlyArray<{ readonly seq: number } & SessionOutcome> }
  | { readonly type: 'aggregate'; readonly aggregate: Aggregate };

/** Sessions per message to a worker. */
const BATCH = 8;

/** Replays every session; `deliver` sees each outcome in input order. Returns the aggregate. */
export async function replaySessions(
  inputs: AsyncIterable<SessionInput>,
  setup: BulkSetup,
  options: BulkOptions,
  deliver: (session: DeliveredSession) => void,
): Promise<Aggregate> {
  if (options.jobs <= 1) {
    const replayer = new SessionReplayer(setup);
    for await (const input of inputs) deliver({ source: input.source, ...(await replayer.replay(input)) });
    return replayer.aggregate();
  }
  return replayInWorkers(inputs, setup, options, deliver);
}

async function replayInWorkers(
  inputs: AsyncIterable<SessionInput>,
  setup: BulkSetup,
  options: BulkOptions,
  deliver: (session: DeliveredSession) => void,
): Promise<Aggregate> {
  const url = options.workerUrl ?? defaultWorkerUrl();
  const batchSize = Math.max(1, Math.min(BATCH, options.window ?? BATCH));
  const window = options.jobs * Math.max(options.window ?? 4 * BATCH, batchSize + 1);
  // This thread is one of the `jobs`: it replays a batch itself whenever every worker has enough
  // queued, so `--jobs N` keeps N threads replaying instead of N workers and a dispatcher.
  const local = new SessionReplayer(setup);
  const fed = 4 * batchSize;
  const sources = new Map<number, SessionSource>();
  const done = new Map<number, SessionOutcome>();
  const parts: Aggregate[] = [];
  let next = 0; // the next seq to deliver
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const flush = (): void => {
    while (done.has(next)) {
      const outcome = done.get(next)!;
      done.delete(next);
      const source = sources.get(next)!;
      sources.delete(next);
      next++;
      deliver({ source, ...outcome });
    }
  };
  const workers: Array<{ readonly worker: Worker; inFlight: number }> = [];
  const spawn = (): void => {
    const w = { worker: new Worker(url, { workerData: { setup } }), inFlight: 0 };
    workers.push(w);
    w.worker.on('message', (m: FromWorker) => {
      if (m.type === 'aggregate') parts.push(m.aggregate);
      else {
        w.inFlight -= m.items.length;
        for (const r of m.items) done.set(r.seq, { line: r.line, failed: r.failed });
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
    let batch: Array<{ seq: number; input: SessionInput }> = [];
    const send = async (): Promise<void> => {
      if (batch.length === 0) return;
      const items = batch;
      batch = [];
      // The workers start once there is more than a few batches of input: a handful of sessions is replayed
      // here sooner than a worker thread starts.
      if (workers.length === 0 && items[0]!.seq >= fed) for (let k = 1; k < options.jobs; k++) spawn();
      const w = workers.length === 0 ? null : workers.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
      if (w && w.inFlight < fed) {
        w.inFlight += items.length;
        w.worker.postMessage({ type: 'sessions', items } satisfies ToWorker);
        return;
      }
      for (const { seq, input } of items) done.set(seq, await local.replay(input));
      flush();
    };
    for await (const input of inputs) {
      // Unsent sessions count in the window too; a batch is smaller than the window, so the sent ones free it.
      if (seq - next >= window) {
        await send();
        await waitFor(() => seq - next < window);
      }
      sources.set(seq, input.source);
      batch.push({ seq, input });
      seq++;
      if (batch.length >= batchSize) await send();
    }
    await send();
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
