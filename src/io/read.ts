/**
 * Reading an input file: bounded in size, decoded as UTF-8, never written.
 *
 * Every problem is an `InputError` located at the file (and, for invalid
 * UTF-8, at the first bad byte), so the CLI can print one line and exit 2.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InputError } from './errors.js';
import { excerptAt, LineIndex } from './position.js';

/** Bounds every loader enforces, so hostile input cannot exhaust time or memory. */
export interface Limits {
  /** Largest file read, in bytes (default 64 MiB). */
  readonly maxBytes: number;
  /** Deepest nesting of arrays and objects (default 1000 levels). */
  readonly maxDepth: number;
  /** Most YAML alias dereferences, counting aliases met again inside expanded aliases (default 1000). */
  readonly maxAliases: number;
  /**
   * Most bytes of text (strings and keys, UTF-8) that YAML aliases may add to a document by expansion (default 64 MiB).
   */
  readonly maxAliasBytes: number;
  /** Most messages (or items) in one transcript (default 100,000). */
  readonly maxMessages: number;
  /** Most values YAML aliases may add to a document by expansion (default 1,000,000). */
  readonly maxAliasValues: number;
  /** Largest MCP message: a stdio line, an HTTP answer or event (default 10 MiB, as the SDK's stdio transport). */
  readonly maxMcpMessageBytes: number;
  /** Most pages of one MCP server's tools/list (default 10,000). */
  readonly maxMcpPages: number;
  /**
   * Largest list of tool names one replay's report holds: every model call's visible, deferred and added tools,
   * summed over the calls, each name counted as its UTF-8 bytes plus 8 (its place in a list). Default 64 MiB. A
   * report grows as calls × tools, which no input bound limits (issue 27, finding 3).
   */
  readonly maxReportBytes: number;
}

/** The default {@link Limits}. */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxBytes: 64 * 1024 * 1024,
  maxDepth: 1000,
  maxAliases: 1000,
  maxAliasBytes: 64 * 1024 * 1024,
  maxMessages: 100_000,
  maxAliasValues: 1_000_000,
  maxMcpMessageBytes: 10 * 1024 * 1024,
  maxMcpPages: 10_000,
  maxReportBytes: 64 * 1024 * 1024,
});

/** The environment variable that sets each limit in the CLI (src/cli/limits.ts reads them). */
export const LIMIT_VARIABLES: Readonly<Record<keyof Limits, string>> = Object.freeze({
  maxBytes: 'TOOLSEARCH_MAX_BYTES',
  maxDepth: 'TOOLSEARCH_MAX_DEPTH',
  maxAliases: 'TOOLSEARCH_MAX_ALIASES',
  maxAliasBytes: 'TOOLSEARCH_MAX_ALIAS_BYTES',
  maxMessages: 'TOOLSEARCH_MAX_MESSAGES',
  maxAliasValues: 'TOOLSEARCH_MAX_ALIAS_VALUES',
  maxMcpMessageBytes: 'TOOLSEARCH_MAX_MCP_MESSAGE_BYTES',
  maxMcpPages: 'TOOLSEARCH_MAX_MCP_PAGES',
  maxReportBytes: 'TOOLSEARCH_MAX_REPORT_BYTES',
});

/**
 * The end of every size-limit error: which variable raises the limit
 * (`set TOOLSEARCH_MAX_BYTES to raise the limit`).
 */
export function raiseLimit(limit: keyof Limits): string {
  return `set ${LIMIT_VARIABLES[limit]} to raise the limit`;
}

/** Fills the unset fields of `limits` with the defaults (the CLI passes those of `TOOLSEARCH_MAX_*`). */
export function resolveLimits(limits?: Partial<Limits>): Limits {
  return { ...DEFAULT_LIMITS, ...stripUndefined(limits ?? {}) };
}

function stripUndefined(o: Partial<Limits>): Partial<Limits> {
  const out: { -readonly [K in keyof Limits]?: number } = {};
  for (const k of Object.keys(o) as (keyof Limits)[]) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** The argument that means standard input, wherever a file is read. */
export const STDIN_ARG = '-';
/** How standard input is named in locations. */
export const STDIN_NAME = '<stdin>';

/** The name a path is shown as: `<stdin>` for `-`. */
export function inputName(path: string): string {
  return path === STDIN_ARG ? STDIN_NAME : path;
}

/** A file as read: its bytes and its text (UTF-8, without a leading byte-order mark). */
export interface InputFile {
  /** The path as the caller gave it (used in every location). */
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly text: string;
}

function fileError(path: string, message: string): InputError {
  // Line 0: the headline is `file: message` (no position inside the file).
  return new InputError(message, { file: path, line: 0, column: 0 });
}

/** A file-system error as one short phrase users understand (`no such file`, `is a directory, not a file`, …). */
export function describeFsError(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'cannot read file: permission denied';
    case 'EISDIR':
      return 'is a directory, not a file';
    case 'ENOTDIR':
      return 'no such file (a part of the path is not a directory)';
    case 'ELOOP':
      return 'cannot read file: too many symbolic links';
    case 'ENAMETOOLONG':
      return 'cannot read file: name too long';
    default:
      return `cannot read file${typeof code === 'string' ? `: ${code}` : ''}`;
  }
}

/**
 * Reads `path` (at most `limits.maxBytes` bytes) and decodes it as UTF-8.
 *
 * Errors (all `InputError`, headline `path: message` unless a position exists):
 * `no such file`, `cannot read file: permission denied`, `is a directory, not a file`,
 * `empty file`, `file too large: N bytes (limit M; set TOOLSEARCH_MAX_BYTES to raise the limit)`, and
 * `invalid UTF-8: byte 0xNN` at the line and column of the first bad byte,
 * `UTF-16 is not supported; save as UTF-8 (…)` for a UTF-16 or UTF-32 byte-order mark.
 * A UTF-8 byte-order mark at the start is skipped; CRLF line ends are kept as they are.
 */
export function readInputFile(given: string, limits?: Partial<Limits>): InputFile {
  const { maxBytes } = resolveLimits(limits);
  // `-` is standard input, named `<stdin>` in every location.
  const stdin = given === STDIN_ARG;
  const path = stdin ? STDIN_NAME : given;
  let fd: number;
  try {
    fd = stdin ? 0 : openSync(path, 'r');
  } catch (err) {
    throw fileError(path, describeFsError(err));
  }
  let bytes: Uint8Array;
  try {
    let size: number;
    try {
      const st = fstatSync(fd);
      if (st.isDirectory()) throw fileError(path, 'is a directory, not a file');
      size = st.isFile() ? st.size : -1;
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw fileError(path, describeFsError(err));
    }
    if (size > maxBytes)
      throw fileError(path, `file too large: ${size} bytes (limit ${maxBytes}; ${raiseLimit('maxBytes')})`);
    bytes = readBounded(path, fd, maxBytes, size);
  } finally {
    if (!stdin) closeSync(fd);
  }
  return { path, bytes, text: decodeUtf8(path, bytes) };
}

/** Reads the whole descriptor, failing once more than `maxBytes` arrive (pipes and devices report no size). */
function readBounded(path: string, fd: number, maxBytes: number, sizeHint: number): Uint8Array {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunkSize = sizeHint >= 0 ? Math.min(Math.max(sizeHint, 1), maxBytes) + 1 : 1 << 16;
  for (;;) {
    const buf = Buffer.allocUnsafe(chunkSize);
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (err) {
      if ((err as { code?: unknown }).code === 'EAGAIN') continue;
      throw fileError(path, describeFsError(err));
    }
    if (n === 0) break;
    total += n;
    if (total > maxBytes) {
      throw fileError(
        path,
        `file too large: more than ${maxBytes} bytes (limit ${maxBytes}; ${raiseLimit('maxBytes')})`,
      );
    }
    chunks.push(buf.subarray(0, n));
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The encoding a byte-order mark at the start of `b` names, when it is one we do not read: UTF-32's
 * marks first (UTF-32 LE's starts with UTF-16 LE's).
 */
function foreignBom(b: Uint8Array): string | null {
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) return 'UTF-32 little-endian';
  if (b.length >= 4 && b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) return 'UTF-32 big-endian';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'UTF-16 little-endian';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'UTF-16 big-endian';
  return null;
}

/**
 * Decodes UTF-8, skipping a leading byte-order mark; invalid bytes are an error at their position.
 * A file that starts with a UTF-16 or UTF-32 byte-order mark (Windows editors and PowerShell's `>`
 * write UTF-16) is an error that says so, rather than `invalid UTF-8: byte 0xff`.
 */
export function decodeUtf8(path: string, bytes: Uint8Array): string {
  const foreign = foreignBom(bytes);
  if (foreign !== null) {
    const family = foreign.slice(0, 6);
    throw fileError(
      path,
      `${family} is not supported; save as UTF-8 (the file starts with a ${foreign} byte-order mark)`,
    );
  }
  let start = 0;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  const body = start === 0 ? bytes : bytes.subarray(start);
  let text: string;
  try {
    text = fatalDecoder.decode(body);
  } catch {
    throw invalidUtf8Error(path, body);
  }
  if (/^[\t\n\r ]*$/.test(text)) throw fileError(path, 'empty file');
  return text;
}

/** Length of the valid UTF-8 sequence at `i`, or 0 when the byte at `i` starts no valid sequence. */
function utf8SequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0; // no surrogates
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

function invalidUtf8Error(path: string, b: Uint8Array): InputError {
  let i = 0;
  while (i < b.length) {
    const n = utf8SequenceLength(b, i);
    if (n === 0) break;
    i += n;
  }
  // The text before the bad byte is valid, so positions can be computed on it.
  const before = new TextDecoder('utf-8').decode(b.subarray(0, i));
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  let lineEnd = i;
  while (lineEnd < b.length && b[lineEnd] !== 0x0a && b[lineEnd] !== 0x0d) lineEnd++;
  // The line shown decodes the bad bytes to U+FFFD, so the caret points at the first of them.
  const lineText = before.slice(lineStart) + new TextDecoder('utf-8').decode(b.subarray(i, lineEnd));
  const index = new LineIndex(before);
  const { line, column } = index.position(before.length);
  const byte = b[i]!.toString(16).padStart(2, '0');
  return new InputError(
    `invalid UTF-8: byte 0x${byte}`,
    { file: path, line, column },
    excerptAt(lineText, before.length - lineStart),
  );
}
