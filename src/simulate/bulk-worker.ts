/**
 * A worker thread of a bulk replay: sessions in (in any order the pool
 * chooses), one outcome per session out, its part of the aggregate at the
 * end. Sessions are handled one at a time, in the order they arrive.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SessionInput } from '../formats/sessions.js';
import { type BulkSetup, SessionReplayer } from './bulk-session.js';

/** Messages from the pool. */
export type ToWorker = { readonly type: 'session'; readonly seq: number; readonly input: SessionInput } | { readonly type: 'end' };

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
      const outcome = await replayer.replay(m.input);
      port.postMessage({ type: 'result', seq: m.seq, ...outcome });
    });
  });
}
