/** Bytes that recordings keep as text (io/decode.ts): base64, hex, content encodings, UTF-8, all bounded. */
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fromBase64, fromHex, looksGzipped, undoContentEncoding, utf8 } from '../../src/io/decode.js';

const text = '{"model":"m","messages":[]}';
const bytes = new Uint8Array(Buffer.from(text));
const back = (r: ReturnType<typeof undoContentEncoding>) => (r.ok ? Buffer.from(r.value).toString() : r.error);

describe('decoding recorded bytes', () => {
  it('content encodings, chained ones undone from the last', () => {
    expect(back(undoContentEncoding(zlib.gzipSync(bytes), 'gzip', 1e6))).toBe(text);
    expect(back(undoContentEncoding(zlib.deflateSync(bytes), 'deflate', 1e6))).toBe(text);
    expect(back(undoContentEncoding(zlib.deflateRawSync(bytes), 'deflate', 1e6))).toBe(text);
    expect(back(undoContentEncoding(zlib.brotliCompressSync(bytes), 'br', 1e6))).toBe(text);
    expect(back(undoContentEncoding(zlib.brotliCompressSync(zlib.gzipSync(bytes)), 'gzip, br', 1e6))).toBe(text);
    expect(back(undoContentEncoding(bytes, 'identity', 1e6))).toBe(text);
  });

  it('says why it cannot: unknown coding, bad data, too large', () => {
    expect(back(undoContentEncoding(bytes, 'compress', 1e6))).toBe('unknown content encoding "compress"');
    expect(back(undoContentEncoding(bytes, 'gzip', 1e6))).toMatch(/^not gzip data \(/);
    expect(back(undoContentEncoding(zlib.gzipSync(Buffer.alloc(5000)), 'gzip', 100))).toBe(
      'gzip body larger than 100 bytes when decoded (set TOOLSEARCH_MAX_BYTES to raise the limit)',
    );
    expect(looksGzipped(zlib.gzipSync(bytes))).toBe(true);
    expect(looksGzipped(bytes)).toBe(false);
  });

  it('base64 (with line breaks, URL alphabet), hex and UTF-8, each refused when it is not', () => {
    const b64 = Buffer.from(text).toString('base64');
    const ok = (r: { ok: boolean; value?: Uint8Array }) => (r.ok ? Buffer.from(r.value!).toString() : null);
    expect(ok(fromBase64(`${b64.slice(0, 10)}\n  ${b64.slice(10)}`))).toBe(text);
    expect(ok(fromBase64(Buffer.from([251, 255]).toString('base64url')))).toBe(Buffer.from([251, 255]).toString());
    expect(fromBase64('not base64!')).toEqual({ ok: false, error: 'not base64 text' });
    expect(ok(fromHex(Buffer.from(text).toString('hex')))).toBe(text);
    expect(fromHex('abc')).toEqual({ ok: false, error: 'not hex text' });
    expect(utf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]))).toEqual({ ok: true, value: 'hi' });
    expect(utf8(new Uint8Array([0xff]))).toEqual({ ok: false, error: 'not UTF-8 text' });
  });
});
