/**
 * Every list of recording formats comes from the reader registry
 * (src/formats/recordings/registry.ts, issue 28): `simulate --help`, `--format`'s
 * choices, suites' `format:`, shell completion, the fuzzer, the "no shape fits"
 * error, and README's table (checked here, as a document cannot import). A reader
 * added to the registry that one of them does not list fails this test.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMATS as SIMULATE_FORMATS } from '../../src/cli/commands/simulate.js';
import { parseText } from '../../src/io/parse.js';
import { readRecording, READERS, FORMAT_CHOICES, RECORDING_FORMATS } from '../../src/formats/recordings/registry.js';
import { TRANSCRIPT_FORMATS as SUITE_FORMATS, SuiteParser } from '../../src/jobs/suite/parse.js';
import { ROOT, run } from '../cli/helpers.js';
import { inputError } from './helpers.js';
// @ts-expect-error: plain JavaScript modules of the fuzzer
import { replayFlags } from '../fuzz/scenarios.mjs';
// @ts-expect-error: plain JavaScript modules of the fuzzer
import { Rng } from '../fuzz/rng.mjs';

const formats = READERS.map((r) => r.format);

describe('every list of formats is the registry', () => {
  it('the registry: one reader per format, each with a one-line summary for --help', () => {
    expect(new Set(formats).size).toBe(formats.length);
    expect(RECORDING_FORMATS).toEqual(formats);
    expect(FORMAT_CHOICES).toEqual(['auto', ...formats]);
    for (const r of READERS) {
      expect(r.summary.length, r.format).toBeLessThanOrEqual(64);
      expect(r.shape.startsWith(`${r.format}: `), r.format).toBe(true);
    }
  });

  it('--format of simulate and format: of a suite case take every format', () => {
    expect(SIMULATE_FORMATS).toEqual(FORMAT_CHOICES);
    expect(SUITE_FORMATS).toEqual(FORMAT_CHOICES);
    for (const format of formats) {
      const doc = parseText(
        's.yaml',
        `cases:\n  - name: c\n    transcript: t.json\n    format: ${format}\n    no_violations: true\n`,
      );
      expect(new SuiteParser(doc).suite().cases[0], format).toMatchObject({ format });
    }
    const bad = parseText(
      's.yaml',
      'cases:\n  - name: c\n    transcript: t.json\n    format: nope\n    no_violations: true\n',
    );
    expect(inputError(() => new SuiteParser(bad).suite()).message).toBe(
      `format must be one of ${FORMAT_CHOICES.join(', ')}, not "nope"`,
    );
  });

  it('simulate --help lists every format with its summary; completion offers every one', async () => {
    const [help, bash] = await Promise.all([run(['simulate', '--help']), run(['completion', 'bash'])]);
    const section = help.stdout.slice(help.stdout.indexOf('Recording formats'), help.stdout.indexOf('Every item'));
    const listed = section
      .split('\n')
      .slice(1, -1)
      .map((l) => l.trim().split(/\s{2,}/));
    expect(listed.map(([f]) => f)).toEqual(formats);
    expect(listed.map(([, summary]) => summary)).toEqual(READERS.map((r) => r.summary));
    expect(help.stdout).toContain(`--format <format>`);
    expect(bash.stdout).toContain(`--format) _toolsearch_reply compgen -W "${FORMAT_CHOICES.join(' ')}"`);
  });

  it('the fuzzer picks --format values from the registry it is given, and lists none of its own', () => {
    const rng = new Rng(28);
    const seen = new Set<string>();
    const p = { demo: 'demo.yaml', transcriptFormats: FORMAT_CHOICES };
    for (let i = 0; i < 3000; i++) {
      const argv = replayFlags(rng, p) as string[];
      const at = argv.indexOf('--format');
      if (at >= 0) seen.add(argv[at + 1]!);
    }
    expect([...seen].sort()).toEqual([...FORMAT_CHOICES].sort());
    for (const file of ['scenarios.mjs', 'fuzz.mjs']) {
      const text = readFileSync(`${ROOT}test/fuzz/${file}`, 'utf8');
      for (const f of formats.filter((x) => x.includes('-'))) expect(text, `${file}: ${f}`).not.toContain(`'${f}'`);
    }
    expect(readFileSync(`${ROOT}test/fuzz/fuzz.mjs`, 'utf8')).toContain(
      "(await import(join(dist, 'formats/recordings/registry.js'))).FORMAT_CHOICES",
    );
  });

  it("README's table of recording formats has one row per format, and no other list of them", () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const table = readme.slice(readme.indexOf('| format | what | minimal example |'));
    const rows = table.split('\n').slice(2);
    const inTable = rows
      .slice(
        0,
        rows.findIndex((l) => !l.startsWith('|')),
      )
      .flatMap((l) => [...l.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
    expect([...inTable].sort()).toEqual([...formats].sort());
    // A list of format names written out elsewhere (`--format a|b|c`) would drift: README points at the table.
    expect(readme).not.toMatch(/--format auto\|/);
  });

  it('the "no shape fits" error names every format tried', () => {
    const doc = parseText('x.json', '{"hello": "world"}');
    expect(inputError(() => readRecording(doc)).message).toBe(
      `no known recording shape fits (found an object with "hello"); tried ${formats.join(', ')} ` +
        '(see simulate --help, or force one with --format)',
    );
  });
});
