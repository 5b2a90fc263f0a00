/**
 * The worker thread of `watch --jsonl`: the live sessions (jobs/watch/live.ts),
 * fed calls and spans in arrival order; each arrival's lines go back at once.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LiveWatch, type WatchOptions } from '../../jobs/watch/live.js';
import { addExchange, type FromSimWorker, type ToSimWorker } from './sink.js';

const port = parentPort;
if (port) {
  const watch = new LiveWatch((workerData as { options: WatchOptions }).options);
  const send = (m: FromSimWorker): void => port.postMessage(m);
  port.on('message', (m: ToSimWorker) => {
    switch (m.type) {
      case 'call':
        send({ type: 'lines', lines: addExchange(watch, m.provider, m.exchange, m.meta, m.error) });
        break;
      case 'spans':
        send({ type: 'lines', lines: watch.addSpans(m.spans) });
        break;
      case 'recording':
        send({ type: 'recording', id: m.id, text: watch.recording() });
        break;
      case 'summary':
        send({
          type: 'summary',
          id: m.id,
          sessions: watch.sessions.length,
          calls: watch.sessions.reduce((n, s) => n + (s.report?.turns.length ?? 0), 0),
        });
        break;
    }
  });
}
