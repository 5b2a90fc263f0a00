/**
 * Issue 27's rule "empty input is an error", for `search --batch` (found by the fuzzer's empty inputs,
 * test/fuzz/findings.mjs): a batch of no line — an empty file, empty stdin, a byte order mark alone — was
 * exit 0 with nothing on stdout, a silent success. Now `<file>: empty file`, exit 2, nothing on stdout, with
 * every engine. A line, even an empty one, is still answered (one JSON object per input line).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO, inproc, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-empty-batch-');
afterAll(() => tmp.cleanup());

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe('search --batch of no line is an error', () => {
  it.each([
    ['an empty file', Buffer.alloc(0)],
    ['a byte order mark alone', BOM],
  ])('%s: exit 2, "<file>: empty file", nothing on stdout', async (_label, bytes) => {
    const file = tmp.file(`q-${bytes.length}.jsonl`, bytes);
    const r = await inproc(['search', '-c', DEMO, '--batch', file]);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: ${file}: empty file\n` });
  });

  it.each([
    ['empty stdin', ''],
    ['a byte order mark alone on stdin', BOM],
  ])('%s: exit 2, "<stdin>: empty file"', async (_label, stdin) => {
    const r = await inproc(['search', '-c', DEMO, '--batch', '-'], { stdin });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'error: <stdin>: empty file\n' });
  });

  it('with another engine too', async () => {
    const r = await inproc(['search', '-c', DEMO, '--engine', 'ai-sdk', '--batch', '-'], { stdin: BOM });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'error: <stdin>: empty file\n' });
  });

  it('a line, even an empty one, is answered: exit 0', async () => {
    const r = await inproc(['search', '-c', DEMO, '--batch', '-'], { stdin: '\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '{"schema_version":1,"error":"failed to unmarshal tool search arguments: unexpected end of JSON input"}\n',
    );
  });
});
