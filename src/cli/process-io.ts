/**
 * The process's own streams for a run of the CLI (stdout written through {@link stdoutStream}), and the one
 * handler of a failed write to stdout.
 *
 * A closed stdout pipe (`toolsearch search … | head -1`) ends the process quietly with exit 0: the reader
 * has what it wanted. Any other failure to write stdout (a full disk, `>/dev/full`) is one line on stderr
 * and exit 74 ({@link stdoutFailed}). A closed or failing stderr (`2>/dev/full`) is ignored: only warnings
 * and messages are lost, and the exit code the run computes is kept (a warning must not turn success into
 * exit 1, nor bad input's 2 into anything else).
 */
import { fstatSync, type Stats, writeSync } from 'node:fs';
import type { CliIo } from './context.js';
import { EXIT_IO, EXIT_OK } from './exit-codes.js';
import type { OutStream } from './out-stream.js';

/** Why a write failed, in words, with the system's code. */
function writeFailure(err: NodeJS.ErrnoException): string {
  const code = typeof err.code === 'string' ? err.code : '';
  const why =
    code === 'ENOSPC'
      ? 'no space left on the device'
      : code === 'EFBIG'
        ? 'the file is too large'
        : code === 'EIO'
          ? 'an input/output error'
          : code === 'EDQUOT'
            ? 'the disk quota is exceeded'
            : code === 'EBADF'
              ? 'it is not open for writing'
              : 'the write failed';
  return code === '' ? why : `${why} (${code})`;
}

/**
 * Standard output failed for another reason than a closed pipe: one line on stderr (when it can be
 * written; its own failure is ignored), then exit 74. Never the error's stack or the bundle's source line.
 */
export function stdoutFailed(err: NodeJS.ErrnoException): never {
  try {
    writeSync(2, `error: cannot write to stdout: ${writeFailure(err)}\n`);
  } catch {
    // stderr is gone too: the exit code says it
  }
  process.exit(EXIT_IO);
}

/** Whether a write error is the reader having gone away (a closed pipe). */
function isClosedPipe(err: NodeJS.ErrnoException): boolean {
  return err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';
}

/** `stream`, with `onClosed` run when its reader has gone away and `onFailed` for any other error. */
function guarded(
  stream: NodeJS.WriteStream,
  onClosed: () => void,
  onFailed: (err: NodeJS.ErrnoException) => void,
): NodeJS.WriteStream {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (isClosedPipe(err)) onClosed();
    else onFailed(err);
  });
  return stream;
}

/** Blocks the thread for a millisecond (a full pipe whose reader is slow). */
const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/**
 * Standard output, with the failures above handled. A pipe, a socket or a file is written with
 * `fs.writeSync` until every byte is out (a full non-blocking pipe is waited for): process.stdout's
 * writes to a file drop what a short write leaves (a file over `ulimit -f`), and setting it up for a
 * pipe loads Node's stream and net modules (~5 ms of every start). A terminal, or a device such as
 * /dev/null (fstat cannot tell it from a terminal), is process.stdout.
 */
export function stdoutStream(): OutStream {
  const closed = (): never => process.exit(EXIT_OK);
  let st: Stats | null;
  try {
    st = fstatSync(1);
  } catch {
    st = null;
  }
  if (st === null || (!st.isFIFO() && !st.isSocket() && !st.isFile()))
    return guarded(process.stdout, closed, stdoutFailed);
  return {
    isTTY: false,
    write(chunk: string) {
      const bytes = Buffer.from(chunk, 'utf8');
      for (let at = 0; at < bytes.length; ) {
        try {
          at += writeSync(1, bytes, at);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN') Atomics.wait(SLEEP, 0, 0, 1);
          else if (code === 'EPIPE') closed();
          else stdoutFailed(err as NodeJS.ErrnoException);
        }
      }
      return true;
    },
  };
}

/** The process's streams and environment, each stream set up on first use. */
export function processIo(): CliIo {
  const ignore = (): void => {};
  let stdout: OutStream | undefined;
  let stderr: NodeJS.WriteStream | undefined;
  return {
    get stdout() {
      return (stdout ??= stdoutStream());
    },
    get stderr() {
      return (stderr ??= guarded(process.stderr, ignore, ignore));
    },
    // Reading process.stdin sets up a stream (and loads its modules), which only --batch - needs.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
  };
}
