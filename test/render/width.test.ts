/**
 * One width model (issue 15): src/render/width.ts measures with string-width,
 * the module Ink lays the TUI out with, so the CLI and the TUI agree on every
 * character — the cases where the hand-kept tables disagreed included.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderTable } from '../../src/render/table.js';
import { charWidth, displayWidth, graphemes, isSimpleText, pad, truncate } from '../../src/render/width.js';
import { fitName, wrapText } from '../../src/tui/line.js';

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}'; // 👨‍👩‍👧‍👦 (ZWJ sequence)
const FLAG = '\u{1F1EF}\u{1F1F5}'; // 🇯🇵 (regional indicators)
const KEYCAP = '1\uFE0F\u20E3'; // 1️⃣
const TANGUT = '\u{17000}';
const CJK = '検索';
const COMBINING = 'e\u0301'; // é as e + combining acute

/** string-width as Ink resolves it (ink → its own dependency), so the test checks the module Ink really uses. */
async function inksStringWidth(): Promise<(s: string) => number> {
  const fromInk = createRequire(createRequire(import.meta.url).resolve('ink')).resolve('string-width');
  return ((await import(pathToFileURL(fromInk).href)) as { default: (s: string) => number }).default;
}

describe('displayWidth', () => {
  it('gives the widths terminals draw (the old tables said 6, 4, 1, 1 for the first four)', () => {
    expect([FAMILY, FLAG, KEYCAP, TANGUT, CJK, COMBINING, 'abc', ''].map(displayWidth)).toEqual([
      2, 2, 2, 2, 4, 1, 3, 0,
    ]);
  });

  it('agrees with the string-width Ink uses, on every case and on mixed text', async () => {
    const ink = await inksStringWidth();
    const texts = [
      FAMILY,
      FLAG,
      KEYCAP,
      TANGUT,
      CJK,
      COMBINING,
      `a${FAMILY}b${FLAG}c`,
      `${CJK} ${TANGUT}x${KEYCAP}`,
      'İstanbul ΣΊΣΥΦΟΣ 𝔘𝔫𝔦',
    ];
    expect(texts.map(displayWidth)).toEqual(texts.map(ink));
  });

  it('graphemes: a cluster is never split (so cutting text never leaves half an emoji)', () => {
    expect(graphemes(`a${FAMILY}${FLAG}${KEYCAP}${COMBINING}`)).toEqual(['a', FAMILY, FLAG, KEYCAP, COMBINING]);
    expect(graphemes('plain')).toEqual(['p', 'l', 'a', 'i', 'n']);
    expect(charWidth(FAMILY)).toBe(2);
  });
});

describe('cutting and padding by that width', () => {
  it('truncate cuts between clusters and fits the width exactly', () => {
    expect(truncate(`${FAMILY}${FAMILY}${FAMILY}`, 5)).toBe(`${FAMILY}${FAMILY}…`);
    expect(truncate(`ab${FLAG}cd`, 4)).toBe('ab…'); // the flag does not fit beside the …, and is not split
    expect(truncate(`ab${FLAG}cd`, 5)).toBe(`ab${FLAG}…`);
    expect(truncate(`${TANGUT}${TANGUT}${TANGUT}`, 4)).toBe(`${TANGUT}…`);
    expect(displayWidth(truncate(`${CJK}${CJK}${CJK}`, 7))).toBeLessThanOrEqual(7);
    expect(pad(KEYCAP, 4)).toBe(`${KEYCAP}  `);
  });

  it('truncate: a string whose start is simple is cut there as the whole string would be measured and cut', () => {
    const slow = (s: string, max: number): string => {
      if (displayWidth(s) <= max) return s;
      if (max <= 0) return '';
      let out = '';
      let w = 0;
      for (const g of graphemes(s)) {
        if (w + charWidth(g) > max - 1) break;
        out += g;
        w += charWidth(g);
      }
      return `${out}…`;
    };
    const tails = ['', FAMILY, FLAG, KEYCAP, TANGUT, CJK, COMBINING, '\u0301', '\u200d', '\r\n', 'x\u0308'];
    for (const start of ['', 'a', 'ab cd', 'caf\u00e9 \u2014 ok', 'x'.repeat(12)]) {
      for (const tail of tails) {
        for (const s of [start + tail, start + tail + start, tail + start]) {
          for (let max = -1; max <= 14; max++)
            expect(truncate(s, max), `${JSON.stringify(s)} ${max}`).toBe(slow(s, max));
        }
      }
    }
  });

  it('TUI helpers: a name cut in the middle and wrapped text stay within the width, clusters whole', () => {
    const name = `mcp__${FAMILY}${FAMILY}__${FLAG}send_message${KEYCAP}`;
    for (let w = 8; w <= 30; w++) {
      const fitted = fitName(name, w);
      expect(displayWidth(fitted)).toBeLessThanOrEqual(w);
      expect(fitted.includes('\u200D') ? fitted.includes(FAMILY) : true).toBe(true);
    }
    for (const line of wrapText(`${FAMILY} ${TANGUT}${TANGUT}${TANGUT} ${FLAG}${FLAG}${FLAG}${FLAG} words`, 5)) {
      expect(displayWidth(line)).toBeLessThanOrEqual(5);
    }
  });
});

describe('table alignment with such names', () => {
  it('every column starts at the same terminal column in every row (header included)', () => {
    const names = [
      'plain_tool',
      `family_${FAMILY}`,
      `flag_${FLAG}`,
      `keycap_${KEYCAP}`,
      `tangut_${TANGUT}${TANGUT}`,
      `${CJK}_search`,
      `caf${COMBINING}`,
    ];
    const lines = renderTable(
      [{ header: 'tool' }, { header: 'score', align: 'right' }, { header: 'description' }],
      names.map((n, i) => [n, String(i * 10), 'same']),
      { width: 80 },
    );
    // Where the last column starts, and where the (right-aligned) score ends, measured in columns.
    const lastStart = (l: string) =>
      displayWidth(l.slice(0, l.lastIndexOf(l.endsWith('same') ? 'same' : 'description')));
    const scoreEnd = (l: string) =>
      displayWidth(l.slice(0, l.lastIndexOf(l.endsWith('same') ? 'same' : 'description')).trimEnd());
    expect(lines).toHaveLength(names.length + 1);
    expect(new Set(lines.map(lastStart)).size).toBe(1);
    expect(new Set(lines.map(scoreEnd)).size).toBe(1);
  });
});

describe('text measured without string-width (its module is loaded only when needed)', () => {
  const segmenter = new Intl.Segmenter();
  const clusters = (s: string) => Array.from(segmenter.segment(s), (g) => g.segment);
  const simple = Array.from({ length: 0x10000 }, (_, u) => String.fromCharCode(u)).filter(isSimpleText);

  it('every character measured so, alone and between letters: the widths and clusters of string-width, Intl', () => {
    expect(simple.length).toBeGreaterThan(700);
    expect(
      ['\x1f', '\x7f', '\u00ad', '\u0300', '\u200b', '\u200d', '\u2028', '\u2060', '\ufe0f'].filter(isSimpleText),
    ).toEqual([]);
    const wrong: string[] = [];
    for (const c of simple) {
      const s = `a${c}${c}a`;
      if (displayWidth(c) !== stringWidth(c) || charWidth(c) !== stringWidth(c) || displayWidth(s) !== stringWidth(s))
        wrong.push(`U+${c.charCodeAt(0).toString(16)} width`);
      else if (JSON.stringify(graphemes(s)) !== JSON.stringify(clusters(s)))
        wrong.push(`U+${c.charCodeAt(0).toString(16)} clusters`);
    }
    expect(wrong).toEqual([]);
  });

  it('random texts of Latin, punctuation, marks, emoji, CJK: widths, clusters, cuts as string-width has them', () => {
    const alphabet = [
      ...'aZ9 ~é€ÿĀžǅɐʰ˿‐–—‘’“”•…‰‱‹›⁞',
      '\u00ad', // soft hyphen: zero width
      '\u0301', // combining acute: joins the character before
      '\u200d', // zero width joiner
      '\u2028',
      '\ufe0f',
      FAMILY,
      FLAG,
      KEYCAP,
      TANGUT,
      '検',
      '\u{1F600}',
      '\u1100\u1161', // Hangul jamo
    ];
    /** The cut as the grapheme loop makes it, with string-width for every cluster. */
    const slowTruncate = (s: string, max: number): string => {
      if (stringWidth(s) <= max) return s;
      if (max <= 0) return '';
      let out = '';
      let w = 0;
      for (const g of clusters(s)) {
        if (w + stringWidth(g) > max - 1) break;
        out += g;
        w += stringWidth(g);
      }
      return `${out}…`;
    };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...alphabet), { maxLength: 16 }).map((cs) => cs.join('')),
        fc.integer({ min: 0, max: 20 }),
        (s, max) => {
          expect(displayWidth(s)).toBe(stringWidth(s));
          expect(graphemes(s)).toEqual(clusters(s));
          expect(truncate(s, max)).toBe(slowTruncate(s, max));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
