// The zsh and fish completion scripts of the BUILT CLI (`npm run build`
// first), run by the real shells: zsh loads the script through compinit and
// completes in a pseudo-terminal (zsh/zpty), a compadd wrapper recording the
// candidates; fish completes with `complete -C`. They run wherever the shell
// is installed. Without it they FAIL when CI=true (.ci/run installs both from
// Debian), and are skipped elsewhere, saying what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, run } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'toolsearch-completion-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The path of `shell`, or '' when it is not installed. */
function which(shell: 'zsh' | 'fish'): string {
  const r = spawnSync('sh', ['-c', `command -v ${shell}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

/** CI=true (test/setup.ts keeps it as TOOLSEARCH_TEST_CI: Ink must not see CI). */
const REQUIRED = process.env.TOOLSEARCH_TEST_CI === 'true';
const why = (shell: string) =>
  `${shell} is not installed: these tests run the real shell (apt-get install -y ${shell})`;

/** Whether the tests of `shell` are skipped: not installed, outside CI (said on stderr: what to install). */
function skipped(shell: 'zsh' | 'fish'): boolean {
  if (which(shell) !== '' || REQUIRED) return false;
  process.stderr.write(`skipped: ${why(shell)}; with CI=true they are required\n`);
  return true;
}

/** The path of `shell`, or an error that says how to get it (CI=true: .ci/run installs it). */
function need(shell: 'zsh' | 'fish'): string {
  const path = which(shell);
  if (path === '') throw new Error(`${why(shell)}; .ci/run installs it`);
  return path;
}

/**
 * Completes `line` in an interactive zsh on a pseudo-terminal: compinit
 * loads _toolsearch from `dir`; compadd is wrapped to write each candidate
 * that matches the word (compadd -O) to a file; a sentinel line written after
 * the TAB says when completion is over.
 */
const ZSH_HARNESS = `
zmodload zsh/zpty || exit 3
dir=$1 out=$2 line=$3
: > $out
zpty z zsh -f -i
zpty -w z "fpath=(\${(q)dir} \\$fpath); autoload -Uz compinit; compinit -u -D; PS1='> '"
zpty -w z "o=\${(q)out}"
zpty -w z "compadd() { local -a h; builtin compadd -O h \\"\\$@\\"; (( \\\${#h} )) && print -rl -- \\$h >> \\$o; }"
zpty -w z "cd \${(q)PWD}"
zpty -w z "$line"$'\\t'
zpty -w z $'\\C-u'"print -r -- __DONE__ >> \${(q)out}"
for i in {1..400}; do
  grep -q __DONE__ $out 2>/dev/null && break
  sleep 0.05
done
zpty -d z
grep -q __DONE__ $out || { print -u2 'zsh did not finish completing'; exit 4; }
grep -v __DONE__ $out | sort -u
`;

describe.skipIf(skipped('zsh'))('zsh completion, run by zsh', () => {
  let zsh = '';
  const dir = join(tmp, 'zsh-functions');
  // In each test, not in a beforeAll: without zsh (CI=true) every test FAILS with the message.
  const setUp = async (): Promise<void> => {
    zsh = need('zsh');
    if (existsSync(join(dir, '_toolsearch'))) return;
    mkdirSync(dir, { recursive: true });
    const r = await run(['completion', 'zsh']);
    expect(r.code).toBe(0);
    writeFileSync(join(dir, '_toolsearch'), r.stdout);
    writeFileSync(join(tmp, 'harness.zsh'), ZSH_HARNESS);
  };
  let n = 0;
  const complete = (line: string): string[] => {
    const out = join(tmp, `zsh-out-${n++}`);
    const text = execFileSync(zsh, ['-f', join(tmp, 'harness.zsh'), dir, out, line], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, TERM: 'dumb' },
      timeout: 30_000,
    });
    return text.split('\n').filter((l) => l !== '');
  };

  it('commands, options, choices', { timeout: 60_000 }, async () => {
    await setUp();
    expect(complete('toolsearch se')).toEqual(['search', 'select']);
    expect(complete('toolsearch --ver')).toEqual(['--verbose', '--version']);
    expect(complete('toolsearch test --reporter ')).toEqual(['html', 'human', 'json', 'junit', 'tap']);
    expect(complete('toolsearch search --catalog-f')).toEqual(['--catalog-format']);
    expect(complete('toolsearch select --js')).toEqual(['--json']);
    expect(complete('toolsearch search --catalog-format op')).toEqual(['openai']);
    // An option whose value is free text completes nothing.
    expect(complete('toolsearch search --max-results ')).toEqual([]);
  });

  it('file names: an option value and a positional argument', { timeout: 60_000 }, async () => {
    await setUp();
    // _files adds the directories of the path and the file itself.
    expect(complete('toolsearch search -c fixtures/lint/pro')).toContain('problems.yaml');
    expect(complete('toolsearch lint fixtures/lint/cl')).toContain('clean.yaml');
    expect(complete('toolsearch import --config fixtures/lint/cl')).toContain('clean.yaml');
  });
});

describe.skipIf(skipped('fish'))('fish completion, run by fish', () => {
  let fish = '';
  const script = join(tmp, 'toolsearch.fish');
  const setUp = async (): Promise<void> => {
    fish = need('fish');
    if (existsSync(script)) return;
    const r = await run(['completion', 'fish']);
    expect(r.code).toBe(0);
    writeFileSync(script, r.stdout);
  };
  const complete = (line: string): string[] => {
    const text = execFileSync(fish, ['--no-config', '-c', `source ${script}; complete -C ${JSON.stringify(line)}`], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split('\t')[0]!);
  };

  it('commands (with their summaries), options, choices', { timeout: 60_000 }, async () => {
    await setUp();
    expect(complete('toolsearch se')).toEqual(['search', 'select']);
    expect(
      execFileSync(fish, ['--no-config', '-c', `source ${script}; complete -C 'toolsearch li'`], { encoding: 'utf8' }),
    ).toBe('lint\tfindability: which tools are hard to find with the reference keyword search\n');
    expect(complete('toolsearch --ver')).toEqual(['--verbose', '--version']);
    expect(complete('toolsearch test --reporter ')).toEqual(['html', 'human', 'json', 'junit', 'tap']);
    expect(complete('toolsearch search --catalog-f')).toEqual(['--catalog-format']);
    expect(complete('toolsearch search --max-results ')).toEqual([]);
  });

  it('file names: an option value and a positional argument', { timeout: 60_000 }, async () => {
    await setUp();
    expect(complete('toolsearch search -c fixtures/lint/pro')).toEqual(['fixtures/lint/problems.yaml']);
    expect(complete('toolsearch lint fixtures/lint/cl')).toEqual(['fixtures/lint/clean.yaml']);
    // search takes queries, not files: no file names.
    expect(complete('toolsearch search fixtures/lint/cl')).toEqual([]);
  });
});
