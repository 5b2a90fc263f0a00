/**
 * A worker thread of a bulk replay: sessions in (in any order the pool
 * chooses), one outcome per session out, its part of the aggregate at the
 * end. Sessions are handled one at a time, in the order they arrive.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SessionInput } from '../formats/sessions.js';
import { type BulkSetup, SessionReplayer } from './bulk-session.js';

/** Messages from the pool: sessions come in batches (a message costs far more than a small session's replay). */
export type ToWorker =
  | { readonly type: 'sessions'; readonly items: ReadonlyArray<{ readonly seq: number; readonly input: SessionInput }> }
  | { readonly type: 'end' };

const port = parentPort;
if (port) {
  const replayer = new SessionReplayer((workerData as { setup: BulkSetup }).setup);
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: ToWorker) => {
    queue = queue.then(async () => {
      if (m.type === 'end') {
        port.postMessage({ type: 'aggregate', aggregate: replayer.aggregate() });
        return;
      }
      const results = [];
      for (const { seq, input } of m.items) results.push({ seq, ...(await replayer.replay(input)) });
      port.postMessage({ type: 'results', items: results });
    });
  });
}
