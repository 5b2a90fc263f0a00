/**
 * Issue 27 (found by the fuzzer: a long-line mutation of fixtures/formats/catalogs/proto-names.yaml): a
 * description that is one long word made lint cubic in the word's length (every substring looked up in a set of
 * the vocabulary, each hashed anew): 3,000 characters took 100 s, 300,000 never ended. The long-description
 * finding's count of vocabulary words now comes from an Aho–Corasick automaton (src/jobs/lint/vocabulary.ts),
 * the same count as the plain model (each word of the vocabulary looked for inside each word of the text).
 */
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textWords } from '../../../src/jobs/eval/words.js';
import { VocabularyMatcher } from '../../../src/jobs/lint/vocabulary.js';
import { ROOT, spawnCli, tempDir } from '../../hardening/helpers.js';

const tmp = tempDir('toolsearch-lint-long-word-');
afterAll(() => tmp.cleanup());

/** The model: each vocabulary word looked for inside each distinct word of the text. */
function modelHits(text: string, vocabulary: ReadonlySet<string>): number {
  const tokens = [...new Set(textWords(text))];
  return [...vocabulary].filter((w) => tokens.some((t) => t.includes(w))).length;
}

describe('VocabularyMatcher', () => {
  it('counts what the model counts (random words over a small alphabet, repeats, Unicode)', () => {
    const word = fc
      .array(fc.constantFrom('a', 'b', 'ab', 'é', '😀', 'İ', '1'), { minLength: 1, maxLength: 8 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 12 }),
        fc.array(fc.oneof(word, fc.constantFrom(' ', '-', '.', '_')), { maxLength: 30 }),
        fc.array(fc.array(fc.oneof(word, fc.constant(' ')), { maxLength: 20 }), { maxLength: 3 }),
        (vocabularyWords, textParts, moreTexts) => {
          const vocabulary = new Set(vocabularyWords.filter((w) => [...w].length >= 3));
          const matcher = new VocabularyMatcher(vocabulary);
          // One matcher answers several texts in turn, each counted on its own.
          for (const text of [textParts.join(''), ...moreTexts.map((t) => t.join(''))])
            expect(matcher.hits(text)).toBe(modelHits(text, vocabulary));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a word and its suffixes and prefixes: each counted once', () => {
    const m = new VocabularyMatcher(['abc', 'bcd', 'abcd', 'cde', 'xyz', 'xxx', 'xxxx']);
    expect(m.hits('abcde abcde')).toBe(4);
    expect(m.hits('x'.repeat(100_000))).toBe(2);
    expect(m.hits('ab cd')).toBe(0);
  });
});

describe('lint over a description of one long word', () => {
  it.each([3000, 300_000])(
    '%i characters: the long-description finding, in seconds',
    async (n) => {
      const text = readFileSync(join(ROOT, 'fixtures/formats/catalogs/proto-names.yaml'), 'utf8').replace(
        'description: ""',
        `description: "${'x'.repeat(n)}"`,
      );
      const file = join(tmp.dir, `long-${n}.yaml`);
      writeFileSync(file, text);
      const start = performance.now();
      const r = await spawnCli(['lint', '-c', file, '--all', '--json', '--no-cache']);
      const seconds = (performance.now() - start) / 1000;
      expect(r.code, r.stderr).toBe(0);
      const tool = JSON.parse(r.stdout).tools.find((t: { name: string }) => t.name === 'toString');
      expect(tool.findings.map((f: { rule: string }) => f.rule)).toContain('long-description');
      // Before: 100 s at 3,000 characters (cubic); now about 1 s for either on a busy machine.
      expect(seconds).toBeLessThan(20);
    },
    60_000,
  );
});
