/**
 * Bytes that recordings keep as text, back to text: base64 (VCR's
 * `!!binary`, HAR's `encoding: "base64"`), hex (nock's binary responses),
 * an HTTP `Content-Encoding` undone (gzip, deflate, br, and zstd where Node
 * has it), then UTF-8. Every step is bounded (`maxBytes` of output in all)
 * and says why it failed instead of guessing.
 */
import * as zlib from 'node:zlib';
import { raiseLimit } from './read.js';

/** A decoding step's result. */
export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

const fail = <T>(error: string): Decoded<T> => ({ ok: false, error });
const ok = <T>(value: T): Decoded<T> => ({ ok: true, value });

/** Base64 (standard or URL alphabet, padding optional, white space between characters ignored). */
export function fromBase64(text: string): Decoded<Uint8Array> {
  const compact = text.replace(/[\t\n\r ]+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.replace(/=+$/, '').length % 4 === 1)
    return fail('not base64 text');
  return ok(
    new Uint8Array(Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64')),
  );
}

/** Hex digits, two per byte. */
export function fromHex(text: string): Decoded<Uint8Array> {
  if (text.length % 2 !== 0 || !/^[0-9A-Fa-f]*$/.test(text)) return fail('not hex text');
  return ok(new Uint8Array(Buffer.from(text, 'hex')));
}

/** UTF-8 text (a byte order mark dropped); invalid UTF-8 is an error, never replaced. */
export function utf8(bytes: Uint8Array): Decoded<string> {
  try {
    return ok(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    return fail('not UTF-8 text');
  }
}

type Sync = (buf: Uint8Array, options: zlib.ZlibOptions & zlib.BrotliOptions) => Buffer;

/** zstd came to node:zlib in Node 22.15 (and 20.? not at all). */
function zstd(): Sync | null {
  const f = (zlib as unknown as { zstdDecompressSync?: Sync }).zstdDecompressSync;
  return typeof f === 'function' ? f : null;
}

function decodeOne(bytes: Uint8Array, coding: string, maxBytes: number): Decoded<Uint8Array> {
  const options = { maxOutputLength: maxBytes };
  const run = (f: Sync): Decoded<Uint8Array> => {
    try {
      return ok(new Uint8Array(f(bytes, options)));
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
        return fail(`${coding} body larger than ${maxBytes} bytes when decoded (${raiseLimit('maxBytes')})`);
      return fail(`not ${coding} data (${(err as Error).message})`);
    }
  };
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return run(zlib.gunzipSync);
    case 'deflate': {
      // HTTP's deflate is zlib-wrapped; some servers send raw deflate.
      const wrapped = run(zlib.inflateSync);
      return wrapped.ok ? wrapped : run(zlib.inflateRawSync);
    }
    case 'br':
      return run(zlib.brotliDecompressSync);
    case 'zstd': {
      const f = zstd();
      return f ? run(f) : fail(`zstd needs Node 22.15 or later (this is Node ${process.versions.node})`);
    }
    case 'identity':
    case '':
      return ok(bytes);
    default:
      return fail(`unknown content encoding ${JSON.stringify(coding)}`);
  }
}

/**
 * Undoes a `Content-Encoding` header's codings (`gzip`, `br`, `gzip, br`: applied in order, so undone from
 * the last), keeping the output within `maxBytes`.
 */
export function undoContentEncoding(bytes: Uint8Array, header: string, maxBytes: number): Decoded<Uint8Array> {
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '');
  let out = bytes;
  for (let i = codings.length - 1; i >= 0; i--) {
    const r = decodeOne(out, codings[i]!, maxBytes);
    if (!r.ok) return r;
    out = r.value;
  }
  return ok(out);
}

/** Whether bytes start as gzip data does (its magic number), to tell recorded compressed bytes from decoded ones. */
export function looksGzipped(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}
