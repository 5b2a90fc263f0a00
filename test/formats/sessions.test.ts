import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/io/errors.js';
import {
  expandSessionPaths,
  isSessionLine,
  readSession,
  lineChunks,
  readsAsSessions,
  sessionInputs,
  streamLines,
} from '../../src/formats/sessions.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-sessions-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const p = join(tmp, name);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
};

const session = JSON.stringify([
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: 'hello' },
]);

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('session paths', () => {
  it('directories are walked (recordings only, sorted, dot directories skipped), globs expanded, - kept', () => {
    write('d/b.json', session);
    write('d/a/c.jsonl', session);
    write('d/notes.md', 'x');
    write('d/.hidden/x.json', session);
    write('d/z.ndjson', session);
    const d = join(tmp, 'd');
    expect(expandSessionPaths([d, '-'])).toEqual([join(d, 'a/c.jsonl'), join(d, 'b.json'), join(d, 'z.ndjson'), '-']);
    expect(expandSessionPaths([`${d}/*.json`])).toEqual([join(d, 'b.json')]);
  });

  it('a glob matching nothing and a directory without recordings are errors', () => {
    write('empty/readme.txt', 'x');
    expect(() => expandSessionPaths([join(tmp, 'nothing-*.json')])).toThrow(/no file matches the pattern/);
    expect(() => expandSessionPaths([join(tmp, 'empty')])).toThrow(
      /no recordings \(\.json, \.jsonl, \.ndjson, \.har, \.yaml, \.yml\) in the directory/,
    );
  });
});

describe('JSONL: sessions or one recording', () => {
  it('a line is a session when it is an array or a request body', () => {
    expect(isSessionLine(session)).toBe(true);
    expect(isSessionLine('{"model":"m","messages":[]}')).toBe(true);
    expect(isSessionLine('{"input":"hi"}')).toBe(true);
    expect(isSessionLine('{"role":"user","content":"hi"}')).toBe(false);
    expect(isSessionLine('{"type":"function_call","call_id":"c"}')).toBe(false);
    expect(isSessionLine('[1, 2')).toBe(false);
    // A document of another shape (a trace, say) is a session; an event line has a type.
    expect(isSessionLine('{"resourceSpans":[]}')).toBe(true);
    expect(isSessionLine('{"type":"user","message":{"role":"user","content":"hi"},"sessionId":"s"}')).toBe(false);
    expect(isSessionLine('"text"')).toBe(false);
    // A LangGraph stream(updates) chunk is one step of a recording, a node that returned nothing null.
    expect(isSessionLine('{"agent":{"messages":[]}}')).toBe(false);
    expect(isSessionLine('{"tools":{"messages":[]},"other":null}')).toBe(false);
    expect(isSessionLine('{"agent":{"summary":"x"}}')).toBe(true);
  });

  it('auto decides by the first non-blank line; sessions/recording force it; .json files are never split', () => {
    const sessions = write('s.jsonl', `\n\n${session}\n${session}\n`);
    const messages = write('m.jsonl', '{"role":"user","content":"hi"}\n{"role":"assistant","content":"x"}\n');
    const json = write('one.json', session);
    expect(readsAsSessions(sessions, 'auto')).toBe(true);
    expect(readsAsSessions(messages, 'auto')).toBe(false);
    expect(readsAsSessions(messages, 'sessions')).toBe(true);
    expect(readsAsSessions(sessions, 'recording')).toBe(false);
    expect(readsAsSessions(json, 'sessions')).toBe(false);
    expect(readsAsSessions('-', 'recording')).toBe(true);
  });
});

describe('streamLines', () => {
  const chunks = (...parts: Array<string | Buffer>) =>
    Readable.from(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

  it('numbers lines across chunks, skips blank ones, drops a CR before LF, keeps a last line without LF', async () => {
    const lines = await collect(streamLines(chunks('ab', 'c\r\n\n  \nd', 'e\nf'), 100));
    expect(lines).toEqual([
      { line: 1, text: 'abc' },
      { line: 4, text: 'de' },
      { line: 5, text: 'f' },
    ]);
  });

  it('a multi-byte character split between chunks is decoded whole', async () => {
    const bytes = Buffer.from('İstanbul\n検索\n');
    const lines = await collect(
      streamLines(chunks(bytes.subarray(0, 1), bytes.subarray(1, 11), bytes.subarray(11)), 100),
    );
    expect(lines.map((l) => l.text)).toEqual(['İstanbul', '検索']);
  });

  it('a line after one over the limit that ended inside a multi-byte character starts clean', async () => {
    const parts = [Buffer.from([0x61, 0x61, 0xc3]), Buffer.from([0xa9, 0x0a, 0x62, 0x0a])];
    expect(await collect(streamLines(Readable.from(parts), 3))).toEqual([
      { line: 1, text: null },
      { line: 2, text: 'b' },
    ]);
  });

  it('a line over the limit is given as null and never held; the next line reads normally', async () => {
    const lines = await collect(streamLines(chunks('x'.repeat(30), 'y'.repeat(30), '\nok\n'), 50));
    expect(lines).toEqual([
      { line: 1, text: null },
      { line: 2, text: 'ok' },
    ]);
  });
});

/**
 * The model: the lines of a stream as the first reader read them, piece by piece into one string decoder that is
 * flushed at every line feed (what streamLines did before it read in chunks of whole lines), blank lines left out.
 */
async function* modelLines(stream: Readable, maxBytes: number): AsyncGenerator<{ line: number; text: string | null }> {
  const decoder = new StringDecoder('utf8');
  let pending: string[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let line = 1;
  const finish = function* (): Generator<{ line: number; text: string | null }> {
    const text = tooLong ? null : pending.join('');
    // Blank: spaces, tabs and carriage returns only (line 1 may start with a byte-order mark); anything else, even
    // another white space character, is a line to read (issue 27: never a silent skip).
    const blank = text !== null && (line === 1 ? /^\uFEFF?[\t\r ]*$/ : /^[\t\r ]*$/).test(text);
    if (!blank) yield { line, text: text?.replace(/\r$/, '') ?? null };
    pending = [];
    pendingBytes = 0;
    tooLong = false;
    line++;
  };
  for await (const chunk of stream) {
    const buf = chunk as Buffer;
    let from = 0;
    for (;;) {
      const nl = buf.indexOf(10, from);
      const end = nl < 0 ? buf.length : nl;
      if (!tooLong) {
        pendingBytes += end - from;
        if (pendingBytes > maxBytes) {
          tooLong = true;
          pending = [];
          // What the decoder holds of the dropped line goes with it. (The first reader kept it: a line after a
          // line too long that ended inside a multi-byte character began with a stray U+FFFD.)
          decoder.end();
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

describe('streamLines against the model', () => {
  const byte = fc.oneof(
    fc.constantFrom(0x0a, 0x0a, 0x0d, 0x20, 0x09, 0x61, 0x62, 0x7b, 0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0xe6, 0xa4, 0x9c),
    fc.integer({ min: 0, max: 255 }),
  );
  it('the same lines, numbers and nulls for any bytes, any chunking and any limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(fc.array(byte, { maxLength: 200 }), fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 12 })),
        fc.integer({ min: 0, max: 50 }),
        async ([bytes, cuts], maxBytes) => {
          const data = Buffer.from(bytes);
          const parts: Buffer[] = [];
          let at = 0;
          for (const c of cuts) {
            if (at >= data.length) break;
            parts.push(data.subarray(at, at + c));
            at += c;
          }
          if (at < data.length) parts.push(data.subarray(at));
          const got = await collect(streamLines(Readable.from(parts), maxBytes));
          const want = await collect(modelLines(Readable.from(parts), maxBytes));
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('chunks hold whole lines, own their bytes, and are about 64 kB', async () => {
    const line = `${'x'.repeat(999)}\n`;
    const chunks = await collect(lineChunks(Readable.from([Buffer.from(line.repeat(200))]), 10_000, 'f.jsonl'));
    expect(chunks.map((c) => (c.kind === 'lines' ? [c.firstLine, c.bytes.length] : c))).toEqual([
      [1, 66_000],
      [67, 66_000],
      [133, 66_000],
      [199, 2000],
    ]);
    for (const c of chunks)
      if (c.kind === 'lines') expect(c.bytes.byteOffset === 0 && c.bytes.buffer.byteLength).toBe(c.bytes.length);
  });
});

describe('sessionInputs and readSession', () => {
  it('gives whole files and lines in input order; errors of a line point at the line of the file', async () => {
    const file = write('mix.jsonl', `${session}\n[{"role":"wizard","content":"x"}]\n`);
    const one = write('one2.json', session);
    const inputs = await collect(sessionInputs([one, file], { jsonl: 'auto' }));
    expect(inputs.map((i) => [i.kind, i.source])).toEqual([
      ['file', { file: one, line: null }],
      ['line', { file, line: 1 }],
      ['line', { file, line: 2 }],
    ]);
    const t = readSession(inputs[1] as Extract<(typeof inputs)[number], { kind: 'line' }>);
    expect(t.messages.length).toBe(2);
    expect(t.locations.map((l) => l.line)).toEqual([1, 1]);
    let err: unknown;
    try {
      readSession(inputs[2] as Extract<(typeof inputs)[number], { kind: 'line' }>);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).headline).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+: unknown role "wizard"`),
    );
  });

  it('stdin is read as sessions, one per line', async () => {
    const inputs = await collect(
      sessionInputs(['-'], { jsonl: 'auto', stdin: Readable.from([`${session}\n${session}\n`]) }),
    );
    expect(inputs.map((i) => i.source)).toEqual([
      { file: '<stdin>', line: 1 },
      { file: '<stdin>', line: 2 },
    ]);
  });
});
