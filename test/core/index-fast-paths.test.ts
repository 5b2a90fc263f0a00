/**
 * The index's fast paths (issue 16) against the naive model of SPEC §3:
 * bitsets of short substrings and of long posting lists (forced on small
 * catalogs with a low `denseMinimum`), the bit-sliced totals with their radix
 * select and name-order ties, many required keywords, long queries, and the
 * Go/JS case differences inside one- and two-unit keywords (İ → i, final Σ → σ,
 * ſ and the Kelvin sign, astral letters, lone surrogates).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolIndex } from '../../src/core/index/tool-index.js';
import { parseKeywords } from '../../src/core/scorer.js';
import type { ToolInfo } from '../../src/core/types.js';
import { generateClassQueries } from '../bench/classes.js';
import { generateCatalog } from '../bench/generate.js';
import { naiveKeywordSearch } from './naive-model.js';

const chars = [
  ...'abcdeABCDE01_-.',
  'İ',
  'i',
  'ı',
  'I',
  'Σ',
  'σ',
  'ς',
  'ß',
  'ẞ',
  'ſ',
  's',
  'S',
  '\u212a',
  'k',
  'K',
  'é',
  'É',
  '\u{10400}',
  '\u{10428}',
  '\u{1d518}',
  '\uff01',
  '検',
  '\ud800',
  '\udc00',
  ' ',
  '\n',
];
const textArb = (min: number, max: number) =>
  fc.array(fc.constantFrom(...chars), { minLength: min, maxLength: max }).map((cs) => cs.join(''));
const catalogArb = fc.uniqueArray(fc.record({ name: textArb(1, 10), description: textArb(0, 30) }), {
  minLength: 1,
  maxLength: 60,
  selector: (t) => t.name,
});

/** One- and two-unit keywords mostly (the short paths), some longer ones and catalog pieces, any number of `+`. */
function queryArb(tools: readonly ToolInfo[]) {
  const short = fc
    .array(fc.constantFrom(...chars.filter((c) => c.trim() !== '')), { minLength: 1, maxLength: 2 })
    .map((cs) => cs.join(''));
  const piece = fc
    .tuple(fc.nat(tools.length - 1), fc.boolean(), fc.nat(30), fc.integer({ min: 1, max: 5 }))
    .map(([i, name, start, len]) => {
      const src = name ? tools[i]!.name : tools[i]!.description;
      const at = start % Math.max(1, src.length);
      return src.slice(at, at + len).replace(/\s/g, '');
    });
  const word = fc
    .tuple(fc.oneof(short, short, piece, textArb(3, 5)), fc.constantFrom('', '', '+', '+', '++'))
    .map(([w, plus]) => plus + w);
  return fc.array(word, { minLength: 1, maxLength: 14 }).map((ws) => ws.join(' '));
}

const limits = [1, 2, 3, 5, 10, 30, Number.MAX_SAFE_INTEGER];

describe('index fast paths', () => {
  it('with every list and short substring as a bitset, or some, results equal the naive model', () => {
    fc.assert(
      fc.property(
        catalogArb.chain((tools) =>
          fc.tuple(
            fc.constant(tools),
            fc.array(queryArb(tools), { minLength: 1, maxLength: 4 }),
            fc.constantFrom(...limits),
          ),
        ),
        ([tools, queries, max]) => {
          const indexes = [1, 2, 4, undefined].map(
            (denseMinimum) => new ToolIndex(tools, { prefilter: 'always', denseMinimum }),
          );
          for (const query of queries) {
            const expected = naiveKeywordSearch(query, max, tools);
            for (const index of indexes)
              expect(index.search(parseKeywords(query), max).map((r) => [r.name, r.score])).toEqual(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('ties at the cut are broken by Go byte order (the radix select keeps the lowest ranks)', () => {
    // 40 tools scoring the same: the first `max` in Go order, astral names after U+FF01.
    const tools = Array.from({ length: 40 }, (_, i) => ({
      name: `t${String.fromCodePoint([0x10400, 0xff01, 0x61, 0x41][i % 4]!)}${i}`,
      description: 'a',
    }));
    const index = new ToolIndex(tools, { prefilter: 'always', denseMinimum: 1 });
    for (const max of [1, 7, 39, 40, 41]) {
      expect(index.search(parseKeywords('a'), max).map((r) => [r.name, r.score])).toEqual(
        naiveKeywordSearch('a', max, tools),
      );
    }
  });

  it('many required keywords: only the tools meeting every one, whatever the order', () => {
    const tools = [
      { name: 'alpha_beta_gamma', description: 'delta' },
      { name: 'alpha_beta', description: 'gamma delta' },
      { name: 'alpha', description: 'beta gamma' },
      { name: 'beta_gamma', description: '' },
    ];
    const index = new ToolIndex(tools, { prefilter: 'always', denseMinimum: 1 });
    const run = (q: string) => index.search(parseKeywords(q), 10).map((r) => [r.name, r.score]);
    expect(run('+alpha +beta +gamma +delta')).toEqual([
      ['alpha_beta_gamma', 32],
      ['alpha_beta', 24],
    ]);
    expect(run('+delta +gamma +beta +alpha')).toEqual(run('+alpha +beta +gamma +delta'));
    expect(run('+a +b +g +d +zz')).toEqual([]);
    expect(run('+a +b +g e')).toEqual(naiveKeywordSearch('+a +b +g e', 10, tools));
  });

  it('Go lower-casing inside short keywords: İ is i, ſ and K stay themselves, final Σ is σ', () => {
    const tools = [
      { name: 'İx', description: 'ΟΔΟΣ' },
      { name: 'ſk', description: '\u212a' },
      { name: 'ix', description: 'οδοσ' },
    ];
    const index = new ToolIndex(tools, { prefilter: 'always', denseMinimum: 1 });
    for (const q of ['i', 'İ', 'ix', 'σ', 'Σ', 'ς', 'ſ', 's', 'k', 'K', '\u212a', 'ſk', 'οσ', 'İ ς']) {
      expect(index.search(parseKeywords(q), 10).map((r) => [r.name, r.score])).toEqual(
        naiveKeywordSearch(q, 10, tools),
      );
    }
    expect(index.search(parseKeywords('i'), 10).map((r) => r.name)).toEqual(['ix', 'İx']);
    expect(index.search(parseKeywords('σ'), 10).map((r) => [r.name, r.score])).toEqual([
      ['ix', 2],
      ['İx', 2],
    ]);
  });

  it('a generated 1,500-tool catalog and every benchmark query class give the naive model results', () => {
    const tools = generateCatalog(1500, 11);
    const index = new ToolIndex(tools, { prefilter: 'always' });
    for (const q of generateClassQueries(tools, 5, 11)) {
      const max = q.maxResults !== null && q.maxResults > 0 ? q.maxResults : 5;
      expect([q.cls, index.search(parseKeywords(q.query), max).map((r) => [r.name, r.score])]).toEqual([
        q.cls,
        naiveKeywordSearch(q.query, max, tools),
      ]);
    }
  });
});
