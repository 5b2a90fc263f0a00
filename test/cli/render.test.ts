import { describe, expect, it } from 'vitest';
import { colorEnabled, createStyle } from '../../src/render/color.js';
import { escapeText, hasUnsafe, inlineText } from '../../src/io/escape.js';
import { renderTable } from '../../src/render/table.js';
import { displayWidth, truncate } from '../../src/render/width.js';
import { renderExcerpt } from '../../src/cli/exit.js';
import { checkExpectations, suggestions } from '../../src/jobs/search/report.js';
import { wrapTokens } from '../../src/report/simulate-text.js';
import { wordTokens, wrapText } from '../../src/render/wrap.js';

describe('escapeText', () => {
  it.each([
    ['plain text', 'plain text'],
    ['ESC sequence', '\x1b[31mred\x1b[0m', '\\x1b[31mred\\x1b[0m'],
    ['C0 and DEL', 'a\x00b\x07c\x7f', 'a\\x00b\\x07c\\x7f'],
    ['C1 (CSI U+009B)', 'a\u009b2J', 'a\\x9b2J'],
    ['line breaks and tab', 'a\nb\r\tc', 'a\\nb\\r\\tc'],
    ['bidi override', 'abc\u202edcba', 'abc\\u202edcba'],
    ['bidi isolates', '\u2066x\u2069', '\\u2066x\\u2069'],
    ['line separator', 'a\u2028b', 'a\\u2028b'],
    ['lone surrogate', 'a\ud800b', 'a\\ud800b'],
    ['surrogate pair kept', 'a😀b', 'a😀b'],
    ['non-ASCII letters kept', 'héllo 日本', 'héllo 日本'],
  ])('%s', (_, input, expected = input) => {
    expect(escapeText(input)).toBe(expected);
  });

  it('inlineText folds line breaks and tabs into one space', () => {
    expect(inlineText('Read a file.\n\n  Returns text.\tFast.')).toBe('Read a file. Returns text. Fast.');
    expect(inlineText('x\x1b[2Jy')).toBe('x\\x1b[2Jy');
  });

  it('hasUnsafe', () => {
    expect(hasUnsafe('ok')).toBe(false);
    expect(hasUnsafe('\u202e')).toBe(true);
    expect(hasUnsafe('ok')).toBe(false);
  });
});

describe('width and truncation', () => {
  it('measures wide and zero-width characters', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('😀')).toBe(2);
  });
  it('truncates with an ellipsis', () => {
    expect(truncate('abcdef', 6)).toBe('abcdef');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('日本語', 4)).toBe('日…');
    expect(truncate('abc', 0)).toBe('');
  });
});

describe('renderTable', () => {
  const cols = [
    { header: '#', align: 'right' as const },
    { header: 'name' },
    { header: 'description', shrink: 1, min: 5 },
  ];
  it('aligns columns and leaves no trailing spaces', () => {
    expect(
      renderTable(
        cols,
        [
          ['1', 'a', 'first'],
          ['10', 'bbb', ''],
        ],
        { width: 80 },
      ),
    ).toEqual([' #  name  description', ' 1  a     first', '10  bbb']);
  });
  it('shrinks the shrinkable column to fit the width', () => {
    const lines = renderTable(cols, [['1', 'tool', 'a long description that does not fit']], { width: 24 });
    expect(lines).toEqual(['#  name  description', '1  tool  a long descrip…']);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(24);
  });
  it('styles text after layout', () => {
    const s = createStyle(true);
    const lines = renderTable([{ header: 'a' }, { header: 'b' }], [[{ text: 'x', style: s.red }, 'y']], { width: 80 });
    expect(lines[1]).toBe('\x1b[31mx\x1b[39m  y');
  });
});

describe('colorEnabled', () => {
  const tty = { noColorFlag: false, isTTY: true };
  it.each([
    ['a TTY', { ...tty, env: {} }, true],
    ['not a TTY', { ...tty, isTTY: false, env: {} }, false],
    ['--no-color', { ...tty, noColorFlag: true, env: { FORCE_COLOR: '1' } }, false],
    ['NO_COLOR', { ...tty, env: { NO_COLOR: '1' } }, false],
    ['empty NO_COLOR is ignored', { ...tty, env: { NO_COLOR: '' } }, true],
    ['FORCE_COLOR on a pipe', { ...tty, isTTY: false, env: { FORCE_COLOR: '1' } }, true],
    [
      'FORCE_COLOR=0 turns colours off, also on a TTY (as Node and supports-color)',
      { ...tty, env: { FORCE_COLOR: '0' } },
      false,
    ],
    ['FORCE_COLOR=false too', { ...tty, env: { FORCE_COLOR: 'false' } }, false],
    ['FORCE_COLOR=0 on a pipe', { ...tty, isTTY: false, env: { FORCE_COLOR: '0' } }, false],
    ['TERM=dumb', { ...tty, env: { TERM: 'dumb' } }, false],
  ])('%s', (_, opts, expected) => {
    expect(colorEnabled(opts)).toBe(expected);
  });
});

describe('renderExcerpt', () => {
  it('escapes the line and keeps the caret under the same character', () => {
    expect(renderExcerpt('{"a":\x1b 1}\n     ^', 80)).toEqual(['  {"a":\\x1b 1}', '       ^']);
  });
  it('cuts a long line to a window around the caret', () => {
    const line = 'x'.repeat(300) + '!' + 'y'.repeat(300);
    const [src, caret] = renderExcerpt(`${line}\n${' '.repeat(300)}^`, 60);
    expect(displayWidth(src!)).toBeLessThanOrEqual(60);
    expect(src![caret!.indexOf('^')]).toBe('!');
  });
});

describe('expectations', () => {
  it('checks each kind', () => {
    expect(checkExpectations(['a', 'b'], { expect: ['b', 'a'] })).toEqual([]);
    expect(checkExpectations(['a'], { expect: ['a', 'c'] })).toEqual([
      { kind: 'expect', expected: ['a', 'c'], missing: ['c'] },
    ]);
    expect(checkExpectations(['a', 'b'], { expectExact: ['a', 'b'] })).toEqual([]);
    expect(checkExpectations(['b', 'a'], { expectExact: ['a', 'b'] })).toHaveLength(1);
    expect(checkExpectations(['a'], { expectFirst: 'a' })).toEqual([]);
    expect(checkExpectations([], { expectFirst: 'a' })).toHaveLength(1);
    expect(checkExpectations([], { expectNone: true })).toEqual([]);
    expect(checkExpectations(['a'], { expectNone: true })).toEqual([{ kind: 'expect-none' }]);
  });
  it('suggests close names', () => {
    expect(suggestions(['GitHub__x', 'other'], 'github__x')).toEqual(['GitHub__x']);
    expect(suggestions(['mcp__slack__post', 'other'], 'slack')).toEqual(['mcp__slack__post']);
    expect(suggestions(['ab'], 'a')).toEqual([]);
  });
});

describe('wrapTokens', () => {
  it('wraps on word boundaries with an indent', () => {
    const t = (s: string) => ({ text: s, styled: s });
    expect(wrapTokens([t('call 1'), t('+aaaa'), t('+bbbb'), t('+cccc')], 14, 4)).toEqual([
      'call 1 +aaaa',
      '    +bbbb',
      '    +cccc',
    ]);
  });
});

describe('wrapText: prose wraps at the width instead of being cut', () => {
  it('keeps the leading indent, continues at the given indent, never exceeds the width', () => {
    expect(
      wrapText(
        "Prompt cache: the tools block changed at 1 of 3 later calls (call 2); a provider's prefix cache breaks there",
        40,
        2,
      ),
    ).toEqual([
      'Prompt cache: the tools block changed at',
      '  1 of 3 later calls (call 2); a',
      "  provider's prefix cache breaks there",
    ]);
    expect(wrapText('  by mode: default 1 break, native 0 breaks', 30, 4)).toEqual([
      '  by mode: default 1 break,',
      '    native 0 breaks',
    ]);
    expect(wrapText('short', 40, 2)).toEqual(['short']);
    expect(wrapText('', 40, 2)).toEqual(['']);
  });

  it('a run of spaces (an aligned column) stays inside its line and is dropped at a break', () => {
    expect(wrapText('  saved               40,483 (82.9%)', 100, 22)).toEqual(['  saved               40,483 (82.9%)']);
    expect(wrapText('  with tool search    8,337 (tools 3,657 + reminder 4,680) over 4 calls', 50, 22)).toEqual([
      '  with tool search    8,337 (tools 3,657 +',
      '                      reminder 4,680) over 4 calls',
    ]);
    expect(wrapText('  key      value', 6, 4)).toEqual(['  key', '    value']);
  });

  it('cuts only a word wider than a line; styles every word but not the spaces', () => {
    expect(wrapText(`see ${'x'.repeat(30)} here`, 20, 2)).toEqual(['see', `  ${'x'.repeat(17)}…`, '  here']);
    const star = (s: string) => `*${s}*`;
    expect(wrapText('a b  c', 40, 2, star)).toEqual(['*a* *b*  *c*']);
    expect(wordTokens('  a  b ', 10)).toEqual([
      { text: 'a ', styled: 'a ' },
      { text: 'b', styled: 'b' },
    ]);
  });
});
