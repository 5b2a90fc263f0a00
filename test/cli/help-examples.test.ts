/**
 * Every `$ toolsearch …` example of every help text runs as shown, from the
 * repository root, through bash (`node bin/toolsearch.js` in place of
 * `toolsearch`): exit 0, or 1 where the example shows a failing check, and
 * never a missing file. Examples that write files run in a temporary copy
 * of `fixtures/`, never in the repository.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, run, type RunResult, sh } from './helpers.js';

/** Not run, each for its reason (the text after `$ `, exactly as in the help). */
const SKIPPED: ReadonlyMap<string, string> = new Map([
  // A template of the help itself, not a command (`<command>` would be a redirection).
  ['toolsearch <command> --help', 'placeholder'],
  // Interactive: need a terminal.
  ['toolsearch explore -c fixtures/catalogs/demo.yaml', 'needs a TTY'],
  ['toolsearch explore -c fixtures/catalogs/demo.yaml create issue        # start with a query', 'needs a TTY'],
  [
    'toolsearch explore -c fixtures/catalogs/demo.yaml -c ' +
      'fixtures/formats/catalogs/mcp.json -n 10   # two catalogs merged',
    'needs a TTY',
  ],
  [
    'toolsearch simulate fixtures/transcripts/deferred-tool-called-too-early.json -c fixtures/catalogs/demo.yaml --tui',
    'needs a TTY',
  ],
  [
    'toolsearch explore -c fixtures/catalogs/demo.yaml --engine mastra create issue   # Mastra beside the reference',
    'needs a TTY',
  ],
  [
    'toolsearch explore -c fixtures/catalogs/demo.yaml --engine ./fixtures/engines/bm25-fields.mjs   # your module',
    'needs a TTY',
  ],
  // A live server that runs until Ctrl-C (test/cli/watch/ runs it with real clients), and what it recorded.
  ['toolsearch watch --jsonl', 'live server'],
  ['toolsearch watch --proxy https://api.openai.com/v1 -c catalog.yaml --mode native', 'live server'],
  ['toolsearch watch --proxy https://api.anthropic.com --jsonl -o calls.jsonl > calls.lines', 'live server'],
  ['toolsearch simulate calls.jsonl --jsonl-input sessions --jsonl', 'the recording of the live server above'],
  // Live MCP servers (npx and uvx may download them; the URL is a server of the reader's).
  ['toolsearch import --mcp "npx -y @modelcontextprotocol/server-everything" -o catalog.yaml', 'live MCP server'],
  [
    'toolsearch import --mcp "uvx mcp-server-git" --name git --mcp "npx ' +
      '-y @modelcontextprotocol/server-github" --name github',
    'live MCP servers',
  ],
  ['toolsearch import --mcp-url http://127.0.0.1:3000/mcp --json', 'live MCP server'],
  ["toolsearch search -c 'mcp:npx -y @modelcontextprotocol/server-everything' echo", 'live MCP server'],
  [
    'toolsearch import --config .mcp.json --server github --server slack -o catalog.yaml',
    "the reader's MCP client config",
  ],
  // Install a completion script into the reader's shell set-up (its home directory).
  [
    'toolsearch completion bash > ~/.local/share/bash-completion/completions/toolsearch',
    "writes into the reader's home",
  ],
  [
    'toolsearch completion zsh > "${fpath[1]}/_toolsearch"      # then: autoload -U compinit && compinit',
    "zsh's fpath",
  ],
  ['toolsearch completion fish > ~/.config/fish/completions/toolsearch.fish', "writes into the reader's home"],
]);

/** Examples that show a failing check: exit 1 is what they demonstrate. */
const FAILING: ReadonlySet<string> = new Set([
  'toolsearch simulate fixtures/transcripts/stale-after-catalog-change.json ' +
    '-c fixtures/catalogs/demo-v2.yaml --replay --expect-same',
  'toolsearch simulate fixtures/transcripts/deferred-tool-called-too-early.json -c ' +
    'fixtures/catalogs/demo.yaml --fail-on-violation --json > report.json',
  'toolsearch lint fixtures/lint/problems.yaml --strict   # CI: exit 1 when a tool has an error',
  'toolsearch aggregate fixtures/bulk/part-*.json --fail-on-violation',
  // The demo suite was written for the reference: under the AI SDK's ranking some of its checks fail.
  'toolsearch test fixtures/suites/demo.yaml --engine ai-sdk',
]);

/** Examples that write: run in a temporary copy of fixtures/, with the file (relative to it) they must leave behind. */
const WRITING: ReadonlyMap<string, string> = new Map([
  [
    'toolsearch eval fixtures/eval/demo-queries.jsonl -c ' +
      'fixtures/catalogs/demo.yaml --scorers spec,bm25 --json > eval.json',
    'eval.json',
  ],
  [
    'toolsearch simulate fixtures/transcripts/deferred-tool-called-too-early.json -c ' +
      'fixtures/catalogs/demo.yaml --fail-on-violation --json > report.json',
    'report.json',
  ],
  ['toolsearch test fixtures/suites/*.yaml --reporter junit --output junit.xml', 'junit.xml'],
  ['toolsearch test fixtures/suites/demo.yaml --update', 'fixtures/suites/demo.yaml'],
  [
    'toolsearch simulate fixtures/transcripts/deferred-tool-called-too-early.json ' +
      '-c fixtures/catalogs/demo.yaml --replay --html simulate.html',
    'simulate.html',
  ],
  ['toolsearch eval fixtures/eval/demo-queries.jsonl -c fixtures/catalogs/demo.yaml --html eval.html', 'eval.html'],
  ['toolsearch test fixtures/suites/*.yaml --reporter html --output report.html', 'report.html'],
  ['toolsearch aggregate fixtures/bulk/part-1.json fixtures/bulk/part-2.json --html aggregate.html', 'aggregate.html'],
  [
    "toolsearch simulate 'fixtures/transcripts/*.anthropic.json' -c " +
      'fixtures/catalogs/demo.yaml --no-tokens --jsonl --jobs 2 --aggregate agg.json',
    'agg.json',
  ],
  [
    'toolsearch simulate fixtures/bulk/sessions.jsonl -c fixtures/catalogs/demo.yaml --no-tokens --aggregate ' +
      'part-3.json > /dev/null && toolsearch aggregate fixtures/bulk/part-1.json part-3.json',
    'part-3.json',
  ],
]);

/** A redirection or an option that writes a file: such an example must be in WRITING (or SKIPPED). */
const WRITES = /(?:^|\s)(?:>|>>|-o|--output|--update|-u|--aggregate|--html)(?:\s|$)/;

/** Runs a shell command line in `cwd`. */
const bash = (command: string, cwd: string): Promise<RunResult> => sh(command, { cwd });

/** The example with `node <bin>` where it runs toolsearch (at the start, after a pipe or an `&&`). */
function commandOf(example: string, bin: string): string {
  return example.replace(/(^|\|\s*|&&\s*)toolsearch(?=\s)/g, `$1node ${bin}`);
}

/** Runs jobs `n` at a time. */
async function pool<T>(jobs: ReadonlyArray<() => Promise<T>>, n: number): Promise<T[]> {
  const results: T[] = new Array<T>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
  return results;
}

/** Every `$ …` line that runs toolsearch, per help text. */
const examples: Array<{ help: string; example: string }> = [];
const results = new Map<string, RunResult>();
let copy = '';

beforeAll(async () => {
  const root = await run(['--help']);
  expect(root.code).toBe(0);
  const section = root.stdout.slice(root.stdout.indexOf('\nCommands:\n'));
  const commands = [...section.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!).filter((c) => c !== 'help');
  // The parse found the commands (a new one is picked up: its examples run too).
  expect(commands).toEqual(
    expect.arrayContaining(['search', 'select', 'simulate', 'test', 'eval', 'lint', 'import', 'explore']),
  );
  const helps = await Promise.all(
    [['--help'], ...commands.map((c) => [c, '--help'])].map(async (argv) => ({ argv, r: await run(argv) })),
  );
  for (const { argv, r } of helps) {
    expect(r.code, argv.join(' ')).toBe(0);
    for (const m of r.stdout.matchAll(/^\s*\$ (.*)$/gm)) {
      const example = m[1]!.trimEnd();
      if (/(^|\|\s*|&&\s*)toolsearch\s/.test(example)) examples.push({ help: argv.join(' '), example });
    }
  }
  copy = mkdtempSync(join(tmpdir(), 'toolsearch-help-examples-'));
  cpSync(join(ROOT, 'fixtures'), join(copy, 'fixtures'), { recursive: true });
  const distinct = [...new Set(examples.map((e) => e.example))].filter((e) => !SKIPPED.has(e));
  const outcomes = await pool(
    distinct.map(
      (e) => () => (WRITING.has(e) ? bash(commandOf(e, BIN), copy) : bash(commandOf(e, 'bin/toolsearch.js'), ROOT)),
    ),
    4,
  );
  distinct.forEach((e, i) => results.set(e, outcomes[i]!));
}, 120_000);

afterAll(() => {
  if (copy !== '') rmSync(copy, { recursive: true, force: true });
});

describe('help examples', () => {
  it('every help text has examples, and the lists above name only examples that exist', () => {
    const helps = new Set(examples.map((e) => e.help));
    expect([...helps]).toEqual(
      expect.arrayContaining([
        '--help',
        'aggregate --help',
        'eval --help',
        'explore --help',
        'import --help',
        'lint --help',
        'search --help',
        'select --help',
        'simulate --help',
        'test --help',
      ]),
    );
    const all = new Set(examples.map((e) => e.example));
    for (const e of [...SKIPPED.keys(), ...FAILING, ...WRITING.keys()]) expect(all.has(e), e).toBe(true);
  });

  it('an example that writes a file is run in a temporary copy (or skipped)', () => {
    for (const { example } of examples) {
      if (WRITES.test(example)) expect(WRITING.has(example) || SKIPPED.has(example), example).toBe(true);
    }
  });

  it('every example runs: exit 0 (1 where it shows a failing check), no missing file', () => {
    const failures: string[] = [];
    for (const [example, r] of results) {
      const code = FAILING.has(example) ? 1 : 0;
      if (r.code !== code || /no such file/i.test(r.stderr))
        failures.push(`${example}\n  exit ${r.code} (expected ${code})\n  ${r.stderr.trim().split('\n').join('\n  ')}`);
    }
    expect(failures).toEqual([]);
    expect(results.size).toBeGreaterThanOrEqual(20);
  });

  it('the examples that write leave their file in the copy, not in the repository', () => {
    for (const file of new Set(WRITING.values())) {
      expect(existsSync(join(copy, file)), file).toBe(true);
      expect(statSync(join(copy, file)).size, file).toBeGreaterThan(0);
    }
    for (const file of ['eval.json', 'report.json', 'junit.xml'])
      expect(existsSync(join(ROOT, file)), file).toBe(false);
    expect(readFileSync(join(copy, 'junit.xml'), 'utf8')).toMatch(/^<\?xml/);
  });
});
