/**
 * Issue 14, finding 11: a stdout that cannot be written (src/cli/main.ts,
 * bin/toolsearch.js). `>/dev/full`, a full tmpfs (mounted here when the test
 * may: root in CI) and a file over `ulimit -f` are each one line on stderr
 * and exit 74 (EX_IOERR), never a stack trace or the bundle's source; a
 * failing stderr (`2>/dev/full`) keeps the run's own exit code (src/cli/start.ts answers --version). On c63dd70:
 * exit 1 with an uncaught ENOSPC, its stack and a line of the minified
 * bundle; exit 70 "this is a bug" for the full tmpfs; exit 1 for
 * `2>/dev/full` on bad input.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shell } from './helpers.js';

const DEMO = 'fixtures/catalogs/demo.mcp.json';
const ENOSPC = 'error: cannot write to stdout: no space left on the device (ENOSPC)\n';

describe.concurrent('finding 11: stdout that cannot be written', () => {
  it.each([
    ['search', `search -c ${DEMO} slack`],
    ['search --json', `search -c ${DEMO} slack --json`],
    ['lint', 'lint fixtures/lint/problems.yaml'],
    ['simulate', `simulate fixtures/transcripts/keyword-search-then-call.json -c ${DEMO} --no-tokens`],
    ['test', 'test fixtures/suites/select.json'],
    ['--help', '--help'],
    ['--version (answered before the bundle loads, src/cli/start.ts)', '--version'],
  ])('%s >/dev/full: one line on stderr, exit 74', async (_label, args) => {
    const r = await shell(`$TS ${args} >/dev/full`);
    expect(r).toEqual({ code: 74, signal: null, stdout: '', stderr: ENOSPC });
  });

  it('bin/toolsearch.js run as a program: --version and search exit 74 too', async () => {
    expect(await shell('bin/toolsearch.js --version >/dev/full')).toEqual({
      code: 74,
      signal: null,
      stdout: '',
      stderr: ENOSPC,
    });
    expect(await shell(`bin/toolsearch.js search -c ${DEMO} slack >/dev/full`)).toEqual({
      code: 74,
      signal: null,
      stdout: '',
      stderr: ENOSPC,
    });
  });

  it('2>/dev/full on bad input still exits 2 (and on success 0)', async () => {
    const bad = await shell(`$TS search -c missing.yaml slack 2>/dev/full`);
    expect(bad).toEqual({ code: 2, signal: null, stdout: '', stderr: '' });
    const ok = await shell(`$TS search -c ${DEMO} slack 2>/dev/full >/dev/null`);
    expect(ok.code).toBe(0);
    const both = await shell(`$TS search -c missing.yaml slack >/dev/full 2>/dev/full`);
    expect(both.code).toBe(2);
  });

  it('a file over `ulimit -f` (SIGXFSZ ignored: EFBIG): one line, exit 74', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-fsize-'));
    try {
      const r = await shell(
        `trap '' XFSZ; ulimit -f 1; $TS search -c ${DEMO} -n 130 --explain create issue file message > ${dir}/out`,
      );
      expect(r).toEqual({
        code: 74,
        signal: null,
        stdout: '',
        stderr: 'error: cannot write to stdout: the file is too large (EFBIG)\n',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('finding 11: a full tmpfs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-full-'));
  let mounted = false;
  beforeAll(() => {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
      mounted = true;
    } catch {
      mounted = false; // not allowed here (not root, or no CAP_SYS_ADMIN): the test below says so
    }
    if (mounted) {
      // Fill it: a file as large as the file system allows.
      try {
        writeFileSync(join(dir, 'fill'), Buffer.alloc(1024 * 1024));
      } catch {
        // ENOSPC: full, as wanted
      }
    }
  });
  afterAll(() => {
    if (mounted) execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('stdout to a file on it: one line, exit 74, not "this is a bug"', async (ctx) => {
    if (!mounted) ctx.skip();
    const r = await shell(`$TS search -c ${DEMO} -n 130 --explain create issue > ${dir}/out`);
    expect(r).toEqual({ code: 74, signal: null, stdout: '', stderr: ENOSPC });
  });
});
