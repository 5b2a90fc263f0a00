import { describe, expect, test } from 'vitest';
import { bar, fitLine, fitName, lineWidth, padLine, safe, safeName, seg, wrapText } from '../../src/tui/line.js';

describe('lines fitted to a width', () => {
  test('fitLine cuts the segment that overflows with an ellipsis and drops the rest', () => {
    const line = [seg('abc', 'heading'), seg('defgh', 'dim'), seg('ijk')];
    expect(fitLine(line, 6)).toEqual([seg('abc', 'heading'), seg('de…', 'dim')]);
    expect(fitLine(line, 11)).toEqual(line);
    expect(fitLine(line, 0)).toEqual([]);
  });
  test('wide characters count two columns', () => {
    const l = fitLine([seg('日本語のツール')], 7);
    expect(l).toEqual([seg('日本語…')]);
    expect(lineWidth(l)).toBe(7);
  });
  test('padLine fills up to the width exactly', () => {
    expect(lineWidth(padLine([seg('ab')], 10))).toBe(10);
    expect(lineWidth(padLine([seg('abcdefghijkl')], 10))).toBe(10);
  });
  test('names are cut in the middle, keeping the end that tells them apart', () => {
    expect(fitName('mcp__google_calendar__list_events', 20)).toBe('mcp__go…_list_events');
    expect(fitName('mcp__google_calendar__list_events', 20)).toHaveLength(20);
    expect(fitName('short', 20)).toBe('short');
    expect(fitName('abcdefghij', 5)).toBe('abcd…'); // too narrow for a middle cut
  });
  test('wrapText wraps at spaces, cuts long words, and marks what it drops', () => {
    expect(wrapText('the quick brown fox jumps', 10)).toEqual(['the quick', 'brown fox', 'jumps']);
    expect(wrapText('abcdefghijklmnop', 6)).toEqual(['abcdef', 'ghijkl', 'mnop']);
    expect(wrapText('one two three four five', 9, 2)).toEqual(['one two', 'three fo…']);
  });
  test('score bars', () => {
    expect(bar(1, 8)).toBe('████████');
    expect(bar(0.5, 8)).toBe('████░░░░');
    expect(bar(Number.NaN, 4)).toBe('░░░░');
  });
});

describe('text from input files is made safe', () => {
  test('escape sequences, bidi overrides and line breaks never reach the terminal', () => {
    expect(safeName('a\u001b[31mb\u202ec')).toBe('a\\x1b[31mb\\u202ec');
    expect(safe('line one\n\tline two\u0007')).toBe('line one line two\\x07');
  });
});
