// Every --json report of the BUILT CLI (`npm run build` first) carries
// "schema_version" and validates against the JSON Schema the package ships
// for it (src/schemas/<command>.schema.json, exported as
// toolsearch/schemas/<command>.schema.json), checked with ajv.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { DEMO, run } from '../cli/helpers.js';

const schema = (name: string): object =>
  JSON.parse(readFileSync(new URL(`../../src/schemas/${name}.schema.json`, import.meta.url), 'utf8')) as object;

const CASES: ReadonlyArray<readonly [string, string, readonly string[], number]> = [
  ['search', 'search', ['search', '-c', DEMO, 'create', 'issue', '--json'], 0],
  [
    'search with --why, --explain and a failed expectation',
    'search',
    [
      'search',
      '-c',
      DEMO,
      'create',
      'issue',
      '--json',
      '--explain',
      '--why',
      'mcp__github__create_issue',
      '--expect-first',
      'mcp__github__create_issue',
    ],
    1,
  ],
  ['search select:', 'search', ['search', '-c', DEMO, 'select:mcp__github__create_issue,nope', '--json'], 0],
  ['select', 'select', ['select', '-c', DEMO, 'mcp__github__create_issue', '--json'], 0],
  [
    'eval with --min',
    'eval',
    ['eval', 'fixtures/eval/demo-queries.jsonl', '-c', DEMO, '--json', '--min', 'recall@5=0.5'],
    0,
  ],
  ['lint', 'lint', ['lint', 'fixtures/lint/problems.yaml', '--json'], 0],
  [
    'test, with an invalid suite',
    'test',
    [
      'test',
      'fixtures/suites/select.json',
      'fixtures/suites/failing/search-failures.yaml',
      'fixtures/suites/invalid/unknown-key.yaml',
      '--json',
    ],
    2,
  ],
  ['simulate', 'simulate', ['simulate', 'fixtures/transcripts/keyword-search-then-call.json', '-c', DEMO, '--json'], 0],
];

describe('--json reports against their shipped JSON Schema', () => {
  const ajv = new Ajv({ allErrors: true, strict: true });
  it.each(CASES)('%s', async (_label, name, args, code) => {
    const r = await run(args);
    expect(r.code).toBe(code);
    const value = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(value)[0]).toBe('schema_version');
    expect(value.schema_version).toBe(1);
    const validate =
      ajv.getSchema(`https://toolsearch.invalid/schemas/${name}.schema.json`) ?? ajv.compile(schema(name));
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  });

  it('a schema rejects a report that lacks schema_version or has a field of the wrong type', () => {
    const validate = new Ajv({ strict: true }).compile(schema('select'));
    expect(validate({ matches: [], unknown: [] })).toBe(false);
    expect(validate({ schema_version: 1, matches: 'a', unknown: [] })).toBe(false);
    expect(validate({ schema_version: 1, matches: [], unknown: [] })).toBe(true);
  });

  it('the package ships the schemas (files and exports)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      files: string[];
      exports: Record<string, unknown>;
    };
    expect(pkg.files).toContain('src/schemas');
    expect(pkg.exports['./schemas/*']).toBe('./src/schemas/*');
  });
});
