/**
 * The one way the CLI writes an output file (`test --output`, `import -o`,
 * and any later `--output`/`--html`): every output is checked against the
 * inputs of the run before anything runs, and again when it is written, so
 * a run never writes over a file it reads (a suite, a catalog, a
 * transcript, labeled queries…). "The same file" is decided by the file
 * system, not by spelling: the device and inode number of what the path
 * resolves to (symbolic links followed, so a link to an input or a hard link
 * of one is the input), as `realpath` and `ln` see it.
 *
 * A command lists its outputs ({@link RunOutput}: the option and the path)
 * and reports its inputs as it learns them ({@link RunInput}: what the file
 * is and its path); {@link checkOutputs} throws a {@link UsageError} (exit 2)
 * for an output that is an input, or two outputs that are one file.
 * {@link writeOutput} writes one output after checking it again.
 */
import { type Stats, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { escapeText } from '../render/escape.js';
import { writeFileAtomic } from './atomic.js';

/** A file the run reads: what it is (`suite`, `catalog`, `transcript`, `labeled queries`, …) and its path. */
export interface RunInput {
  readonly kind: string;
  readonly path: string;
}

/** A file the run writes: the option that named it (`--output`, `--html`) and its path (`-` is stdout). */
export interface RunOutput {
  readonly option: string;
  readonly path: string;
}

/** What `path` resolves to, or null when it does not exist (then it is no input's file). */
function identity(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

const same = (a: Stats, b: Stats): boolean => a.dev === b.dev && a.ino === b.ino;

/** Whether `path` is standard output rather than a file. */
export const isStdout = (path: string): boolean => path === '-';

/**
 * Throws a {@link UsageError} when an output is the same file as an input
 * (or as another output). Outputs that do not exist yet, and stdout, are no
 * input. Cheap (one `stat` per path): call it before the run, and with each
 * input learnt later.
 */
export function checkOutputs(outputs: readonly RunOutput[], inputs: readonly RunInput[]): void {
  const files = outputs.filter((o) => !isStdout(o.path)).map((o) => ({ o, st: identity(o.path) }));
  for (const [i, { o, st }] of files.entries()) {
    if (st === null) continue;
    for (const input of inputs) {
      const ist = identity(input.path);
      if (ist !== null && same(st, ist)) {
        const as = input.path === o.path ? '' : ` (the same file as ${escapeText(input.path)})`;
        throw new UsageError(
          `${o.option} ${escapeText(o.path)} would overwrite ` +
            `the ${input.kind}${as}, an input of this run: write it to another file`,
        );
      }
    }
    const other = files.slice(0, i).find((f) => f.st !== null && same(f.st, st));
    if (other)
      throw new UsageError(
        `${o.option} ${escapeText(o.path)} ` +
          `and ${other.o.option} ${escapeText(other.o.path)} are the same file: give each output a file of its own`,
      );
  }
}

/**
 * Writes `text` to `output` after checking it against `inputs` again: `-`
 * is `stdout`; a file is written atomically (a temporary renamed over it),
 * a device or FIFO in place, a socket or block device refused (see
 * `writeFileAtomic`). A failure to write is an `InputError` naming the file
 * (exit 2).
 */
export function writeOutput(
  output: RunOutput,
  text: string,
  inputs: readonly RunInput[],
  stdout: (text: string) => void,
): void {
  if (isStdout(output.path)) {
    stdout(text);
    return;
  }
  checkOutputs([output], inputs);
  writeFileAtomic(output.path, text);
}
