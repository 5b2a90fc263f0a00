/**
 * A worker thread of a bulk replay: items in (a session, or a chunk of lines
 * of a file of sessions, decoded here), in any order the pool chooses; the
 * outcomes of each item's sessions out; its part of the aggregate at the end.
 * Items are handled one at a time, in the order they arrive.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SessionItem } from '../../formats/sessions.js';
import { type BulkSetup, SessionReplayer } from './bulk-session.js';

/** Messages from the pool: one item each (a chunk of lines of a file of sessions is many sessions). */
export type ToWorker =
  | { readonly type: 'item'; readonly seq: number; readonly item: SessionItem }
  | { readonly type: 'end' };

const port = parentPort;
if (port) {
  const replayer = new SessionReplayer((workerData as { setup: BulkSetup }).setup);
  // Loaded: the pool sends items from now on (until then its own thread replays them: a worker's start never
  // holds the items behind it).
  port.postMessage({ type: 'ready' });
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: ToWorker) => {
    queue = queue.then(async () => {
      if (m.type === 'end') {
        port.postMessage({ type: 'aggregate', aggregate: replayer.aggregate() });
        return;
      }
      port.postMessage({ type: 'results', seq: m.seq, items: await replayer.replayItem(m.item) });
    });
  });
}
