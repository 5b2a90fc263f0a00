/**
 * Bulk replay: a stream of sessions in, one outcome per session out in input
 * order, and the aggregate of them all. With more than one job the sessions
 * go to worker threads (each its own `SessionReplayer` and part of the
 * aggregate, merged at the end: the aggregate does not depend on which
 * worker had which session). A file of sessions goes as chunks of its lines,
 * which the workers decode, so this thread does little more than read. At
 * most a fixed window of items (a session, or about 64 kB of lines) is in
 * flight, so memory is bounded by the largest sessions, not by the input.
 *
 * Workers start only when the input left pays for their warm-up (a thread loads its code, compiles it anew and warms
 * its JIT: see {@link WORKER_PAYBACK_MS}): this thread replays alone at first, measures its rate ({@link RateMeter}),
 * and starts the workers once the input left would take it longer than that alone even at the least it could
 * cost — early for a large file, never for a small or middling one; for standard input, whose size is unknown, once
 * it has replayed alone for that long. `--jobs N` is the most threads used.
 */
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { SessionItem, SessionSource } from '../../formats/sessions.js';
import { type Aggregate, AggregateBuilder } from './aggregate.js';
import { type BulkSetup, type SessionOutcome, SessionReplayer } from './bulk-session.js';
import { BULK_WORKER, type BulkWorkerData, bulkWorkerUrl, type ToWorker } from './bulk-worker.js';

/** One session's outcome, delivered in input order. */
export interface DeliveredSession extends SessionOutcome {
  readonly source: SessionSource;
}

export interface BulkOptions {
  /** Threads replaying, this one included; 1 replays in this thread alone. */
  readonly jobs: number;
  /** Items (a session, or a chunk of lines of a file of sessions) in flight per job (default 8, at least 4). */
  readonly window?: number;
  /** The worker script (default: {@link bulkWorkerUrl}, the file the worker's module is in). */
  readonly workerUrl?: URL;
  /**
   * When workers start: `when-it-pays` (the default) once the input left pays for their warm-up, `now` after the
   * first few items whatever the input (tests of the worker path).
   */
  readonly start?: 'when-it-pays' | 'now';
  /** Bytes of the whole input, when known (files); null or absent for standard input. */
  readonly inputBytes?: number | null;
  /** Told when workers start: how many, and how many bytes of the input this thread had read by then. */
  readonly onWorkersStart?: (start: { readonly workers: number; readonly bytesRead: number }) => void;
}

/**
 * CPU time a worker costs before it pays (its module graph loaded, its code compiled again, its first items
 * replayed slowly while the JIT warms, and the CPU it takes from this thread meanwhile), with a margin: workers
 * start only when replaying the rest of the input alone would take this thread longer, even at the least it could
 * cost ({@link RateMeter}). On an idle two-core machine a worker paid for itself from about 1.5 s of work left; on a
 * loaded one (issue 27: load average 25 on 2 cores) a start at 1,000 sessions made `--jobs 2` 1.5–2× slower than
 * one job, so the bar is 2 s of this thread's CPU time.
 */
export const WORKER_PAYBACK_MS = 2000;

/** CPU time of this process so far, in ms (before the workers start: this thread, and V8's helper threads). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU time of a window of the rate meter: enough items that one slow item (a collection) moves it little. */
const WINDOW_MS = 100;

/** Windows the meter keeps: the fastest of them is this thread's recent cost. */
const WINDOWS = 3;

/**
 * How much cheaper a byte may still become than in the fastest of this thread's last {@link WINDOWS} windows, by
 * the CPU time this thread has replayed so far: at most 10× in its first second, 3× in its second, 2× after. The
 * JIT's speed-ups come in steps in the first second: on the bench's sessions a byte costs 10–18× its warm cost in
 * the first windows, still 3–7× after 300–600 ms (0.3–0.6 ms per kB; 0.065–0.085 warm),
 * and three windows agreeing within 15% at 0.58 ms per kB, 570 ms in, once started a worker at 3,000 sessions that
 * did not pay. From a second in, what is left is 1.5–1.8× on both the bench's sessions and the bundled
 * recordings (fixtures/bulk/sessions.jsonl, 38 kB per session), and 1.2–1.5× from two seconds in; the allowance
 * keeps more than that. Held at 10× for good, the floor kept a 386 MB file of those recordings (10,002 sessions,
 * 7.3–8.1 s alone) from starting a worker in most runs, while two processes on its halves took 1.4× less time.
 */
export function jitSpeedupMax(replayedMs: number): number {
  if (replayedMs < 1000) return 10;
  return replayedMs < 2000 ? 3 : 2;
}

/**
 * The least this thread's replay may come to cost (CPU ms per byte of input). Its first items run before the JIT
 * has warmed, and a rate taken then (issue 27's first rule) predicted 2.5 s of work left at 2,000 sessions where
 * 0.4 s was left: the worker it started made `--jobs 2` 20% slower than one job. So the cost is taken in windows of
 * at least {@link WINDOW_MS} of CPU time, and workers go by its floor: the fastest recent window at the cost the
 * JIT may still bring it down to ({@link jitSpeedupMax}). An input whose rest takes longer than a worker's warm-up
 * even at that floor pays for the worker whatever the machine; a middling one (up to about 8,000 of the bench's
 * short sessions or of the bundled recordings) is replayed by this thread alone.
 */
export class RateMeter {
  private ms = 0;
  private bytes = 0;
  /** CPU time of every item added. */
  private spent = 0;
  private readonly windows: number[] = [];

  /** An item this thread replayed: its CPU time and its bytes. */
  add(ms: number, bytes: number): void {
    this.spent += ms;
    this.ms += ms;
    this.bytes += bytes;
    if (this.ms < WINDOW_MS || this.bytes === 0) return;
    this.windows.push(this.ms / this.bytes);
    if (this.windows.length > WINDOWS) this.windows.shift();
    this.ms = 0;
    this.bytes = 0;
  }

  /** CPU ms per byte this thread will not go below, once it has replayed {@link WINDOWS} windows; else null. */
  floor(): number | null {
    if (this.windows.length < WINDOWS) return null;
    let fastest = Number.POSITIVE_INFINITY;
    for (const w of this.windows) fastest = Math.min(fastest, w);
    return fastest / jitSpeedupMax(this.spent);
  }
}

/** Bytes of an item of input, for the rate: a chunk's bytes, a file's size (0 when it cannot be read). */
function itemBytes(item: SessionItem): number {
  if (item.kind === 'lines') return item.bytes.byteLength;
  if (item.kind !== 'file') return 0;
  try {
    return statSync(item.source.file).size;
  } catch {
    return 0;
  }
}

/** The bytes of the files `paths` name (`-`, or anything that is not a regular file: unknown, null). */
export function inputBytes(paths: readonly string[]): number | null {
  let total = 0;
  for (const p of paths) {
    if (p === '-') return null;
    try {
      const st = statSync(p);
      if (!st.isFile()) return null;
      total += st.size;
    } catch {
      // a failed session, of no size
    }
  }
  return total;
}

type FromWorker =
  | { readonly type: 'ready' }
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
  const url = options.workerUrl ?? bulkWorkerUrl();
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
  const workers: Array<{ readonly worker: Worker; inFlight: number; ready: boolean; dropped: boolean }> = [];
  const spawn = (): void => {
    const workerData: BulkWorkerData = { setup };
    const w = {
      worker: new Worker(url, { argv: [BULK_WORKER], workerData }),
      inFlight: 0,
      ready: false,
      dropped: false,
    };
    workers.push(w);
    w.worker.on('message', (m: FromWorker) => {
      if (m.type === 'ready') w.ready = true;
      else if (m.type === 'aggregate') parts.push(m.aggregate);
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
      if (code !== 0 && !w.dropped) failure ??= new Error(`a replay worker stopped (exit code ${code})`);
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
  // What this thread replayed alone, and when it began: its floor says how long the rest would take it at least.
  const began = performance.now();
  const meter = new RateMeter();
  let consumed = 0;
  const inputSize = options.inputBytes ?? null;
  const pays = (): boolean => {
    if (options.start === 'now') return true;
    // Unknown size (standard input): once this thread has replayed alone for as long as a worker's warm-up.
    if (inputSize === null) return performance.now() - began >= WORKER_PAYBACK_MS;
    // The input left takes this thread at least this long alone, however far its JIT warms.
    const floor = meter.floor();
    return floor !== null && (inputSize - consumed) * floor >= WORKER_PAYBACK_MS;
  };
  try {
    let seq = 0;
    for await (const item of inputs) {
      if (seq - next >= window) await waitFor(() => seq - next < window);
      // Sizes count only until the workers start (a file's is a stat): they decide when.
      const bytes = workers.length === 0 ? itemBytes(item) : 0;
      consumed += bytes;
      // The workers start once the input left pays for their warm-up (and never before a few items: a handful
      // of sessions is replayed here sooner than a worker thread starts).
      if (workers.length === 0 && seq >= FED && pays()) {
        for (let k = 1; k < options.jobs; k++) spawn();
        options.onWorkersStart?.({ workers: workers.length, bytesRead: consumed });
      }
      // Only a worker that has loaded takes items: until then this thread replays them (no item waits on a start).
      const ready = workers.filter((x) => x.ready);
      const w = ready.length === 0 ? null : ready.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
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
        // CPU time, not wall time: on a busy machine the wall clock also counts other programs, which would start
        // workers that, as slowed as this thread, cannot pay for their warm-up.
        const t0 = workers.length === 0 ? cpuMs() : 0;
        done.set(seq, await local.replayItem(item));
        if (workers.length === 0) meter.add(cpuMs() - t0, bytes);
        flush();
      }
      seq++;
    }
    await waitFor(() => next === seq);
    // A worker still loading was sent nothing: it has no part, and the run does not wait for it to load (with
    // `start: 'now'`, the worker path's tests, it does: a worker that cannot start fails the run).
    if (failure) throw failure;
    const used = options.start === 'now' ? workers : workers.filter((w) => w.ready);
    for (const w of workers) {
      if (used.includes(w)) continue;
      w.dropped = true;
      // Not waited for: a thread still starting may take a while to stop, and it holds nothing of the run.
      w.worker.unref();
      void w.worker.terminate();
    }
    for (const w of used) w.worker.postMessage({ type: 'end' } satisfies ToWorker);
    await waitFor(() => parts.length === used.length);
  } finally {
    await Promise.all(workers.filter((w) => !w.dropped).map((w) => w.worker.terminate()));
  }
  const total = new AggregateBuilder();
  total.merge(local.aggregate());
  for (const p of parts) total.merge(p);
  return total.value();
}
