/**
 * Transcript (recording) files: detection and reading live in
 * src/formats/recordings/ (one reader per format, one registry); this module
 * keeps the loader entry points.
 */
import { InputError } from '../io/errors.js';
import { parseFile } from '../io/parse.js';
import { READERS, readRecording, type RecordingOptions } from './recordings/registry.js';
import type { ParsedDocument } from '../io/nodes.js';
import type { Transcript, TranscriptFormat } from './types.js';

/** Options of {@link loadTranscriptFile}. */
export type TranscriptOptions = RecordingOptions;

/** Every transcript shape, as listed in help and errors. */
export const TRANSCRIPT_SHAPES: ReadonlyArray<readonly [TranscriptFormat, string]> = READERS.map(
  (r) => [r.format, r.shape] as const,
);

/** Reads one parsed transcript document. */
export function readTranscriptDocument(doc: ParsedDocument, options: TranscriptOptions = {}): Transcript {
  return readRecording(doc, options);
}

/**
 * Loads a transcript file (`-` reads standard input). Every problem is an
 * `InputError` at `file:line:column`: unknown roles, items no rule explains,
 * tool results pointing to an unknown call id (with `lenient`, the last two
 * are warnings and the load goes on).
 */
export function loadTranscriptFile(file: string, options: TranscriptOptions = {}): Transcript {
  // A recording may hold `!!binary` YAML scalars (VCR cassettes' bodies).
  const doc = parseFile(file, { yamlBinary: true, ...(options.limits ? { limits: options.limits } : {}) });
  try {
    return readTranscriptDocument(doc, options);
  } catch (err) {
    // An error of no position (JSON text inside the recording too deep to walk): at least the file.
    if (err instanceof InputError && err.location === undefined)
      throw new InputError(err.message, { file: doc.file, line: 0, column: 0 });
    throw err;
  }
}
