// Catalog and CI flags of issue 13, end to end through the BUILT CLI
// (`npm run build` first; NO_COLOR=1): --static everywhere, a file given twice,
// YAML aliases, help, exit code 70 in --help, FORCE_COLOR, --why/--expect typos,
// expectations in --json, eval --min, test -c/--grep/--json/--no-cache.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { colorEnabled } from '../../src/render/color.js';
import { BIN, DEMO, lines, run, sh } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-ci-flags-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const STATICS = 'get_current_time,ask_user,read_todo_list,write_todo_list,think';
const QUERIES = 'fixtures/eval/demo-queries.jsonl';

describe('--static on every command that reads a catalog', () => {
  it.each([
    ['search', ['search', '-c', 'fixtures/catalogs/demo.eino.json', '--static', STATICS, 'think', '--json', '--all']],
    ['lint', ['lint', '-c', 'fixtures/catalogs/demo.mcp.json', '--static', STATICS, '--json']],
    [
      'eval',
      ['eval', QUERIES, '-c', 'fixtures/catalogs/demo.eino.json', '--static', STATICS, '--json', '--scorers', 'spec'],
    ],
  ])('%s: demo.eino.json / demo.mcp.json split as demo.yaml', async (command, args) => {
    const r = await run(args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    if (command === 'search') expect([json.matches, json.static_included]).toEqual([['think'], true]);
    if (command === 'lint')
      expect(json.catalog).toEqual({ source: 'fixtures/catalogs/demo.mcp.json', dynamic: 125, static: 5 });
    if (command === 'eval') expect(json.catalog.dynamic).toBe(125);
  });

  it('select: a static tool is never selected; an unknown name is exit 2 with did-you-mean', async () => {
    const r = await run(['select', 'think', '-c', 'fixtures/catalogs/demo.eino.json', '--static', STATICS]);
    expect(r.stderr).toBe('warning: skipped think: a static tool, always visible and never selected\n');
    const bad = await run(['search', '-c', 'fixtures/catalogs/demo.eino.json', '--static', 'get_current_tim', 'x']);
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --static names a tool that is not in the catalog: "get_current_tim" (did you mean get_current_time?)\n',
    });
  });
});

describe('catalog files', () => {
  it('the same file given twice says so', async () => {
    const a = await run(['search', '-c', DEMO, '-c', DEMO, 'x']);
    expect(a).toEqual({ code: 2, stdout: '', stderr: `error: the catalog ${DEMO} is given twice\n` });
    const b = await run(['lint', DEMO, '-c', `./${DEMO}`]);
    expect(b).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: the catalog ./${DEMO} is given twice (also as ${DEMO})\n`,
    });
  });

  it('a name repeated through a YAML alias points at the alias', async () => {
    const file = join(tmp, 'alias.yaml');
    writeFileSync(file, 'tools:\n  - &t {name: a, description: x}\n  - {name: b}\n  - *t\n');
    const r = await run(['search', '-c', file, 'a']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      `error: ${file}:4:5: duplicate tool name "a": first defined at ${file}:2:8, again at ${file}:4:5`,
      '    - *t',
      '      ^',
    ]);
  });
});

describe('help and colours', () => {
  it('help <unknown> says unknown command (exit 2); help <command> shows its help', async () => {
    expect(await run(['help', 'nosuch'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: unknown command 'nosuch'; commands: search, select, simulate, " +
        'watch, aggregate, test, eval, lint, import, explore, completion, help\n',
    });
    const typo = await run(['help', 'serch']);
    expect(typo.stderr).toBe(
      "error: unknown command 'serch' (did you mean search, select?); commands: search, select, " +
        'simulate, watch, aggregate, test, eval, lint, import, explore, completion, help\n',
    );
    const ok = await run(['help', 'lint']);
    expect(ok.code).toBe(0);
    expect(lines(ok.stdout)[0]).toBe('Usage: toolsearch lint [options] [catalog...]');
  });

  it('every --help lists exit code 70', async () => {
    const root = await run(['--help']);
    expect(root.stdout).toContain('70 an internal error (a bug in toolsearch; TOOLSEARCH_DEBUG=1 shows the stack).');
    for (const c of [
      'search',
      'select',
      'simulate',
      'aggregate',
      'test',
      'eval',
      'lint',
      'import',
      'explore',
      'completion',
    ]) {
      const r = await run([c, '--help']);
      expect(lines(r.stdout).at(-1), c).toBe(
        'Exit code 70: an internal error (a bug in toolsearch; TOOLSEARCH_DEBUG=1 shows the stack).',
      );
    }
  });

  it('FORCE_COLOR=0 and FORCE_COLOR=false turn colours off on a terminal, as in Node and supports-color', async () => {
    const ttyRun = async (env: Record<string, string>): Promise<string> => {
      let out = '';
      const tty = { write: (s: string) => ((out += s), true), isTTY: true, columns: 100 };
      await main(['search', '-c', DEMO, 'create', 'issue', '-n', '1'], {
        stdout: tty,
        stderr: tty,
        stdin: Readable.from([]),
        env,
      });
      return out;
    };
    expect(await ttyRun({})).toContain('\u001b[');
    expect(await ttyRun({ FORCE_COLOR: '0' })).not.toContain('\u001b[');
    expect(await ttyRun({ FORCE_COLOR: 'false' })).not.toContain('\u001b[');
    expect(await ttyRun({ FORCE_COLOR: 'FALSE' })).not.toContain('\u001b[');
    expect(colorEnabled({ noColorFlag: false, env: { FORCE_COLOR: '1', NO_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(colorEnabled({ noColorFlag: false, env: { FORCE_COLOR: '0' }, isTTY: true })).toBe(false);
  });
});

describe('search: named tools and expectations', () => {
  it('--why and --expect with a typo are exit 2 with did-you-mean', async () => {
    expect(await run(['search', '-c', DEMO, 'create', 'issue', '--why', 'mcp__github__create_isue'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --why: "mcp__github__create_isue" is not a tool of the ' +
        'catalog (did you mean mcp__github__create_issue?)\n',
    });
    expect(await run(['search', '-c', DEMO, 'create', 'issue', '--expect', 'mcp__linear__create_isue'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --expect: "mcp__linear__create_isue" is not a tool of the ' +
        'catalog (did you mean mcp__linear__create_issue?)\n',
    });
  });

  it('with --json a failed expectation is in the JSON (and still exit 1)', async () => {
    const r = await run([
      'search',
      '-c',
      DEMO,
      'create',
      'issue',
      '--expect-first',
      'mcp__github__create_issue',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).expectations).toEqual({
      passed: false,
      failures: [{ kind: 'expect-first', expected: 'mcp__github__create_issue' }],
    });
    const ok = await run(['search', '-c', DEMO, 'create', 'issue', '--expect', 'mcp__github__create_issue', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).expectations).toEqual({ passed: true, failures: [] });
  });
});

describe('simulate: which tool set', () => {
  it('-c on a transcript that carries its own tools says the catalog is used instead', async () => {
    const r = await run([
      'simulate',
      'fixtures/transcripts/keyword-search-then-call.anthropic.json',
      '-c',
      DEMO,
      '--json',
      '--no-tokens',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).catalog.source).toBe(
      `${DEMO} (given with -c, not the 130 tools the transcript carries)`,
    );
  });
});

describe('eval --min', () => {
  it('exit 1 below a floor, naming each metric; --json carries the checks', async () => {
    const low = await run(['eval', QUERIES, '-c', DEMO, '--min', 'recall@5=0.95,mrr=0.8,bm25:ndcg@5=0.99']);
    expect(low.code).toBe(1);
    expect(low.stderr).toBe('fail: spec recall@5 is 0.915, below --min 0.95; bm25 ndcg@5 is 0.874, below --min 0.99\n');
    const ok = await run(['eval', QUERIES, '-c', DEMO, '--scorers', 'spec', '--min', 'recall@5=0.9', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).min).toEqual([
      { scorer: 'spec', metric: 'recall@5', min: 0.9, value: 0.9148284313725491, passed: true },
    ]);
    const bad = await run(['eval', QUERIES, '-c', DEMO, '--min', 'no_result=0.1']);
    expect(bad.code).toBe(2);
    expect(lines(bad.stderr)[0]).toBe(
      "error: option '--min <metric=value,…>' argument 'no_result=0.1' is invalid. unknown " +
        'metric "no_result" (no_result is better when lower: it has no minimum); the metrics ' +
        'are recall@1, recall@3, recall@5, recall@10, mrr, ndcg@5.',
    );
  });
});

describe('test: -c, --grep, --json, --no-cache', () => {
  it('--grep runs the matching cases only; --json is the json reporter; --no-cache is accepted', async () => {
    const r = await run([
      'test',
      'fixtures/suites/demo.yaml',
      'fixtures/suites/select.json',
      '--grep',
      'Slack|duplicates',
      '--json',
      '--no-cache',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.suites.map((s: { cases: Array<{ name: string }> }) => s.cases.map((c) => c.name))).toEqual([
      ['sending a Slack message'],
      ['duplicates are kept'],
    ]);
    expect(report.summary).toMatchObject({ total: 2, passed: 2, errors: 0 });
    const none = await run(['test', 'fixtures/suites/select.json', '--grep', 'nothing like this']);
    expect(none).toEqual({ code: 2, stdout: '', stderr: 'error: --grep "nothing like this" matches no case\n' });
    const bad = await run(['test', 'fixtures/suites/select.json', '--grep', '(']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --grep "\(" is not a regular expression: /);
  });

  it('-c runs every case against a candidate catalog', async () => {
    const file = join(tmp, 'candidate.yaml');
    // The candidate describes the GitHub tool with "ticket", a word the demo catalog does not have.
    writeFileSync(
      file,
      'tools:\n  - {name: mcp__github__create_issue, description: open a ticket}\n' +
        '  - {name: mcp__linear__create_issue, description: Create an issue in Linear}\n',
    );
    const suite = join(tmp, 'suite.yaml');
    writeFileSync(
      suite,
      `catalog: ${JSON.stringify(join(process.cwd(), DEMO))}\ncases:\n  - name: nothing is ` +
        `a ticket\n    query: ticket\n    none: true\n  - name: linear first\n    query: ` +
        `linear create issue\n    first: mcp__linear__create_issue\n`,
    );
    const own = await run(['test', suite, '--json']);
    expect(own.code).toBe(0);
    const cand = await run(['test', suite, '-c', file, '--json']);
    expect(cand.code).toBe(1);
    const report = JSON.parse(cand.stdout);
    expect(report.suites[0].catalog).toBe(file);
    expect(report.suites[0].cases.map((c: { name: string; status: string }) => [c.name, c.status])).toEqual([
      ['nothing is a ticket', 'failed'],
      ['linear first', 'passed'],
    ]);
  });
});

describe('docs that run', () => {
  it('the suite in `test --help` passes on the bundled catalog and transcript', async () => {
    const help = await run(['test', '--help']);
    const block = help.stdout.slice(
      help.stdout.indexOf('A suite (YAML or JSON):\n') + 'A suite (YAML or JSON):\n'.length,
      help.stdout.indexOf('  Any case:'),
    );
    // Its paths are relative to a suite in fixtures/suites/: the same layout, in a temporary directory.
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-help-suite-'));
    try {
      const { mkdirSync, symlinkSync } = await import('node:fs');
      mkdirSync(join(dir, 'suites'));
      symlinkSync(join(process.cwd(), 'fixtures', 'catalogs'), join(dir, 'catalogs'));
      symlinkSync(join(process.cwd(), 'fixtures', 'transcripts'), join(dir, 'transcripts'));
      const suite = join(dir, 'suites', 'help.yaml');
      writeFileSync(suite, block.replace(/^ {2}/gm, ''));
      const r = await run(['test', suite]);
      expect(r.stderr).toBe('');
      expect(lines(r.stdout).at(-1)).toBe('3 passed, 0 failed');
      expect(r.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docs name only what the repository has', () => {
  it('README and every --help: no SPEC.md, no "SPEC §", no issue tracker', async () => {
    const { readFileSync } = await import('node:fs');
    const texts = [readFileSync('README.md', 'utf8')];
    for (const c of ['', 'search', 'select', 'simulate', 'test', 'eval', 'lint', 'import', 'explore'])
      texts.push((await run(c === '' ? ['--help'] : [c, '--help'])).stdout);
    for (const t of texts) expect(t).not.toMatch(/SPEC\.md|SPEC §|issue tracker/);
  });
});

describe('toolsearch completion bash|zsh|fish', () => {
  it('bash: completes commands, options, choices and file arguments', async () => {
    const script = join(tmp, 'toolsearch.bash');
    const r = await run(['completion', 'bash']);
    expect(r.code).toBe(0);
    writeFileSync(script, r.stdout);
    const complete = async (words: readonly string[]): Promise<string> => {
      const line =
        `source ${JSON.stringify(script)}; COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); ` +
        `COMP_CWORD=${words.length - 1}; _toolsearch; printf '%s\\n' "\${COMPREPLY[*]}"`;
      const { sh } = await import('./helpers.js');
      return (await sh(line)).stdout.trim();
    };
    expect(await complete(['toolsearch', 'se'])).toBe('search select');
    expect(await complete(['toolsearch', 'test', '--reporter', ''])).toBe('human json junit tap html');
    expect(await complete(['toolsearch', 'search', '--catalog-f'])).toBe('--catalog-format');
    expect(await complete(['toolsearch', 'lint', 'fixtures/lint/cl'])).toBe('fixtures/lint/clean.yaml');
    expect(await complete(['toolsearch', 'search', '-c', 'fixtures/lint/pro'])).toBe('fixtures/lint/problems.yaml');
    expect(await complete(['toolsearch', 'search', '--max-results', ''])).toBe('');
  });

  it('every option of every command is in each script (generated from the program, not listed by hand)', async () => {
    const root = await run(['--help']);
    const commands = [...root.stdout.slice(root.stdout.indexOf('\nCommands:\n')).matchAll(/^ {2}([a-z]+) /gm)]
      .map((m) => m[1]!)
      .filter((c) => c !== 'help');
    const [bash, zsh, fish] = await Promise.all(
      ['bash', 'zsh', 'fish'].map(async (s) => (await run(['completion', s])).stdout),
    );
    expect(zsh!.split('\n')[0]).toBe('#compdef toolsearch');
    for (const c of commands) {
      const full = (await run([c, '--help'])).stdout;
      const help = full.slice(full.indexOf('\nOptions:\n'), full.indexOf('\nGlobal Options:\n'));
      const options = [...help.matchAll(/^ {2}(?:-[A-Za-z], )?(--[a-z][a-z-]*)/gm)].map((m) => m[1]!);
      expect(options.length, c).toBeGreaterThan(0);
      for (const o of options) {
        expect(bash, `${c} ${o}`).toMatch(new RegExp(`${c}\\)[\\s\\S]*?${o}\\b`));
        expect(zsh, `${c} ${o}`).toMatch(new RegExp(`    ${c}\\) _arguments .*'?\\(?${o}\\b`));
        expect(fish, `${c} ${o}`).toContain(`-n '__fish_seen_subcommand_from ${c}' -l ${o.slice(2)}`);
      }
    }
    expect(fish).toContain(
      "-l catalog-format -x -a 'auto toolsearch openai anthropic mcp eino request data mcp-config'",
    );
    const bad = await run(['completion', 'tcsh']);
    expect(bad).toEqual({ code: 2, stdout: '', stderr: 'error: unknown shell "tcsh": give bash, zsh, fish\n' });
  });
});

describe('catalog keys and types', () => {
  const typo = (): string => {
    const file = join(tmp, 'typo.yaml');
    writeFileSync(
      file,
      'tools:\n  - name: a\n    desciption: hello\n    parameters: "nope"\n  - name: b\n    parameters: [1,2]\n',
    );
    return file;
  };
  const warnings = (file: string): string[] => [
    `warning: ${file}:3:5: tool "a": unknown key "desciption" (did you ` +
      `mean "description"?), ignored: not read as written`,
    `warning: ${file}:4:17: tool "a": "parameters" must be a JSON Schema ` +
      `object, found a string, kept as given: not read as written`,
    `warning: ${file}:6:17: tool "b": "parameters" must be a JSON Schema ` +
      `object, found an array, kept as given: not read as written`,
  ];

  it('an unknown key (with did-you-mean) and a wrong type are located warnings by default', async () => {
    const file = typo();
    const r = await run(['search', '-c', file, 'a', '--json']);
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toEqual(warnings(file));
  });

  it('--strict makes them errors (exit 2), on lint and search alike', async () => {
    const file = typo();
    const error =
      `error: ${file}:3:5: tool "a": unknown key "desciption" (did ` +
      `you mean "description"?), ignored (and 2 more)\n`;
    expect(await run(['search', '-c', file, 'a', '--strict'])).toEqual({ code: 2, stdout: '', stderr: error });
    expect(await run(['lint', file, '--strict'])).toEqual({ code: 2, stdout: '', stderr: error });
  });

  it('--strict reads the structured shape warnings: the same error when the catalog comes from the cache', async () => {
    const file = typo();
    const env = { TOOLSEARCH_CACHE_DIR: join(tmp, 'strict-cache') };
    const error =
      `error: ${file}:3:5: tool "a": unknown key "desciption" (did you mean "description"?), ` +
      'ignored (and 2 more)\n';
    // The first run stores the entry, the second one is built from it without parsing.
    expect((await run(['search', '-c', file, 'a'], { env })).code).toBe(0);
    expect(await run(['search', '-c', file, 'a', '--strict'], { env })).toEqual({ code: 2, stdout: '', stderr: error });
    expect(lines((await run(['search', '-c', file, 'a', '--json'], { env })).stderr)).toEqual(warnings(file));
  });

  it('the loader gives each shape warning its kind and location; other warnings are no shape warnings', async () => {
    const { loadCatalogText } = await import('../../src/formats/from-text.js');
    const text = 'tools:\n  - name: a\n    desciption: hello\n    parameters: "nope"\n';
    const c = loadCatalogText(text, { name: 'x.yaml' });
    expect(c.shapeWarnings).toEqual([
      {
        kind: 'unknown-key',
        location: { file: 'x.yaml', line: 3, column: 5 },
        message: 'tool "a": unknown key "desciption" (did you mean "description"?), ignored',
      },
      {
        kind: 'wrong-type',
        location: { file: 'x.yaml', line: 4, column: 17 },
        message: 'tool "a": "parameters" must be a JSON Schema object, found a string, kept as given',
      },
    ]);
    expect(c.warnings).toHaveLength(2);
    // A request body's skipped tool_search is a warning, and no shape warning: --strict leaves it alone.
    const body = JSON.stringify({
      model: 'm',
      messages: [],
      tools: [{ type: 'function', function: { name: 'tool_search', description: 'd', parameters: {} } }],
    });
    const r = loadCatalogText(body, { name: 'body.json' });
    expect([r.warnings?.length, r.shapeWarnings]).toEqual([1, []]);
  });

  it('lint reports them, also in its JSON', async () => {
    const file = typo();
    const r = await run(['lint', file, '--json']);
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toEqual(warnings(file));
    expect(JSON.parse(r.stdout).catalog_warnings).toEqual(warnings(file).map((w) => w.replace(/^warning: /, '')));
  });
});

describe('progress line on stderr (terminal only)', () => {
  const inproc = async (argv: string[], stderrTTY: boolean): Promise<{ code: number; stderr: string }> => {
    let stderr = '';
    const out = { write: () => true, isTTY: false };
    const err = { write: (s: string) => ((stderr += s), true), isTTY: stderrTTY, columns: 80 };
    const code = await main(argv, { stdout: out, stderr: err, stdin: Readable.from([]), env: { NO_COLOR: '1' } });
    return { code, stderr };
  };

  it('eval draws "eval <scorer> n/total" in place and erases it; nothing when stderr is not a terminal', async () => {
    const argv = ['eval', QUERIES, '-c', DEMO, '--scorers', 'spec', '--json'];
    const tty = await inproc(argv, true);
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/^\r\u001b\[Keval spec 1\/136/);
    expect(tty.stderr).toContain('\r\u001b[Keval spec 136/136');
    expect(tty.stderr.endsWith('\r\u001b[K')).toBe(true);
    expect((await inproc(argv, false)).stderr).toBe('');
  });

  /** A catalog of `n` tools (a big one for lint's progress line). */
  const bigCatalog = (n: number): string => {
    const file = join(tmp, `big-${n}.json`);
    const tools = Array.from({ length: n }, (_, i) => ({
      name: `mcp__svc${i % 40}__tool_${i}_action`,
      description: `Does thing ${i} for service ${i % 40}: reads, writes and lists items number ${i}.`,
    }));
    writeFileSync(file, JSON.stringify({ tools }));
    return file;
  };

  it('lint draws "lint n/total" in place and erases it; nothing when stderr is not a terminal', async () => {
    const argv = ['lint', bigCatalog(300), '--json'];
    const tty = await inproc(argv, true);
    expect(tty.code).toBe(0);
    // Counts in between are drawn at most every 100 ms: which ones depends on the machine's speed.
    expect(tty.stderr.startsWith('\r\u001b[Klint: indexing 300 tools…')).toBe(true);
    expect(tty.stderr).toContain('\r\u001b[Klint 300/300');
    expect(tty.stderr.replace(/\r\u001b\[K(lint: indexing 300 tools…|lint \d+\/300)?/g, '')).toBe('');
    expect(tty.stderr.endsWith('\r\u001b[K')).toBe(true);
    expect((await inproc(argv, false)).stderr).toBe('');
  });

  it('lint, built CLI: a pseudo-terminal on stderr gets the line, then it is erased; a pipe gets nothing', async () => {
    const file = bigCatalog(2000);
    const piped = await run(['lint', file, '--json']);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    const report = JSON.parse(piped.stdout) as { summary: { tools: number } };
    expect(report.summary.tools).toBe(2000);
    // script(1) (util-linux, in every Debian) runs the command on a pseudo-terminal; stdout goes to a file,
    // so what script copies out is stderr alone.
    const which = await sh('command -v script');
    if (which.code !== 0) throw new Error('this test needs script(1) from util-linux (apt-get install bsdutils)');
    const out = join(tmp, 'lint-tty.json');
    const cmd = `${process.execPath} ${BIN} lint ${file} --json > ${out}`;
    const tty = await sh(`script -qec ${JSON.stringify(cmd)} /dev/null`, { env: { TERM: 'dumb' } });
    expect(tty.code).toBe(0);
    expect(tty.stdout.startsWith('\r\u001b[Klint: indexing 2000 tools…')).toBe(true);
    expect(tty.stdout).toContain('\r\u001b[Klint 2000/2000');
    // Erased: the last thing written is the erase, and nothing else reached the terminal.
    expect(tty.stdout.endsWith('\r\u001b[K')).toBe(true);
    expect(tty.stdout.replace(/\r\u001b\[K(lint: indexing 2000 tools…|lint \d+\/2000)?/g, '')).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(report);
  });

  it('an error in the middle of long work starts on a line of its own: the progress line is erased first', async () => {
    // Found by the fuzzer: a client config whose server fails left "starting 1 MCP server…error: …"
    // on the terminal (the catalog loader erased its line only when the servers answered).
    const config = join(tmp, 'failing.mcp.json');
    const server = { command: process.execPath, args: ['-e', "process.stderr.write('no token'); process.exit(3)"] };
    writeFileSync(config, JSON.stringify({ mcpServers: { gone: server } }));
    const r = await inproc(['search', '-c', config, 'x'], true);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^\r\u001b\[Kstarting 1 MCP server…\r\u001b\[Kerror: [^\r\u001b]*server "gone": /);
    // A warning too (--skip-failed), then the error of the empty catalog, each on a clean line.
    const skipped = await inproc(['search', '-c', config, '--skip-failed', 'x'], true);
    expect(skipped.stderr).toMatch(/^\r\u001b\[Kstarting 1 MCP server…\r\u001b\[Kwarning: /);
    expect(skipped.stderr.split('\n').slice(1).join('\n')).not.toContain('\r');
  });

  it('the helper redraws a count at most every 100 ms, always its last value', async () => {
    const { createProgress } = await import('../../src/cli/progress.js');
    let text = '';
    let now = 0;
    const p = createProgress({ write: (s: string) => ((text += s), true), isTTY: true, columns: 40 }, () => now);
    p.count('x', 1, 3);
    now = 50;
    p.count('x', 2, 3);
    now = 60;
    p.count('x', 3, 3);
    p.done();
    expect(text).toBe('\r\u001b[Kx 1/3\r\u001b[Kx 3/3\r\u001b[K');
    let none = '';
    const off = createProgress({ write: (s: string) => ((none += s), true), isTTY: false });
    off.update('hidden');
    off.done();
    expect(none).toBe('');
    // A pseudo-terminal nobody sized reports 0 columns: 80 are assumed, the line is not cut to 10.
    let unsized = '';
    const z = createProgress({ write: (s: string) => ((unsized += s), true), isTTY: true, columns: 0 });
    z.update('lint: indexing 2000 tools…');
    expect(unsized).toBe('\r\u001b[Klint: indexing 2000 tools…');
  });
});
