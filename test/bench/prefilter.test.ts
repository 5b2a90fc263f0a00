/**
 * The scorer's candidate prefilter (the trigram index) never changes a
 * result: with it forced on, off, or left to decide, the index returns
 * exactly what the naive line-by-line model of SPEC §3 returns. The core
 * property tests use small catalogs (where `auto` scans); these force the
 * index and also run a realistic generated catalog with the benchmark's
 * query mix. No timing here: speed is measured by `npm run bench`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolIndex, type PrefilterMode } from '../../src/core/index/tool-index.js';
import { parseKeywords } from '../../src/core/scorer.js';
import { goToLower } from '../../src/core/text.js';
import { decodeToolSearchArgs, searchDecoded } from '../../src/core/toolsearch.js';
import type { ToolInfo } from '../../src/core/types.js';
import { naiveKeywordSearch, naiveSplitToolName } from '../core/naive-model.js';
import { generateCatalog, generateQueries } from './generate.js';

// More distinct code units than the index has symbols (so some share one),
// Go/JS lower-case differences, astral letters, line feeds and other spaces.
const chars = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:/',
  'İ',
  'ı',
  'Σ',
  'σ',
  'ς',
  'ß',
  'ẞ',
  'ſ',
  '\u212a',
  'é',
  'É',
  '\u{10400}',
  '\u{10428}',
  '\u{1d518}',
  '\uff01',
  '\ufeff',
  '\u0130',
  '\u01c5',
  '\u1e9e',
  '検',
  '索',
  '\n',
  ' ',
  '\u0085',
  '\ud800',
  '\udc00',
];
const textArb = (min: number, max: number) =>
  fc.array(fc.constantFrom(...chars), { minLength: min, maxLength: max }).map((cs) => cs.join(''));
const catalogArb = fc.uniqueArray(fc.record({ name: textArb(0, 10), description: textArb(0, 40) }), {
  minLength: 1,
  maxLength: 40,
  selector: (t) => t.name,
});
const modes: PrefilterMode[] = ['always', 'never', 'auto'];

/** A query built from pieces of the catalog's own (lower- or original-case) text, so that matches are common. */
function queryArb(tools: readonly ToolInfo[]) {
  const piece = fc
    .tuple(
      fc.nat(tools.length - 1),
      fc.boolean(),
      fc.nat(50),
      fc.integer({ min: 1, max: 6 }),
      fc.constantFrom('', '', '+', '++'),
    )
    .map(([i, name, start, len, plus]) => {
      const src = name ? tools[i]!.name : tools[i]!.description;
      return plus + src.slice(start % Math.max(1, src.length), (start % Math.max(1, src.length)) + len);
    });
  return fc.array(fc.oneof(piece, textArb(1, 4)), { minLength: 0, maxLength: 5 }).map((ps) => ps.join(' '));
}

describe('prefilter', () => {
  it('every prefilter mode returns exactly what the naive model returns', () => {
    fc.assert(
      fc.property(
        catalogArb.chain((tools) =>
          fc.tuple(
            fc.constant(tools),
            fc.array(queryArb(tools), { minLength: 1, maxLength: 4 }),
            fc.integer({ min: 1, max: 50 }),
          ),
        ),
        ([tools, queries, max]) => {
          const indexes = modes.map((prefilter) => new ToolIndex(tools, { prefilter }));
          for (const query of queries) {
            const expected = naiveKeywordSearch(query, max, tools);
            for (const index of indexes)
              expect(index.search(parseKeywords(query), max).map((r) => [r.name, r.score])).toEqual(expected);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('explanations and rankAll agree with the naive model under the prefilter', () => {
    fc.assert(
      fc.property(
        catalogArb.chain((tools) => fc.tuple(fc.constant(tools), queryArb(tools))),
        ([tools, query]) => {
          const index = new ToolIndex(tools, { prefilter: 'always' });
          const keywords = parseKeywords(query);
          const all = index.rankAll(keywords).map((r) => [r.name, r.score]);
          expect(all).toEqual(naiveKeywordSearch(query, Number.MAX_SAFE_INTEGER, tools));
          for (const r of index.search(keywords, 10, { explain: true })) {
            expect(r.explain!.reduce((s, k) => s + k.points, 0)).toBe(r.score);
          }
          for (const t of tools) {
            expect(index.partsOf(t.name)).toEqual(naiveSplitToolName(t.name));
            const ex = index.explainTool(t.name, keywords)!;
            for (const k of ex.keywords)
              if (k.part !== null) expect(goToLower(k.part).includes(goToLower(k.keyword))).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keywords that no public parser produces (empty, with a line feed) are scored as the rules say', () => {
    const tools = [
      { name: 'a\nb_c', description: 'x\ny' },
      { name: '', description: 'z' },
      { name: 'q', description: '' },
    ];
    for (const prefilter of modes) {
      const index = new ToolIndex(tools, { prefilter });
      const kw = (lower: string) => ({ word: lower, lower, required: false });
      expect(index.rankAll([kw('a\nb')]).map((r) => [r.name, r.score])).toEqual([['a\nb_c', 10]]);
      expect(index.rankAll([kw('x\ny')]).map((r) => [r.name, r.score])).toEqual([['a\nb_c', 2]]);
      expect(index.rankAll([kw('')]).map((r) => [r.name, r.score])).toEqual([
        ['a\nb_c', 5],
        ['q', 5],
        ['', 3],
      ]);
    }
  });

  it('max_results edge values behave as Array.prototype.slice would', () => {
    const tools = Array.from({ length: 30 }, (_, i) => ({
      name: `tool_${String(i).padStart(2, '0')}`,
      description: 'does things',
    }));
    const index = new ToolIndex(tools, { prefilter: 'always' });
    const kws = parseKeywords('tool');
    expect(index.search(kws, 2.5).length).toBe(2);
    expect(index.search(kws, 0).length).toBe(0);
    expect(index.search(kws, -3).length).toBe(0);
    expect(index.search(kws, Number.NaN).length).toBe(30);
    expect(index.search(kws, Infinity).length).toBe(30);
  });

  it('a generated 1,500-tool catalog and the benchmark query mix give the naive model results', () => {
    const tools = generateCatalog(1500, 7);
    const queries = generateQueries(tools, 150, 7);
    const auto = new ToolIndex(tools);
    const never = new ToolIndex(tools, { prefilter: 'never' });
    for (const q of queries) {
      const d = decodeToolSearchArgs(q.args);
      if (!d.ok) continue;
      const a = searchDecoded(auto, d.args);
      const b = searchDecoded(never, d.args);
      expect(a).toEqual(b);
      if (a.ok && a.mode === 'keyword') {
        expect(a.results.map((r) => [r.name, r.score])).toEqual(naiveKeywordSearch(a.query, a.maxResults, tools));
      }
    }
  });
});
