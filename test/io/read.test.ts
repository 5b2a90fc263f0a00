import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, readInputFile } from '../../src/io/read.js';
import { inputError, Scratch } from '../formats/helpers.js';

const scratch = new Scratch();
afterAll(() => scratch.remove());

describe('readInputFile', () => {
  it('reads UTF-8 text and keeps CRLF line ends', () => {
    const p = scratch.write('crlf.txt', 'a: 1\r\nb: é\r\n');
    const f = readInputFile(p);
    expect(f.text).toBe('a: 1\r\nb: é\r\n');
    expect(f.path).toBe(p);
    expect(f.bytes.length).toBe(13);
  });

  it('skips a UTF-8 byte-order mark', () => {
    const p = scratch.write('bom.json', new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x5d]));
    expect(readInputFile(p).text).toBe('[]');
  });

  it('a missing file', () => {
    const p = `${scratch.dir}/nope.json`;
    const e = inputError(() => readInputFile(p));
    expect(e.message).toBe('no such file');
    expect(e.headline).toBe(`${p}: no such file`);
    expect(e.location).toEqual({ file: p, line: 0, column: 0 });
    expect(e.excerpt).toBeUndefined();
  });

  it('a directory', () => {
    const e = inputError(() => readInputFile(scratch.dir));
    expect(e.headline).toBe(`${scratch.dir}: is a directory, not a file`);
  });

  it('an empty file, and one holding only white space or a byte-order mark', () => {
    expect(inputError(() => readInputFile(scratch.write('empty.json', ''))).message).toBe('empty file');
    expect(inputError(() => readInputFile(scratch.write('ws.yaml', ' \n\t\r\n'))).message).toBe('empty file');
    const bomOnly = scratch.write('bom-only.json', new Uint8Array([0xef, 0xbb, 0xbf]));
    expect(inputError(() => readInputFile(bomOnly)).headline).toBe(`${bomOnly}: empty file`);
  });

  it('a file larger than the limit', () => {
    const p = scratch.write('big.json', '[' + ' '.repeat(100) + ']');
    const e = inputError(() => readInputFile(p, { maxBytes: 64 }));
    expect(e.headline).toBe(`${p}: file too large: 102 bytes (limit 64; set TOOLSEARCH_MAX_BYTES to raise the limit)`);
    expect(readInputFile(p, { maxBytes: 102 }).text.length).toBe(102);
  });

  it('invalid UTF-8 is located at the first bad byte', () => {
    const bytes = Buffer.concat([
      Buffer.from('[\n  {"name": "ok"},\n  {"name": "caf'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}\n]\n'),
    ]);
    const p = scratch.write('bad-utf8.json', bytes);
    const e = inputError(() => readInputFile(p));
    expect(e.headline).toBe(`${p}:3:16: invalid UTF-8: byte 0xc3`);
    expect(e.excerpt).toBe('  {"name": "caf\uFFFD("}\n               ^');
  });

  it('invalid UTF-8: a surrogate encoded in UTF-8, after multi-byte characters', () => {
    const bytes = Buffer.concat([Buffer.from('x: "日本'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"\n')]);
    const p = scratch.write('surrogate.yaml', bytes);
    const e = inputError(() => readInputFile(p));
    // Columns count characters: `x: "日本` is 6 characters, so the bad byte is column 7.
    expect(e.headline).toBe(`${p}:1:7: invalid UTF-8: byte 0xed`);
  });

  it('default limits', () => {
    expect(DEFAULT_LIMITS).toEqual({
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
  });
});
