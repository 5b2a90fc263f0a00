/**
 * Terminal safety, end to end with the built CLI (`npm run build` first):
 * catalog and transcript text holding ANSI/OSC escape sequences, C0/C1
 * controls, bidi overrides and very long lines is shown escaped or cut in
 * the human output of every command — on stdout, in warnings, in failure
 * diffs and in error messages — and never reaches the terminal raw; `--json`
 * stays valid JSON with the text intact.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogFiles } from '../../src/formats/index.js';
import { type CliResult, expectTerminalSafe, HOSTILE, spawnCli, tempDir, UNSAFE } from './helpers.js';

const CAT = join(HOSTILE, 'escapes.catalog.json');
const TRANSCRIPT = join(HOSTILE, 'escapes.transcript.json');
const SUITE = join(HOSTILE, 'escapes.suite.yaml');
const QUERIES = join(HOSTILE, 'escapes.queries.jsonl');
const ESC = '\u001b';
const RED = `evil${ESC}[31mred`;

const tmp = tempDir();
const BAD_SHAPE = tmp.file('bad-shape.json', JSON.stringify({ [`${ESC}]0;pwned\u0007`]: [], 'x\u202ey': 1 }));
const BAD_ROLE = tmp.file('bad-role.json', JSON.stringify([{ role: `${ESC}[2Jroot`, content: 'x' }]));
const BAD_NAME = tmp.file('bad-name.json', JSON.stringify({ tools: [{ name: RED }, { name: RED }] }));
const LONG_ROLE = tmp.file('long-role.json', JSON.stringify([{ role: `x${'y'.repeat(100_000)}`, content: 'x' }]));

/** Human runs: [label, argv, expected exit code]. */
const HUMAN: ReadonlyArray<readonly [string, readonly string[], number]> = [
  [
    'search --explain --all --why',
    [
      'search',
      '-c',
      CAT,
      '--explain',
      '--all',
      '--why',
      `constructor,${RED}`,
      '--',
      'evil',
      'red',
      'create',
      'issue',
      'words',
    ],
    0,
  ],
  ['search, a narrow terminal', ['search', '-c', CAT, '--', 'evil', 'red', 'words', 'page'], 0],
  [
    'search --expect-first (a failure diff)',
    [
      'search',
      '-c',
      CAT,
      '--expect-first',
      'bidi_\u202egnp_exe',
      '--expect',
      `static${ESC}[5mblink`,
      '--',
      'evil',
      'red',
    ],
    1,
  ],
  [
    'error: --expect-first names a hostile unknown tool',
    ['search', '-c', CAT, '--expect-first', `no_such${ESC}[31m`, '--', 'evil', 'red'],
    2,
  ],
  [
    'search --args with escapes',
    ['search', '-c', CAT, '--args', JSON.stringify({ query: `${ESC}[31m select:${RED}` })],
    0,
  ],
  [
    'select with unknown hostile names (warnings)',
    [
      'select',
      '-c',
      CAT,
      '--',
      '__proto__',
      RED,
      'bidi_\u202egnp_exe',
      `nosuch${ESC}]0;x\u0007`,
      `static${ESC}[5mblink`,
    ],
    0,
  ],
  ['simulate --replay', ['simulate', TRANSCRIPT, '-c', CAT, '--replay'], 0],
  [
    'simulate --mode native --fail-on-violation (details on stderr)',
    ['simulate', TRANSCRIPT, '-c', CAT, '--mode', 'native', '--fail-on-violation', '--static', 'control_chars'],
    1,
  ],
  ['lint --all', ['lint', CAT, '--all'], 0],
  ['test (failing cases quote hostile names)', ['test', SUITE], 1],
  ['test --reporter tap', ['test', SUITE, '--reporter', 'tap'], 1],
  ['eval', ['eval', QUERIES, '-c', CAT, '--misses', '10'], 0],
  ['error: an unknown shape with hostile keys', ['search', '-c', BAD_SHAPE, 'x'], 2],
  ['error: an unknown role with escapes', ['simulate', BAD_ROLE, '-c', CAT], 2],
  ['error: a 100,000-character role is cut', ['simulate', LONG_ROLE, '-c', CAT], 2],
  ['error: a duplicate hostile name', ['search', '-c', BAD_NAME, 'x'], 2],
  ['error: a hostile flag value', ['search', '-c', CAT, '-n', `${ESC}[31m`, 'x'], 2],
  ['error: a hostile file name', ['search', '-c', `no${ESC}[2Jsuch\u202e.json`, 'x'], 2],
  ['error: a hostile command', [`${ESC}]0;pwned\u0007`], 2],
];

const results = new Map<string, CliResult>();

beforeAll(async () => {
  // The built CLI, four at a time.
  const queue = [...HUMAN];
  const worker = async (): Promise<void> => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const [label, argv] = job;
      results.set(label, await spawnCli(argv, { env: label.includes('narrow') ? { COLUMNS: '40' } : {} }));
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}, 120_000);

describe('human output of every command: nothing raw reaches the terminal', () => {
  it.each(HUMAN)('%s', (label, _argv, code) => {
    const r = results.get(label)!;
    expect(r.code, r.stderr).toBe(code);
    expectTerminalSafe(r.stdout, 'stdout');
    expectTerminalSafe(r.stderr, 'stderr');
    // The hostile text is there, escaped.
    expect(`${r.stdout}${r.stderr}`).toMatch(/\\x1b|\\u001b|\\u202e|\\x07|__proto__|…/);
    if (code === 2) expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
  });

  it('tables fit the width: search, select and simulate lines are at most 100 columns (40 when COLUMNS=40)', () => {
    for (const label of [
      'search --explain --all --why',
      'select with unknown hostile names (warnings)',
      'simulate --replay',
    ]) {
      for (const line of results.get(label)!.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    }
    for (const line of results.get('search, a narrow terminal')!.stdout.split('\n'))
      expect(line.length, line).toBeLessThanOrEqual(40);
  });

  it('a long quoted value in an error keeps the start and end of the line', () => {
    const line = results.get('error: a 100,000-character role is cut')!.stderr.split('\n')[0]!;
    expect(line.length).toBeLessThanOrEqual(1000 + 'error: '.length);
    expect(line).toMatch(
      new RegExp(`^error: ${LONG_ROLE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:\\d+: unknown role "xyyy`),
    );
    expect(line).toContain('…');
  });
});

describe('--json keeps the text intact', () => {
  it('search, select, simulate, lint and eval', async () => {
    const [search, select, simulate, lint, evaluation] = await Promise.all([
      spawnCli(['search', '-c', CAT, '--json', '--explain', '--', 'evil', 'red']),
      spawnCli(['select', '-c', CAT, '--json', '--', RED, 'bidi_\u202egnp_exe', `nosuch${ESC}]0;x\u0007`]),
      spawnCli(['simulate', TRANSCRIPT, '-c', CAT, '--json', '--replay']),
      spawnCli(['lint', CAT, '--json']),
      spawnCli(['eval', QUERIES, '-c', CAT, '--json']),
    ]);
    // Valid JSON, nothing a terminal acts on (C1 and bidi controls as \u escapes), the text intact once decoded.
    for (const r of [search, select, simulate, lint, evaluation]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(UNSAFE);
    }
    const s = JSON.parse(search.stdout) as { matches: string[]; results: Array<{ name: string; description: string }> };
    expect(s.matches[0]).toBe(RED);
    expect(s.results[0]!.description).toContain(`${ESC}[2J${ESC}[H`);
    expect(s.results[0]!.description).toContain('\u009b31m');
    expect(JSON.parse(select.stdout)).toEqual({
      schema_version: 1,
      engine: 'eino',
      matches: [RED, 'bidi_\u202egnp_exe'],
      unknown: [`nosuch${ESC}]0;x\u0007`],
    });
    // The warning about the unknown name is escaped on stderr.
    expectTerminalSafe(select.stderr, 'stderr');
    const sim = JSON.parse(simulate.stdout) as {
      turns: Array<{ tool_calls: Array<{ name: string; arguments: string }> }>;
      violations: Array<{ tool: string }>;
    };
    const calls = sim.turns.flatMap((t) => t.tool_calls);
    expect(calls.map((c) => c.name)).toContain(RED);
    expect(calls.find((c) => c.name === RED)!.arguments).toBe(JSON.stringify({ text: `${ESC}]0;title\u0007` }));
    expect(sim.violations.map((v) => v.tool)).toContain('no_such\u202etool');
    expect(lint.stdout).toContain(JSON.stringify(RED));
    expect(simulate.stdout).toContain('no_such\\u202etool');
    expect(JSON.parse(lint.stdout)).toBeTruthy();
    expect(JSON.parse(evaluation.stdout)).toBeTruthy();
    expect(evaluation.stdout).toContain(JSON.stringify(RED));
  }, 60_000);
});

describe('import writes no raw terminal controls (JSON or YAML), and the catalog reads back unchanged', () => {
  // Found by the fuzzer: `import --json` printed a server's U+202E raw (its YAML was escaped already).
  // The server is the fuzzer's harmless one: descriptions with OSC, U+202E and markup.
  it.each([[[] as string[]], [['--json']]])('import %j', async (flags) => {
    const server = join(HOSTILE, '../../test/fuzz/mcp-server.mjs');
    const r = await spawnCli(['import', '--mcp', `${process.execPath} ${server} ok`, '--name', 'f', ...flags]);
    expect(r.code, r.stderr).toBe(0);
    expectTerminalSafe(r.stdout, 'import');
    const file = tmp.file(`imported${flags.length}.${flags.length > 0 ? 'json' : 'yaml'}`, r.stdout);
    const back = loadCatalogFiles([file]).tools;
    expect(back.map((t) => [t.name, t.description])).toEqual([
      ['mcp__f__create_issue', 'Create an issue \u001b]0;pwned\u0007 in a repository.'],
      ['mcp__f__list-issues', 'List issues <script>window.pwned=1</script>'],
      ['mcp__f__post_message', 'Post a message "><img src=x onerror=alert(1)>'],
      ['mcp__f__read_file', 'Read a file \u202egnp.exe javascript:alert(1)'],
    ]);
  });
});
