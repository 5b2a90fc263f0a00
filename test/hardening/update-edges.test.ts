/**
 * Issue 27, finding 7: `test --update` with a suite it cannot rewrite is a clear error (exit 2), the file left
 * unchanged and no other file written. Before, `cat suite.yaml | toolsearch test - --update` wrote a file named
 * `<stdin>` (or exit 70 with ENOENT), and `--update` on an `exact:` list that carries an anchor used elsewhere
 * exited 70.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyExactUpdates, UpdateError } from '../../src/jobs/suite/update.js';
import { DEMO, expectCleanError, shell, spawnCli, tempDir } from './helpers.js';

const tmp = tempDir('toolsearch-update-edges-');
afterAll(() => tmp.cleanup());
let n = 0;

function dir(): string {
  const d = join(tmp.dir, `d${n++}`);
  mkdirSync(d);
  return d;
}

const HEAD = `catalog: ${DEMO}\ncases:\n`;
const RECORD = '  - name: a\n    query: slack send\n    record: true\n';

describe.concurrent('finding 7: --update edges', () => {
  it('a suite from standard input: a usage error, no file written (not even in the working directory)', async () => {
    const d = dir();
    const suite = join(d, 's.yaml');
    writeFileSync(suite, HEAD + RECORD);
    const r = await shell(`cd ${JSON.stringify(d)} && cat s.yaml | $TS test - --update`);
    expect(expectCleanError(r)).toBe(
      "error: --update rewrites suite files, and - (standard input) is none: give the suite's path",
    );
    expect(readdirSync(d)).toEqual(['s.yaml']);
    expect(existsSync(join(d, '<stdin>'))).toBe(false);
  });

  it.each([
    [
      'an anchor on the list, aliased by another case',
      '    exact: &x [mcp__slack__send_message]\n',
      '  - name: b\n    query: slack send\n    includes: *x\n',
      'x',
    ],
    [
      'an anchor on an item of the block list',
      '    exact:\n      - &y mcp__slack__send_message\n',
      '  - name: b\n    query: slack\n    includes: [*y]\n',
      'y',
    ],
  ])('%s: exit 2 at the case, the file unchanged', async (_l, exact, other, anchor) => {
    const d = dir();
    const suite = join(d, 's.yaml');
    const text = HEAD + RECORD + exact + other;
    writeFileSync(suite, text);
    const r = await spawnCli(['test', suite, '--update']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: ${suite}:3:5: --update cannot write "exact" of case "a": its "exact" holds the anchor &${anchor}, ` +
        `which *${anchor} uses elsewhere: rewriting the list would change or break that place too (write the list ` +
        'out there, or drop the anchor); the file was left unchanged',
    );
    expect(r.stderr.split('\n')[1]).toBe('    - name: a');
    expect(readFileSync(suite, 'utf8')).toBe(text);
    expect(readdirSync(d)).toEqual(['s.yaml']);
  });

  it('an anchor no other place uses, and an alias as the list itself: rewritten', async () => {
    const d = dir();
    const suite = join(d, 's.yaml');
    writeFileSync(
      suite,
      `${HEAD}  - name: b\n    query: slack send\n` +
        `    includes: &z [mcp__slack__send_message]\n${RECORD}    exact: *z\n` +
        '  - name: c\n    query: slack send\n    record: true\n    exact: &w [nothing]\n',
    );
    const r = await spawnCli(['test', suite, '--update']);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(suite, 'utf8');
    expect(text).toContain('includes: &z [mcp__slack__send_message]\n');
    expect(text).not.toContain('*z');
    expect(text).not.toContain('&w');
  });

  it('a case that is an alias of another: an UpdateError naming it', () => {
    const yaml = 'cases:\n  - &c {name: a, query: x, record: true}\n  - *c\n';
    expect(() => applyExactUpdates(yaml, [{ index: 1, exact: ['t'] }], 'yaml')).toThrow(
      new UpdateError(1, 'the case is an alias (*c): write the case out to record its list'),
    );
  });
});
