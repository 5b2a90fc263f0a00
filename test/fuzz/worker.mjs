/**
 * In-process executor (a worker thread): runs `main(argv, io)` of the built
 * CLI with captured stdout and stderr. `main` returns the exit code and never
 * calls `process.exit` when given its streams, so many runs share one
 * module cache. The pool ends a worker that overruns its time.
 */
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const { main } = await import(pathToFileURL(workerData.mainJs).href);

parentPort.on('message', async (msg) => {
  let stdout = '';
  let stderr = '';
  const text = (chunk) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  const io = {
    stdout: { write: (c) => ((stdout += text(c)), true), isTTY: msg.tty, columns: msg.tty ? 80 : undefined },
    stderr: { write: (c) => ((stderr += text(c)), true), isTTY: msg.tty, columns: msg.tty ? 80 : undefined },
    stdin: Readable.from(msg.stdin ? [Buffer.from(msg.stdin)] : []),
    env: msg.env,
    // --cache-tamper: the loaded-catalog cache of env.TOOLSEARCH_CACHE_DIR, as a process of its own has.
    fileCache: msg.fileCache === true,
  };
  try {
    const code = await main(msg.argv, io);
    parentPort.postMessage({ id: msg.id, code, stdout, stderr });
  } catch (err) {
    parentPort.postMessage({ id: msg.id, code: null, stdout, stderr, crash: `main() rejected: ${err?.stack ?? err}` });
  }
});
parentPort.postMessage({ ready: true });
