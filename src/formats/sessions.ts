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
 * message, item or event line always has a `role` or a `type`, a call
 * log's line a `request` (one model call; the call-log reader groups the
 * file's calls into sessions), and a LangGraph stream chunk is
 * `{<node>: {messages: [...]}}` (one step).
 * `sessions` / `recording` force the choice. Standard input is
 * always read as sessions, one per line.
 *
 * Lines are read in chunks; a line longer than the input size limit is
 * skipped as a failed session without being held, so memory is bounded by
 * the largest session, not by the file.
 */
import { createReadStream, readSync, openSync, closeSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { InputError } from '../io/errors.js';
import { globFiles, isGlob, walkFiles } from '../io/glob.js';
import { parseText } from '../io/parse.js';
import { describeFsError, type Limits, raiseLimit, resolveLimits } from '../io/read.js';
import { loadTranscriptFile, readTranscriptDocument, type TranscriptOptions } from './transcript.js';
import type { Transcript } from './types.js';
import { append } from '../core/append.js';

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
const RECORDING_FILE = /\.(json|jsonl|ndjson|har|yaml|yml)$/i;
const LINES_FILE = /\.(jsonl|ndjson)$/i;

/**
 * The files the arguments name, in order: a directory gives every `.json`,
 * `.jsonl`, `.ndjson`, `.har`, `.yaml` and `.yml` file below it (HAR files
 * and VCR cassettes are recordings too; sorted; dot directories and
 * `node_modules` skipped; symbolic links followed, see io/glob.ts), a glob its
 * matches (sorted). An existing path is itself, whatever its name holds
 * (`run[1].json` is that file, not a pattern). A glob matching nothing and a
 * directory without recordings are errors; `-` stays.
 */
export function expandSessionPaths(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (arg === '-') {
      out.push(arg);
      continue;
    }
    let st: ReturnType<typeof statSync> | null = null;
    try {
      st = statSync(arg);
    } catch {
      st = null;
    }
    if (st === null && isGlob(arg)) {
      const files = globFiles(arg);
      if (files.length === 0) throw new InputError(`no file matches the pattern ${JSON.stringify(arg)}`);
      append(out, files);
      continue;
    }
    if (!st?.isDirectory()) {
      out.push(arg);
      continue;
    }
    const files = walkFiles(arg, (rel) => RECORDING_FILE.test(rel));
    if (files.length === 0)
      throw new InputError(
        `no recordings (.json, .jsonl, .ndjson, .har, .yaml, .yml) in the directory ${JSON.stringify(arg)}`,
      );
    append(out, files);
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
  // A call log's line is one model call of a recording (its calls are grouped into sessions by continuity).
  if ('request' in value) return false;
  // A LangGraph stream chunk {<node>: {messages: [...]}} is one step of a recording.
  const parts = Object.values(value);
  if (parts.length > 0 && parts.every((v) => v === null || (typeof v === 'object' && 'messages' in v))) return false;
  return !('role' in value) && !('type' in value);
}

/**
 * The first non-blank line of a file (at most `max` bytes read), or null. Each byte is looked at once: a file
 * that is one long line (a minified session) is read in time linear in its size.
 */
function firstLine(path: string, max: number): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null; // the reader reports it
  }
  try {
    // The bytes of the current line so far, joined and decoded once it ends.
    let pieces: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(1 << 16);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      for (let from = 0; ; ) {
        const nl = chunk.indexOf(10, from);
        if (nl < 0 || nl >= n) {
          pieces.push(chunk.subarray(from, n));
          break;
        }
        pieces.push(chunk.subarray(from, nl));
        const line = Buffer.concat(pieces).toString('utf8');
        if (line.trim() !== '') return line;
        pieces = [];
        from = nl + 1;
      }
      if (total > max) return null;
    }
    const rest = Buffer.concat(pieces).toString('utf8');
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
 * Whole lines of a file of sessions, as read (their bytes, the number of the first): the unit a bulk replay
 * hands to a worker thread, which decodes the lines itself ({@link chunkLines}), so that the thread reading
 * the input does little more than find line ends. The bytes own their buffer (it can be transferred).
 */
export interface LineChunk {
  readonly kind: 'lines';
  readonly file: string;
  readonly firstLine: number;
  readonly bytes: Uint8Array;
}

/** A line longer than the limit: numbered, never held. */
export interface LongLine {
  readonly kind: 'too-long';
  readonly line: number;
}

/** The end of a stream that held no session: nothing but blank lines (empty input is an error, issue 27). */
export interface NoSession {
  readonly kind: 'no-session';
}

/** A blank line (not a session): spaces, tabs and a carriage return only; line 1 may start with a byte-order mark. */
export function isBlankLine(text: string, line: number): boolean {
  return (line === 1 ? /^\uFEFF?[\t\r ]*$/ : /^[\t\r ]*$/).test(text);
}

/** Whether `bytes[from, to)` holds anything but blanks (spaces, tabs, line ends; a UTF-8 byte-order mark at 0). */
function hasContent(bytes: Uint8Array, from: number, to: number, fileStart: boolean): boolean {
  let i = from;
  if (fileStart && bytes[i] === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) i += 3;
  for (; i < to; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) return true;
  }
  return false;
}

/** Bytes of whole lines per {@link LineChunk}, unless one line is longer. */
const CHUNK_BYTES = 1 << 16;

/**
 * The lines of a stream in chunks of whole lines (about 64 kB), in order; a line of more than `maxBytes`
 * bytes (its line feed not counted) is a {@link LongLine} of its own, and its bytes are dropped as they come.
 */
export async function* lineChunks(
  stream: Readable,
  maxBytes: number,
  file: string,
): AsyncGenerator<LineChunk | LongLine | NoSession> {
  let content = false; // a byte that is not blank was seen: there is a session (or a line that fails as one)
  let first = true;
  let pieces: Uint8Array[] = []; // the bytes of the chunk being made: whole lines, then the current line
  let pieceBytes = 0;
  let lineBytes = 0; // of the current line, so far
  let tooLong = false;
  let firstLine = 1; // of the chunk being made
  let line = 1; // the current line
  const take = (): LineChunk | null => {
    // Whole lines only: the current line's bytes, at the end of the pieces, stay for the next chunk.
    const whole = pieceBytes - lineBytes;
    if (whole === 0) return null;
    const bytes = new Uint8Array(whole);
    let at = 0;
    const rest: Uint8Array[] = [];
    for (const p of pieces) {
      const n = Math.min(p.length, whole - at);
      if (n > 0) bytes.set(n === p.length ? p : p.subarray(0, n), at);
      if (n < p.length) rest.push(p.subarray(n));
      at += n;
    }
    const chunk: LineChunk = { kind: 'lines', file, firstLine, bytes };
    pieces = rest;
    pieceBytes = lineBytes;
    firstLine = line;
    return chunk;
  };
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    if (!content && hasContent(buf, 0, buf.length, first)) content = true;
    first = false;
    let from = 0;
    for (;;) {
      const nl = buf.indexOf(10, from);
      const end = nl < 0 ? buf.length : nl;
      if (!tooLong) {
        lineBytes += end - from;
        if (lineBytes > maxBytes) {
          // Over the limit: what the chunk holds before this line goes first, then the line on its own.
          tooLong = true;
          pieceBytes -= lineBytes - (end - from);
          lineBytes = 0;
          const before = take();
          if (before) yield before;
          pieces = [];
          pieceBytes = 0;
        } else {
          const upTo = nl < 0 ? end : nl + 1;
          if (upTo > from) {
            pieces.push(buf.subarray(from, upTo));
            pieceBytes += upTo - from;
          }
        }
      }
      if (nl < 0) break;
      if (tooLong) {
        yield { kind: 'too-long', line };
        tooLong = false;
        firstLine = line + 1;
      } else lineBytes = 0;
      line++;
      from = nl + 1;
      if (pieceBytes >= CHUNK_BYTES) {
        const c = take();
        if (c) yield c;
      }
    }
  }
  if (tooLong) {
    yield { kind: 'too-long', line };
    return;
  }
  // The last line, without a line feed: whole too, now.
  lineBytes = 0;
  const last = take();
  if (last) yield last;
  if (!content) yield { kind: 'no-session' };
}

/** The non-blank lines of a chunk, decoded, with their numbers; a carriage return before the line feed dropped. */
export function* chunkLines(chunk: LineChunk): Generator<{ line: number; text: string }> {
  const bytes = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.length);
  let line = chunk.firstLine;
  for (let from = 0; from < bytes.length; line++) {
    const nl = bytes.indexOf(10, from);
    const end = nl < 0 ? bytes.length : nl;
    const text = bytes.toString('utf8', from, end);
    if (!isBlankLine(text, line)) yield { line, text: text.replace(/\r$/, '') };
    from = end + 1;
  }
}

/**
 * The lines of a stream, in order, with their 1-based numbers; blank lines
 * are skipped. A line over `maxBytes` is given as `null` text (never held).
 */
export async function* streamLines(
  stream: Readable,
  maxBytes: number,
): AsyncGenerator<{ line: number; text: string | null }> {
  for await (const c of lineChunks(stream, maxBytes, '')) {
    if (c.kind === 'too-long') yield { line: c.line, text: null };
    else if (c.kind === 'lines') yield* chunkLines(c);
  }
}

/** What a bulk replay reads: a session, or a chunk of lines of a file of sessions (each line one session). */
export type SessionItem = SessionInput | LineChunk;

/** The sessions of an item, in order. */
export function* itemSessions(item: SessionItem): Generator<SessionInput> {
  if (item.kind !== 'lines') {
    yield item;
    return;
  }
  for (const { line, text } of chunkLines(item)) {
    yield { kind: 'line', source: { file: item.file, line }, text: line === 1 ? text.replace(/^\uFEFF/, '') : text };
  }
}

/** A line too long for the limit: a session that fails. */
function longLine(file: string, line: number, maxBytes: number): SessionInput {
  const error = `${file}:${line}: session too large (limit ${maxBytes} bytes; ${raiseLimit('maxBytes')})`;
  return { kind: 'unreadable', source: { file, line }, error };
}

/**
 * Every session of the arguments, in input order, a file of sessions in chunks of lines. A file that cannot
 * be opened is a session to fail (the reader reports why), never the end of the stream.
 */
export async function* sessionItems(
  paths: readonly string[],
  options: { readonly jsonl: JsonlInputMode; readonly limits?: Partial<Limits>; readonly stdin?: Readable },
): AsyncGenerator<SessionItem> {
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
      for await (const c of lineChunks(stream, maxBytes, file)) {
        if (c.kind === 'too-long') yield longLine(file, c.line, maxBytes);
        else if (c.kind === 'no-session')
          // Empty input is an error: a failed session of its own, counted (exit 2), never 0 sessions and exit 0.
          yield {
            kind: 'unreadable',
            source: { file, line: null },
            error: `${file}: no session: ${path === '-' ? 'standard input is' : 'the file is'} empty`,
          };
        else yield c;
      }
    } catch (err) {
      yield { kind: 'unreadable', source: { file, line: null }, error: `${file}: ${describeFsError(err)}` };
    }
  }
}

/** Every session of the arguments, in input order, one by one ({@link sessionItems}, its chunks read). */
export async function* sessionInputs(
  paths: readonly string[],
  options: { readonly jsonl: JsonlInputMode; readonly limits?: Partial<Limits>; readonly stdin?: Readable },
): AsyncGenerator<SessionInput> {
  for await (const item of sessionItems(paths, options)) yield* itemSessions(item);
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
