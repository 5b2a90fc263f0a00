/** Suite files: what they say, and located errors (exit 2) for every way they can be wrong. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/io/errors.js';
import { loadSuite, runSuites } from '../../../src/jobs/suite/run.js';

/**
 * The error `fn` throws, or the first errored suite of the report it returns (an invalid suite does not stop a run).
 */
function errorOf(fn: () => unknown): InputError {
  try {
    type Errored = {
      suites?: ReadonlyArray<{
        error: {
          message: string;
          location: { file: string; line: number; column: number };
          excerpt: string | null;
        } | null;
      }>;
    };
    const r = fn() as (Errored & { report?: Errored }) | undefined;
    const e = (r?.report ?? r)?.suites?.find((s) => s.error !== null)?.error;
    if (e) return new InputError(e.message, e.location, e.excerpt ?? undefined);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('suite parsing', () => {
  it('reads the demo suite: catalog resolved against the suite file, cases by kind', () => {
    const { suite } = loadSuite('fixtures/suites/demo.yaml');
    expect(suite.name).toBe('demo catalog — search and select');
    expect(suite.syntax).toBe('yaml');
    expect(suite.catalog).toMatchObject({
      files: ['fixtures/catalogs/demo.yaml'],
      format: 'auto',
      prefix: null,
      location: { file: 'fixtures/suites/demo.yaml', line: 8, column: 10 },
    });
    expect(suite.cases.map((c) => c.kind)).toEqual([
      'search',
      'search',
      'search',
      'search',
      'search',
      'search',
      'search',
      'search',
      'search',
      'search',
      'select',
      'select',
      'search',
      'search',
    ]);
    const first = suite.cases[0]!;
    expect(first).toMatchObject({
      name: 'naming the service puts its issue tool first',
      skip: null,
      record: false,
      location: { line: 12, column: 5 },
    });
    expect(first.kind === 'search' && first.input).toEqual({ query: 'github create issue', maxResults: null });
    const args = suite.cases[9]!;
    // A mapping for args is written out as JSON.
    expect(args.kind === 'search' && args.input).toEqual({ args: '{"query":"   "}' });
    expect(suite.cases.at(-1)!.skip).toBe('the Notion server is being renamed; re-enable after the migration');
    expect(suite.cases.at(-2)!.record).toBe(true);
  });

  it('reads a JSON suite and a simulate suite', () => {
    expect(loadSuite('fixtures/suites/select.json').suite.syntax).toBe('json');
    const { suite } = loadSuite('fixtures/suites/conversations.yaml');
    const c = suite.cases[0]!;
    expect(c.kind).toBe('simulate');
    if (c.kind !== 'simulate') return;
    expect(c.transcript).toBe('fixtures/transcripts/keyword-search-then-call.json');
    expect(c.mode).toBe('default');
    expect(c.expect.visible_at.map((v) => v.call)).toEqual([1, 2]);
    expect(c.expect).toMatchObject({ no_violations: true, same_as_recorded: true, deferred_at: [] });
  });

  // The shipped examples of invalid suites: file, line, column and message.
  it.each([
    [
      'unknown-key.yaml',
      5,
      5,
      'unknown key "include" in a search case "a typo in an expectation" (did you mean "includes"?)',
    ],
    [
      'unknown-tool.yaml',
      5,
      16,
      'case "a tool name that is not in the catalog": "mcp__github__create_isue" is not ' +
        'a tool of the catalog (did you mean mcp__github__create_issue?)',
    ],
    ['wrong-type.yaml', 5, 18, 'max_results must be an integer, not a string'],
    [
      'checks-nothing.yaml',
      3,
      5,
      'case "no expectation at all" checks nothing: add includes, excludes, ' +
        'exact, first, rank_at_most, none or error (or record: true)',
    ],
    ['missing-catalog.yaml', 1, 10, 'cannot load the catalog: fixtures/catalogs/no-such-catalog.yaml: no such file'],
    [
      'duplicate-name.json',
      5,
      14,
      'duplicate case name "twice" (first at fixtures/suites/invalid/duplicate-name.json:4:5)',
    ],
  ])('invalid/%s → %i:%i', (file, line, column, message) => {
    const path = `fixtures/suites/invalid/${file}`;
    const e = errorOf(() => runSuites([path]));
    expect(e.location).toEqual({ file: path, line, column });
    expect(e.message).toBe(message);
    expect(e.excerpt).toMatch(/\n *\^$/);
  });

  it('invalid/syntax-error.yaml is a YAML error with its position', () => {
    const e = errorOf(() => runSuites(['fixtures/suites/invalid/syntax-error.yaml']));
    expect(e.message).toMatch(/^invalid YAML/);
    expect(e.location?.file).toBe('fixtures/suites/invalid/syntax-error.yaml');
    expect(e.location!.line).toBeGreaterThan(0);
  });

  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-suite-'));
  const CAT = join(process.cwd(), 'fixtures/catalogs/demo.yaml');
  const suiteFile = (name: string, body: string): string => {
    const f = join(dir, name);
    writeFileSync(f, `catalog: ${CAT}\ncases:\n${body}`);
    return f;
  };
  it.each([
    [
      'no-input',
      '  - name: x\n    none: true\n',
      3,
      5,
      'case "x" needs one of: query, args (a search), select, transcript (a simulation)',
    ],
    [
      'two-inputs',
      '  - name: x\n    query: a\n    select: [b]\n    none: true\n',
      5,
      5,
      'case "x" has both "query" and "select": give one',
    ],
    ['no-name', '  - query: a\n    none: true\n', 3, 5, 'case 1 needs a "name"'],
    ['empty-name', '  - name: ""\n    query: a\n    none: true\n', 3, 11, 'name must not be empty'],
    ['case-not-map', '  - just a string\n', 3, 5, 'case 1 must be a mapping, not a string'],
    [
      'max-with-args',
      '  - name: x\n    args: "{}"\n    max_results: 3\n    none: true\n',
      5,
      5,
      'max_results goes inside args (args are passed as they are)',
    ],
    [
      'error-on-select',
      '  - name: x\n    select: [a]\n    error: boom\n',
      5,
      5,
      '"error" does not apply to a select case "x"',
    ],
    [
      'none-and-includes',
      '  - name: x\n    query: a\n    none: true\n    includes: [mcp__git__git_add]\n',
      6,
      5,
      'case "x": "includes" contradicts "none: true"',
    ],
    [
      'error-and-first',
      '  - name: x\n    query: a\n    error: e\n    first: mcp__git__git_add\n',
      6,
      5,
      'case "x": "first" contradicts "error" (an error returns no result)',
    ],
    [
      'in-and-out',
      '  - name: x\n    query: a\n    includes: [mcp__git__git_add]\n    excludes: mcp__git__git_add\n',
      6,
      5,
      'case "x": mcp__git__git_add is both included and excluded',
    ],
    [
      'rank-zero',
      '  - name: x\n    query: a\n    rank_at_most: {mcp__git__git_add: 0}\n',
      5,
      39,
      'the rank of mcp__git__git_add must be at least 1',
    ],
    ['rank-empty', '  - name: x\n    query: a\n    rank_at_most: {}\n', 5, 19, 'rank_at_most is empty'],
    [
      'record-simulate',
      '  - name: x\n    transcript: t.json\n    record: true\n    no_violations: true\n',
      5,
      13,
      'record applies to search and select cases only',
    ],
    [
      'bad-mode',
      '  - name: x\n    transcript: t.json\n    mode: fast\n    no_violations: true\n',
      5,
      11,
      'mode must be one of default, native, not "fast"',
    ],
    [
      'deferred-default',
      '  - name: x\n    transcript: t.json\n    deferred_at: {call: 1, includes: [a]}\n',
      5,
      18,
      'deferred_at applies to mode: native (default mode defers nothing)',
    ],
    [
      'visible-no-call',
      '  - name: x\n    transcript: t.json\n    visible_at: {includes: [a]}\n',
      5,
      17,
      'visible_at needs "call": the model call number (1 is the first)',
    ],
    [
      'visible-nothing',
      '  - name: x\n    transcript: t.json\n    visible_at: {call: 2}\n',
      5,
      17,
      'visible_at checks nothing: add includes, excludes or exact',
    ],
    [
      'sim-nothing',
      '  - name: x\n    transcript: t.json\n',
      3,
      5,
      'case "x" checks nothing: add visible_at, deferred_at, no_violations or same_as_recorded',
    ],
    [
      'skip-number',
      '  - name: x\n    query: a\n    none: true\n    skip: 3\n',
      6,
      11,
      'skip must be true or false, not a number',
    ],
    [
      'unknown-tool-first',
      '  - name: x\n    query: a\n    first: think\n',
      5,
      12,
      'case "x": "think" is a static tool; static tools are never searched',
    ],
  ])('%s → %i:%i', (name, body, line, column, message) => {
    const f = suiteFile(`${name}.yaml`, body as string);
    const e = errorOf(() => runSuites([f]));
    expect(e.message).toBe(message);
    expect(e.location).toEqual({ file: f, line, column });
  });

  it.each([
    ['root-list', '- a\n', 'a suite must be a mapping, not an array'],
    ['no-cases', `catalog: ${CAT}\n`, 'a suite needs "cases": a list of test cases'],
    ['empty-cases', `catalog: ${CAT}\ncases: []\n`, 'cases is empty: a suite needs at least one case'],
    [
      'suite-typo',
      `catalog: ${CAT}\ncatalogue: x\ncases: []\n`,
      'unknown key "catalogue" in the suite (did you mean "catalog"?)',
    ],
    ['case-key-at-top', `catalog: ${CAT}\nquery: x\ncases: []\n`, '"query" does not apply to the suite'],
    [
      'no-catalog',
      'cases:\n  - name: x\n    query: a\n    none: true\n',
      'case "x" needs a catalog: add "catalog:" to the suite or to the case',
    ],
    [
      'catalog-empty-list',
      'catalog: []\ncases:\n  - {name: x, query: a, none: true}\n',
      'catalog must be a file path or a non-empty list of them, not an array',
    ],
    [
      'format-no-catalog',
      'catalog_format: mcp\ncases:\n  - {name: x, query: a, none: true}\n',
      'catalog_format without a catalog in the suite',
    ],
  ])('suite-level: %s', (name, text, message) => {
    const f = join(dir, `${name}.yaml`);
    writeFileSync(f, text);
    expect(errorOf(() => runSuites([f])).message).toBe(message);
  });

  it('reports a transcript that cannot be read at the reference', () => {
    const f = suiteFile('no-transcript.yaml', '  - name: x\n    transcript: nope.json\n    no_violations: true\n');
    const e = errorOf(() => runSuites([f]));
    expect(e.location).toEqual({ file: f, line: 4, column: 17 });
    expect(e.message).toBe(`cannot load the transcript: ${join(dir, 'nope.json')}: no such file`);
  });

  it('refuses JSON lines as a suite', () => {
    const f = join(dir, 'lines.json');
    writeFileSync(f, '{"cases": 1}\n{"cases": 2}\n');
    expect(errorOf(() => runSuites([f])).message).toBe('a suite is one JSON or YAML document, not JSON lines');
  });
});
