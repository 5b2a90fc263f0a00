// Every --json report of the BUILT CLI (`npm run build` first) carries
// "schema_version" and validates against the JSON Schema the package ships
// for it (src/schemas/<command>.schema.json, exported as
// toolsearch/schemas/<command>.schema.json), checked with ajv.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO, lines, run } from '../cli/helpers.js';
import { serverCommand } from '../formats/mcp/helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-json-schemas-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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
  [
    'simulate: a Responses call log with hosted tool calls and client searches (issue 28)',
    'simulate',
    ['simulate', 'fixtures/recordings/responses/namespaces.call-log.jsonl', '--mode', 'native', '--json'],
    0,
  ],
  [
    'bulk simulate: the aggregate of several recordings',
    'aggregate',
    [
      'simulate',
      'fixtures/transcripts/keyword-search-then-call.json',
      'fixtures/transcripts/deferred-tool-called-too-early.json',
      '-c',
      DEMO,
      '--json',
    ],
    0,
  ],
  [
    'bulk simulate: a JSONL file of sessions (a failed one among them)',
    'aggregate',
    ['simulate', 'fixtures/bulk/sessions.jsonl', 'test/cli/fixtures/invalid.json', '-c', DEMO, '--json'],
    2,
  ],
  [
    'bulk simulate: sessions of every engine (the engines tally)',
    'aggregate',
    [
      'simulate',
      'fixtures/engines/recordings/ai-sdk7-two-generations.json',
      'fixtures/engines/recordings/mastra-memory.json',
      'fixtures/transcripts/keyword-search-then-call.json',
      '-c',
      DEMO,
      '--json',
    ],
    0,
  ],
  [
    'aggregate --json',
    'aggregate',
    ['aggregate', 'fixtures/bulk/part-1.json', 'fixtures/bulk/part-2.json', '--json'],
    0,
  ],
  ['import --json', 'import', ['import', '--mcp', serverCommand(['--tools', '3']), '--name', 'gh', '--json'], 0],
];

/** Outputs of one JSON object per line, each line against the schema. */
const LINE_CASES: ReadonlyArray<readonly [string, string, readonly string[], number, string | null]> = [
  [
    'search --batch: matches and errors',
    'search-batch',
    ['search', '-c', DEMO, '--batch', '-'],
    0,
    '{"query":"read file"}\n\n{"query": 3}\n{"query":"select:nope"}\n',
  ],
  [
    'search --batch --engine mastra: each line names the engine',
    'search-batch',
    ['search', '-c', DEMO, '--engine', 'mastra', '--batch', '-'],
    0,
    '{"query":"read file"}\n\n{"query": 3}\n{"query":"slack"}\n',
  ],
  [
    'simulate --jsonl: replayed sessions, warnings and a failed one',
    'simulate-jsonl',
    ['simulate', 'fixtures/bulk/sessions.jsonl', 'test/cli/fixtures/invalid.json', '-c', DEMO, '--jsonl'],
    2,
    null,
  ],
];

/** Every shipped schema, by $id (a schema may refer to another: simulate-jsonl's report is simulate's). */
function schemas(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true });
  for (const f of readdirSync(new URL('../../src/schemas/', import.meta.url)).filter((n) => n.endsWith('.json')))
    ajv.addSchema(schema(f.replace(/\.schema\.json$/, '')));
  return ajv;
}

describe('--json reports against their shipped JSON Schema', () => {
  const ajv = schemas();
  it.each(CASES)('%s', async (_label, name, args, code) => {
    const r = await run(args);
    expect(r.code).toBe(code);
    const value = JSON.parse(r.stdout) as Record<string, unknown>;
    // The aggregate says what it is first (kind), then its version; every other report starts with its version.
    expect(Object.keys(value).slice(0, name === 'aggregate' ? 2 : 1)).toEqual(
      name === 'aggregate' ? ['kind', 'schema_version'] : ['schema_version'],
    );
    expect(value.schema_version).toBe(1);
    const validate = ajv.getSchema(`https://toolsearch.invalid/schemas/${name}.schema.json`)!;
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(LINE_CASES)('%s', async (_label, name, args, code, input) => {
    const r = await run(args, input !== null ? { input } : {});
    expect(r.code).toBe(code);
    const validate = ajv.getSchema(`https://toolsearch.invalid/schemas/${name}.schema.json`)!;
    const values = lines(r.stdout).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(values.length).toBeGreaterThan(3);
    // Both kinds of line are there (a result and an error), each starting with its version.
    expect(values.some((v) => 'error' in v)).toBe(true);
    expect(values.some((v) => !('error' in v))).toBe(true);
    for (const v of values) {
      expect(Object.keys(v)[0]).toBe('schema_version');
      expect(validate(v), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('simulate --sidechains --json: a list of reports, each a simulate report with its version', async () => {
    const r = await run([
      'simulate',
      '--no-tokens',
      '-c',
      DEMO,
      'fixtures/transcripts/toolsearch-references.claude-code.jsonl',
      '--sidechains',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as unknown[];
    expect(Array.isArray(list)).toBe(true);
    const validate = ajv.getSchema('https://toolsearch.invalid/schemas/simulate.schema.json')!;
    for (const v of list) expect(validate(v), JSON.stringify(validate.errors)).toBe(true);
  });

  it('every --json output of every command has its schema: the list of shipped schemas', () => {
    const files = readdirSync(new URL('../../src/schemas/', import.meta.url)).sort();
    expect(files).toEqual(
      [
        'aggregate',
        'eval',
        'import',
        'lint',
        'search-batch',
        'search',
        'select',
        'simulate-jsonl',
        'simulate',
        'test',
        'watch-jsonl',
      ]
        .map((n) => `${n}.schema.json`)
        .sort(),
    );
    // watch --jsonl is a server that runs until Ctrl-C: test/cli/watch/schema.test.ts checks its lines.
    const covered = new Set([...CASES, ...LINE_CASES].map((c) => c[1]).concat('watch-jsonl'));
    for (const f of files) expect(covered.has(f.replace(/\.schema\.json$/, ''))).toBe(true);
  });

  it('the aggregate schema rejects what the aggregate reader rejects: an unknown field, a negative count', () => {
    const validate = ajv.getSchema('https://toolsearch.invalid/schemas/aggregate.schema.json')!;
    const part = JSON.parse(readFileSync('fixtures/bulk/part-1.json', 'utf8')) as Record<string, unknown>;
    expect(validate(part), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...part, extra: 1 })).toBe(false);
    expect(validate({ ...part, model_calls: -1 })).toBe(false);
    const { schema_version: _, ...unversioned } = part;
    expect(validate(unversioned)).toBe(false);
  });

  it('import --json reads back as a catalog (schema_version is no tool data)', async () => {
    const out = join(tmp, 'imported.json');
    expect((await run(['import', '--mcp', serverCommand(['--tools', '2']), '--json', '-o', out])).code).toBe(0);
    const r = await run(['search', '-c', out, 'issue', '--json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).matches).toEqual(['mcp__test_server__create_issue', 'mcp__test_server__list-issues']);
  });

  it('the simulate schema holds every turn to its provider calls and searches (issue 28)', async () => {
    const validate = ajv.getSchema('https://toolsearch.invalid/schemas/simulate.schema.json')!;
    const r = await run([
      'simulate',
      'fixtures/recordings/responses/namespaces.call-log.jsonl',
      '--no-tokens',
      '--json',
    ]);
    const report = JSON.parse(r.stdout) as { turns: Array<Record<string, unknown>>; summary: object };
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const turn = report.turns[0]! as { server_searches: Array<Record<string, unknown>>; provider_calls: unknown };
    const { provider_calls: _, ...noProviderCalls } = turn;
    expect(validate({ ...report, turns: [noProviderCalls] })).toBe(false);
    const { execution: __, ...noExecution } = turn.server_searches[0]!;
    expect(validate({ ...report, turns: [{ ...turn, server_searches: [noExecution] }] })).toBe(false);
    expect(validate({ ...report, summary: { ...report.summary, provider_calls: -1 } })).toBe(false);
  });

  it('a schema rejects a report that lacks schema_version or has a field of the wrong type', () => {
    const validate = new Ajv({ strict: true }).compile(schema('select'));
    expect(validate({ matches: [], unknown: [] })).toBe(false);
    expect(validate({ schema_version: 1, matches: 'a', unknown: [] })).toBe(false);
    expect(validate({ schema_version: 1, matches: [], unknown: [] })).toBe(false);
    expect(validate({ schema_version: 1, engine: 'eino', matches: [], unknown: [] })).toBe(true);
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
