/**
 * A worker thread of a bulk replay (src/jobs/simulate/bulk.ts): items in (a session, or a chunk of lines of a
 * file of sessions, decoded here), in any order the pool chooses; the outcomes of each item's sessions out; its
 * part of the aggregate at the end. Items are handled one at a time, in the order they arrive.
 *
 * The thread runs the file this module is in ({@link bulkWorkerUrl}): tsc's `bulk-worker.js` for the library, the
 * CLI's one bundle (dist/bundle/cli.cjs, whose entry src/cli/main.ts imports this module) for the CLI. Loaded in a
 * thread started with the argument {@link BULK_WORKER}, it serves the pool; anywhere else it does nothing. An
 * argument, not a mark in `workerData`: reading that needs node:worker_threads, which takes a few milliseconds
 * to load on Node 20, at every start of the CLI.
 */
import { createRequire } from 'node:module';
import type { MessagePort } from 'node:worker_threads';
import type { SessionItem } from '../../formats/sessions.js';
import type { BulkSetup } from './bulk-session.js';

/** The argument (process.argv) of a bulk replay's worker thread. */
export const BULK_WORKER = '--toolsearch-bulk-replay-worker';

/** What a bulk replay's worker thread is started with. */
export interface BulkWorkerData {
  readonly setup: BulkSetup;
}

/** Messages from the pool: one item each (a chunk of lines of a file of sessions is many sessions). */
export type ToWorker =
  | { readonly type: 'item'; readonly seq: number; readonly item: SessionItem }
  | { readonly type: 'end' };

/** The file a bulk replay's worker threads run: the one this module is in (in the CLI, its bundle). */
export function bulkWorkerUrl(): URL {
  return new URL(import.meta.url);
}

function serve(port: MessagePort, setup: BulkSetup): void {
  // Listening at once: the pool's first items may arrive while the replayer's modules load.
  const replayer = import('./bulk-session.js').then(({ SessionReplayer }) => new SessionReplayer(setup));
  // Loaded: the pool sends items from now on (until then its own thread replays them: a worker's start never
  // holds the items behind it).
  void replayer.then(() => port.postMessage({ type: 'ready' }));
  let queue: Promise<unknown> = replayer;
  port.on('message', (m: ToWorker) => {
    queue = queue.then(async () => {
      const r = await replayer;
      if (m.type === 'end') port.postMessage({ type: 'aggregate', aggregate: r.aggregate() });
      else port.postMessage({ type: 'results', seq: m.seq, items: await r.replayItem(m.item) });
    });
  });
}

if (process.argv.includes(BULK_WORKER)) {
  const threads = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
  if (!threads.isMainThread && threads.parentPort !== null)
    serve(threads.parentPort, (threads.workerData as BulkWorkerData).setup);
}
