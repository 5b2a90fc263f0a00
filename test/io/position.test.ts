/**
 * src/io/position.ts: `LineIndex` against the obvious model (count code points from the line's start), and in
 * time linear in the text whatever the order positions are asked in (issue 27, finding 2: a minified file is one
 * line, and recounting each column from its start made reading one with a warning per tool quadratic).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/io/position.js';

/** The model: lines break at `\r\n`, `\r` and `\n`; a column counts code points (a pair cut by the offset is one). */
function model(text: string, offset: number): { line: number; column: number; lineStart: number } {
  const off = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < off; i++) {
    const c = text[i];
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) {
      line++;
      lineStart = i + 1;
    }
  }
  let column = 1;
  for (let i = lineStart; i < off; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < off) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    column++;
  }
  return { line, column, lineStart };
}

function modelOffsetAt(text: string, line: number, column: number): number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\r' && text[i + 1] === '\n') i++;
    if (text[i] === '\n' || text[i] === '\r') starts.push(i + 1);
  }
  let i = starts[Math.max(0, Math.min(line, starts.length) - 1)]!;
  for (let n = 1; n < column && i < text.length; n++) {
    const c = text.charCodeAt(i);
    const d = text.charCodeAt(i + 1);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
  }
  return i;
}

function modelLineAt(text: string, lineStart: number): string {
  let end = lineStart;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  return text.slice(lineStart, end);
}

// Pieces long enough to cross the index's checkpoints (every 1,024 UTF-16 units).
const piece = fc.oneof(
  fc.constantFrom('\n', '\r', '\r\n', '\ud83d\ude00', '\ud800', '\udc00', 'é', 'a'),
  fc.integer({ min: 1, max: 700 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1, max: 300 }).map((n) => '\ud83d\ude00'.repeat(n)),
);
const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));

describe('LineIndex', () => {
  it('position, offsetAt and lineAt are the model, asked in any order', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 30 }), (t, picks) => {
        const index = new LineIndex(t);
        for (const p of picks) {
          const offset = p % (t.length + 2);
          const got = index.position(offset);
          const want = model(t, offset);
          expect(got).toEqual(want);
          expect(index.lineAt(got.lineStart)).toBe(modelLineAt(t, got.lineStart));
          for (const col of [got.column, got.column + 1, 1, 5000])
            expect(index.offsetAt(got.line, col)).toBe(modelOffsetAt(t, got.line, col));
        }
      }),
      { numRuns: 300, seed: 27 },
    );
  });

  it('offsets at and after the end, line 0 and lines past the last', () => {
    const t = 'ab\r\ncd\ud83d\ude00e\rf\n';
    const index = new LineIndex(t);
    expect(index.position(-3)).toEqual({ line: 1, column: 1, lineStart: 0 });
    expect(index.position(t.length + 9)).toEqual(model(t, t.length));
    expect(index.offsetAt(0, 2)).toBe(1);
    expect(index.offsetAt(99, 1)).toBe(modelOffsetAt(t, 99, 1));
    expect(index.lineAt(4)).toBe('cd\ud83d\ude00e');
  });

  it.each([
    ['ASCII', 'x'],
    ['astral characters', '\ud83d\ude00'],
  ])('a 4 MB one-line text of %s: 40,000 positions, last to first, in well under a second each way', (_l, unit) => {
    // Recounting from the line's start, this is 40,000 scans of up to 4 million characters (minutes).
    const t = unit.repeat(4_000_000 / unit.length);
    const index = new LineIndex(t);
    const start = performance.now();
    let sum = 0;
    for (let k = 40_000; k > 0; k--) {
      const off = Math.floor((t.length * k) / 40_000) - (k % 2);
      sum += index.position(off).column;
      sum += index.offsetAt(1, 1 + Math.floor(off / unit.length));
      sum += index.lineAt(0).length;
    }
    const seconds = (performance.now() - start) / 1000;
    expect(sum).toBeGreaterThan(0);
    expect(index.position(t.length - unit.length).column).toBe(t.length / unit.length);
    expect(seconds).toBeLessThan(5);
  });
});
