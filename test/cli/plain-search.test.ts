/**
 * The commander-free reader of plain `search` arguments (src/cli/plain-search.ts) against commander itself:
 * for every argv made of query words and the flags it reads, both give the action the same words and flags;
 * for anything else it gives null and commander reads the argv. Also end to end: the built CLI prints the
 * same for a plain argv as for the same argv with a flag that only commander reads (`--verbose`), and loads
 * no commander for it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';

const seen = vi.hoisted(() => ({ calls: [] as Array<{ words: string[]; flags: Record<string, unknown> }> }));
vi.mock('../../src/cli/search-run.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/cli/search-run.js')>()),
  runSearch: async (_ctx: unknown, words: string[], flags: Record<string, unknown>) => {
    seen.calls.push({ words, flags: { ...flags } });
  },
}));

const { SEARCH } = await import('../../src/cli/commands.js');
const { CliContext } = await import('../../src/cli/context.js');
const { buildProgram } = await import('../../src/cli/program.js');
const { plainSearchArgs } = await import('../../src/cli/plain-search.js');
const { run, DEMO } = await import('./helpers.js');

const sink = () => ({ isTTY: false, write: () => true });

/** The words and flags commander gives the search action for `argv`. */
async function commanderReads(argv: string[]): Promise<{ words: string[]; flags: Record<string, unknown> }> {
  seen.calls.length = 0;
  const ctx = new CliContext({ stdout: sink(), stderr: sink(), stdin: Readable.from([]), env: {} });
  await (await buildProgram(ctx, '0.0.0-test', [SEARCH])).parseAsync(argv, { from: 'user' });
  expect(seen.calls).toHaveLength(1);
  return seen.calls[0]!;
}

const word = fc.oneof(
  fc.constantFrom('create', 'issue', '+slack', 'select:a,b', 'help', 'search', '', ' ', 'ß', 'c', 'n', '5', '0'),
  fc.string({ maxLength: 6 }).filter((s) => !s.startsWith('-')),
);
const piece = fc.oneof(
  word.map((w) => [w]),
  fc.constantFrom('-c', '--catalog').chain((f) => word.filter((w) => w !== '').map((v) => [f, v])),
  fc
    .constantFrom('-n', '--max-results')
    .chain((f) =>
      fc.oneof(fc.integer({ min: 1, max: 10 ** 9 }), fc.constant(Number.MAX_SAFE_INTEGER)).map((v) => [f, String(v)]),
    ),
  fc.constantFrom(['--json'], ['--explain'], ['--all'], ['--no-cache'], ['--no-color']),
);

describe('plain search arguments', () => {
  it('are read as commander reads them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 8 }), async (pieces) => {
        const argv = ['search', ...pieces.flat()];
        const plain = plainSearchArgs(argv);
        expect(plain).not.toBeNull();
        const expected = await commanderReads(argv);
        expect(plain!.words).toEqual(expected.words);
        expect(plain!.flags).toEqual(expected.flags);
      }),
      { numRuns: 300 },
    );
  });

  it('some examples, exactly', () => {
    expect(plainSearchArgs(['search', '-c', 'a.yaml', 'create', '--json', 'issue', '-c', 'b.json', '-n', '3'])).toEqual(
      {
        words: ['create', 'issue'],
        flags: {
          catalog: ['a.yaml', 'b.json'],
          catalogFormat: 'auto',
          mcpTimeout: '30',
          cache: true,
          json: true,
          maxResults: 3,
        },
      },
    );
    expect(plainSearchArgs(['search'])).toEqual({
      words: [],
      flags: { catalogFormat: 'auto', mcpTimeout: '30', cache: true },
    });
  });

  it('leave everything else to commander', () => {
    for (const argv of [
      ['select', '-c', 'a.yaml', 'x'],
      ['--no-color', 'search', '-c', 'a.yaml', 'x'],
      ['search', '--help'],
      ['search', '-h'],
      ['search', '--', 'x'],
      ['search', '-c'],
      ['search', '-c', '-x'],
      ['search', '--catalog=a.yaml', 'x'],
      ['search', '-ca.yaml', 'x'],
      ['search', '-n', '0', 'x'],
      ['search', '-n', '05', 'x'],
      ['search', '-n', '1e3', 'x'],
      ['search', '-n', '9999999999999999', 'x'],
      ['search', '-n'],
      ['search', '--args', '{"query":"x"}'],
      ['search', '--batch', '-'],
      ['search', '--why', 't', 'x'],
      ['search', '--expect', 't', 'x'],
      ['search', '--verbose', 'x'],
      ['search', '--static', 't', 'x'],
      ['search', '-', 'x'],
      ['search', '-x'],
      ['search', '--jsonx'],
    ]) {
      expect(plainSearchArgs(argv), argv.join(' ')).toBeNull();
    }
  });

  it('the built CLI prints the same whichever reader read the argv', async () => {
    for (const args of [
      ['-c', DEMO, 'create', 'issue'],
      ['-c', DEMO, 'create', '--json', 'issue', '-n', '2', '--explain'],
      ['-c', DEMO, '+slack', 'message', '--all', '--no-color'],
      ['-c', DEMO],
      ['create', 'issue'],
      ['-c', 'no/such/catalog.yaml', 'x'],
      ['-c', DEMO, 'select:mcp__github__create_issue,nope'],
    ]) {
      const plain = await run(['search', ...args]);
      // --verbose is read by commander only (and prints nothing here): the same search, through commander.
      const viaCommander = await run(['search', ...args, '--verbose']);
      expect(plain, args.join(' ')).toEqual(viaCommander);
    }
  }, 60_000);

  it('a plain search loads no commander; one that commander reads does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-plain-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const trace = fileURLToPath(new URL('../bench/trace-modules.mjs', import.meta.url));
    const commanderLoaded = async (args: string[]): Promise<boolean> => {
      const file = join(dir, `trace-${args.length}`);
      const r = await run(args, { env: { TOOLSEARCH_TRACE_MODULES: file, NODE_OPTIONS: `--import ${trace}` } });
      expect(r.code).toBe(0);
      return readFileSync(file, 'utf8')
        .split('\n')
        .some((u) => u.startsWith('file://') && u.endsWith('/dist/bundle/commander.cjs'));
    };
    expect(await commanderLoaded(['search', '-c', DEMO, 'create', 'issue'])).toBe(false);
    expect(await commanderLoaded(['search', '-c', DEMO, 'create', 'issue', '--verbose'])).toBe(true);
  }, 60_000);
});
