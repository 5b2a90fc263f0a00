/**
 * Many recorded sessions from the command line, as a stream: paths, walked
 * directories, globs, `-` (standard input), and JSONL files in which each
 * line is one whole session (any recording format, detected per line).
 *
 * A JSONL file is either one recording (one message or event per line, read
 * by the transcript loader as today) or a file of sessions. `auto` decides by
 * the first non-blank line: a JSON array, or an object with `messages` or
 * `input` (a request body), or an object with neither `role` nor `type` (a
 * whole document of another shape, e.g. a trace), is a whole session; a
 * message, item or event line always has a `role` or a `type`.
 * `sessions` / `recording` force the choice. Standard input is
 * always read as sessions, one per line.
 *
 * Lines are read in chunks; a line longer than the input size limit is
 * skipped as a failed session without being held, so memory is bounded by
 * the largest session, not by the file.
 */
import { createReadStream, readSync, openSync, closeSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from '../errors.js';
import { globFiles, isGlob } from '../suite/glob.js';
import { parseText } from './parse.js';
import { describeFsError, type Limits, raiseLimit, resolveLimits } from './read.js';
import { loadTranscriptFile, readTranscriptDocument, type TranscriptOptions } from './transcript.js';
import type { Transcript } from './types.js';

/** How a JSONL input is read. */
export type JsonlInputMode = 'auto' | 'sessions' | 'recording';

/** Where a session comes from (the same shape as the aggregate's). */
export interface SessionSource {
  readonly file: string;
  /** 1-based line in a file of sessions; null for a whole file. */
  readonly line: number | null;
}

/** One session to read: a whole file, or the text of one line. */
export type SessionInput =
  | { readonly kind: 'file'; readonly source: SessionSource }
  | { readonly kind: 'line'; readonly source: SessionSource; readonly text: string }
  | { readonly kind: 'unreadable'; readonly source: SessionSource; readonly error: string };

/** Extensions of recordings found when a directory is walked. */
const RECORDING_FILE = /\.(json|jsonl|ndjson)$/i;
const LINES_FILE = /\.(jsonl|ndjson)$/i;

/**
 * The files the arguments name, in order: a directory gives every `.json`,
 * `.jsonl` and `.ndjson` file below it (sorted; dot directories and
 * `node_modules` skipped), a glob its matches (sorted). A glob matching
 * nothing and a directory without recordings are errors; `-` stays.
 */
export function expandSessionPaths(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (arg === '-') {
      out.push(arg);
      continue;
    }
    if (isGlob(arg)) {
      const files = globFiles(arg);
      if (files.length === 0) throw new InputError(`no file matches the pattern ${JSON.stringify(arg)}`);
      out.push(...files);
      continue;
    }
    let isDir = false;
    try {
      isDir = statSync(arg).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) {
      out.push(arg);
      continue;
    }
    const files = globFiles(`${arg.replace(/\/+$/, '')}/**/*`).filter((f) => RECORDING_FILE.test(f));
    if (files.length === 0)
      throw new InputError(`no recordings (.json, .jsonl, .ndjson) in the directory ${JSON.stringify(arg)}`);
    out.push(...files);
  }
  return out;
}

/** Whether one line of JSON is a whole session rather than one message or event of a recording. */
export function isSessionLine(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  if ('messages' in value || 'input' in value) return true;
  return !('role' in value) && !('type' in value);
}

/** The first non-blank line of a file (at most `max` bytes read), or null. */
function firstLine(path: string, max: number): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null; // the reader reports it
  }
  try {
    const chunk = Buffer.alloc(1 << 16);
    const decoder = new StringDecoder('utf8');
    let text = '';
    let total = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      text += decoder.write(chunk.subarray(0, n));
      const lines = text.split('\n');
      const done = lines.slice(0, -1).find((l) => l.trim() !== '');
      if (done !== undefined) return done;
      text = lines.at(-1)!;
      if (total > max) return null;
    }
    const rest = text + decoder.end();
    return rest.trim() === '' ? null : rest;
  } finally {
    closeSync(fd);
  }
}

/** Whether a file is read as one session per line. */
export function readsAsSessions(path: string, mode: JsonlInputMode, limits?: Partial<Limits>): boolean {
  if (path === '-') return true;
  if (mode === 'recording') return false;
  if (!LINES_FILE.test(path)) return false;
  if (mode === 'sessions') return true;
  const line = firstLine(path, resolveLimits(limits).maxBytes);
  return line !== null && isSessionLine(line.replace(/^\uFEFF/, ''));
}

/**
 * The lines of a stream, in order, with their 1-based numbers; blank lines
 * are skipped. A line over `maxBytes` is given as `null` text (never held).
 */
export async function* streamLines(
  stream: Readable,
  maxBytes: number,
): AsyncGenerator<{ line: number; text: string | null }> {
  const decoder = new StringDecoder('utf8');
  let pending: string[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let line = 1;
  const finish = function* (): Generator<{ line: number; text: string | null }> {
    const text = tooLong ? null : pending.join('');
    if (text === null || text.trim() !== '') yield { line, text: text?.replace(/\r$/, '') ?? null };
    pending = [];
    pendingBytes = 0;
    tooLong = false;
    line++;
  };
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    let from = 0;
    for (;;) {
      const nl = buf.indexOf(10, from);
      const end = nl < 0 ? buf.length : nl;
      if (!tooLong) {
        pendingBytes += end - from;
        if (pendingBytes > maxBytes) {
          tooLong = true;
          pending = [];
        } else pending.push(decoder.write(buf.subarray(from, end)));
      }
      if (nl < 0) break;
      if (!tooLong) pending.push(decoder.end());
      yield* finish();
      from = nl + 1;
    }
  }
  if (!tooLong) pending.push(decoder.end());
  if (pendingBytes > 0 || tooLong) yield* finish();
}

/**
 * Every session of the arguments, in input order. A file that cannot be
 * opened is a session to fail (the reader reports why), never the end of the
 * stream.
 */
export async function* sessionInputs(
  paths: readonly string[],
  options: { readonly jsonl: JsonlInputMode; readonly limits?: Partial<Limits>; readonly stdin?: Readable },
): AsyncGenerator<SessionInput> {
  const maxBytes = resolveLimits(options.limits).maxBytes;
  for (const path of paths) {
    if (!readsAsSessions(path, options.jsonl, options.limits)) {
      yield { kind: 'file', source: { file: path, line: null } };
      continue;
    }
    const file = path === '-' ? '<stdin>' : path;
    let stream: Readable;
    if (path === '-') {
      if (!options.stdin) throw new InputError('- (standard input) is not available here');
      stream = options.stdin;
    } else stream = createReadStream(path);
    try {
      for await (const { line, text } of streamLines(stream, maxBytes)) {
        const source = { file, line };
        if (text === null) {
          const error = `${file}:${line}: session too large (limit ${maxBytes} bytes; ${raiseLimit('maxBytes')})`;
          yield { kind: 'unreadable', source, error };
        } else yield { kind: 'line', source, text: line === 1 ? text.replace(/^\uFEFF/, '') : text };
      }
    } catch (err) {
      yield { kind: 'unreadable', source: { file, line: null }, error: `${file}: ${describeFsError(err)}` };
    }
  }
}

/**
 * Reads one session with the transcript loader (every recording format,
 * detected per session). Positions in a line's errors and locations are the
 * file's: line `source.line`, the column within it.
 */
export function readSession(
  input: Exclude<SessionInput, { kind: 'unreadable' }>,
  options: TranscriptOptions = {},
): Transcript {
  if (input.kind === 'file') return loadTranscriptFile(input.source.file, options);
  const at = input.source.line!;
  try {
    const doc = parseText(input.source.file, input.text, {
      syntax: 'json',
      ...(options.limits ? { limits: options.limits } : {}),
    });
    const t = readTranscriptDocument(doc, options);
    return { ...t, locations: t.locations.map((l) => ({ ...l, line: l.line + at - 1 })) };
  } catch (err) {
    if (err instanceof InputError && err.location && err.location.line > 0) {
      throw new InputError(err.message, { ...err.location, line: err.location.line + at - 1 });
    }
    throw err;
  }
}
