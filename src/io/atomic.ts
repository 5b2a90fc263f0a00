/**
 * Atomic file output (`--output`, `--update`): the text goes to a temporary
 * file in the target's directory, which is then renamed over the target, so
 * an interrupted run never leaves a half-written file. An existing file's
 * permission bits are kept; a symbolic link to a file is kept too (the file
 * it names is replaced). What is not a regular file is never replaced: a
 * terminal, `/dev/null` or another character device, or a FIFO (`-o
 * >(gzip > r.gz)`, a named pipe) is written in place, as a shell's `>` would;
 * a socket or a block device is refused.
 *
 * The temporary file has a random name, created exclusively (`O_EXCL`, never through a symbolic link), and a
 * name taken by someone else is tried again with another: in a directory shared with other users, a predictable
 * name (`.<name>.<pid>.<counter>.tmp`, before issue 27, finding 11) let anyone pre-create it and make every write
 * fail at the end of a run. Only a temporary file this write created is ever removed.
 */
import {
  chmodSync,
  closeSync,
  constants,
  openSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { InputError } from './errors.js';

function writeError(file: string, err: unknown): InputError {
  const code = (err as { code?: unknown } | null)?.code;
  const why =
    code === 'ENOENT'
      ? 'its directory does not exist'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'ENOSPC'
            ? 'no space left on the device'
            : code === 'ENXIO'
              ? 'nothing is reading it'
              : code === 'EPIPE'
                ? 'its reader has gone'
                : typeof code === 'string'
                  ? code
                  : String(err);
  return new InputError(`cannot write file: ${why}`, { file, line: 0, column: 0 });
}

/** Writes `text` into what `file` names as it is (a device or a FIFO): no temporary, no rename. */
function writeInPlace(file: string, text: string): void {
  // O_NONBLOCK is not used: a FIFO without a reader yet waits for one, as a shell's `>` does.
  const fd = openSync(file, constants.O_WRONLY | (constants.O_NOCTTY ?? 0));
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` to `file` atomically: a temporary file in the same directory,
 * then a rename over the original (the file a symbolic link names, when
 * `file` is one). A device or FIFO is written in place instead; a socket or
 * block device is refused. A failure is an `InputError` naming the file
 * (exit 2), and the temporary file is removed.
 */
export function writeFileAtomic(file: string, text: string): void {
  let st: Stats | null;
  try {
    st = statSync(file);
  } catch {
    st = null;
  }
  if (st !== null && !st.isFile()) {
    if (st.isDirectory()) throw writeError(file, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
    if (st.isSocket()) throw new InputError('cannot write file: it is a socket', { file, line: 0, column: 0 });
    if (st.isBlockDevice())
      throw new InputError('cannot write file: it is a block device (a disk): write the output to a file', {
        file,
        line: 0,
        column: 0,
      });
    try {
      writeInPlace(file, text);
    } catch (err) {
      throw writeError(file, err);
    }
    return;
  }
  let target = file;
  if (st !== null) {
    try {
      target = realpathSync(file);
    } catch {
      target = file;
    }
  }
  const mode = st === null ? null : st.mode & 0o7777;
  let tmp: string | null = null;
  try {
    const { fd, path } = createTemporary(dirname(target), basename(target));
    tmp = path;
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
    if (mode !== null) chmodSync(path, mode);
    renameSync(path, target);
  } catch (err) {
    if (tmp !== null) {
      try {
        unlinkSync(tmp);
      } catch {
        // already gone
      }
    }
    throw writeError(file, err);
  }
}

/** Names tried before giving up: each is new and random, so a taken one is someone else's doing. */
const TEMPORARY_TRIES = 16;

/** A new file `.<name>.<random>.tmp` in `dir`, created exclusively and never through a link; its descriptor. */
function createTemporary(dir: string, name: string): { fd: number; path: string } {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  for (let i = 1; ; i++) {
    const path = join(dir, `.${name}.${randomBytes(12).toString('base64url')}.tmp`);
    try {
      return { fd: openSync(path, flags, 0o666), path };
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'EEXIST' || i >= TEMPORARY_TRIES) throw err;
    }
  }
}
