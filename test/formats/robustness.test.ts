/**
 * Properties: whatever the input, a loader returns a result or throws an
 * `InputError` with a location — never another exception.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/io/errors.js';
import { readCatalogDocument } from '../../src/formats/catalog.js';
import { parseText } from '../../src/io/parse.js';
import { readTranscriptDocument } from '../../src/formats/transcript.js';
import { fixture } from './helpers.js';

const SYNTAXES = ['x.json', 'x.yaml', 'x.jsonl', 'x.txt'] as const;

/**
 * Runs per property: small by default (fast CI); `FORMATS_FUZZ_RUNS=20000` for a long local run, `FORMATS_FUZZ_SEED` to
 * vary.
 */
const RUNS = Number(process.env['FORMATS_FUZZ_RUNS'] ?? 120);
const SEED = process.env['FORMATS_FUZZ_SEED'] === undefined ? undefined : Number(process.env['FORMATS_FUZZ_SEED']);
const params = (seed: number): { numRuns: number; seed: number } => ({ numRuns: RUNS, seed: SEED ?? seed });

/**
 * Runs every loader over `text` read as `file`; fails the property on anything but a result or a located InputError.
 */
function loadsCleanly(file: string, text: string): void {
  const attempts: Array<() => unknown> = [
    () => readCatalogDocument(parseText(file, text)),
    () => readTranscriptDocument(parseText(file, text)),
    () => readTranscriptDocument(parseText(file, text), { format: 'anthropic' }),
    () => readTranscriptDocument(parseText(file, text), { format: 'openai-responses' }),
  ];
  for (const attempt of attempts) {
    try {
      attempt();
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      expect(err.location?.file).toBe(file);
      expect(err.message).not.toBe('');
    }
  }
}

const fixtureTexts: string[] = ['catalogs', 'transcripts'].flatMap((dir) =>
  readdirSync(fixture(dir)).map((f) => readFileSync(fixture(`${dir}/${f}`), 'utf8')),
);

describe('loaders never throw anything but a located InputError', () => {
  it('random text', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SYNTAXES), fc.string({ unit: 'grapheme', maxLength: 200 }), (file, text) =>
        loadsCleanly(file, text),
      ),
      params(42),
    );
  });

  it('random JSON values', () => {
    fc.assert(
      fc.property(fc.constantFrom('x.json', 'x.yaml'), fc.json({ maxDepth: 6 }), (file, text) =>
        loadsCleanly(file, text),
      ),
      params(7),
    );
  });

  it('fixtures cut, spliced and flipped', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...fixtureTexts),
        fc.constantFrom(...SYNTAXES),
        fc.nat(),
        fc.nat(),
        fc.constantFrom(
          '',
          '{',
          '}',
          '[',
          ']',
          '"',
          ':',
          ',',
          '\n',
          '- ',
          '&a ',
          '*a',
          '!tag ',
          '\u202e',
          '\u001b[31m',
          '\ud800',
        ),
        (text, file, a, b, insert) => {
          const i = text.length === 0 ? 0 : a % text.length;
          const j = text.length === 0 ? 0 : b % text.length;
          loadsCleanly(file, text.slice(0, i)); // truncated
          loadsCleanly(file, text.slice(0, i) + insert + text.slice(i)); // spliced
          loadsCleanly(file, text.slice(0, Math.min(i, j)) + text.slice(Math.max(i, j))); // cut out
        },
      ),
      params(3),
    );
  });
});
