/**
 * Atomic file output (`--output`, `--update`): the text goes to a temporary
 * file in the target's directory, which is then renamed over the target, so
 * an interrupted run never leaves a half-written file. An existing file's
 * permission bits are kept.
 */
import { chmodSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../errors.js';

let counter = 0;

function writeError(file: string, err: unknown): InputError {
  const code = (err as { code?: unknown } | null)?.code;
  const why =
    code === 'ENOENT' ? 'its directory does not exist'
    : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
    : code === 'EISDIR' ? 'it is a directory'
    : code === 'ENOSPC' ? 'no space left on the device'
    : typeof code === 'string' ? code : String(err);
  return new InputError(`cannot write file: ${why}`, { file, line: 0, column: 0 });
}

/**
 * Writes `text` to `file` atomically: a temporary file in the same directory,
 * then a rename over the original. A failure is an `InputError` naming the
 * file (exit 2), and the temporary file is removed.
 */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${(counter++).toString(36)}.tmp`);
  let mode: number | null = null;
  try {
    mode = statSync(file).mode & 0o7777;
  } catch {
    mode = null;
  }
  try {
    writeFileSync(tmp, text, { flag: 'wx' });
    if (mode !== null) chmodSync(tmp, mode);
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw writeError(file, err);
  }
}
