import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { DEMO, FX, lines, run, sh } from './helpers.js';
import { displayWidth } from '../../src/render/width.js';

const SMALL = `${FX}/small.yaml`;
const ESC = '\x1b';

describe.concurrent('help and version', () => {
  it('--version prints the package version', async ({ expect }) => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const args of [['--version'], ['-V']]) {
      const r = await run(args);
      expect(r.stdout).toBe(`${pkg.version}\n`);
      expect(r.code).toBe(0);
    }
  });

  it('--help lists the commands, with examples and exit codes', async ({ expect }) => {
    const r = await run(['--help']);
    expect(r.stdout).toMatch(/^Usage: toolsearch \[options\] \[command\]/);
    for (const c of [
      'search [options] [query...]',
      'select [options] <name...>',
      'simulate [options] <recordings...>',
      'Examples:',
      'Exit codes: 0 ok, 1 an expectation or check failed, 2 bad input or usage,\n70 an internal error',
    ]) {
      expect(r.stdout).toContain(c);
    }
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it.for(['search', 'select', 'simulate'])('%s --help shows every flag and examples', async (command, { expect }) => {
    const r = await run([command, '--help']);
    expect(r.stdout).toMatch(new RegExp(`^Usage: toolsearch ${command} `));
    expect(r.stdout).toContain('Examples:\n  ');
    expect(r.stdout).toContain('--no-color');
    const flags: Record<string, string[]> = {
      search: [
        '-c, --catalog <file>',
        '-n, --max-results <n>',
        '--args <json>',
        '--batch <file|->',
        '--explain',
        '--why <tool>',
        '--expect <a,b>',
        '--expect-exact <a,b>',
        '--expect-first <tool>',
        '--expect-none',
        '--all',
        '--json',
      ],
      select: ['-c, --catalog <file>', '--json', '--strict'],
      simulate: [
        '-c, --catalog <file>',
        '--mode <mode>',
        '--static <a,b>',
        '--format <format>',
        '--replay',
        '--expect-same',
        '--fail-on-violation',
        '--json',
      ],
    };
    for (const f of flags[command]!) expect(r.stdout).toContain(f);
    expect(r.code).toBe(0);
  });

  it('help <command> works too', async ({ expect }) => {
    const r = await run(['help', 'simulate']);
    expect(r.stdout).toMatch(/^Usage: toolsearch simulate /);
    expect(r.code).toBe(0);
  });
});

describe.concurrent('colors', () => {
  it('no color when not a TTY (NO_COLOR=1 in these tests)', async ({ expect }) => {
    const r = await run(['search', '-c', SMALL, 'create', 'issue']);
    expect(r.stdout).not.toContain(ESC);
  });

  it('FORCE_COLOR forces colors; NO_COLOR alone disables them', async ({ expect }) => {
    const forced = await run(['search', '-c', SMALL, 'create', 'issue', '-n', '1'], {
      env: { NO_COLOR: undefined, FORCE_COLOR: '1' },
    });
    expect(lines(forced.stdout)[2]).toBe(
      `1  ${ESC}[36mgithub__create_issue${ESC}[39m     ` +
        `20  ${ESC}[2mCreate a new issue in a GitHub repository.${ESC}[22m`,
    );
    const off = await run(['search', '-c', SMALL, 'create', 'issue'], { env: { NO_COLOR: '1' } });
    expect(off.stdout).not.toContain(ESC);
  });

  it('--no-color wins over FORCE_COLOR, before or after the command', async ({ expect }) => {
    const env = { NO_COLOR: undefined, FORCE_COLOR: '1' };
    const [a, b] = await Promise.all([
      run(['--no-color', 'search', '-c', SMALL, 'create', 'issue'], { env }),
      run(['search', '-c', SMALL, 'create', 'issue', '--no-color', '--expect-none'], { env }),
    ]);
    expect(a.stdout).not.toContain(ESC);
    expect(b.stdout).not.toContain(ESC);
    expect(b.stderr).not.toContain(ESC);
    expect(b.code).toBe(1);
  });

  it('errors and warnings are colored on stderr when forced', async ({ expect }) => {
    const r = await run(['select', '-c', SMALL, 'nope', '--strict'], {
      env: { NO_COLOR: undefined, FORCE_COLOR: '1' },
    });
    expect(lines(r.stderr)).toEqual([
      `${ESC}[33mwarning:${ESC}[39m skipped nope: not a dynamic tool`,
      `${ESC}[31mfail:${ESC}[39m 1 name is not a dynamic tool (--strict)`,
    ]);
  });
});

describe.concurrent('terminal safety', () => {
  it('control characters and bidi overrides in a catalog are escaped in human output', async ({ expect }) => {
    const r = await run(['search', '-c', `${FX}/control-chars.json`, 'tool', '--explain']);
    expect(r.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(lines(r.stdout)).toEqual([
      'keyword search "tool" · limit 5 · 2 of 2 tools match',
      '#  tool               score  description',
      '1  evil\\x1b[31m_tool     10  Looks \\x1b[2Jharmless\\u202e txt.exe second line',
      '     tool  exact-part  tool  +10',
      '2  plain_tool            10  A plain tool with a \\x07 bell and a \\x9b CSI.',
      '     tool  exact-part  tool  +10',
    ]);
    // --why with a name the catalog lacks is exit 2; the did-you-mean name is escaped too.
    const why = await run(['search', '-c', `${FX}/control-chars.json`, 'tool', '--why', 'evil']);
    expect(why).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --why: "evil" is not a tool of the catalog (did you mean evil\\x1b[31m_tool?)\n',
    });
  });

  it('--json keeps the text intact', async ({ expect }) => {
    const r = await run(['search', '-c', `${FX}/control-chars.json`, 'evil', '--json']);
    const j = JSON.parse(r.stdout);
    expect(j.matches).toEqual(['evil\x1b[31m_tool']);
    expect(j.results[0].description).toBe('Looks \x1b[2Jharmless\u202e txt.exe\nsecond line');
    expect(r.stdout).not.toContain(ESC);
  });

  it('select warnings and simulate output are escaped', async ({ expect }) => {
    const sel = await run(['select', '-c', `${FX}/control-chars.json`, 'x\x1b[2J']);
    expect(sel.stderr).toBe('warning: skipped x\\x1b[2J: not a dynamic tool\n');
    const sim = await run([
      'simulate',
      '--no-tokens',
      `${FX}/control-chars-chat.json`,
      '-c',
      `${FX}/control-chars.json`,
    ]);
    expect(sim.stdout).not.toContain(ESC);
    expect(sim.stdout).not.toContain('\u202e');
    expect(lines(sim.stdout).slice(3, 9)).toEqual([
      'call 1 · 2 messages · visible 1 · reminder inserted at 0',
      '  ✗ evil\\x1b[31m_tool not loaded: no tool_search result had named it',
      '',
      'call 2 · 4 messages · visible 1',
      '  “All done \\u202e\\x1b[31m red?”',
      '',
    ]);
  });

  it('error excerpts are escaped and the caret still points at the character', async ({ expect }) => {
    const r = await run(['search', '-c', `${FX}/invalid-control.json`, 'x']);
    expect(lines(r.stderr)).toEqual([
      `error: ${FX}/invalid-control.json:3:33: invalid JSON: control character U+001B in a string`,
      '    {"name": "b", "description": "\\x1b[2J\\u202e" junk}',
      '                                  ^',
    ]);
    expect(r.code).toBe(2);
  });

  it('tables fit the width (COLUMNS), long cells end with …', async ({ expect }) => {
    const r = await run(['search', '-c', DEMO, 'create', 'issue', '--explain'], { env: { COLUMNS: '60' } });
    for (const l of lines(r.stdout)) expect(displayWidth(l)).toBeLessThanOrEqual(60);
    // The header wraps; the table shrinks the description first.
    expect(lines(r.stdout).slice(0, 4)).toEqual([
      'keyword search "create issue" · limit 5 ·',
      '  36 of 125 tools match',
      '#  tool                                   score  description',
      '1  mcp__atlassian__createJiraIssue           20  Create a n…',
    ]);
    const sim = await run(
      ['simulate', '--no-tokens', 'fixtures/transcripts/keyword-search-then-call.json', '-c', DEMO],
      { env: { COLUMNS: '70' } },
    );
    for (const l of lines(sim.stdout)) expect(displayWidth(l)).toBeLessThanOrEqual(70);
  });

  it('a closed stdout pipe ends quietly with exit 0', async ({ expect }) => {
    // toolsearch stops at once, like any filter: the writers before it may then get SIGPIPE themselves.
    const r = await sh(
      `seq 20000 | sed 's/.*/{"query":"read file"}/' | node bin/toolsearch.js search -c ${DEMO} --batch - | ` +
        `head -1; s=("\${PIPESTATUS[@]}"); echo "toolsearch \${s[2]}, head \${s[3]}"`,
      { env: {} },
    );
    expect(r.stdout).toBe(
      '{"matches":["mcp__filesystem__read_file","mcp__gdrive__gdrive_read_file",' +
        '"mcp__filesystem__read_multiple_files","mcp__filesystem__move_file","mcp__filesystem__edit_file"]}\n' +
        'toolsearch 0, head 0\n',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  // Perl sets O_NONBLOCK on the pipe (Node cannot): a writer must then wait when the pipe is full.
  it.skipIf(!existsSync('/usr/bin/perl'))(
    'a full non-blocking stdout pipe with a slow reader still gets every byte, in order',
    async ({ expect }) => {
      const nonBlocking =
        `perl -MFcntl -e 'fcntl(STDOUT, F_SETFL, fcntl(STDOUT, F_GETFL, 0) | O_NONBLOCK) or die; ` + `exec @ARGV'`;
      const batch = `seq 3000 | sed 's/.*/{"query":"read file","max_results":50}/'`;
      const slow = await sh(
        `${batch} | ${nonBlocking} node bin/toolsearch.js search -c ${DEMO} ` +
          `--batch - | (sleep 1; sha256sum); echo "exit \${PIPESTATUS[2]}"`,
      );
      const plain = await sh(`${batch} | node bin/toolsearch.js search -c ${DEMO} --batch - | sha256sum`);
      expect(slow.stderr).toBe('');
      expect(slow.stdout).toBe(`${plain.stdout}exit 0\n`);
      expect((await sh(`${batch} | node bin/toolsearch.js search -c ${DEMO} --batch - | wc -c`)).stdout.trim()).toBe(
        '2802000',
      );
    },
  );

  it('a closed stdout pipe on human output ends quietly', async ({ expect }) => {
    const r = await sh(`node bin/toolsearch.js search -c ${DEMO} file -n 100 --explain | head -1`);
    expect(r.stdout).toBe('keyword search "file" · limit 100 · 22 of 125 tools match\n');
    expect(r.stderr).toBe('');
  });
});
