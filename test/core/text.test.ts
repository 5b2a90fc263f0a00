import { describe, expect, it } from 'vitest';
import {
  compareGo,
  goFields,
  goToLower,
  goTrimSpace,
  isGoSpace,
  isLower,
  isUpper,
  codePoints,
  isWellFormed,
  toWellFormed,
  GO_SPACE_CODE_POINTS,
} from '../../src/core/text.js';

describe('Go white space (unicode.IsSpace)', () => {
  it.each([
    ['tab', 0x09, true],
    ['line feed', 0x0a, true],
    ['vertical tab', 0x0b, true],
    ['form feed', 0x0c, true],
    ['carriage return', 0x0d, true],
    ['space', 0x20, true],
    ['NEL U+0085 (JS \\s misses it)', 0x85, true],
    ['NBSP U+00A0', 0xa0, true],
    ['ogham space U+1680', 0x1680, true],
    ['en quad U+2000', 0x2000, true],
    ['hair space U+200A', 0x200a, true],
    ['zero width space U+200B is not space', 0x200b, false],
    ['line separator U+2028', 0x2028, true],
    ['paragraph separator U+2029', 0x2029, true],
    ['narrow NBSP U+202F', 0x202f, true],
    ['medium math space U+205F', 0x205f, true],
    ['ideographic space U+3000', 0x3000, true],
    ['BOM U+FEFF is not space (JS trim treats it as space)', 0xfeff, false],
    ['Mongolian vowel separator U+180E is not space', 0x180e, false],
    ['letter a', 0x61, false],
    ['unit separator U+001F', 0x1f, false],
  ])('%s', (_name, cp, expected) => {
    expect(isGoSpace(cp)).toBe(expected);
  });

  it('the listed set is exactly the code points isGoSpace accepts in the BMP', () => {
    const found: number[] = [];
    for (let cp = 0; cp <= 0xffff; cp++) if (isGoSpace(cp)) found.push(cp);
    expect(found).toEqual(GO_SPACE_CODE_POINTS);
  });
});

describe('goTrimSpace (strings.TrimSpace)', () => {
  it.each([
    ['plain', '  hello  ', 'hello'],
    ['NEL both sides', '\u0085x\u0085', 'x'],
    ['NBSP and ideographic space', '\u00a0\u3000x y\u3000', 'x y'],
    ['BOM is kept', '\ufeffx\ufeff', '\ufeffx\ufeff'],
    ['all space', ' \t\n\u2028 ', ''],
    ['empty', '', ''],
    ['inner space kept', 'a  b', 'a  b'],
  ])('%s', (_n, input, expected) => {
    expect(goTrimSpace(input)).toBe(expected);
  });
});

describe('goFields (strings.Fields)', () => {
  it.each([
    ['simple', 'send message', ['send', 'message']],
    ['runs of mixed space', ' a\t\u0085b\u00a0\u00a0c\u3000', ['a', 'b', 'c']],
    ['BOM is not a separator', 'a\ufeffb c', ['a\ufeffb', 'c']],
    ['empty', '', []],
    ['only space', ' \u2029 ', []],
    ['astral characters', '\u{1F600} x\u{10000}', ['\u{1F600}', 'x\u{10000}']],
  ])('%s', (_n, input, expected) => {
    expect(goFields(input)).toEqual(expected);
  });
});

describe('goToLower (strings.ToLower: simple mapping, per code point)', () => {
  it.each([
    ['ASCII', 'HeLLo_World', 'hello_world'],
    ['dotted capital I U+0130 becomes i, not i + U+0307', '\u0130stanbul', 'istanbul'],
    ['final capital sigma becomes σ, not ς', 'ΟΔΟΣ', 'οδοσ'],
    ['Kelvin sign U+212A becomes k', '\u212a', 'k'],
    ['Angstrom sign U+212B becomes å', '\u212b', '\u00e5'],
    ['capital sharp S U+1E9E becomes ß', '\u1e9e', '\u00df'],
    ['Deseret (astral) capital becomes small', '\u{10400}', '\u{10428}'],
    ['titlecase Dž U+01C5 becomes dž U+01C6', '\u01c5', '\u01c6'],
    ['already lower', 'abc', 'abc'],
    ['Cyrillic', 'ПРИВЕТ', 'привет'],
  ])('%s', (_n, input, expected) => {
    expect(goToLower(input)).toBe(expected);
  });

  it('never changes the number of code points', () => {
    const changedLength: number[] = [];
    for (let cp = 0; cp <= 0x1ffff; cp += 1) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (codePoints(goToLower(String.fromCodePoint(cp))).length !== 1) changedLength.push(cp);
    }
    expect(changedLength).toEqual([]);
  });

  it("uses Unicode 15.0 data, not the engine's newer tables (letters added in 16.0 stay unchanged)", () => {
    // U+A7CB LATIN CAPITAL LETTER RAMS HORN was added in Unicode 16.0: Go 1.21+ (Unicode 15.0) does not lower-case it.
    expect(goToLower('\ua7cb')).toBe('\ua7cb');
    expect(isUpper(0xa7cb)).toBe(false);
    // Garay capital letters (U+10D50..) were added in Unicode 16.0.
    expect(isUpper(0x10d50)).toBe(false);
  });
});

describe('letter categories (unicode.IsUpper / IsLower)', () => {
  it.each([
    [0x41, true, false],
    [0x61, false, true],
    [0xc9, true, false], // É
    [0x130, true, false], // İ
    [0x131, false, true], // ı
    [0x1c5, false, false], // Dž is titlecase (Lt): neither
    [0x10400, true, false], // Deseret capital (astral)
    [0x10428, false, true],
    [0x5d0, false, false], // Hebrew alef (Lo)
    [0x31, false, false],
  ])('U+%s', (cp, upper, lower) => {
    expect(isUpper(cp)).toBe(upper);
    expect(isLower(cp)).toBe(lower);
  });
});

describe('compareGo (UTF-8 byte order)', () => {
  it('orders astral characters after U+E000..U+FFFF, unlike JavaScript <', () => {
    const astral = 'a\u{1F600}';
    const privateUse = 'a\uff01';
    expect(astral < privateUse).toBe(true); // JavaScript: UTF-16 code units
    expect(compareGo(astral, privateUse)).toBeGreaterThan(0); // Go: code points
    expect(['a\u{10000}', 'a\uffff', 'a\ue000', 'a'].sort(compareGo)).toEqual([
      'a',
      'a\ue000',
      'a\uffff',
      'a\u{10000}',
    ]);
  });

  it('is ordinary order for ASCII, prefix first', () => {
    expect(['b', 'a_b', 'a', 'B', 'ab'].sort(compareGo)).toEqual(['B', 'a', 'a_b', 'ab', 'b']);
  });
});

describe('code points', () => {
  it('counts an astral character once', () => {
    expect(codePoints('a\u{1F600}b')).toEqual([0x61, 0x1f600, 0x62]);
  });

  it('isWellFormed: false for a lone surrogate of either kind, true for pairs', () => {
    expect(['', 'abc', '\u{1F600}', 'a\ud83d\ude00b'].map(isWellFormed)).toEqual([true, true, true, true]);
    expect(['\ud800', 'a\udc00', '\ude00\ud83d', 'x\ud83d'].map(isWellFormed)).toEqual([false, false, false, false]);
  });

  it('toWellFormed replaces lone surrogates only', () => {
    expect(toWellFormed('a\ud800b\udc00\u{1F600}')).toBe('a\ufffdb\ufffd\u{1F600}');
    expect(toWellFormed('plain')).toBe('plain');
  });
});
