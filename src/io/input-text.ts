/**
 * An input file's text, without its bytes: {@link readInputFile}, then the
 * buffer that held the file is released at once. Left to the garbage
 * collector, a large file's buffer (as large as the file) would
 * stay resident until the next full collection, which a command that loads a
 * catalog and answers may never reach.
 */
import { type Limits, readInputFile } from './read.js';

/** Buffers smaller than this are left to the garbage collector. */
const RELEASE_MIN_BYTES = 1 << 20;

/** {@link readInputFile}'s text and location errors, with the file's buffer released. */
export function readInputText(path: string, limits?: Partial<Limits>): string {
  const { bytes, text } = readInputFile(path, limits);
  releaseBytes(bytes);
  return text;
}

/**
 * Frees the memory under `bytes` now, when `bytes` is the only view of a
 * large buffer of its own (as {@link readInputFile} allocates for a large
 * file: never a slice of Node's shared pool). `bytes` is empty afterwards.
 * Anything else is left as it is.
 */
export function releaseBytes(bytes: Uint8Array): void {
  const ab = bytes.buffer;
  if (!(ab instanceof ArrayBuffer) || ab.byteLength < RELEASE_MIN_BYTES) return;
  if (bytes.byteOffset !== 0 || ab.byteLength > bytes.byteLength + 1) return;
  try {
    // Transferring detaches `ab`; its memory goes with the clone, which nothing keeps.
    structuredClone(ab, { transfer: [ab] });
  } catch {
    // Not transferable: the garbage collector frees it.
  }
}
