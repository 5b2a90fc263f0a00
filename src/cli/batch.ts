/**
 * `search --batch`: JSONL in, exactly one JSON object per input line out, in
 * order. Each line is raw `tool_search` arguments (bytes, decoded with the
 * reference's rules, so invalid UTF-8 behaves as in Go). A line that fails
 * gives `{"error": "..."}` and the batch goes on; an empty line is an
 * error line too (Go: "unexpected end of JSON input"), which keeps the
 * output aligned with the input. A final newline does not start a line.
 * Output is written once per input chunk. A line longer than the file size
 * limit is answered with an error object. One UTF-8 byte order mark at the
 * start of the stream is dropped, as every loader drops it (a BOM further
 * on is line content).
 */
import type { ToolIndex } from '../core/index/tool-index.js';
import { runToolSearch } from '../core/toolsearch.js';
import { InputError } from '../io/errors.js';
import { raiseLimit, resolveLimits } from '../io/read.js';
import { safeJson } from '../io/json-out.js';
import { JSON_SCHEMA_VERSION } from '../io/schema-version.js';

function answer(index: ToolIndex, line: Uint8Array): string {
  const r = runToolSearch(index, line);
  // safeJson: a tool name's C1 or bidi controls as \u escapes, like every JSON output of the CLI.
  return r.ok
    ? safeJson({ schema_version: JSON_SCHEMA_VERSION, matches: r.matches })
    : safeJson({ schema_version: JSON_SCHEMA_VERSION, error: r.error });
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The chunks of `input` as bytes, without a UTF-8 BOM at the very start (it may arrive split over chunks). */
async function* bytesWithoutBom(input: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  // The first bytes, held until they are known to start with a BOM or not; null once known.
  let head: Buffer | null = Buffer.alloc(0);
  for await (const raw of input) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    if (head === null) {
      yield chunk;
      continue;
    }
    head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
    if (head.length < BOM.length && head.equals(BOM.subarray(0, head.length))) continue;
    const rest: Buffer = head.subarray(0, BOM.length).equals(BOM) ? head.subarray(BOM.length) : head;
    head = null;
    if (rest.length > 0) yield rest;
  }
  // A stream shorter than a BOM that starts like one: its bytes as they are.
  if (head !== null && head.length > 0) yield head;
}

/**
 * A batch of no line (an empty file, empty stdin, a byte order mark alone) is an error, never a silent
 * success (issue 27: empty input is an error): `<file>: empty file`, exit 2.
 */
export function requireBatchLines(count: number, file: string): void {
  if (count === 0) throw new InputError('empty file', { file: file === '-' ? '<stdin>' : file, line: 0, column: 0 });
}

/** Runs every line of `input` against `index`; returns the number of lines. */
export function runBatch(
  index: ToolIndex,
  input: AsyncIterable<Buffer | string>,
  write: (s: string) => void,
  maxLineBytes: number = resolveLimits().maxBytes,
): Promise<number> {
  return runBatchWith((line) => answer(index, line), input, write, maxLineBytes);
}

/**
 * Answers every line of `input` with `answer` (one JSON object per line, in order); returns the number of
 * lines. An answer may be a promise (a module engine answers from its worker); a plain string is used at once.
 */
export async function runBatchWith(
  answer: (line: Buffer) => string | Promise<string>,
  input: AsyncIterable<Buffer | string>,
  write: (s: string) => void,
  // The longest line read: the file size limit of the loaders (64 MiB unless configured). A longer
  // line gets {"error": "line too long: …"} and the batch goes on: a stream without line breaks
  // cannot exhaust memory.
  maxLineBytes: number = resolveLimits().maxBytes,
): Promise<number> {
  const tooLong = JSON.stringify({
    schema_version: JSON_SCHEMA_VERSION,
    error: `line too long: more than ${maxLineBytes} bytes (${raiseLimit('maxBytes')})`,
  });
  // The current line's bytes so far, joined once when it ends (joining on every chunk would be quadratic).
  let parts: Buffer[] = [];
  let partBytes = 0;
  // The current line is over the limit: its error is written, its remaining bytes are dropped.
  let skipping = false;
  let count = 0;
  for await (const chunk of bytesWithoutBom(input)) {
    const out: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      if (!skipping) {
        const piece = chunk.subarray(start, nl);
        const line = partBytes === 0 ? piece : Buffer.concat([...parts, piece]);
        if (line.length > maxLineBytes) out.push(tooLong);
        else {
          const a = answer(line);
          out.push(typeof a === 'string' ? a : await a);
        }
        count++;
      }
      parts = [];
      partBytes = 0;
      skipping = false;
      start = nl + 1;
    }
    if (start < chunk.length && !skipping) {
      parts.push(Buffer.from(chunk.subarray(start)));
      partBytes += chunk.length - start;
      if (partBytes > maxLineBytes) {
        out.push(tooLong);
        count++;
        skipping = true;
        parts = [];
        partBytes = 0;
      }
    }
    if (out.length > 0) write(`${out.join('\n')}\n`);
  }
  if (partBytes > 0) {
    write(`${await answer(Buffer.concat(parts))}\n`);
    count++;
  }
  return count;
}
