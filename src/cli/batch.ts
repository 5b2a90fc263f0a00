/**
 * `search --batch`: JSONL in, exactly one JSON object per input line out, in
 * order. Each line is raw `tool_search` arguments (bytes, decoded with the
 * reference's rules, so invalid UTF-8 behaves as in Go). A line that fails
 * gives `{"error": "..."}` and the batch goes on; an empty line is an
 * error line too (Go: "unexpected end of JSON input"), which keeps the
 * output aligned with the input. A final newline does not start a line.
 * Output is written once per input chunk.
 */
import type { ToolIndex } from '../core/scorer.js';
import { runToolSearch } from '../core/toolsearch.js';

function answer(index: ToolIndex, line: Uint8Array): string {
  const r = runToolSearch(index, line);
  return r.ok ? JSON.stringify({ matches: r.matches }) : JSON.stringify({ error: r.error });
}

/** Runs every line of `input` against `index`; returns the number of lines. */
export async function runBatch(index: ToolIndex, input: AsyncIterable<Buffer | string>, write: (s: string) => void): Promise<number> {
  let pending: Buffer = Buffer.alloc(0);
  let count = 0;
  for await (const raw of input) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    const buf = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    const out: string[] = [];
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
      out.push(answer(index, buf.subarray(start, nl)));
      start = nl + 1;
    }
    pending = Buffer.from(buf.subarray(start));
    count += out.length;
    if (out.length > 0) write(`${out.join('\n')}\n`);
  }
  if (pending.length > 0) {
    write(`${answer(index, pending)}\n`);
    count++;
  }
  return count;
}
