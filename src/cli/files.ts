/** Opening input files for reading with errors users understand (exit 2 with the file name). */
import { createReadStream, statSync } from 'node:fs';
import { InputError } from '../io/errors.js';
import { describeFsError as reason } from '../io/read.js';

/** A readable stream over a file, or stdin for `-`. Checks first, so a missing file or a directory is an InputError. */
export function openInput(file: string, stdin: NodeJS.ReadableStream): AsyncIterable<Buffer | string> {
  if (file === '-') return stdin as AsyncIterable<Buffer | string>;
  const at = { file, line: 0, column: 0 };
  try {
    if (statSync(file).isDirectory()) throw new InputError('is a directory, not a file', at);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(reason(err), at);
  }
  const stream = createReadStream(file);
  return (async function* () {
    try {
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (err) {
      throw new InputError(reason(err), at);
    }
  })();
}
