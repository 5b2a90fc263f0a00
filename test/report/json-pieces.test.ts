import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { safeJson, safeJsonPieces } from '../../src/io/json-out.js';

const joined = (v: unknown): string => [...safeJsonPieces(v)].join('');

describe('safeJsonPieces', () => {
  test('joined, the pieces are safeJson with 2-space indentation, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(joined(v)).toBe(safeJson(v, undefined, 2));
      }),
      { numRuns: 500 },
    );
  });

  test('objects with arrays, empty arrays, nested objects, undefined and function members', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string(),
          fc.oneof(
            fc.array(fc.jsonValue(), { maxLength: 4 }),
            fc.jsonValue(),
            fc.constant(undefined),
            fc.constant(() => 1),
          ),
        ),
        (v) => {
          expect(joined(v)).toBe(safeJson(v, undefined, 2));
        },
      ),
      { numRuns: 500 },
    );
  });

  test(
    'terminal-unsafe characters are escaped in keys and values; getters are read; an array is one piece ' + 'each',
    () => {
      const value = {
        'k\u202e': ['a\u0085', { b: '\u2028' }],
        get lazy() {
          return [1, [2, 3]];
        },
        empty: [],
      };
      const pieces = [...safeJsonPieces(value)];
      expect(pieces.join('')).toBe(safeJson(value, undefined, 2));
      expect(pieces.join('')).toBe(
        '{\n  "k\\u202e": [\n    "a\\u0085",\n    {\n      "b": "\\u2028"\n    }\n  ],\n' +
          '  "lazy": [\n    1,\n    [\n      2,\n      3\n    ]\n  ],\n  "empty": []\n}',
      );
      expect(pieces).toContain('    "a\\u0085",\n');
    },
  );
});
